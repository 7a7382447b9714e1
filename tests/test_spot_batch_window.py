"""A batch rented on spot redoes work after interruptions (the 5 % its bill counts): its replicas are sized
so that a run with that work still keeps the window, with the estimate's error band taken off as the
window's own count is, and the memo says how long a run then takes."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Any

import pytest
from helpers import EXAMPLES_DIR, provider_policy, run, run_waves, wave_seconds

from gpu_advisor import api
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.workload import load_workload
from gpu_advisor.engine.present.memo import render_memo

EVALUATED_ON = dt.date(2026, 11, 30)
NIGHT = {
    "name": "x",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 2_000_000,
    "avg_output_tokens": 500,
    "load_pattern": "batch",
    "batch_window_hours": 2,
    "schedule": "office_hours",
}
H100_PCIE = ("llama-3.1-8b", "bf16", "h100-pcie", 1, (300, 500))
"""One H100 PCIe a replica of the night's batch, as ``helpers.wave_seconds`` takes it."""


def test_a_spot_batch_gets_the_replica_its_redone_work_needs() -> None:
    """Vast's spot H100 PCIe, 17 replicas of one card: the day's work is 17 x 0.8680 = 14.76 windows of
    one replica at full throughput. A replica's 18.825 requests/s at 548 at once: 1 / (0.0110 s of prefill
    + 499 steps of 46.255 ms shared by 548, the refit 16-bit step). The start (28.2 s) leaves 6,762 s of
    the 2 hours for a run over 1.0606 (the error band's top): 232 full waves of 548 (29.110 s each) and a
    last one of 84 that fits in the 8.3 s left, 127,220 requests a replica, so 2,000,000 take 15.72, 16
    replicas, on demand, and with 5 % redone 16.51: 17, one added. A run then takes 1.74 hours (117,648
    requests: 214 full waves and one of 376, 20.81 s), 87 % of the 2-hour window with its start; with the
    rework 1.82 hours, 92 %."""
    result = run(NIGHT)
    best = result.best_option
    assert best is not None and (best.provider, best.offer, best.pricing) == ("vast", "spot", "spot")
    assert best.spot_overhead == 0.05
    error = result.sizing_policy.estimate_error_taken_off
    assert round(error, 4) == 0.0606
    work = best.capacity_utilization_at_peak * best.replicas
    assert round(work, 2) == 14.76
    assert (round(work * (1 + error), 2), round(work * (1 + error) * 1.05, 2)) == (15.65, 16.43)
    assert (best.replicas, best.rework_replicas) == (17, 1)
    row = next(g for g in result.sizing.gpus if g.gpu == "h100-pcie")
    full = 548 / row.requests_per_second_per_replica
    assert row.run_start_hours is not None and round(row.run_start_hours * 3600, 1) == 28.2
    seconds = (7200 - row.run_start_hours * 3600) / (1 + error)
    waves = math.floor(seconds / full)
    left = seconds - waves * full
    assert (row.concurrent_requests, round(full, 3), waves, round(left, 1)) == (548, 29.11, 232, 8.3)
    # The last wave's requests: the most whose wave fits in what the full ones leave.
    fitted = waves * 548 + max(n for n in range(1, 548) if wave_seconds(n, *H100_PCIE) <= left)
    assert fitted == 232 * 548 + 84 == 127_220
    window = 2_000_000 / fitted
    assert (round(window, 2), round(window * 1.05, 2)) == (15.72, 16.51)
    assert run_waves(2_000_000, 17, 548) == (214, 376)
    last = wave_seconds(376, *H100_PCIE)
    hours = best.hours_per_day_running
    assert hours is not None and hours == pytest.approx((214 * full + last) / 3600)
    assert (round(last, 2), round(hours, 2)) == (20.81, 1.74)
    # (28.2 s + 1.7362 h x 1.05) / 2 h = 92 %.
    assert round((row.run_start_hours + hours * 1.05) / 2, 2) == 0.92
    # The window holds with the rework and the error band together.
    assert best.capacity_utilization_at_peak * 1.05 * (1 + error) <= 1
    memo = " ".join(render_memo(result).split())
    assert (
        "On spot, about 5 % of the work is redone after interruptions: one replica more than the 16 the "
        "window needs without it keeps the window with that work; on the 17 replicas run, a run takes about "
        "1.8 hours, 92 % of the window with its start."
    ) in memo
    assert "bills whole instances" not in memo
    # The Summary counts the rework too: (28.2 s + 1.7413 h x 1.05) / 2 h = 92 %.
    assert "With each run's start before it (28 s), a run takes 92 % of the window." in memo


