"""A batch rented by the hour is billed its weights' load at each run's start: the weights over the
catalog's load rate (the rate serverless cold starts are counted with), a floor the memo names; the
instances' boot stays unpriced, and the start-up break-even is what comes beyond the load."""

from __future__ import annotations

import datetime as dt

import pytest

from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 12, 4)

# Ticket summaries over a 6-hour window on 22 working days: Qwen2.5-32B FP8, 32 GB of weights.
NIGHTLY = {
    "name": "nightly-ticket-summary",
    "model": {"name": "qwen2.5-32b", "precision": "fp8"},
    "requests_per_day": 250_000,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 300,
    "load_pattern": "batch",
    "batch_window_hours": 6,
    "batch_runs_per_month": 22,
    "company_country": "DE",
}


def test_an_hourly_batch_bills_the_weights_load_and_the_break_even_starts_beyond_it() -> None:
    result = recommend(validate_workload(NIGHTLY, "test"), EVALUATED_ON)
    best = result.best_option
    assert best is not None and (best.provider, best.offer, best.gpus_rented) == ("gmi", "on-demand", 5)
    # 32 GB at 2.5 GB/s: 12.8 s a run, billed beside the run's 4.9959 hours of work.
    assert best.weights_load_hours == pytest.approx(32 / 2.5 / 3600)
    run = best.hours_per_day_running
    assert run is not None and run + best.weights_load_hours < 5
    # GMI publishes no billing increment: whole hours, 5 a run, 22 runs.
    assert best.billed_hours_per_month == 110
    assert best.usd_per_month == pytest.approx(5 * 2.10 * 110)
    # RunPod's B200, billed by the second, overtakes once the run crosses its fifth hour: what is left of
    # it after the work and the load.
    start_up = result.batch_start_up
    assert start_up is not None and (start_up.provider, start_up.gpu) == ("runpod", "b200")
    assert start_up.minutes * 60 == pytest.approx((5 - run - best.weights_load_hours) * 3600)
    memo = render_memo(result)
    assert (
        "An hourly rental is billed here for each run and for the weights' load at its start (12.8 s on the "
        "best rental, at the load rate the serverless cold starts are counted with: a floor)"
    ) in memo
    assert "From about 1.9 seconds of start-up a run beyond the weights' load, the latter bills less" in memo


def test_a_service_loads_its_weights_once_and_bills_no_load_per_run() -> None:
    service = {**NIGHTLY, "name": "service", "load_pattern": "steady", "requests_per_day": 20_000}
    del service["batch_window_hours"], service["batch_runs_per_month"]
    result = recommend(validate_workload(service, "test"), EVALUATED_ON)
    assert result.best_option is not None and result.best_option.weights_load_hours is None
    assert "for the weights' load at its start" not in render_memo(result)
