"""A business-critical batch's rentals are placed as a service's are (SIZ038): the loss of any one rented
instance leaves the replicas the window needs. A Swiss bank's nightly KYC screening on Qwen2.5 32B was
priced on one 8-card Scaleway instance, eight replicas on it, whose loss stopped the run; SIZ035's own
message said that its spare did not cover it. ``check`` warns of a batch proposal whose lost instance
leaves the window short (SIZ039)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import EVALUATED_ON, run, run_waves, wave_seconds

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.results import Option, Recommendation
from gpu_advisor.engine.present.memo import render_memo

KYC: dict[str, Any] = {
    "name": "kyc-screening",
    "model": {"name": "qwen2.5-32b", "precision": "fp8"},
    "requests_per_day": 400_000,
    "avg_input_tokens": 2000,
    "avg_output_tokens": 300,
    "load_pattern": "batch",
    "batch_window_hours": 6,
    "business_critical": True,
    "personal_data": True,
    "company_country": "CH",
}
"""On H100 SXM the window needs 5 one-card replicas, 6 with SIZ035's spare, each holding 65 requests at
once (a full wave: 16.212 s); on H200 4, 5 with the spare, each holding 162 (30.164 s). The FP8 weights
are 34.32 GB (31.20B parameters at 1 byte, the 16-bit embedding and lm_head's 2 x 152,064 x 5,120 =
1.56B at 2): an H100's 85.90 GB x 0.9 less them and vLLM's 3.5 GiB leave 39.23 GB, 65.07 requests of
2,300 tokens x 262,144 bytes; an H200's 141 GiB, 98.18 GB, 162.8. A run's 400,000 requests are shared
among the replicas run, each working through its share in waves. Each run starts with vLLM reading the
16-bit checkpoint it quantizes as it loads (65.52 GB at 2.5 GB/s, 0.00728 hours) and its 21.8 s start
(0.00606)."""
H100 = ("qwen2.5-32b", "fp8", "h100-sxm", 1, (2000, 300))
H200 = ("qwen2.5-32b", "fp8", "h200", 1, (2000, 300))


def run_hours(replicas: int, gpu: tuple[Any, ...], batch: int, full: float) -> float:
    """The run on ``replicas`` one-card replicas of ``gpu`` that hold ``batch`` at once, a full wave taking
    ``full`` seconds: the fullest one's full waves and its last, partial one."""
    waves, rest = run_waves(400_000, replicas, batch)
    return (waves * full + wave_seconds(rest, *gpu)) / 3600


def option(result: Recommendation, offer: str) -> Option:
    return next(o for o in result.options if o.offer == offer)