def test_a_spot_batch_whose_window_holds_the_rework_keeps_its_count() -> None:
    """A 5-hour window: 7 replicas run 4.22 hours (285,715 requests each: 521 full waves of 29.110 s and one
    of 207), 84 % of it with the 28.2 s start; with 5 % redone 4.43 hours, 89 %, and the start and that run
    taken 1.0606 times as long, 0.941 of the window, within it."""
    result = run({**NIGHT, "batch_window_hours": 5})
    best = result.best_option
    assert best is not None and best.pricing == "spot"
    assert (best.replicas, best.rework_replicas) == (7, 0)
    assert round(best.capacity_utilization_at_peak * 1.05 * 1.0606, 3) == 0.939
    full = 548 / next(g for g in result.sizing.gpus if g.gpu == "h100-pcie").requests_per_second_per_replica
    assert run_waves(2_000_000, 7, 548) == (521, 207)
    hours = best.hours_per_day_running
    assert hours is not None and hours == pytest.approx((521 * full + wave_seconds(207, *H100_PCIE)) / 3600)
    start = 28.224 / 3600
    assert (round(hours, 2), round((start + hours) / 5, 2), round((start + hours * 1.05) / 5, 2)) == (
        4.22,
        0.84,
        0.89,
    )
    assert round((start + hours * 1.05 * 1.0606) / 5, 3) == 0.941
    memo = " ".join(render_memo(result).split())
    assert (
        "On spot, about 5 % of the work is redone after interruptions: a run takes about 4.4 hours, 89 % of "
        "the window with its start."
    ) in memo


def test_an_on_demand_batch_is_not_told_of_redone_work() -> None:
    """The nightly example's batch runs on RunPod's B200 on demand."""
    result = api.recommend(load_workload(str(EXAMPLES_DIR / "nightly-batch.yaml")))
    assert result.best_option is not None and result.best_option.pricing == "on_demand"
    assert "redone after interruptions: a run takes" not in render_memo(result)


def check_spot(gpus: int) -> dict[str, Any]:
    document = ProposalDocument.model_validate(
        {
            "workload": NIGHT,
            "proposal": {"deployment": "dedicated_cloud", "provider": "vast", "offer": "spot", "gpus": gpus},
        }
    )
    result = check_document(document, "case.yaml", 1, EVALUATED_ON)
    return {item.rule_id: item for item in result.results}


def test_check_counts_the_rework_in_a_spot_proposals_run() -> None:
    """The day's work is 14.76 windows of one replica (29.51 replica-hours of the 2-hour window). On 16
    cards a run takes 1.84 h, with 5 % redone 1.94 h, 1.9 with its 28.2 s start: within the window, but 17
    cards keep it with the error band taken off (SIZ009). On 15 cards 1.97 h, with the rework 2.07 h:
    over it (SIZ019)."""
    best = run(NIGHT).best_option
    assert best is not None
    work = best.capacity_utilization_at_peak * best.replicas * 2  # replica-hours a run
    assert (round(work, 2), round(work / 16 * 1.05, 2), round(work / 15 * 1.05, 2)) == (29.51, 1.94, 2.07)
    sixteen = check_spot(16)
    assert sixteen["SIZ019"].status == "pass"
    assert sixteen["SIZ009"].status == "warn"
    assert sixteen["SIZ009"].message == (
        "16 × h100-pcie hold the weights, but the day's work needs about 17 cards of this GPU to finish a "
        "run within its 2-hour window with the estimate's error band taken off. On the proposed cards a run "
        "takes about 1.9 h at the estimated throughput, its start included (the weights' load and the "
        "engine's), and the work redone after spot interruptions."
    )
    fifteen = check_spot(15)
    assert fifteen["SIZ019"].status == "fail"
    assert (
        "takes about 2.1 h at the estimated throughput, its start included (the weights' load and the "
        "engine's), and the work redone after spot interruptions" in (fifteen["SIZ019"].message)
    )
    assert check_spot(17)["SIZ009"].status == "pass"


def test_min_replicas_that_already_hold_the_rework_add_none() -> None:
    """124,000 requests on a 2-hour window need one replica on demand; on spot one would take 2 x 0.92 h x
    1.05 x 1.061 = 2.04 h with the rework and the error band, past the window, so the rework needs a second.
    min_replicas makes it two anyway: no third replica, and the second is the rework's, not a spare beyond
    the window's need (two run 0.92 h, 0.96 h with the rework: 48 % of the window)."""
    result = run({**NIGHT, "requests_per_day": 124_000, "min_replicas": 2})
    best = result.best_option
    assert best is not None and best.pricing == "spot"
    assert (best.replicas, best.rework_replicas, best.spare_replicas) == (2, 1, 0)
    assert best.hours_per_day_running is not None
    assert 2 * best.hours_per_day_running * 1.05 * (1 + result.sizing_policy.estimate_error_taken_off) > 2
    assert round(best.capacity_utilization_at_peak * 1.05, 2) == 0.48


