"""The start-up a run may take before another rental bills less names only a rental that still finishes
its run in the window with that start-up: a business-critical batch with a 6-hour window was told that
from 237 minutes of start-up Scaleway's 2-card H100 instances bill less, whose run of 4.2 hours plus those
3.95 hours no longer fits the window."""

from __future__ import annotations

from helpers import run
from test_option_busy_share import BATCH


def test_no_rival_whose_run_and_start_up_overrun_the_window() -> None:
    assert run(BATCH).batch_start_up is None


def test_a_rival_that_still_fits_is_named() -> None:
    result = run({**BATCH, "batch_window_hours": 12})
    found = result.batch_start_up
    assert found is not None and (found.provider, found.offer) == ("scaleway", "h100-sxm-2-80g")
    assert round(found.minutes) == 117
    rival = next(
        o
        for o in result.options
        if (o.provider, o.offer, o.gpu) == ("scaleway", "h100-sxm-2-80g", "h100-sxm")
    )
    assert rival.hours_per_day_running is not None and rival.weights_load_hours is not None
    # 7.04 hours of run and weights' load plus 1.94 hours of start-up: 8.98 of the 12 hours.
    assert rival.hours_per_day_running + rival.weights_load_hours + found.minutes / 60 <= 12


def test_the_window_is_the_one_the_schedule_cuts() -> None:
    """A 24-hour window on office hours is 8 hours: Scaleway's run of 5.6 hours plus 5.2 hours of start-up
    does not fit it, though it fits 24."""
    result = run(
        {
            "name": "b",
            "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
            "requests_per_day": 400_000,
            "avg_input_tokens": 2000,
            "avg_output_tokens": 300,
            "load_pattern": "batch",
            "schedule": "office_hours",
            "batch_window_hours": 24,
            "business_critical": True,
            "company_country": "DE",
        }
    )
    assert result.sizing.load is not None and result.sizing.load.hours_per_day == 8
    assert result.batch_start_up is None
