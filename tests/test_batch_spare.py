"""A business-critical batch gets a spare replica (SIZ035): one replica more than its window needs, so
that a replica failing during a run leaves the others to finish the day's work in time. The day's work is
fixed, so on an offer billed by the second the spare costs only its daily weight load; the memo says
what the window needs and what the spare is for, and `check` warns of a batch proposal without it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import EVALUATED_ON, flat, invoke, provider_policy, run, run_waves, wave_seconds

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

# 600,000 summaries a night within six hours: one replica of 1 × B200 serves about 6.21 requests/s.
NIGHTLY: dict[str, Any] = {
    "name": "nightly-summaries",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 600_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 400,
    "load_pattern": "batch",
    "batch_window_hours": 6,
    "business_critical": True,
}

B200_REPLICA = ("llama-3.1-70b", "fp8", "b200", 1, (1_500, 400))
"""One B200 a replica, as ``helpers.wave_seconds`` takes it."""

PROPOSAL = """\
workload:
  name: nightly-summaries
  model: {name: llama-3.1-70b, precision: fp8}
  requests_per_day: 600000
  avg_input_tokens: 1500
  avg_output_tokens: 400
  load_pattern: batch
  batch_window_hours: 6
  business_critical: true
proposal:
  name: five b200 on lambda
  deployment: dedicated_cloud
  provider: lambda
  offer: 8-gpu-plan
  gpu: b200
  gpus: 5
  pricing: on_demand
