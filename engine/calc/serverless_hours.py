"""A serverless service's hours: the demand of each served hour on one GPU's instances, and the month an
instance's scaling bills (busy, idle, starting, kept warm), as a product's billing rules count them
(``serverless.py`` prices the months)."""

from __future__ import annotations

import math
from typing import NamedTuple

from gpu_advisor.engine.calc.traffic import HOURS_PER_DAY, SECONDS_PER_HOUR, DailyTraffic, ServiceTime
from gpu_advisor.engine.domain.knowledge.serving import ServerlessProduct
from gpu_advisor.engine.domain.load import Load


class Month(NamedTuple):
    """Instance-hours a month by what they are for, and the cold starts."""

    busy: float
    idle: float
    cold: float
    """Instance-hours starting: from zero, and instances added for busier hours."""
    starts: float
    """Starts from zero: each time a request finds no instance running and waits for one."""
    kept: float
    """Hours of the instance kept warm (priced at the kept-instance price)."""
    scale_ups: float = 0.0
    """Instances added for busier hours while others serve (no request waits for them)."""
    scale_downs: float = 0.0
    """Instances stopped while others serve, each after the product's scale-down time (billed)."""
    between_requests: float = 0.0
    """The starts from zero that follow a gap between requests within the served hours (an instance
    stopped after its idle timeout and started again); the day's first start is not one of them."""
    kept_restarts: float = 0.0
    """Starts of the kept instances before each served day whose schedule leaves hours unserved: stopped
    after the day (``ServerlessProduct.schedule_end_seconds``), each starts again (billed, in ``cold``,
    its run-on in ``idle``; no request waits for it)."""


class HourDemand(NamedTuple):
    """One served hour of the day on one GPU's instances."""

    served: float
    """The share of the hour served."""
    rate: float
    seconds: float
    """One request's service time at that rate."""
    busy: float
    """One instance's share of the hour with a request in flight, P(N >= 1), or the work in
    instance-hours where that is more (an hour one instance carries, scaling to zero between requests;
    ``busy_instances`` counts an hour that runs several)."""
    needed: float
    """Instances the hour's busiest minutes need at what an instance is sized to carry (fractional)."""
    hour: int
    """The hour of the day (0 to 23)."""


def hourly_demand(
    traffic: DailyTraffic, load: Load, service: ServiceTime, instance_rps: float, capacity: float
) -> tuple[HourDemand, ...]:
    """The served hours of a day on instances of ``instance_rps`` each; the same for every product on
    that GPU and instance size. An hour's instances are sized as dedicated replicas are: for its busiest
    minutes (the load profile's burst) at ``capacity`` an instance (``usable_rate``: within the latency
    targets and the headroom)."""
    hours = []
    seconds = service.seconds
    average, burst = load.average_requests_per_second, load.peak_within_hour
    for (served, relative), hour in zip(traffic.active, traffic.active_hours, strict=True):
        rate = average * relative
        needed = rate * burst / capacity
        work = rate / instance_rps
        hour_seconds = seconds(rate / needed if needed > 1 else rate)
        busy = -math.expm1(-rate * hour_seconds)
        hours.append(HourDemand(served, rate, hour_seconds, busy if busy > work else work, needed, hour))
    return tuple(hours)


def busy_instances(rate: float, seconds: float, instances: float, busy: float) -> float:
    """Instance-hours per hour with a request in flight on ``instances`` that share the hour's requests
    evenly (a load balancer): each sees rate / n and is busy 1 - e^(-rate S / n) of the hour (M/G/inf).
    An instance that runs at part of its throughput serves all the while: only the hours no request
    reaches it are idle. ``busy``: the hour's ``HourDemand.busy``, held as a floor (the work)."""
    return max(busy, -instances * math.expm1(-rate * seconds / instances))


def instances_all_hour(needed: float, spare: int) -> int:
    """Instances an hour runs all hour: those its busiest minutes need plus the spares; none where one
    instance carries it (that one scales to zero between requests, ``single_instance_hour``)."""
    return math.ceil(needed) + spare if needed > 1 else 0