def test_the_replicas_of_a_business_critical_batch_survive_a_lost_instance() -> None:
    result = run(KYC)
    assert {"SIZ035", "SIZ038"} <= set(result.fired_rules) and "SIZ015" not in result.fired_rules
    best = result.best_option
    assert best is not None and (best.provider, best.offer) == ("scaleway", "h100-sxm-8-80g")
    # Scaleway sells this H100 in 8-card instances only. At most m replicas an instance, the run needs
    # max(6, 5 + m) of them: m = 5 runs 10 on two instances (16 cards), the fewest cards (m = 1: six
    # instances; m = 3 or 4: three). The run uses every replica the 16 cards hold, 8 on each: a lost
    # instance leaves 8 of the 5 the window needs.
    assert [(i.gpus, i.count) for i in best.instances] == [(8, 2)]
    assert (best.gpus_rented, best.replicas, best.spare_replicas) == (16, 16, 1)
    assert best.replicas_on_fullest_instance == 8
    # 25,000 requests a replica: 384 full waves and one of 40 (11.79 s), 1.73252 hours a run, 0.00728 to
    # load the weights and 0.00606 for vLLM's start: 104.75 minutes, billed as 105 by the minute on 30.42
    # days: 53.235 hours, x 16 cards x $3.672966 = $3,128.49 a month. Placed together on one instance: 8
    # cards of 50,000 requests each (769 full waves and one of 15), 3.46504 hours, 208.70 minutes, billed
    # as 209 a run (105.963 hours a month), $3,113.59.
    h100 = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    full = 65 / h100.requests_per_second_per_replica
    assert (h100.concurrent_requests, round(full, 3)) == (65, 16.212)
    assert (run_waves(400_000, 16, 65), round(wave_seconds(40, *H100), 2)) == ((384, 40), 11.79)
    assert best.hours_per_day_running == pytest.approx(run_hours(16, H100, 65, full))
    assert round(best.hours_per_day_running or 0.0, 5) == 1.73252
    assert (best.weights_load_hours, best.engine_start_hours) == (
        pytest.approx(65.52 / 2.5 / 3600),
        pytest.approx(21.8 / 3600),
    )
    assert run_waves(400_000, 8, 65) == (769, 15) and round(run_hours(8, H100, 65, full), 5) == 3.46504
    assert best.billed_hours_per_month == pytest.approx(105 / 60 * 30.42)
    assert round(best.billed_hours_per_month or 0.0, 3) == 53.235
    assert round(best.usd_per_month, 2) == round(53.235 * 16 * 3.672966, 2) == 3_128.49
    together = option(run({**KYC, "business_critical": False}), "h100-sxm-8-80g")
    assert together.billed_hours_per_month == pytest.approx(209 / 60 * 30.42)
    assert round(together.usd_per_month, 2) == 3_113.59
    # The 4-card instances: m = 4 runs 9 on three (12 cards), 33,334 requests a replica (512 full waves and
    # one of 54), 2.30962 + 0.00728 + 0.00606 = 2.32296 hours, 139.38 minutes, billed as 140, 70.98 hours a
    # month, x 12 x $3.70359 = $3,154.57 (two instances of four replicas, 8 cards, were priced before: a
    # lost one left 4).
    four = option(result, "h100-sxm-4-80g")
    assert run_waves(400_000, 12, 65) == (512, 54)
    assert four.hours_per_day_running == pytest.approx(run_hours(12, H100, 65, full))
    assert [(i.gpus, i.count) for i in four.instances] == [(4, 3)]
    assert (four.gpus_rented, four.replicas, four.replicas_on_fullest_instance) == (12, 12, 4)
    assert round(four.billed_hours_per_month or 0.0, 3) == 70.98
    assert round(four.usd_per_month, 2) == 3_154.57


def test_an_offer_that_bills_whole_hours_bills_the_added_cards_for_the_runs_hours() -> None:
    """OVHcloud's H200 comes in 8-card instances billed by the started hour. The window needs 4 replicas and
    the spare makes 5: at most 4 an instance, 8 run on two instances (16 cards), and the run uses all 16.
    A run of 25,000 requests a replica (154 full waves and one of 52) takes 1.29370 + 0.00728 + 0.00606
    (the weights' load, vLLM's start) = 1.30704 hours, billed as 2 on 30.42 days: 60.84 hours, x 16 x
    $6.09 (EUR 5.25 at the catalog's rate) = $5,928.25 a month. Together on one instance, the 8 replicas'
    50,000 requests each (308 full waves and one of 104) take 2.58642 + 0.01334 = 2.59976 hours, billed as 3:
    91.26 hours x 8 x $6.09 = $4,446.19. The added cards are billed for the hours the runs take, not the
    month's."""
    result = run(KYC)
    row = next(g for g in result.sizing.gpus if g.gpu == "h200")
    full = 162 / row.requests_per_second_per_replica
    assert (row.concurrent_requests, round(full, 3)) == (162, 30.164)
    assert (run_waves(400_000, 16, 162), run_waves(400_000, 8, 162)) == ((154, 52), (308, 104))
    h200 = option(result, "h200-1920")
    assert h200.hours_per_day_running == pytest.approx(run_hours(16, H200, 162, full))
    assert round(h200.hours_per_day_running or 0.0, 5) == 1.29370
    assert [(i.gpus, i.count) for i in h200.instances] == [(8, 2)]
    assert (h200.gpus_rented, h200.replicas) == (16, 16)
    assert round(h200.billed_hours_per_month or 0.0, 2) == 60.84
    assert round(h200.usd_per_month, 2) == 5_928.25
    alone = option(run({**KYC, "business_critical": False}), "h200-1920")
    assert (alone.gpus_rented, alone.replicas, round(alone.billed_hours_per_month or 0.0, 2)) == (8, 8, 91.26)
    assert round(alone.hours_per_day_running or 0.0, 5) == round(run_hours(8, H200, 162, full), 5) == 2.58642
    assert round(alone.usd_per_month, 2) == 4_446.19


