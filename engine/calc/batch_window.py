"""A batch's window and each run's start: a run's replicas load the weights and start the serving engine
before they serve (``checkpoint.run_start``; a serverless instance its cold start), and that takes the
window's first minutes. The work is done in what the start leaves of the window; a start that leaves
nothing of it cannot finish any of the work in time, however many replicas run, so such a replica (a GPU's
card count, a serverless product's instance) is no candidate for the batch."""

from __future__ import annotations

from gpu_advisor.engine.calc.policy import Sizing
from gpu_advisor.engine.calc.traffic import SECONDS_PER_HOUR
from gpu_advisor.engine.domain.load import Load


def leaves_window(load: Load, start_hours: float) -> bool:
    """A run whose replicas start in ``start_hours`` has time left in the batch's window to work in."""
    return start_hours < load.hours_per_day


def batch_window_replicas(rps: float, load: Load, sizing: Sizing, start_hours: float = 0.0) -> float:
    """A batch's replicas for its window before rounding up (``ReplicaPlan.window_replicas``): the work
    within what the window leaves after each run's start (``start_hours``: the weights' load and the
    engine's start). Only for a start that leaves some of the window (``leaves_window``): the callers
    leave out the replicas whose start does not."""
    if not leaves_window(load, start_hours):
        raise ValueError(f"a start of {start_hours} h leaves nothing of a {load.hours_per_day} h window")
    work_seconds = load.average_requests_per_second * load.hours_per_day * SECONDS_PER_HOUR / rps
    window_seconds = (load.hours_per_day - start_hours) * SECONDS_PER_HOUR
    return work_seconds / sizing.batch_capacity_share / window_seconds
