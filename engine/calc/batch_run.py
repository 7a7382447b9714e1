"""A batch run on its replicas: each replica gets its share of the run's requests, whole, and works
through them as a published finite run does (``finite_run.all_at_once_seconds``): in waves of as many as
it holds at once (its batch), each wave its prefills and every decode step of them all, a last partial
wave a whole request's time however few it carries. A replica's run is thus never shorter than one
request at the number in flight, however high the full batch's throughput: 50 requests on a replica
that holds 58 take one wave at a batch of 50, not 50 over the throughput of 58.

A run fits its window where the run's start and the run, taken the estimate's error band longer, end
within it (``window_seconds``: the run may take that share of what the start leaves); the window's
replicas are as many as give each replica no more requests than fit (``window_replicas``)."""

from __future__ import annotations

import math

from gpu_advisor.engine.calc.finite_run import all_at_once_seconds, wave_seconds
from gpu_advisor.engine.calc.policy import Sizing
from gpu_advisor.engine.calc.roofline import Roofline
from gpu_advisor.engine.calc.traffic import SECONDS_PER_HOUR
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.load import Load

FITS_KEPT = 512
"""Requests a replica fits in a window, kept: one per replica shape, rate and window (a few per plan)."""


def run_requests(load: Load) -> int:
    """A run's requests: the day's (a run's, where the batch runs on some days only), whole."""
    return max(1, math.ceil(load.average_requests_per_second * load.hours_per_day * SECONDS_PER_HOUR - 1e-6))


def _slowdown(roofline: Roofline, batch: int, rps: float) -> float:
    """How much longer than the roofline's own steps a run takes at ``rps`` a replica: 1 at the estimate's
    rate (``batch`` over a full wave's time), more where a scenario's drawn error lowers it."""
    return batch / wave_seconds(roofline, batch) / rps


def run_seconds(roofline: Roofline, requests: int, batch: int, rps: float) -> float:
    """A replica's run of ``requests`` requests, at most ``batch`` at once, at ``rps`` a second at its full
    batch: its waves (``finite_run.all_at_once_seconds``); 0 for none."""
    if requests <= 0:
        return 0.0
    return all_at_once_seconds(roofline, requests, batch) * _slowdown(roofline, batch, rps)


@per_object(entries=FITS_KEPT)
def requests_in_window(roofline: Roofline, batch: int, rps: float, seconds: float, /) -> int:
    """The most requests a replica's run (``run_seconds``) finishes within ``seconds``: as many full waves
    as fit, then the largest partial wave that fits in what they leave (a wave's time grows with its
    requests); 0 where one request alone does not fit."""
    if seconds <= 0:
        return 0
    slowdown = _slowdown(roofline, batch, rps)
    full = wave_seconds(roofline, batch) * slowdown
    waves = math.floor(seconds / full)
    left = seconds - waves * full
    low, high = 0, batch - 1
    while low < high:
        middle = (low + high + 1) // 2
        if wave_seconds(roofline, middle) * slowdown <= left:
            low = middle
        else:
            high = middle - 1
    return waves * batch + low


def window_seconds(load: Load, sizing: Sizing, start_hours: float) -> float:
    """The most a replica's run may take: what its start (``start_hours``) leaves of the window, over one
    plus the estimate's error band, so that the start and the run taken that much longer end within it."""
    return (load.hours_per_day - start_hours) * SECONDS_PER_HOUR * sizing.batch_capacity_share


def fits_window(
    load: Load, sizing: Sizing, roofline: Roofline, batch: int, rps: float, start_hours: float
) -> bool:
    """A replica's run of one request after a start of ``start_hours`` keeps the window with the error band
    (``window_seconds``): where it does not, no number of replicas does."""
    return requests_in_window(roofline, batch, rps, window_seconds(load, sizing, start_hours)) > 0


def window_replicas(
    load: Load,
    sizing: Sizing,
    roofline: Roofline,
    batch: int,
    rps: float,
    start_hours: float,
    per_unit: int = 1,
) -> float:
    """The units (replicas, or serverless instances of ``per_unit`` replicas) the window needs before
    rounding up (``units_fitting`` in what the start leaves of it). Only where a replica fits one
    (``fits_window``): the callers leave out those that do not."""
    seconds = window_seconds(load, sizing, start_hours)
    units = units_fitting(run_requests(load), roofline, batch, rps, seconds, per_unit)
    if units is None:
        raise ValueError(
            f"a start of {start_hours * SECONDS_PER_HOUR:.1f} s and a request, with the error band, take the "
            f"whole {load.hours_per_day * SECONDS_PER_HOUR:.1f} s window"
        )
    return units


def units_fitting(
    requests: int, roofline: Roofline, batch: int, rps: float, seconds: float, per_unit: int = 1
) -> float | None:
    """The units of ``per_unit`` replicas a run of ``requests`` needs where a replica's run may take
    ``seconds``, before rounding up: the requests over those a unit's replicas fit (``requests_in_window``),
    so that as many, rounded up, give each replica no more; None where not one request fits."""
    fitted = requests_in_window(roofline, batch, rps, seconds)
    return requests / (fitted * per_unit) if fitted else None


def replica_share(requests: int, replicas: int) -> int:
    """The most of ``requests`` requests one of ``replicas`` replicas sharing them runs: whole requests."""
    return math.ceil(requests / replicas)


def run_hours(requests: int, roofline: Roofline, batch: int, rps: float, replicas: int) -> float:
    """The hours a run of ``requests`` requests takes on ``replicas`` replicas sharing them: the fullest
    one's run (``run_seconds``)."""
    return run_seconds(roofline, replica_share(requests, replicas), batch, rps) / SECONDS_PER_HOUR
