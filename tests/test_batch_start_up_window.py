"""The start-up a run may take before another rental bills less names only a rental that still finishes
its run in the window with that start-up: a business-critical batch with a 6-hour window was told that
from 237 minutes of start-up Scaleway's 2-card H100 instances bill less, whose run of 4.2 hours plus those
3.95 hours no longer fits the window. Its rentals are now placed so that a lost instance leaves the
window's replicas (SIZ038): the rival named is Scaleway's 4-card H100, three instances whose 6 replicas'
shorter run leaves room for the start-up."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run, run_waves, wave_seconds
from test_option_busy_share import BATCH

from gpu_advisor.engine.domain.results import Recommendation


def rival_fits(result: Recommendation, window: float) -> Any:
    """The rival named, whose run, weights' load, engine start and start-up fit ``window`` hours."""
    found = result.batch_start_up
    assert found is not None
    rival = next(
        o for o in result.options if (o.provider, o.offer, o.gpu) == (found.provider, found.offer, found.gpu)
    )
    assert rival.hours_per_day_running is not None and rival.weights_load_hours is not None
    counted = rival.hours_per_day_running + rival.weights_load_hours + (rival.engine_start_hours or 0.0)
    assert counted + found.minutes / 60 <= window
    return found, rival


def test_no_rival_whose_run_and_start_up_overrun_the_window() -> None:
    rival_result = run(BATCH)
    found, rival = rival_fits(rival_result, 6)
    # 3.539 hours of run (6 replicas of 2 H100, 50,000 requests each, 98 at once: 2 x 80 GiB x 0.9 less the
    # FP8 checkpoint's 72.65 GB and 2 x 3.5 GiB leave 74.45 GB, 98.8 requests of 2,300 tokens x 327,680
    # bytes; 510 full waves of 24.965 s and one of 20, 9.45 s), 29.06 s of weights' load (72.65 GB at 2.5
    # GB/s) and 21.8 s of vLLM's start plus 50 minutes of start-up: 4.38 of the 6 hours.
    assert (found.provider, found.offer, found.gpus, round(found.minutes)) == (
        "scaleway",
        "h100-sxm-4-80g",
        12,
        50,
    )
    assert run_waves(300_000, rival.replicas, 98) == (510, 20)
    full = (
        98 / next(g for g in rival_result.sizing.gpus if g.gpu == "h100-sxm").requests_per_second_per_replica
    )
    last = wave_seconds(20, "llama-3.1-70b", "fp8", "h100-sxm", 2, (2000, 300))
    assert (round(full, 3), round(last, 2)) == (24.965, 9.45)
    assert rival.hours_per_day_running == pytest.approx((510 * full + last) / 3600)
    assert round(rival.hours_per_day_running, 3) == 3.539


def test_a_rival_that_still_fits_is_named() -> None:
    found, rival = rival_fits(run({**BATCH, "batch_window_hours": 12}), 12)
    # 5.32 hours of run and weights' load plus 0.67 hours of start-up: 5.98 of the 12 hours.
    assert (found.provider, found.offer, found.gpus, round(found.minutes)) == (
        "scaleway",
        "h100-sxm-4-80g",
        8,
        40,
    )
    assert round(rival.hours_per_day_running, 3) == 5.308


def test_the_window_is_the_one_the_schedule_cuts() -> None:
    """A 24-hour window on office hours is 8 hours: the rival named fits the 8, not just the 24."""
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
    found, _ = rival_fits(result, 8)
    assert (found.offer, round(found.minutes)) == ("h100-sxm-4-80g", 67)