def test_without_business_criticality_the_replicas_share_one_instance() -> None:
    result = run({**KYC, "business_critical": False})
    assert "SIZ038" not in result.fired_rules
    together = option(result, "h100-sxm-8-80g")
    # Five replicas for the window, no spare: one 8-card instance, all 8 replicas on it.
    assert [(i.gpus, i.count) for i in together.instances] == [(8, 1)]
    assert (together.gpus_rented, together.replicas_on_fullest_instance) == (8, 8)


def test_the_memo_says_why_the_rental_takes_two_instances() -> None:
    memo = " ".join(render_memo(run(KYC)).split())
    assert (
        "The replicas are spread over the offer's instances so that the loss of any one still leaves those "
        "the window needs (SIZ038): one here carries 8 of the 16 replicas; should it be lost as a run "
        "starts, the 8 left still finish the run within the window."
    ) in memo
    assert "It does not cover an instance that carries several replicas" not in memo
    assert "It does not cover a lost instance" not in memo


def check(offer: str, gpus: int, workload: dict[str, Any] = KYC) -> dict[str, Any]:
    proposal = {
        "name": "p",
        "deployment": "dedicated_cloud",
        "provider": "scaleway",
        "offer": offer,
        "gpu": "h100-sxm",
        "gpus": gpus,
        "pricing": "on_demand",
    }
    document = ProposalDocument.model_validate({"workload": workload, "proposal": proposal})
    return {i.rule_id: i for i in check_document(document, "p.yaml", 1, EVALUATED_ON).results}


def test_check_warns_a_batch_whose_lost_instance_leaves_the_window_short() -> None:
    """The eight replicas on one 8-card instance: its loss leaves none of the 5 the window needs. Kept
    through it on that offer as recommend prices it: 10 replicas' cards (m = 5), billed as 16, the run on
    all 16 replicas: $3,128.49 a month."""
    items = check("h100-sxm-8-80g", 8)
    # SIZ034 is a service's: it does not apply to a batch, nor SIZ016.
    assert items["SIZ039"].status == "warn" and "SIZ034" not in items and "SIZ016" not in items
    assert items["SIZ039"].message == (
        "The proposal runs 8 replicas on h100-sxm-8-80g, all on one instance: its loss early in a run "
        "leaves 0 where the window needs 5, and the run ends late. A business-critical batch keeps its "
        "window through the loss of any one instance (SIZ038): on this offer that takes 16 cards, each run "
        "on all of them, about $3,128 a month for the runs, as recommend prices it; or accept a late run "
        "until the instance is replaced."
    )
    # Two 4-card instances leave 4 of the 5; three (12 cards) leave 8.
    items = check("h100-sxm-4-80g", 8)
    assert items["SIZ039"].status == "warn"
    assert items["SIZ039"].message is not None and items["SIZ039"].message.startswith(
        "The proposal runs 8 replicas on h100-sxm-4-80g, up to 4 on one instance: its loss early in a run "
        "leaves 4 where the window needs 5"
    )
    assert check("h100-sxm-4-80g", 12)["SIZ039"].status == "pass"
    assert check("h100-sxm-8-80g", 16)["SIZ039"].status == "pass"


def test_check_does_not_hold_a_lost_instance_against_a_batch_that_is_not_business_critical() -> None:
    items = check("h100-sxm-8-80g", 8, {**KYC, "business_critical": False})
    assert "SIZ039" not in items
