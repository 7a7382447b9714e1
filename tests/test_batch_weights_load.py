"""A batch rented by the hour is billed its weights' load at each run's start: the weights over the
catalog's load rate (the rate serverless cold starts are counted with), a floor the memo names; the
instances' boot stays unpriced, and the start-up break-even is what comes beyond the load."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 12, 4)
VLLM_START = 21.8

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
    # GMI's 5 × h100-sxm run 4.9958 hours of work a run; with the load (65.52 GB at 2.5 GB/s: 26.2 s) the run
    # crosses its fifth hour, and GMI, which publishes no billing increment, bills whole hours: 6 a run.
    # (245,500 requests a day, 4.9897 hours of work on one-card replicas read at the bandwidth share 0.86,
    # 299 decode steps a request, stays within it with the load; 246,600 crosses it without the load.)
    gmi = next(o for o in result.options if (o.provider, o.gpu) == ("gmi", "h100-sxm"))
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
    # the second RunPod bills in).
    start_up = result.batch_start_up
    assert start_up is not None and (start_up.provider, start_up.gpu) == ("modal", "b200")
    gap = (start_up.usd_per_month - best.usd_per_month) / (11.96 * 22) * 60
    assert start_up.minutes == pytest.approx(gap, abs=1 / 60)
    memo = render_memo(result)
    assert (
        "An hourly rental is billed here for each run, for the weights' load at its start (26.2 s on the "
        "best rental, at the load rate the serverless cold starts are counted with: a floor) and for vLLM's "
        "own start beyond it (21.8 s, a floor, measured with the compile cache an earlier start left: keep "
        "it on the instance's disk or image; Breaking the Ice: Analyzing Cold Start Latency in vLLM (MLSys "
        "2026, read 2026-12-07)"
    ) in memo
    assert "From about 13.5 minutes of start-up a run beyond that counted, the latter bills less" in memo


def test_a_service_loads_its_weights_once_and_bills_no_load_per_run() -> None:
    service = {**NIGHTLY, "name": "service", "load_pattern": "steady", "requests_per_day": 20_000}
    del service["batch_window_hours"], service["batch_runs_per_month"]
    result = recommend(validate_workload(service, "test"), EVALUATED_ON)
    assert result.best_option is not None and result.best_option.weights_load_hours is None
    assert "for the weights' load at its start" not in render_memo(result)
