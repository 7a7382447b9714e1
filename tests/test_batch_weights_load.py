"""A batch rented by the hour is billed its weights' load at each run's start: the weights over the
catalog's load rate (the rate serverless cold starts are counted with), a floor the memo names; the
instances' boot stays unpriced, and the start-up break-even is what comes beyond the load."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from helpers import run_waves, wave_seconds

from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 12, 4)
VLLM_START = 21.8
H100 = ("qwen2.5-32b", "fp8", "h100-sxm", 1, (3000, 300))
"""A one-card H100 replica of the ticket summaries, as ``helpers.wave_seconds`` takes it."""

# Ticket summaries over a 6-hour window on 22 working days: Qwen2.5-32B FP8 under vLLM, which reads the
# 16-bit checkpoint (65.52 GB) and quantizes it as it loads it. The day's requests put one H100 replica's
# run just below 5 hours, and its run with the load just beyond.
NIGHTLY = {
    "name": "nightly-ticket-summary",
    "model": {"name": "qwen2.5-32b", "precision": "fp8"},
    "requests_per_day": 242_800,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 300,
    "load_pattern": "batch",
    "batch_window_hours": 6,
    "batch_runs_per_month": 22,
    "company_country": "DE",
}


def test_an_hourly_batch_bills_the_weights_load_and_the_break_even_starts_beyond_it() -> None:
    result = recommend(validate_workload(NIGHTLY, "test"), EVALUATED_ON)
    # GMI's 5 × h100-sxm run 4.9965 hours a run: 48,560 requests each, 45 at once (80 GiB x 0.9 less the
    # FP8 checkpoint's 34.32 GB, 31.20B parameters x 1 byte and the 16-bit embedding and lm_head, 2 x
    # 152,064 x 5,120 x 2 bytes, and vLLM's 3.5 GiB leave 39.23 GB, 45.4 requests of 3,300 tokens x 262,144
    # bytes), in 1,079 full waves of 16.665 s and one of 5, 6.104 s (one-card replicas read at the
    # bandwidth share 0.86, 299 decode steps a request); with the load (65.52 GB at 2.5 GB/s: 26.2 s) the
    # run crosses its fifth hour, and GMI, which publishes no billing increment, bills whole hours: 6 a
    # run. (242,600 requests a day, 1,078 full waves and one of 10, 4.9922 hours, stay within it with the
    # load; 243,200, 1,080 full waves and one of 40, cross it without the load.)
    gmi = next(o for o in result.options if (o.provider, o.gpu) == ("gmi", "h100-sxm"))
    h100 = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    full = 45 / h100.requests_per_second_per_replica
    assert (h100.concurrent_requests, round(full, 3), run_waves(242_800, 5, 45)) == (45, 16.665, (1079, 5))
    assert gmi.hours_per_day_running == pytest.approx((1079 * full + wave_seconds(5, *H100)) / 3600)
    assert round(gmi.hours_per_day_running, 4) == 4.9965
    assert (run_waves(242_600, 5, 45), run_waves(243_200, 5, 45)) == ((1078, 10), (1080, 40))
    assert (1078 * full + wave_seconds(10, *H100) + 65.52 / 2.5) / 3600 < 5
    assert (1080 * full + wave_seconds(40, *H100)) / 3600 > 5
    assert gmi.weights_load_hours == pytest.approx(65.52 / 2.5 / 3600)
    assert gmi.hours_per_day_running is not None and 4.99 < gmi.hours_per_day_running < 5
    assert gmi.hours_per_day_running + gmi.weights_load_hours > 5
    # vLLM's own start beyond the load, at best (knowledge/throughput.yaml): billed beside it.
    assert gmi.engine_start_hours == pytest.approx(VLLM_START / 3600)
    assert (gmi.gpus_rented, gmi.billed_hours_per_month) == (5, 6 * 22)
    assert gmi.usd_per_month == pytest.approx(5 * 2.10 * 132)
    # RunPod's B200, billed by the second, runs its work and the load: the cheaper.
    best = result.best_option
    assert best is not None and (best.provider, best.offer, best.gpu, best.gpus_rented) == (
        "runpod",
        "community",
        "b200",
        2,
    )
    run = best.hours_per_day_running
    assert run is not None and best.weights_load_hours == pytest.approx(65.52 / 2.5 / 3600)
    assert best.billed_hours_per_month == pytest.approx(
        math.ceil(run * 3600 + 65.52 / 2.5 + VLLM_START) / 3600 * 22
    )
    assert best.usd_per_month == pytest.approx(2 * 5.98 * best.billed_hours_per_month)
    # Modal's B200 overtakes once a run's start-up beyond the load costs what the two bills differ by (to
    # the second RunPod bills in). RunPod's 2 replicas run 121,400 requests each, 155 at once (192 GB x
    # 0.9 less 34.32 GB and 3.5 GiB leave 134.73 GB, 155.7 requests): 783 full waves of 20.758 s and one of
    # 35, 6.808 s: 16,260.0 s, with the load and vLLM's start 16,308 s a run, 99.66 hours on 22 runs at
    # $11.96, $1,191.93. Modal's 2 instances run as long, 198.73 hours, with 44 cold starts of 49.0 s and
    # 44 idle timeouts of 60.5 s: 200.07 hours at $6.2496, $1,250.37. $58.43 over $11.96 an hour on 22
    # runs: 13.32 minutes a run.
    b200 = next(g for g in result.sizing.gpus if g.gpu == "b200")
    b200_full = 155 / b200.requests_per_second_per_replica
    assert (b200.concurrent_requests, round(b200_full, 3), run_waves(242_800, 2, 155)) == (
        155,
        20.758,
        (783, 35),
    )
    b200_run = 783 * b200_full + wave_seconds(35, "qwen2.5-32b", "fp8", "b200", 1, (3000, 300))
    assert round(b200_run, 1) == 16_260.0 and math.ceil(b200_run + 65.52 / 2.5 + VLLM_START) == 16_308
    assert round(best.usd_per_month, 2) == 1191.93
    start_up = result.batch_start_up
    assert start_up is not None and (start_up.provider, start_up.gpu) == ("modal", "b200")
    modal = next(o for o in result.options if (o.provider, o.offer) == ("modal", "functions"))
    assert modal.serverless is not None and round(modal.serverless.cold_start_seconds, 1) == 49.0
    modal_hours = 2 * b200_run / 3600 * 22 + 44 * (modal.serverless.cold_start_seconds + 60.5) / 3600
    assert (
        round(modal_hours, 2) == 200.07
        and round(modal_hours * 6.2496, 2) == round(modal.usd_per_month, 2) == 1250.37
    )
    assert start_up.usd_per_month == pytest.approx(modal.usd_per_month)
    gap = (start_up.usd_per_month - best.usd_per_month) / (11.96 * 22) * 60
    assert start_up.minutes == pytest.approx(gap, abs=1 / 60) and round(gap, 2) == 13.32
    memo = render_memo(result)
    assert (
        "An hourly rental is billed here for each run, for the weights' load at its start (26.2 s on the "
        "best rental, at the load rate the serverless cold starts are counted with: a floor) and for vLLM's "
        "own start beyond it (21.8 s, a floor, measured with the compile cache an earlier start left: keep "
        "it on the instance's disk or image; Breaking the Ice: Analyzing Cold Start Latency in vLLM (MLSys "
        "2026, read 2026-12-07)"
    ) in memo
    assert "From about 13.3 minutes of start-up a run beyond that counted, the latter bills less" in memo


def test_a_service_loads_its_weights_once_and_bills_no_load_per_run() -> None:
    service = {**NIGHTLY, "name": "service", "load_pattern": "steady", "requests_per_day": 20_000}
    del service["batch_window_hours"], service["batch_runs_per_month"]
    result = recommend(validate_workload(service, "test"), EVALUATED_ON)
    assert result.best_option is not None and result.best_option.weights_load_hours is None
    assert "for the weights' load at its start" not in render_memo(result)
