"""How long a batch run's start-up may take before another rental costs less than the recommended one.

A batch rented by the hour is priced for its running hours, the weights' load at each run's start at the
catalog's load rate (a floor: ``ReplicaPlan.weights_load_hours``) and the serving engine's own start
beyond it where the catalog measures one (``ReplicaPlan.engine_start_hours``); booting the instances is not
billed in those figures, because the catalog has no sourced start-up time of a dedicated instance. It is
billed in practice, once a run, as the offer bills time. An offer with a dearer instance-hour and a
shorter run (more or faster cards) wins on running hours alone and loses that lead as start-up grows.
With ``m`` hours of start-up beyond the weights' load, a rental's run of ``h`` hours (load included) is
billed as ``h + m`` rounded up to its billing increment, so its month scales by ``billed(h + m) / billed(h)``
(spot's overhead for redone work scales with it). A serverless rival's bill already counts its cold
starts, and a reservation's bills every hour of its term: both stay as they are. Each rental is taken
to start in the same time (the instances' boot and the weights' load, not known per offer).

The result is the least ``m`` at which the rival bills less. Offers billed by the minute or finer are
taken as billing start-up as it passes (to within a minute); offers billed in coarser steps (whole
hours) bill nothing more until the run crosses into the next step, so their bill is a step function
and the least ``m`` is found between its steps.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable

from gpu_advisor.engine.calc.costs import SECONDS_PER_HOUR, running_hours_billed
from gpu_advisor.engine.domain.options import Option, StartUpBreakEven
from gpu_advisor.engine.domain.options import StartUpBilling as Billing

HOURLY = ("on_demand", "spot")
"""The pricing kinds whose bill follows the hours a run takes (a reservation bills every hour)."""
FINE_INCREMENT_SECONDS = 60
"""Billing in steps of a minute or less is taken as continuous: the break-even is good to a minute."""
LONGEST_START_UP_HOURS = 24.0
"""A start-up longer than a day is not one: no break-even is looked for beyond it."""

IncrementOf = Callable[[Option], "int | None"]
"""An option's billing increment in seconds (None: whole hours, as its provider publishes none)."""


def start_up_break_even(
    options: Iterable[Option],
    best: Option | None,
    runs_per_month: float,
    increment_of: IncrementOf,
    ruled_out: Iterable[str] = (),
    window_hours: float | None = None,
) -> StartUpBreakEven | None:
    """The least start-up a run, in minutes, at which an admitted rental would bill less than ``best``
    (the recommended rental billed by the hour), and that rental; None where ``best`` is not billed by
    the hour, is not the decision, or no admitted rival overtakes it within a day of start-up.
    ``ruled_out``: the deployments the rules ruled out (their options are no rivals); ``window_hours``:
    the batch's window, which a rival billed by the hour must still finish its run in, start-up
    included (a rival that bills less only once its run no longer fits is none)."""
    if (
        best is None
        or not best.chosen
        or best.pricing not in HOURLY
        or best.serverless is not None
        or best.hours_per_day_running is None
        or runs_per_month <= 0
    ):
        return None
    closed = set(ruled_out)
    best_bill = _bill(best, increment_of(best))
    found: StartUpBreakEven | None = None
    for rival in options:
        billing = rival_billing(rival)
        if (
            rival is best
            or rival.excluded_by
            or ("serverless" if billing == "serverless" else "dedicated_cloud") in closed
            or rival.fleet is not None
            or (billing == "by_the_hour" and rival.hours_per_day_running is None)
            # A cheaper rival lost on a preference (its pricing kind, or a rule), not on start-up.
            or rival.usd_per_month < best.usd_per_month
        ):
            continue
        flat = billing != "by_the_hour"
        rival_bill = _bill(rival, None if flat else increment_of(rival), constant=flat)
        hours = _first_below(rival_bill, best_bill)
        if (
            hours is not None
            and not flat
            and window_hours is not None
            and rival_bill.hours + hours > window_hours
        ):
            continue
        if hours is not None and (found is None or hours * 60 < found.minutes):
            found = StartUpBreakEven(
                minutes=hours * 60,
                provider=rival.provider,
                offer=rival.offer,
                gpu=rival.gpu,
                gpus=rival.gpus,
                usd_per_month=rival.usd_per_month,
                usd_per_hour=rival.usd_per_hour,
                billing=billing,
                pricing=rival.pricing,
                spot_overhead=rival.spot_overhead,
            )
    return found


def rival_billing(option: Option) -> Billing:
    """How start-up shows in an option's bill: by the hour (on demand, spot), in its bill already (a
    serverless product counts its cold starts), or not at all (a reservation or capacity block bills
    every hour of its term, its instances kept running)."""
    if option.serverless is not None:
        return "serverless"
    return "by_the_hour" if option.pricing in HOURLY else "every_hour"


class _Bill:
    """An option's month as a function of the start-up a run (hours): a step every ``step`` hours past
    the run's ``hours`` (``step`` 0: continuous), ``slope`` dollars an hour where continuous."""

    def __init__(self, usd_per_month: float, hours: float, increment: int | None, constant: bool) -> None:
        self.usd_per_month, self.hours, self.increment = usd_per_month, hours, increment
        fine = increment is not None and increment <= FINE_INCREMENT_SECONDS
        self.step = 0.0 if constant or fine else (increment or SECONDS_PER_HOUR) / SECONDS_PER_HOUR
        self.billed = hours if constant or fine else running_hours_billed(hours, increment)
        self.slope = 0.0 if constant or not fine else usd_per_month / max(self.billed, 1e-12)

    def at(self, start_up: float) -> float:
        if self.step:
            return (
                self.usd_per_month * running_hours_billed(self.hours + start_up, self.increment) / self.billed
            )
        return self.usd_per_month + self.slope * start_up

    def steps(self) -> list[float]:
        """The start-ups at which the next step is billed (up to a day)."""
        if not self.step:
            return []
        first = math.ceil(self.hours / self.step) * self.step - self.hours
        return [first + k * self.step for k in range(int(LONGEST_START_UP_HOURS / self.step) + 1)]


def _bill(option: Option, increment: int | None, constant: bool = False) -> _Bill:
    # A run as billed: its work, the weights' load and the engine's start (``Option.weights_load_hours``,
    # ``Option.engine_start_hours``); start-up is what comes on top of them.
    hours = (
        (option.hours_per_day_running or 0.0)
        + (option.weights_load_hours or 0.0)
        + (option.engine_start_hours or 0.0)
    )
    return _Bill(option.usd_per_month, hours, increment, constant)


def _first_below(rival: _Bill, best: _Bill) -> float | None:
    """The least start-up (hours) after which ``rival`` bills less than ``best``; None within a day.
    Between two steps of either bill both are linear: the difference is solved there."""
    steps = (p for p in (*rival.steps(), *best.steps()) if 0 < p < LONGEST_START_UP_HOURS)
    points = sorted({0.0, LONGEST_START_UP_HOURS, *steps})
    slope = rival.slope - best.slope
    for low, high in itertools.pairwise(points):
        middle = (low + high) / 2
        gap = rival.at(middle) - best.at(middle)
        if gap + slope * (low - middle) < 0:  # just past ``low``
            return low
        if slope < 0 and (zero := middle - gap / slope) <= high:
            return zero
    return None