"""


def b200_row(workload: dict[str, Any]) -> Any:
    return next(row for row in run(workload).sizing.gpus if row.gpu == "b200")


def test_the_window_s_replicas_and_one_more() -> None:
    """The day's work is 600,000 requests shared among the replicas; the window needs as many as finish
    them in what each run's start leaves of 6 hours with the estimate's error band taken off, and the
    spare is one more."""
    r = run(NIGHTLY)
    assert "SIZ035" in r.fired_rules
    row = next(row for row in r.sizing.gpus if row.gpu == "b200")
    # A B200 holds 154 requests at once: 192 GB x 0.9 less the FP8 checkpoint's 72.65 GB (68.45B
    # parameters x 1 byte and the 16-bit embedding and lm_head, 2 x 128,256 x 8,192 x 2 bytes) and vLLM's
    # 3.5 GiB leave 96.39 GB, 154.8 requests of 1,900 tokens x 327,680 bytes. The start (141.1 GB at 2.5
    # GB/s and vLLM's 21.8 s: 78.24 s) leaves 21,521.8 s, 20,291.4 s over 1.06063: 813 full waves of 154 at
    # 24.944 s (154 over the rate), and the 11.82 s left hold a wave of 46 (11.74 s; 47 take 11.86 s):
    # 125,248 requests. 600,000 / 125,248 = 4.79: 5 replicas.
    assert row.run_start_hours is not None and round(row.run_start_hours * 3600, 2) == 78.24
    error = r.sizing_policy.estimate_error_taken_off
    seconds = (6 * 3600 - row.run_start_hours * 3600) / (1 + error)
    full = 154 / row.requests_per_second_per_replica
    assert (row.concurrent_requests, round(full, 3), round(seconds, 1)) == (154, 24.944, 20_291.4)
    waves = math.floor(seconds / full)
    left = seconds - waves * full
    assert (waves, round(left, 2)) == (813, 11.82)
    assert wave_seconds(46, *B200_REPLICA) <= left < wave_seconds(47, *B200_REPLICA)
    window = math.ceil(600_000 / (waves * 154 + 46))
    assert window == 5
    assert (row.replicas, row.spare_replicas) == (window + 1, 1)
    # The same work over one replica more: each runs a sixth of it, 100,000 requests, 649 full waves and
    # one of 54 (12.69 s): 16,201.4 s.
    assert run_waves(600_000, 6, 154) == (649, 54)
    six = 649 * full + wave_seconds(54, *B200_REPLICA)
    assert row.hours_per_day_running == pytest.approx(six / 3600)
    assert round(six, 1) == 16_201.4


def test_no_spare_where_the_batch_is_not_business_critical_or_sets_its_replicas() -> None:
    plain = run({**NIGHTLY, "business_critical": False})
    assert "SIZ035" not in plain.fired_rules
    row = next(row for row in plain.sizing.gpus if row.gpu == "b200")
    assert (row.replicas, row.spare_replicas) == (5, 0)
    own = run({**NIGHTLY, "min_replicas": 5})
    assert "SIZ035" not in own.fired_rules
    row = next(row for row in own.sizing.gpus if row.gpu == "b200")
    assert (row.replicas, row.spare_replicas) == (5, 0)


def test_billed_by_the_second_the_spare_costs_its_daily_weight_load() -> None:
    """RunPod's community B200 at $5.98 an hour, billed by the second: six replicas run the same requests as
    five, each loading the 16-bit checkpoint (141.1 GB at 2.5 GB/s, 56 s) and starting vLLM (21.8 s) before
    its run and each run's seconds rounded up, so the spare adds about one start a day and nothing else."""
    spare, lean = run(NIGHTLY), run({**NIGHTLY, "business_critical": False})
    assert spare.sizing.sixteen_bit_checkpoint_gb == 141.1
    full = 154 / next(g for g in spare.sizing.gpus if g.gpu == "b200").requests_per_second_per_replica
    # Six replicas run 100,000 requests each (649 full waves and one of 54), five 120,000 (779 full
    # waves and one of 34, 10.34 s): 16,201.4 s and 19,441.8 s.
    assert run_waves(600_000, 5, 154) == (779, 34)
    runs = {
        6: 649 * full + wave_seconds(54, *B200_REPLICA),
        5: 779 * full + wave_seconds(34, *B200_REPLICA),
    }
    assert {replicas: round(seconds, 1) for replicas, seconds in runs.items()} == {6: 16_201.4, 5: 19_441.8}

    def runpod(r: Any) -> Any:
        return next(o for o in r.options if (o.provider, o.offer, o.gpu) == ("runpod", "community", "b200"))

    def bill(replicas: int) -> float:
        seconds_a_day = math.ceil(runs[replicas] + 141.1 / 2.5 + 21.8)
        return replicas * 5.98 * 30.42 * seconds_a_day / 3600

    with_spare, without = runpod(spare), runpod(lean)
    assert (with_spare.replicas, without.replicas) == (6, 5)
    assert with_spare.usd_per_month == pytest.approx(bill(6))
    assert without.usd_per_month == pytest.approx(bill(5))
    # $3.79 a month: 30.42 days of 75 s at $5.98 an hour: the spare's 78.24 s start (the 56.44 s weight
    # load and the 21.8 s engine start), less the 0.5 s the six shares' waves take less than the five's
    # (6 x 16,201.4 s against 5 x 19,441.8 s), and what rounding each run's seconds up takes off (6 x
    # 16,280 s against 5 x 19,521 s).
    assert 6 * math.ceil(runs[6] + 78.24) - 5 * math.ceil(runs[5] + 78.24) == 75
    assert round(5 * runs[5] - 6 * runs[6], 1) == 0.5
    assert with_spare.usd_per_month - without.usd_per_month == pytest.approx(3.79, abs=0.005)