def always_on_instances(
    demand: tuple[HourDemand, ...], spare: int, ratio: float, timeout: float, cold: float
) -> int:
    """The instances worth running through every served hour where the product bills an instance that
    runs always at ``ratio`` of its price for one that scales (RunPod's active workers, 0.468 / 0.684):
    the k-th is, where the served hours in which the load keeps at least k instances up are at least
    ``ratio`` of them, as it then bills less running through them all than scaling with the load. An
    hour one instance carries counts by the share that instance is up, its idle tails (``timeout``) and
    starts (``cold``) billed as they would be (``single_instance_hour``). 0 where the product has no
    lower price for it."""
    if ratio >= 1 or not demand:
        return 0
    up = [
        (
            instances_all_hour(hour.needed, spare)
            or (single_instance_hour(hour.rate, hour.seconds, timeout, cold)[0] if hour.rate > 0 else 0.0),
            hour.served,
        )
        for hour in demand
    ]
    threshold = ratio * sum(served for _, served in up)

    def worth_keeping(kept: int) -> bool:
        """The (kept + 1)-th instance is up in at least ``ratio`` of the served hours."""
        return sum(min(1.0, max(0.0, running - kept)) * served for running, served in up) >= threshold

    # The share falls as more are kept: the first count not worth keeping, found by bisection (counting
    # up one by one took minutes for a load of tens of thousands of instances).
    low, high = 0, math.ceil(max(running for running, _ in up))
    if not worth_keeping(low):
        return 0
    if worth_keeping(high):  # only where nothing is left to fall below: a ratio of 0
        return high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if worth_keeping(middle) else (low, middle)
    return high


class Steps(NamedTuple):
    """What changes at the start of an hour of a day as the instances run all hour change (by hour)."""

    from_zero: dict[int, int]
    """1 where the first instance starts with none running: a request waits for it."""
    added: dict[int, int]
    """Instances added while others serve (or start beside the first)."""
    removed: dict[int, int]
    """Instances stopped while others serve: each runs on for the product's scale-down time."""
    to_zero: dict[int, int]
    """1 where the last instance stops: it waits out the idle timeout first."""


def scaling_steps(demand: tuple[HourDemand, ...], spare: int, warm: int) -> Steps:
    """The steps at the start of each hour of a day, beyond the ``warm`` instances kept (which run
    through the schedule's hours as a dedicated instance would): an hour that needs more instances than
    the one before starts the difference, one that needs fewer stops it (the day repeats, so midnight is
    a step too). From none running, the first start is a start from zero; down to none, the last stop
    waits out the idle timeout. An hour one instance carries counts as one: within it, that instance
    scales to zero between requests (``single_instance_hour``), and the day's first start and last wait
    are these steps (the steady state of that model counts neither at the hour's edge)."""
    beyond = [0] * HOURS_PER_DAY
    alone = [False] * HOURS_PER_DAY
    for demanded in demand:
        instances = instances_all_hour(demanded.needed, spare)
        if instances:
            beyond[demanded.hour] = max(0, instances - warm)
        elif not warm:
            beyond[demanded.hour], alone[demanded.hour] = 1, True
    steps = Steps({}, {}, {}, {})
    for hour in range(HOURS_PER_DAY):
        before, now = beyond[hour - 1], beyond[hour]
        if now > before:
            if before == 0 and not warm:
                steps.from_zero[hour] = 1
                before = 1
            if now > before:
                steps.added[hour] = now - before
        elif now < before:
            if now == 0 and not warm:
                steps.to_zero[hour] = 1
                now = 1
            if now < before:
                steps.removed[hour] = before - now
    return steps


GAP_EXPONENT_MAX = 50.0
"""Beyond e^50 the instance is, to every printed digit, never down between requests."""
FLOAT_NOISE = 1e-9
"""A share of the billed hours below which a difference of sums is the floats' rounding, not time."""


