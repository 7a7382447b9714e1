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
# 16-bit checkpoint (65.52 GB) and quantizes it as it loads it.
NIGHTLY = {
    "name": "nightly-ticket-summary",
    "model": {"name": "qwen2.5-32b", "precision": "fp8"},
    "requests_per_day": 245_800,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 300,
    "load_pattern": "batch",
    "batch_window_hours": 6,
    "batch_runs_per_month": 22,
    "company_country": "DE",
}


def test_an_hourly_batch_bills_the_weights_load_and_the_break_even_starts_beyond_it() -> None:
    result = recommend(validate_workload(NIGHTLY, "test"), EVALUATED_ON)
    # GMI's 5 × h100-sxm run 4.9959 hours a run: 49,160 requests each, 47 at once, in 1,045 full waves of
    # 17.195 s and one of 45, 16.665 s (one-card replicas read at the bandwidth share 0.86, 299 decode steps
    # a request); with the load (65.52 GB at 2.5 GB/s: 26.2 s) the run crosses its fifth hour, and GMI,
    # which publishes no billing increment, bills whole hours: 6 a run. (245,400 requests a day, 1,044
    # full waves and one of 12, 4.9887 hours, stay within it with the load; 246,000, 1,046 full waves and
    # one of 38, cross it without the load.)
    gmi = next(o for o in result.options if (o.provider, o.gpu) == ("gmi", "h100-sxm"))
    h100 = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    full = 47 / h100.requests_per_second_per_replica
    assert (h100.concurrent_requests, round(full, 3), run_waves(245_800, 5, 47)) == (47, 17.195, (1045, 45))
    assert gmi.hours_per_day_running == pytest.approx((1045 * full + wave_seconds(45, *H100)) / 3600)
    assert round(gmi.hours_per_day_running, 4) == 4.9959
    assert (run_waves(245_400, 5, 47), run_waves(246_000, 5, 47)) == ((1044, 12), (1046, 38))
    assert (1044 * full + wave_seconds(12, *H100) + 65.52 / 2.5) / 3600 < 5
    assert (1046 * full + wave_seconds(38, *H100)) / 3600 > 5
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
    # the second RunPod bills in). RunPod's 2 replicas run 122,900 requests each, 157 at once: 782 full
    # waves of 20.994 s and one of 126, 17.348 s: 16,434.3 s, with the load and vLLM's start 16,483 s a
    # run, 100.73 hours on 22 runs at $11.96, $1,204.72. Modal's 2 instances run as long, 200.86 hours,
    # with 44 cold starts of 49.0 s and 44 idle timeouts of 60.5 s: 202.20 hours at $6.2496, $1,263.68.
    # $58.96 over $11.96 an hour on 22 runs: 13.44 minutes a run.
    b200 = next(g for g in result.sizing.gpus if g.gpu == "b200")
    b200_full = 157 / b200.requests_per_second_per_replica
    assert (b200.concurrent_requests, round(b200_full, 3), run_waves(245_800, 2, 157)) == (
        157,
        20.994,
        (782, 126),
    )
    b200_run = 782 * b200_full + wave_seconds(126, "qwen2.5-32b", "fp8", "b200", 1, (3000, 300))
    assert round(b200_run, 1) == 16_434.3 and math.ceil(b200_run + 65.52 / 2.5 + VLLM_START) == 16_483
    assert round(best.usd_per_month, 2) == 1204.72
    start_up = result.batch_start_up
    assert start_up is not None and (start_up.provider, start_up.gpu) == ("modal", "b200")
    modal = next(o for o in result.options if (o.provider, o.offer) == ("modal", "functions"))
    assert modal.serverless is not None and round(modal.serverless.cold_start_seconds, 1) == 49.0
    modal_hours = 2 * b200_run / 3600 * 22 + 44 * (modal.serverless.cold_start_seconds + 60.5) / 3600
    assert (
        round(modal_hours, 2) == 202.20
        and round(modal_hours * 6.2496, 2) == round(modal.usd_per_month, 2) == 1263.68
    )
    assert start_up.usd_per_month == pytest.approx(modal.usd_per_month)
    gap = (start_up.usd_per_month - best.usd_per_month) / (11.96 * 22) * 60
    assert start_up.minutes == pytest.approx(gap, abs=1 / 60) and round(gap, 2) == 13.44
    memo = render_memo(result)
    assert (
        "An hourly rental is billed here for each run, for the weights' load at its start (26.2 s on the "
        "best rental, at the load rate the serverless cold starts are counted with: a floor) and for vLLM's "
        "own start beyond it (21.8 s, a floor, measured with the compile cache an earlier start left: keep "
        "it on the instance's disk or image; Breaking the Ice: Analyzing Cold Start Latency in vLLM (MLSys "
        "2026, read 2026-12-07)"
    ) in memo
    assert "From about 13.4 minutes of start-up a run beyond that counted, the latter bills less" in memo


def test_a_service_loads_its_weights_once_and_bills_no_load_per_run() -> None:
    service = {**NIGHTLY, "name": "service", "load_pattern": "steady", "requests_per_day": 20_000}
    del service["batch_window_hours"], service["batch_runs_per_month"]
    result = recommend(validate_workload(service, "test"), EVALUATED_ON)
    assert result.best_option is not None and result.best_option.weights_load_hours is None
    assert "for the weights' load at its start" not in render_memo(result)