def test_the_memo_says_what_the_window_needs_and_what_the_spare_is_for() -> None:
    """Lambda's B200 comes as an 8-card instance. The window needs 5 replicas and the spare makes 6: kept
    through a lost instance (SIZ038), at most 5 an instance, 10 run on two (16 cards), and the run uses
    all 16 replicas, the spare among them; it costs nothing more than the same instances without it (no
    spare cost is named)."""
    r = run(NIGHTLY)
    best = r.best_option
    assert best is not None and (best.provider, best.offer, best.replicas, best.spare_replicas) == (
        "lambda",
        "8-gpu-plan",
        16,
        1,
    )
    assert best.spare_usd_per_month is None
    memo = flat(render_memo(r))
    assert (
        "The window needs 5 replicas, the sizing table counts 6, spares included; lambda 8-gpu-plan bills "
        "whole instances, 16 cards here, and the run uses every replica they hold, so it finishes sooner on "
        "the cards it pays for. The count includes the spare the rules add (SIZ035): should a replica fail "
        "as a run starts, the others still finish the day's work within the window; one that fails during "
        "the run loses the requests it has in flight, and redoing them on the others may end the run past "
        "the window. The replicas are spread "
        "over the offer's instances so that the loss of any one still leaves those the window needs "
        "(SIZ038): one here carries 8 of the 16 replicas; should it be lost as a run starts, the 8 left "
        "still finish the run within the "
        "window."
    ) in memo
    assert "pays for the spare replica" not in memo
    german = flat(render_memo(r, Format.named("de")))
    assert (
        "Die Zahl schließt das Ersatzreplikat ein, das die Regeln hinzufügen (SIZ035): Fällt beim Start "
        "eines Laufs ein Replikat aus, erledigen die anderen die Arbeit des Tages trotzdem im Zeitfenster; "
        "eines, das während des Laufs ausfällt, verliert die Anfragen, die es gerade bearbeitet, und sie auf "
        "den anderen zu wiederholen, kann den Lauf über das Zeitfenster hinaus verlängern. Die "
        "Replikate sind so auf die Instanzen des Angebots verteilt, dass der Ausfall einer beliebigen noch "
        "die übrig lässt, die das Zeitfenster braucht (SIZ038): Eine trägt hier 8 der 16 Replikate" in german
    )