def single_instance_hour(rate: float, seconds: float, timeout: float, cold: float) -> tuple[float, float]:
    """The up share of an hour and the starts per second of one instance that scales to zero. An up
    period is a cold start C and then lasts until no request arrives for S + T seconds; for Poisson
    arrivals its mean is U = C + (e^(λ(S+T)) - 1) / λ, and a down period lasts 1/λ on average (a renewal
    process): up share λU / (1 + λU), starts λ / (1 + λU) a second."""
    exponent = rate * (seconds + timeout)
    if exponent > GAP_EXPONENT_MAX:
        return 1.0, 0.0
    up_period = cold + math.expm1(exponent) / rate
    cycle = 1 + rate * up_period
    return rate * up_period / cycle, rate / cycle


def service_month(
    demand: tuple[HourDemand, ...],
    product: ServerlessProduct,
    cold: float,
    days: float,
    spare: int,
    warm: tuple[int, float] | None,
    steps: Steps | None = None,
    restarts_daily: bool = False,
) -> Month:
    """A service's month on one product. An hour that one instance carries at the headroom target scales
    to zero between requests; a busier one runs the instances it needs all hour, plus ``spare``. Where
    the instances that run all hour change from one hour to the next, the added ones start (a cold start
    each, within the hour they run; ``Month.scale_ups``) and the stopped ones run on for the product's
    scale-down time first, billed (``scaling_steps``). ``warm``: the instances kept running and the hours
    a month they are kept (None: scale to zero). ``steps``: ``scaling_steps`` of the same demand, spares
    and kept instances where the caller has them (they are the same for every product).
    ``restarts_daily``: the schedule's served hours leave part of each day out, so the kept instances
    stop after them and start again before the next served day's."""
    rounding = product.billing_increment_seconds / 2
    if steps is None:
        steps = scaling_steps(demand, spare, warm[0] if warm is not None else 0)
    # Per day: an instance stopped while others serve is billed its scale-down time, the last one its
    # idle timeout, each with the increment's rounding.
    removed, to_zero = sum(steps.removed.values()), sum(steps.to_zero.values())
    tails = (
        removed * (product.scale_down_tail_seconds + rounding)
        + to_zero * (product.idle_timeout_seconds + rounding)
    ) / SECONDS_PER_HOUR
    busy = idle = cold_hours = starts = extra = between = 0.0
    scale_ups = float(sum(steps.added.values()))
    # Looked up once, not in every hour: the month is priced for every product the options table shows.
    from_zero, added, idle_timeout = steps.from_zero, steps.added, product.idle_timeout_seconds
    for served, rate, seconds, hour_busy, needed, hour in demand:
        instances = instances_all_hour(needed, spare)
        # Instances started at the hour's start take their cold start within the hour they are billed.
        zero = from_zero.get(hour, 0)
        started = (zero + added.get(hour, 0)) * cold / SECONDS_PER_HOUR
        hour_starts = zero / served
        if warm is not None:
            billed = float(max(warm[0], instances))
            extra += served * (billed - warm[0])
            hour_cold = min(started, served * billed) / served
            hour_tails = 0.0
        elif instances:
            billed = float(instances)
            hour_cold = min(started, served * billed) / served
            hour_tails = 0.0
        else:
            billed, hour_cold, hour_tails, starts_between, hour_starts = _scale_to_zero_hour(
                rate, seconds, hour_busy, hour_starts, idle_timeout, cold, rounding
            )
            between += served * starts_between
        if warm is not None or instances:
            # Several instances (or those kept warm) share the hour's requests.
            hour_busy = busy_instances(rate, seconds, billed, hour_busy)
        in_use = min(hour_busy, billed - hour_cold - hour_tails)
        busy += served * in_use
        cold_hours += served * hour_cold
        # Held at zero where the work fills the billed time: the difference is then rounding.
        idle += served * max(0.0, billed - in_use - hour_cold)
        starts += served * hour_starts
    if warm is None:
        return Month(
            busy * days,
            (idle + tails) * days,
            cold_hours * days,
            starts * days,
            0.0,
            scale_ups * days,
            removed * days,
            between * days,
        )
    day = Month(busy, 0.0, cold_hours, starts, 0.0, scale_ups, removed)
    return _kept_month(day, product, cold, days, warm, extra, tails, restarts_daily)