SPOT_AT_HYPERSCALERS = provider_policy(
    "aws-azure-spot-only",
    ("{field: provider, not_in: [aws, azure]}", "{field: pricing, not_in: [spot]}"),
    "Spot at AWS and Azure only",
    "Spot at AWS and Azure only.",
)


def test_whole_instances_beyond_the_rework_are_said_apart(tmp_path: Path) -> None:
    """2.8 million requests on 8-GPU spot instances: the window needs 16 replicas, 17 with the rework, and
    the 17th takes a third instance: 24 cards run."""
    (tmp_path / "spot.yaml").write_text(SPOT_AT_HYPERSCALERS, encoding="utf-8")
    result = api.recommend({**NIGHT, "requests_per_day": 2_800_000}, EVALUATED_ON, policy_dir=tmp_path)
    best = result.best_option
    assert best is not None and (best.provider, best.pricing) == ("azure", "spot")
    row = next(g for g in result.sizing.gpus if g.gpu == best.gpu)
    assert (row.replicas, best.rework_replicas, best.replicas, best.gpus_rented) == (16, 1, 24, 24)
    memo = " ".join(render_memo(result).split())
    assert (
        "one replica more than the 16 the window needs without it keeps the window with that work"
    ) in memo
    assert (
        "The window needs 17 replicas with the rework (the sizing table's 16 and those for the rework); "
        "azure nd-h100-v5-spot bills whole instances, 24 cards here"
    ) in memo


def test_the_rework_is_fitted_in_waves_not_scaled_from_the_window_s_replicas() -> None:
    """2,000 requests of 1,000 in / 8,000 out on one H100 a replica in half an hour, on Google Cloud's spot
    a3-highgpu-1g: a replica holds 48 at once, a full wave 149.48 s (0.0284 s of prefill and 7,999 steps
    of 18.518 ms, the refit 16-bit step, shared by 48). What the 28.2 s start leaves, over the 1.0606
    band, is 1,670.5 s: 11 full waves and none more, 528 requests, so 2,000 take 3.79 replicas; scaled by
    1.05 that was 3.98, 4 replicas, whose run of 500 (10 waves and one of 20) with the rework and the
    band ends at 1,801 s, beyond the 1,800 s window. Fitted in 1,670.5 / 1.05 = 1,590.9 s: 10 full waves
    and one of 19, 499 requests, 4.01 replicas: 5, one added for the rework, whose run of 400 (8 waves and
    one of 16) ends at 1,460 s."""
    replica = ("llama-3.1-8b", "bf16", "h100-sxm", 1, (1000, 8000))
    result = run(
        {
            "name": "short-spot",
            "model": {"name": "llama-3.1-8b", "precision": "bf16"},
            "requests_per_day": 2000,
            "avg_input_tokens": 1000,
            "avg_output_tokens": 8000,
            "load_pattern": "batch",
            "batch_window_hours": 0.5,
            "schedule": "workdays",
            "latency_sensitive": False,
        }
    )
    error = result.sizing_policy.estimate_error_taken_off
    full = wave_seconds(48, *replica)
    assert round(full, 2) == 149.48
    left = (1800 - 28.224) / (1 + error)
    assert (round(left, 1), round(left / 1.05, 1)) == (1670.5, 1590.9)
    assert 11 * full <= left < 11 * full + wave_seconds(1, *replica)
    assert 10 * full + wave_seconds(19, *replica) <= left / 1.05 < 10 * full + wave_seconds(20, *replica)
    assert (round(2000 / 528 * 1.05, 2), round(2000 / 499, 2)) == (3.98, 4.01)

    def ends(replicas: int) -> float:
        waves, last = run_waves(2000, replicas, 48)
        return 28.224 + (waves * full + wave_seconds(last, *replica)) * 1.05 * (1 + error)

    assert (run_waves(2000, 4, 48), round(ends(4))) == ((10, 20), 1801)
    assert (run_waves(2000, 5, 48), round(ends(5))) == ((8, 16), 1460)
    spot = next(o for o in result.options if (o.provider, o.offer) == ("gcp", "a3-highgpu-1g-spot"))
    assert (spot.replicas, spot.rework_replicas, spot.run_requests_per_replica) == (5, 1, 400)
    assert spot.hours_per_day_running is not None
    assert spot.hours_per_day_running * 3600 == pytest.approx(8 * full + wave_seconds(16, *replica))
