"""A batch that does not run every day (``batch_runs_per_month``: 4.35 for a weekly job): every monthly
figure counts its runs, not the schedule's days; the field belongs to a batch only."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import run, run_waves, wave_seconds

from gpu_advisor.cli import main
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo

WEEKLY: dict[str, Any] = {
    "name": "weekly-report-batch",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 700_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 300,
    "load_pattern": "batch",
    "batch_window_hours": 24,
    "batch_runs_per_month": 4.35,
    "company_country": "DE",
}


def test_a_weekly_batch_is_priced_for_its_runs() -> None:
    result = run(WEEKLY)
    (api,) = [a for a in result.api_costs if a.compared]
    # DeepInfra's batch price, $0.32 per million tokens both ways: 700,000 × 4.35 runs × 1,800 tokens.
    assert (api.api, api.batch) == ("llama-3.1-70b-deepinfra", True)
    assert api.usd_per_month == pytest.approx(700_000 * 4.35 * 1_800 * 0.32 / 1e6)  # $1,753.92
    # Its price rests on the token price (2026-11-05) and the batch discount (2026-06-19): the older.
    assert api.as_of.isoformat() == "2026-06-19"
    (best,) = [o for o in result.options if o.chosen]
    assert best.hours_per_day_running is not None
    # Billed per second: each run's hours, its weights' load (the 16-bit checkpoint vLLM quantizes to FP8 as
    # it loads it, 70.55B x 2 bytes = 141.1 GB at 2.5 GB/s, 56.4 s) and vLLM's own start beyond it (21.8 s;
    # up to a second more), 4.35 runs a month, on the cards it rents.
    assert best.weights_load_hours == pytest.approx(70.55 * 2 / 2.5 / 3600)
    assert best.engine_start_hours == pytest.approx(21.8 / 3600)
    run_hours = best.hours_per_day_running + best.weights_load_hours + best.engine_start_hours
    assert best.billed_hours_per_month == pytest.approx(run_hours * 4.35, abs=4.35 / 3600)
    assert best.usd_per_month == pytest.approx(best.billed_hours_per_month * best.gpus_rented * 5.98)
    memo = render_memo(result)
    assert "| Batch runs a month | 4.35 |" in memo
    assert "The work comes 4.35 times a month, not every day" in memo
    # Told per run, not per day: the job does not run every day.
    hours = f"{best.hours_per_day_running:.1f}"
    assert (
        f"Each run of the batch takes {hours} hours, within its 24-hour window, and is billed for it with "
        "its start."
    ) in memo
    assert "hours a day, within its" not in memo
    # The API's cost is counted in runs too, as the Managed APIs section says.
    assert "700,000 requests a run × 4.35 runs a month × (1,500 input + 300 output tokens)" in memo
    assert "requests/day ×" not in memo


def test_every_day_is_the_default() -> None:
    daily = run({key: value for key, value in WEEKLY.items() if key != "batch_runs_per_month"})
    assert daily.workload.batch_runs_per_month == pytest.approx(30.42)
    assert "batch_runs_per_month" in daily.workload.defaults_used
    (api,) = [a for a in daily.api_costs if a.compared]
    assert api.usd_per_month == pytest.approx(700_000 * 30.42 * 1_800 * 0.32 / 1e6)
    (best,) = [o for o in daily.options if o.chosen]
    hours = f"{best.hours_per_day_running:.1f}"
    assert f"The batch runs {hours} hours a day, within its 24-hour window" in render_memo(daily)


def test_runs_a_month_belong_to_a_batch() -> None:
    steady = {**WEEKLY, "load_pattern": "steady"}
    steady.pop("batch_window_hours")
    with pytest.raises(InputError, match=r"batch_runs_per_month.*leave batch_runs_per_month out"):
        validate_workload(steady, "test")
    with pytest.raises(InputError, match="batch_runs_per_month"):
        validate_workload({**WEEKLY, "batch_runs_per_month": 40}, "test")


def test_check_prices_a_batch_proposal_for_its_runs_and_its_own_replicas(tmp_path: Path) -> None:
    """The recommended plan itself, proposed for a weekly batch, costs what recommend says; eight
    one-card replicas finish each run in an eighth of the time, so they bill about the same card-hours."""
    result = run(WEEKLY)
    (best,) = [o for o in result.options if o.chosen]
    assert (best.provider, best.offer, best.gpu, best.gpus) == ("runpod", "community", "b200", 2)
    same = {"deployment": "dedicated_cloud", "provider": "runpod", "offer": "community", "gpu": "b200"}
    proposals = [
        {"workload": WEEKLY, "proposal": {**same, "gpus": 2, "pricing": "on_demand"}},
        {"workload": WEEKLY, "proposal": {**same, "gpus": 4, "pricing": "on_demand"}},
    ]
    path = tmp_path / "proposals.json"
    path.write_text(json.dumps(proposals), encoding="utf-8")
    checked = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    assert checked.exit_code == 0, checked.output
    out = checked.stdout
    two, four = json.loads(out)
    assert two["usd_per_month"] == pytest.approx(best.usd_per_month, abs=0.01)
    assert "DEP033" not in {item["rule_id"] for item in two["results"] if item["status"] == "warn"}
    # Four cards, two runs' worth of replicas each half as long: the same card-hours within a second a run.
    assert four["usd_per_month"] == pytest.approx(best.usd_per_month, rel=0.01)


def test_runs_a_month_are_at_most_the_schedules_days_and_share_its_paid_hours() -> None:
    with pytest.raises(InputError, match="30 runs are more than the schedule's 22 days a month"):
        run({**WEEKLY, "schedule": "office_hours", "batch_runs_per_month": 30})
    # 104 paid hours over 4.35 runs leave each run 23.9 hours: the same plan as a 24-hour window.
    paid = run({**WEEKLY, "hours_per_month": 104})
    assert paid.load.hours_per_day == pytest.approx(104 / 4.35)
    (best,) = [o for o in paid.options if o.chosen]
    assert (best.gpu, best.gpus) == ("b200", 2)


def test_a_batch_has_no_latency_targets() -> None:
    with pytest.raises(InputError, match="a batch has no latency targets"):
        validate_workload({**WEEKLY, "max_time_to_first_token_ms": 500}, "test")


def two_h100_replica_rate(
    model: str, requests_per_day: int, input_tokens: int, output_tokens: int, schedule: str = "always"
) -> float:
    """The requests a second of one 2 × H100 replica of ``model`` in BF16 with a batch's full batch, as
    ``size --cards 2`` gives it (the public figure the proposal's run is checked against)."""
    load = [str(requests_per_day), "--input-tokens", str(input_tokens), "--output-tokens", str(output_tokens)]
    size = CliRunner().invoke(
        main,
        [
            *("size", "--model", model, "--precision", "bf16", "--gpu", "h100-sxm", "--cards", "2"),
            *("--requests-per-day", *load, "--load-pattern", "batch", "--schedule", schedule),
            *("--format", "json"),
        ],
    )
    (two_cards,) = json.loads(size.stdout)["gpus"]
    return float(two_cards["requests_per_second_per_replica"])


def check_json(tmp_path: Path, workload: dict[str, Any], proposal: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "proposal.json"
    path.write_text(json.dumps({"workload": workload, "proposal": proposal}), encoding="utf-8")
    checked = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    assert checked.exit_code in (0, 1), checked.output
    (result,) = json.loads(checked.stdout)
    return result


def test_a_batch_proposal_on_smaller_replicas_runs_at_their_own_rate(tmp_path: Path) -> None:
    """70B BF16: the plan's replicas are 4 × H100; two H100 hold the 141.1 GB of weights (the exact
    70.55B parameters) with little room for the KV cache, so a 2-card replica serves far fewer requests a
    second than half a 4-card one. The proposal was priced as the plan's card-hours spread over its two
    cards ($1,568 a month) while SIZ009 said a run takes about 223 h on them: a run takes its work at the
    proposed replica's rate (as ``size --cards 2`` gives it), and 4.35 such runs would need more hours
    than the month has, so the two cards are billed the month's 730 hours."""
    bf16 = {**WEEKLY, "model": {"name": "llama-3.1-70b", "precision": "bf16"}}
    result = run(bf16)
    (plan,) = [p for p in result.sizing.gpus if p.gpu == "h100-sxm"]
    assert plan.cards_per_replica == 4
    rate = two_h100_replica_rate("llama-3.1-70b", 700_000, 1500, 300)
    run_hours = 700_000 / rate / 3600
    assert round(run_hours) == 223 and run_hours * 4.35 > 730
    two = {"deployment": "dedicated_cloud", "provider": "runpod", "offer": "community", "gpu": "h100-sxm"}
    proposed = check_json(tmp_path, bf16, {**two, "gpus": 2, "pricing": "on_demand"})
    assert proposed["usd_per_month"] == pytest.approx(2.69 * 2 * 730)


def test_a_batch_proposal_too_small_for_its_window_bills_the_month_not_more(tmp_path: Path) -> None:
    """One B200 for a daily 700,000-request run would need about 27 h a day: it runs all month, billed the
    month's 730 hours at $5.98, not 27 h × 30.42 days."""
    daily = {key: value for key, value in WEEKLY.items() if key != "batch_runs_per_month"}
    one = {"deployment": "dedicated_cloud", "provider": "runpod", "offer": "community", "gpu": "b200"}
    proposed = check_json(tmp_path, daily, {**one, "gpus": 1, "pricing": "on_demand"})
    # Each run rounded up to the second it is billed in: at most 30.42 seconds a month more.
    assert proposed["usd_per_month"] == pytest.approx(5.98 * 730, abs=5.98 * 31 / 3600)


def finding_message(result: Any, rule_id: str) -> str:
    return next(f.message for f in result.findings if f.rule_id == rule_id)


@pytest.mark.parametrize(
    ("schedule", "days", "rule", "says"),
    [
        # 60,000 a run × 4.35 runs over the schedule's days: 8,580 a day on every day of the month.
        ("always", 30.42, "DEP001", "8,580 requests/day (a day of the schedule on average, DEP034) is below"),
        # 11,864 a day on 22 working days: between the lines.
        (
            "workdays",
            22,
            "DEP004",
            "11,864 requests/day (a day of the schedule on average, DEP034) is within the band",
        ),
    ],
)
def test_the_volume_lines_read_a_weekly_batch_per_day_of_its_schedule(
    schedule: str, days: float, rule: str, says: str
) -> None:
    result = run({**WEEKLY, "requests_per_day": 60_000, "schedule": schedule})
    assert f"{60_000 * 4.35 / days:,.0f}" in says
    assert rule in result.fired_rules and "DEP034" in result.fired_rules
    assert finding_message(result, rule).startswith(says)
    assert finding_message(result, "DEP034").startswith(
        "The batch's day of work, 60,000 requests, runs 4.35 times a month, not on every day of its schedule:"
    )


def test_a_daily_batch_reads_its_day_as_it_is() -> None:
    result = run({**WEEKLY, "batch_runs_per_month": None})
    assert "DEP034" not in result.fired_rules
    assert finding_message(result, "DEP002").startswith("700,000 requests/day is above the 100,000 line")


def test_a_batch_proposal_that_fits_the_month_bills_its_replicas_run(tmp_path: Path) -> None:
    """A nightly 70B BF16 extraction, 8,000 requests in an 8-hour window on 22 working days, proposed on
    Scaleway's 2-card H100 instance: $267 a month before (the recommended 4-card replica's run, 0.79 h,
    spread over two cards), while SIZ009 said a run takes about 6.5 h on them. At the 2-card replica's rate
    (``size --cards 2``) a run and the 56 s weights' load, billed by the minute: 2 × €3.3099 × 1.16 per
    hour, 22 runs."""
    workload = {
        "name": "nightly-contract-extraction",
        "model": {"name": "llama-3.3-70b", "precision": "bf16", "custom_weights": True},
        "requests_per_day": 8000,
        "avg_input_tokens": 3000,
        "avg_output_tokens": 400,
        "load_pattern": "batch",
        "batch_window_hours": 8,
        "schedule": "workdays",
        "personal_data": True,
        "company_country": "DE",
    }
    rate = two_h100_replica_rate("llama-3.3-70b", 8_000, 3000, 400, "workdays")
    run_minutes = 8000 / rate / 60 + 56 / 60
    assert round(run_minutes / 60, 1) == 6.5
    scaleway = {"deployment": "dedicated_cloud", "provider": "scaleway", "offer": "h100-sxm-2-80g"}
    proposed = check_json(
        tmp_path, workload, {**scaleway, "gpu": "h100-sxm", "gpus": 2, "pricing": "on_demand"}
    )
    expected = 2 * 3.3099 * 1.16 * 22 * math.ceil(run_minutes) / 60
    assert proposed["usd_per_month"] == pytest.approx(expected, abs=0.01)
    # 391 minutes a run (6.50 h at 0.343 requests/s and the load): 2 x 3.3099 x 1.16 x 22 x 391 / 60.
    assert proposed["usd_per_month"] == pytest.approx(1100.91, abs=0.01)


def test_size_shows_a_batch_as_hours_run_and_a_request_s_whole_time() -> None:
    """A batch runs its replicas full for part of its window: size's table gives the hours a day they run
    and a request's whole time with the batch full, not a time per token that carries the waits for
    other prompts' prefills (2,499 ms "per token" for a five-token answer on H100 before), and says that
    no headroom applies."""
    args = ["size", "--model", "llama-3.1-8b", "--precision", "bf16", "--requests-per-day", "200000"]
    args += ["--input-tokens", "2000", "--output-tokens", "5", "--load-pattern", "batch"]
    text = CliRunner().invoke(main, args, env={"COLUMNS": "200"}).stdout
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).stdout)
    h100 = next(g for g in data["gpus"] if g["gpu"] == "h100-sxm")
    # 200,000 requests on one replica that holds 218 at once: 917 full waves of 12.68 s (218 over its
    # 17.19 requests/s) and one of 94, 5.48 s: 3.23 hours of the 8-hour window.
    rate = h100["requests_per_second_per_replica"]
    assert (h100["replicas"], h100["concurrent_requests"], round(rate, 2)) == (1, 218, 17.19)
    assert run_waves(200_000, 1, 218) == (917, 94)
    last = wave_seconds(94, "llama-3.1-8b", "bf16", "h100-sxm", 1, (2000, 5))
    assert round(last, 2) == 5.48
    assert h100["hours_per_day_running"] == pytest.approx((917 * 218 / rate + last) / 3600)
    assert round(h100["hours_per_day_running"], 2) == 3.23
    assert (
        "Load: a batch of 200,000 requests a day, done within 8 h (6.94 requests/s if spread over them)"
        in text
    )
    header = next(line for line in text.splitlines() if line.startswith("GPU"))
    assert "TTFT" not in header and "Hours a day Request s" in header
    row = next(line for line in text.splitlines() if line.startswith("h100-sxm"))
    assert row.split()[-2:] == [f"{h100['hours_per_day_running']:.2f}", f"{h100['request_seconds']:.1f}"]
    assert "a batch runs its replicas full, so no headroom applies" in " ".join(text.split())
    assert "a light load may run" not in text