def test_a_replica_and_its_spare_go_on_two_instances() -> None:
    """Llama 3.1 8B at 20,000 requests a night: one replica and its spare, which shared Scaleway's 2-card
    instance (its loss stopped the run). Kept through a lost instance (SIZ038) they take two instances:
    the 2-card ones, whose 4 replicas each run half the 2 replicas' run, billed by the minute. The 4-card
    ones' card is cheaper ($3.70 against $3.84), but their 8 replicas each start vLLM (21.8 s) for a run
    of about 2.6 minutes: $60 a month against $47."""
    r = run({**NIGHTLY, "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "requests_per_day": 20_000})
    best = r.best_option
    assert best is not None and (best.offer, best.replicas, best.replicas_on_fullest_instance) == (
        "h100-sxm-2-80g",
        4,
        2,
    )
    assert [(i.gpus, i.count) for i in best.instances] == [(2, 2)]
    (four,) = [o for o in r.options if (o.provider, o.offer) == ("scaleway", "h100-sxm-4-80g")]
    assert (four.replicas, round(four.usd_per_month), round(best.usd_per_month)) == (8, 60, 47)
    memo = flat(render_memo(r))
    assert "It does not cover a lost instance" not in memo
    assert (
        "(SIZ038): one here carries 2 of the 4 replicas; should it be lost as a run starts, the 2 left "
        "still finish the run within the "
        "window." in memo
    )


# Llama 3.1 405B FP8 within a day: replicas of 4 × B200 at Lambda, whose B200 comes as 8-card instances.
WHOLE_DAY = {
    **NIGHTLY,
    "name": "daily-405b",
    "model": {"name": "llama-3.1-405b", "precision": "fp8"},
    "requests_per_day": 300_000,
    "avg_input_tokens": 2_000,
    "avg_output_tokens": 500,
    "batch_window_hours": 24,
}


def test_a_spare_beside_the_spread_costs_nothing_more() -> None:
    """Two replicas of 4 × B200 do the day's work; with the spare three run, on two 8-card instances that
    hold four. Without the rules the two fit one instance; without the spare alone a business-critical
    batch still puts them on two (SIZ038), so the spare costs nothing beyond the spread and none is
    named; the $109 more than the workload that is not business-critical is the spread's."""
    spare, lean = run(WHOLE_DAY), run({**WHOLE_DAY, "business_critical": False})
    best = spare.best_option
    assert best is not None and (best.provider, best.offer, best.gpus, best.replicas) == (
        "lambda",
        "8-gpu-plan",
        16,
        4,
    )
    (same,) = [o for o in lean.options if (o.provider, o.offer, o.gpu) == ("lambda", "8-gpu-plan", "b200")]
    assert (same.gpus, same.replicas) == (8, 2)
    assert best.spare_usd_per_month is None
    # Billed by the minute: 16 cards x 400 minutes a day against 8 x 796 (each replica's 6.61 h or 13.21 h,
    # its 164 s weight load and vLLM's 21.8 s start, rounded up), 32 card-minutes at $6.69 an hour over
    # 30.42 days.
    minutes = [
        math.ceil((o.hours_per_day_running + o.weights_load_hours + o.engine_start_hours) * 60)
        for o in (best, same)
    ]
    assert minutes == [400, 796]
    assert best.usd_per_month - same.usd_per_month == pytest.approx((16 * 400 - 8 * 796) / 60 * 6.69 * 30.42)
    memo = flat(render_memo(spare))
    assert "pays for the spare replica" not in memo
    assert (
        "(SIZ038): one here carries 2 of the 4 replicas; should it be lost as a run starts, the 2 left "
        "still finish the run within the "
        "window." in memo
    )


OVH_ONLY = provider_policy(
    "ovh-only",
    "{field: provider, not_in: [ovhcloud]}",
    "Company policy: OVHcloud only",
    "Procurement has a framework contract with OVHcloud alone.",
)


def test_billed_by_the_whole_hour_the_spare_costs_an_hour_a_day(tmp_path: Path) -> None:
    """20,000 requests of an 8B model: one L40S does them in about half an hour, which OVHcloud bills as a
    whole hour; with the spare two replicas run a quarter hour each, billed an hour each. The spare costs
    one more card-hour a day at the offer's price."""
    (tmp_path / "ovh-only.yaml").write_text(OVH_ONLY, encoding="utf-8")
    workload = {
        **NIGHTLY,
        "name": "small-nightly",
        "model": {"name": "llama-3.1-8b", "precision": "fp8"},
        "requests_per_day": 20_000,
        "avg_input_tokens": 1_000,
        "avg_output_tokens": 300,
        "batch_window_hours": 8,
    }
    result = recommend(validate_workload(workload, "test"), EVALUATED_ON, policy_dir=str(tmp_path))
    best = result.best_option
    assert best is not None and (best.provider, best.offer, best.gpu, best.replicas) == (
        "ovhcloud",
        "l40s",
        "l40s",
        2,
    )
    assert best.hours_per_day_running is not None and best.hours_per_day_running < 0.5
    assert best.billed_hours_per_month == pytest.approx(30.42)
    assert best.spare_usd_per_month == pytest.approx(best.usd_per_gpu_hour * 30.42)
    # OVHcloud sells the L40S by one card too, at the same price per card: the two replicas go on two
    # 1-card instances (SIZ038), which shared one 2-card instance, and the memo has no other placement to
    # name.
    assert [(i.gpus, i.count) for i in best.instances] == [(1, 2)]
    assert (best.replicas_on_fullest_instance, best.instances_covering_a_loss_at_no_cost) == (1, 0)
    assert "The offer also comes in smaller instances" not in flat(render_memo(result))


def test_a_stated_minimum_above_the_window_s_need_is_named_as_the_workload_s() -> None:
    memo = flat(render_memo(run({**NIGHTLY, "business_critical": False, "min_replicas": 6})))
    # (78.24 s + 16,109.2 s) / 6 hours = 75 %; the boot's room 21,600 - 78.24 - 16,109.2 × 1.0606 = 4,436 s.
    assert round(21_600 - 78.24 - 16_109.2 * 1.0606) == 4436
    assert (
        "6 replicas do a run's work in 4.5 hours each; with their start before it (78 s), the run takes 75 % "
        "of the window, and the count keeps the window even if the estimate is +6 % too high. 6 GPUs in all. "
        "That leaves 1.2 hours of the window for booting the instances, which is in neither the start time "
        "nor the cost shown here, though the provider bills it: where booting takes longer, boot them before "
        "the window opens, and pay for those minutes, or the run misses the window. "
        "The workload's min_replicas (6) runs one replica beyond the window's need: should a replica fail "
        "as a run starts, the others still finish the day's work within the window; one that fails during "
        "the run loses the requests it has in flight, and redoing them on the others may end the run past "
        "the window."
    ) in memo


def test_check_warns_of_a_batch_proposal_without_the_spare(tmp_path: Any) -> None:
    path = tmp_path / "proposal.yaml"
    path.write_text(PROPOSAL, encoding="utf-8")
    result = invoke("check", str(path), "--as-of", "2026-11-30")
    assert (
        "SIZ012 No spare replica for a workload that needs one 5 × b200 finish the day's work within its "
        "window, but the workload needs 6 cards of this GPU: the spare replica the rules add for a "
        "business-critical batch (SIZ035), or the workload's own min_replicas. A card that fails during a "
        "run takes its replica down, and the run ends late."
    ) in flat(result.output)


HYPERSCALERS = provider_policy(
    "hyperscalers-and-ovh",
    "{field: provider, not_in: [aws, gcp, azure, ovhcloud]}",
    "Company policy: approved providers only",
    "Procurement has framework contracts with these providers.",
)


def test_a_minimum_that_runs_the_spot_rework_is_not_called_a_spare(tmp_path: Path) -> None:
    """405B BF16 within 12 hours on Azure's spot H100: one replica of 16 cards keeps the window, but not
    with the 10 % of the work redone after interruptions (10.7 h x 1.10 x 1.06 > 12 h), so a second runs.
    A stated min_replicas of 2 runs that second one anyway: it is the rework's, not a spare beyond the
    window's need (the memo said so, and the options counted it as a spare)."""
    (tmp_path / "approved.yaml").write_text(HYPERSCALERS, encoding="utf-8")
    workload = {
        **NIGHTLY,
        "name": "weekly-405b",
        "model": {"name": "llama-3.1-405b", "precision": "bf16"},
        "requests_per_day": 110_000,
        "avg_input_tokens": 2_000,
        "avg_output_tokens": 500,
        "batch_window_hours": 12,
        "latency_sensitive": False,
        "business_critical": False,
    }
    bills = []
    for minimum in (1, 2):
        stated = {**workload, "min_replicas": minimum}
        result = recommend(validate_workload(stated, "test"), EVALUATED_ON, policy_dir=str(tmp_path))
        best = result.best_option
        assert best is not None and (best.provider, best.offer, best.pricing) == (
            "azure",
            "nd-h100-v5-spot",
            "spot",
        )
        assert (best.replicas, best.spare_replicas, best.rework_replicas) == (2, 0, 1)
        memo = flat(render_memo(result))
        assert (
            "On spot, about 10 % of the work is redone after interruptions: one replica more than the 1 the "
            "window needs without it keeps the window with that work" in memo
        )
        assert "runs one replica beyond the window's need" not in memo
        bills.append(best.usd_per_month)
    assert bills[0] == bills[1]


def test_owned_servers_for_a_batch_speak_of_its_run_not_a_peak() -> None:
    """Data that must stay in the building: two HGX H100 servers hold replicas of 2 cards, four to a
    server. The server bought for the spare makes the day's run late when one fails, and the growth room
    through a lost server is the day's work within its window (it read as a service's peak)."""
    workload = {
        **NIGHTLY,
        "name": "onprem-nightly",
        "requests_per_day": 420_000,
        "batch_window_hours": 8,
        "on_premises_required": True,
    }
    result = run(workload)
    assert result.decision.deployment == "own_hardware"
    memo = flat(render_memo(result))
    # The window's 4 replicas of 2 cards fit one server, but a business-critical batch's are bought on two
    # at least (SIZ038), so that a lost one does not stop the run: the spare takes no server of its own.
    own = result.own_hardware
    assert own is not None and (own.nodes, own.replicas, own.spare_servers) == (2, 5, 0)
    assert "bought for the spare replica" not in memo
    # The 4 replicas the window needs at 4.42 requests/s each for 8 hours, less the error band's 6 %:
    # 4 x 4.4176 x 28,800 / 1.0606 = 479,800, which the bisection places to within 2 %, rounded down.
    # Beyond it a lost server leaves the window short, so the servers bought for it grow: the growth
    # room is the room through a loss, and no second figure says it.
    assert (
        "They hold the load up to about 474,000 requests a day (13 % more than today's); beyond that one "
        "more server is needed" in memo
    )
    assert "through the loss of any one server up to" not in memo
    assert "keep the peak served" not in memo
    # Five replicas of 2 cards on two 8-card servers, 3 and 2: the fullest lost, the other's 2 and the 2
    # its 4 idle cards hold are the 4 the window needs.
    assert (
        "A lost server takes more: one carries up to 3 of the 5 replicas, and the other servers' cards hold "
        "4, replicas started on those the load leaves idle included, which still finish the run within the "
        "window." in memo
    )


def test_owned_servers_are_bought_so_that_a_lost_one_leaves_the_window_s_replicas() -> None:
    """Qwen 72B BF16 that must stay in Switzerland's building: four replicas of 4 cards, two to an 8-card
    server; the window needs three. On the two servers the cards fill, losing one would leave two and the
    run late, so three are bought (SIZ038): a lost one leaves two replicas and the two its idle cards
    hold. The third server is the spare's: without it, two servers hold the window's three."""
    workload = {
        "name": "onprem-ch",
        "model": {"name": "qwen2.5-72b", "precision": "bf16"},
        "requests_per_day": 300_000,
        "avg_input_tokens": 2_000,
        "avg_output_tokens": 400,
        "load_pattern": "batch",
        "latency_sensitive": False,
        "business_critical": True,
        "on_premises_required": True,
        "personal_data": True,
        "company_country": "CH",
    }
    result = run(workload)
    assert result.decision.deployment == "own_hardware"
    memo = flat(render_memo(result))
    assert (
        "The cards the load needs would fit fewer servers: the business-critical batch's replicas, its "
        "spare among them (SIZ035), are spread over servers so that a failed one leaves those its window "
        "needs (SIZ038), so 3 are bought." in memo
    )
    assert (
        "A lost server takes more: one carries up to 2 of the 4 replicas, and the other servers' cards hold "
        "4, replicas started on those the load leaves idle included, which still finish the run within the "
        "window." in memo
    )
    assert (
        "One of the 3 servers is bought for the spare replica the rules add and to keep the window through "
        "the loss of a server (SIZ035, SIZ038): $11,214 a month and $285,000 of the purchase. min_replicas: "
        "1 leaves it out; a failed server then makes the day's run late." in memo
    )
    # With min_replicas at the window's need the two servers are for the spread alone (SIZ038).
    # Half the requests: two replicas of 4 cards fill one server, and SIZ038 buys two. Without the spare
    # the lost server's sentence stands alone (no "more" than a spare).
    plain = flat(render_memo(run({**workload, "requests_per_day": 150_000, "min_replicas": 2})))
    assert (
        "The cards the load needs would fit fewer servers: the business-critical batch's replicas are "
        "spread over servers so that a failed one leaves those its window needs (SIZ038), so 2 are bought."
        in plain
    )
    assert (
        "A lost server takes the replicas on it, up to 1 of the 2: the other servers' cards hold 2, replicas "
        "started on those the load leaves idle included, which still finish the run within the window."
        in plain
    )
    assert "servers is bought for" not in plain


SMALL_MODEL = {
    "name": "bulk-tagging",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 200,
    "load_pattern": "batch",
    "batch_window_hours": 4,
    "business_critical": True,
    "company_country": "DE",
}


def test_a_minimum_at_the_window_s_need_leaves_no_spare_and_says_so() -> None:
    """2 million short requests within 4 hours: 4 single H100 at GMI do the work, 5 with the spare. A
    stated min_replicas of 4 turns the spare off, and SIZ036 says every replica is needed; with 5, or
    none stated, it is silent. A 70B batch whose window needs 3 replicas of one B200 runs 16 on two of
    Lambda's 8-card instances with min_replicas 3 (with no spare, SIZ038 puts them on two): the 13 more
    stand in for a failed one too, so no warning there."""
    needed = run({**SMALL_MODEL, "min_replicas": 4})
    best = needed.best_option
    assert best is not None and (best.provider, best.gpu, best.replicas, best.spare_replicas) == (
        "gmi",
        "h100-sxm",
        4,
        0,
    )
    (finding,) = [f for f in needed.findings if f.rule_id == "SIZ036"]
    assert flat(finding.message) == (
        "The workload sets min_replicas: 4, which turns off the spare replica a business-critical batch gets "
        "(SIZ035). The cheapest rental (gmi on-demand, 4 × h100-sxm) needs all its 4 replicas to finish the "
        "day's work within the window: a card that fails during a run makes the run late. Remove "
        "min_replicas so that every plan gets its spare, placed so that a lost instance leaves the window's "
        "replicas (SIZ038), or set it above the window's need (at least 5 for this rental), which SIZ038 "
        "places so too."
    )
    assert "SIZ036" not in run({**SMALL_MODEL, "min_replicas": 5}).fired_rules
    assert "SIZ036" not in run(SMALL_MODEL).fired_rules
    assert "SIZ036" not in run({**SMALL_MODEL, "min_replicas": 4, "business_critical": False}).fired_rules
    whole = run(
        {
            **NIGHTLY,
            "requests_per_day": 100_000,
            "avg_input_tokens": 2_000,
            "avg_output_tokens": 500,
            "batch_window_hours": 3,
            "min_replicas": 3,
        }
    )
    row = next(g for g in whole.sizing.gpus if g.gpu == "b200")
    assert whole.best_option is not None and (whole.best_option.offer, whole.best_option.replicas) == (
        "8-gpu-plan",
        16,
    )
    assert (row.replicas, row.spare_replicas) == (3, 0)
    assert "SIZ036" not in whole.fired_rules


def test_check_names_the_spare_s_cards_beside_the_window_s(tmp_path: Any) -> None:
    """8 × H100 for a business-critical Qwen 72B batch: the window needs 16 cards (4 replicas of 4), the
    spare 4 more. SIZ009 and SIZ019 say both, so that the proposal is not raised to 16 only to meet SIZ012
    next (it named the 16 alone)."""
    path = tmp_path / "proposal.yaml"
    document = {
        "workload": {
            **NIGHTLY,
            "name": "bc-batch-qwen",
            "model": {"name": "qwen2.5-72b", "precision": "bf16"},
            "requests_per_day": 300_000,
            "avg_input_tokens": 2_000,
            "avg_output_tokens": 400,
            "latency_sensitive": False,
        },
        "proposal": {
            "name": "eight h100",
            "deployment": "dedicated_cloud",
            "provider": "runpod",
            "offer": "community",
            "gpu": "h100-sxm",
            "gpus": 8,
            "pricing": "on_demand",
        },
    }
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    output = flat(invoke("check", str(path), "--as-of", "2026-11-30").output)
    assert (
        "the day's work needs about 16 cards of this GPU to finish a run within its 6-hour window with the "
        "estimate's error band taken off (20 with the replicas the workload keeps beyond the window's need)."
        in output
    )
    assert (
        "About 16 cards of this GPU finish it in time with the estimate's error band taken off (20 with the "
        "replicas the workload keeps beyond the window's need)" in output
    )
