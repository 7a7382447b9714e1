"""A batch that does not run every day (``batch_runs_per_month``: 4.35 for a weekly job): every monthly
figure counts its runs, not the schedule's days; the field belongs to a batch only."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run

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
    (best,) = [o for o in result.options if o.chosen]
    assert best.hours_per_day_running is not None
    # Billed per second: each run's hours (up to a second more), 4.35 runs a month, on the cards it rents.
    assert best.billed_hours_per_month == pytest.approx(best.hours_per_day_running * 4.35, abs=4.35 / 3600)
    assert best.usd_per_month == pytest.approx(best.billed_hours_per_month * best.gpus_rented * 5.98)
    memo = render_memo(result)
    assert "| Batch runs a month | 4.35 |" in memo
    assert "The work comes 4.35 times a month, not every day" in memo


def test_every_day_is_the_default() -> None:
    daily = run({key: value for key, value in WEEKLY.items() if key != "batch_runs_per_month"})
    assert daily.workload.batch_runs_per_month == pytest.approx(30.42)
    assert "batch_runs_per_month" in daily.workload.defaults_used
    (api,) = [a for a in daily.api_costs if a.compared]
    assert api.usd_per_month == pytest.approx(700_000 * 30.42 * 1_800 * 0.32 / 1e6)


def test_runs_a_month_belong_to_a_batch() -> None:
    steady = {**WEEKLY, "load_pattern": "steady"}
    steady.pop("batch_window_hours")
    with pytest.raises(InputError, match=r"batch_runs_per_month.*leave batch_runs_per_month out"):
        validate_workload(steady, "test")
    with pytest.raises(InputError, match="batch_runs_per_month"):
        validate_workload({**WEEKLY, "batch_runs_per_month": 40}, "test")