def _scale_to_zero_hour(
    rate: float,
    seconds: float,
    hour_busy: float,
    opening_starts: float,
    idle_timeout: float,
    cold: float,
    rounding: float,
) -> tuple[float, float, float, float, float]:
    """An hour one instance carries, scaling to zero between requests (``single_instance_hour``): its
    billed share of the hour, the cold starts' and the idle tails' shares of it, the starts beyond the
    ``opening_starts`` that open an hour following none running (the day's first), and the hour's
    starts."""
    up, per_second = single_instance_hour(rate, seconds, idle_timeout, cold)
    between = max(0.0, per_second * SECONDS_PER_HOUR - opening_starts)
    # An instance is up at least as long as its work takes; it starts at least once in an hour that
    # follows none running (the steady state can count less than one start an hour).
    starts = max(per_second * SECONDS_PER_HOUR, opening_starts)
    billed = max(min(1.0, up + per_second * rounding), hour_busy)
    hour_cold = min(starts * cold / SECONDS_PER_HOUR, billed)
    # Every up period ends with the idle timeout run out with no request in flight.
    tails = min(per_second * idle_timeout, billed - hour_cold)
    return billed, hour_cold, tails, between, starts


def _kept_month(
    day: Month,
    product: ServerlessProduct,
    cold: float,
    days: float,
    warm: tuple[int, float],
    extra: float,
    tails: float,
    restarts_daily: bool,
) -> Month:
    """The month of instances kept warm (``service_month``): ``day`` holds one day's figures in a
    month's fields (busy, cold, starts, scale-ups and -downs), ``extra`` the instance-hours a day run
    beyond the kept ones, ``tails`` a day's billed scale-down tails."""
    rounding = product.billing_increment_seconds / 2
    # The kept instances run every hour they are kept, with or without requests; more run in the served
    # hours that need them.
    kept = warm[0] * warm[1]
    # A schedule that leaves hours of the day unserved has the kept instances stopped after them (the
    # memo says how) and started again before the next day's first hour, as a batch's instances are each
    # run.
    restarts = warm[0] if restarts_daily else 0
    restarting = restarts * cold / SECONDS_PER_HOUR
    cold_hours = day.cold + restarting
    tails += (product.schedule_end_seconds(restarts) + restarts * rounding) / SECONDS_PER_HOUR
    billed = kept + (extra + tails + restarting) * days
    # The served hours times the month's days can exceed the kept hours by the days' rounding: the
    # serving hours are held within what is billed.
    busy = min(day.busy * days, billed - cold_hours * days)
    # Where the requests keep every kept hour busy, the difference is zero up to the floats' rounding,
    # which is no idle time to report (it printed as 0.00000000000011 hours).
    idle = billed - busy - cold_hours * days
    idle = idle if idle > FLOAT_NOISE * billed else 0.0
    return Month(
        busy,
        idle,
        cold_hours * days,
        day.starts * days,
        kept,
        day.scale_ups * days,
        day.scale_downs * days,
        kept_restarts=restarts * days,
    )


def batch_month(
    running: float, instances: int, product: ServerlessProduct, cold: float, days: float
) -> Month:
    """A batch's month: its instances' runs (``running`` instance-hours a day, ``batch_run.run_hours``
    each), and per instance and day one start and one idle timeout (with the increment's rounding)."""
    tail = product.idle_timeout_seconds + product.billing_increment_seconds / 2
    return Month(
        busy=running * days,
        idle=instances * tail / SECONDS_PER_HOUR * days,
        cold=instances * cold / SECONDS_PER_HOUR * days,
        starts=instances * days,
        kept=0.0,
    )
