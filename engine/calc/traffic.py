"""When requests arrive, and how much of the time a GPU is needed at all.

The day's requests are spread over the hours the schedule serves in proportion to the load profile
(``knowledge/load_profiles.yaml`` or the workload's own ``load_profile``). Within an hour arrivals are
taken as Poisson, and a request stays in flight for its service time S. The number of requests in
flight is then Poisson with mean λS whatever S's distribution (the M/G/∞ queue), so the share of an
hour in which at least one request is in flight, and a GPU is needed at all, is

    P(N ≥ 1) = 1 - e^(-λS).

The busy share is that share over the paid hours: the time-based utilization the documents' serverless
and buy-versus-rent lines are about. It is not the throughput share (load over capacity): a service whose
replica runs at 20 % of its throughput may still have a request in flight every minute of the day.

S grows with the load: more requests in flight make a larger batch and a slower decode step, and a
prompt may wait for the prefills ahead of it. S is the latency model's at each rate (``calc.latency``:
the time to first token plus the other output tokens at the time per token), so the requests in flight, the
busy share and the latency the memo states at a load agree. A mixture of experts' step grows fastest at
small batches (each new sequence reads experts the others did not), so S is far from linear between a
lone request and a full batch there.
"""

from __future__ import annotations

import bisect
import functools
import math
from dataclasses import dataclass
from typing import NamedTuple

from gpu_advisor.engine.common.wording import Words, WordsError

SECONDS_PER_HOUR = 3600
HOURS_PER_DAY = 24


@dataclass(frozen=True)
class DailyTraffic:
    """How a served day's requests spread over its hours."""

    served: tuple[float, ...]
    """Per hour of the day (0 to 23): the share of the hour in which requests arrive."""
    relative_rate: tuple[float, ...]
    """Per hour: the request rate over the day's mean rate in served time (0 where none arrive)."""
    hours_per_day: float
    active: tuple[tuple[float, float], ...]
    """(served share, relative rate) of every hour in which requests arrive: what the sums run over."""
    active_hours: tuple[int, ...]
    """The hours of the day (0 to 23) ``active`` is of, in the same order."""

    @property
    def busiest(self) -> float:
        return max(self.relative_rate)


def served_hours(first_hour: int, hours_per_day: float) -> tuple[float, ...]:
    """The share of each hour of the day (0 to 23) that the ``hours_per_day`` hours from ``first_hour``
    serve, wrapping past midnight: 1 for a whole hour, the fraction of the last one."""
    served = [0.0] * HOURS_PER_DAY
    remaining = hours_per_day
    hour = first_hour
    while remaining > 0:
        served[hour % HOURS_PER_DAY] = min(1.0, remaining)
        remaining -= 1
        hour += 1
    return tuple(served)


def share_outside_served_hours(profile: tuple[float, ...], first_hour: int, hours_per_day: float) -> float:
    """The share of a day's requests by ``profile`` that fall outside the served hours (0: none)."""
    total = sum(profile)
    inside = sum(p * s for p, s in zip(profile, served_hours(first_hour, hours_per_day), strict=True))
    return 1 - inside / total if total > 0 else 0.0


def idle_served_hours(profile: tuple[float, ...], first_hour: int, hours_per_day: float) -> int:
    """The hours the schedule serves in which the profile has no requests (0 for the published profiles,
    which have traffic in every hour)."""
    served = served_hours(first_hour, hours_per_day)
    return sum(1 for p, s in zip(profile, served, strict=True) if s > 0 and p <= 0)


def share_outside_busiest_hours(
    profile: tuple[float, ...], first_hour: int, hours_per_day: float, paid_hours_per_day: float
) -> float:
    """The share of the served hours' requests (by ``profile``) that fall outside their
    ``paid_hours_per_day`` busiest hours: what finds no GPU where fewer hours are paid than served and
    the GPUs run in the busiest ones (0 where every served hour is paid, or the hours left out have no
    requests)."""
    served = served_hours(first_hour, hours_per_day)
    hours = [(p, s, p * s) for p, s in zip(profile, served, strict=True) if s > 0]
    total = sum(requests for _, _, requests in hours)
    if total <= 0 or paid_hours_per_day >= sum(s for _, s, _ in hours):
        return 0.0
    return max(0.0, 1 - busiest_hours_sum(hours, paid_hours_per_day) / total)


def busiest_hours_sum(hours: list[tuple[float, float, float]], hours_kept: float) -> float:
    """The sum of a figure over a day's ``hours_kept`` busiest hours, each hour given as (its rate, the
    share of it served, its figure): the busiest first (ties in the day's order), the last in part."""
    kept, left = 0.0, hours_kept
    for _, served, figure in sorted(hours, key=lambda hour: -hour[0]):
        if left <= 0:
            break
        share = min(1.0, left / served)
        kept += figure * share
        left -= served * share
    return kept


@functools.lru_cache(maxsize=64)
def daily_traffic(profile: tuple[float, ...], first_hour: int, hours_per_day: float) -> DailyTraffic:
    """The profile restricted to the ``hours_per_day`` hours from ``first_hour`` (wrapping past
    midnight), scaled so that the rate is 1 on average over them. ``ValueError`` where the profile has
    no traffic in those hours."""
    served = served_hours(first_hour, hours_per_day)
    weight = sum(p * s for p, s in zip(profile, served, strict=True))
    if weight <= 0:
        raise WordsError(Words("the load profile has no traffic in the hours the schedule serves"))
    # An hour's share of the day's requests is profile × served share / weight; its rate over the mean
    # rate of the served time is that share over the hour's served share, times the served hours.
    relative = tuple(
        p * hours_per_day / weight if s > 0 else 0.0 for p, s in zip(profile, served, strict=True)
    )
    hours = tuple(hour for hour, (s, r) in enumerate(zip(served, relative, strict=True)) if s > 0 and r > 0)
    return DailyTraffic(
        served=tuple(served),
        relative_rate=relative,
        hours_per_day=hours_per_day,
        active=tuple((served[hour], relative[hour]) for hour in hours),
        active_hours=hours,
    )


class ServiceTime(NamedTuple):
    """How long one request is in flight on a replica, as the rate it carries grows: the latency model's
    request time (``request_times.request_times``), exact at its knots and linear in the rate between them."""

    rates: tuple[float, ...]
    """Requests per second on one replica, rising from 0 to its capacity with the batch full."""
    times: tuple[float, ...]
    """Seconds one request is in flight at each of ``rates``."""
    replicas: int

    @classmethod
    def constant(cls, seconds: float, replicas: int) -> ServiceTime:
        """A request that takes ``seconds`` at any rate."""
        return cls((0.0,), (seconds,), replicas)

    @property
    def alone(self) -> float:
        """Seconds with no other request on the replica."""
        return self.times[0]

    def scaled(self, factor: float) -> ServiceTime:
        """The same replica ``factor`` times as fast: each rate ``factor`` times, each time its inverse."""
        return self._replace(
            rates=tuple(rate * factor for rate in self.rates),
            times=tuple(seconds / factor for seconds in self.times),
        )

    def seconds(self, requests_per_second: float) -> float:
        """S at a request rate spread evenly over the replicas; at or past a replica's capacity, S with
        its batch full."""
        rates, times = self.rates, self.times
        per_replica = requests_per_second / self.replicas
        if per_replica >= rates[-1]:
            return times[-1]
        above = bisect.bisect_right(rates, per_replica)
        low, high = rates[above - 1], rates[above]
        return times[above - 1] + (times[above] - times[above - 1]) * (per_replica - low) / (high - low)

    def in_flight(self, requests_per_second: float) -> float:
        """Requests in flight on average at this rate (Little's law: λS)."""
        return requests_per_second * self.seconds(requests_per_second)


def busy_hours_per_day(
    traffic: DailyTraffic,
    average_rps: float,
    service: ServiceTime,
    per_replica: bool = False,
    hours_kept: float | None = None,
) -> float:
    """The hours of a served day in which at least one request is in flight: Σ served × (1 - e^(-λS)),
    the requests in flight N being Poisson with mean λS (M/G/∞). ``per_replica``: the hours one of the
    service's replicas is busy, Σ served × E[min(N, n)] / n (``busy_replicas``). ``hours_kept``: only
    that many of the day's busiest hours count (fewer paid than served: the GPUs run in those, and the
    requests of the rest find none)."""
    seconds = service.seconds
    replicas = service.replicas
    hours: list[tuple[float, float, float]] = []
    total = 0.0
    for served, relative in traffic.active:
        rate = average_rps * relative
        in_flight = rate * seconds(rate)
        if per_replica and replicas > 1:
            busy = served * busy_replicas(in_flight, replicas) / replicas
        else:
            busy = -served * math.expm1(-in_flight)
        total += busy
        if hours_kept is not None:
            hours.append((relative, served, busy))
    return total if hours_kept is None else busiest_hours_sum(hours, hours_kept)


TAIL_DEVIATIONS = 12.0
"""Poisson terms further than this many standard deviations below the mean are under e^-72 and left out;
above it, ``TAIL_TERMS`` more are kept, as a small mean's deviation is no bound."""
TAIL_TERMS = 30
"""Terms kept beyond the mean's upper tail: at a mean of 1 the 30th is 1/30!, under 1e-32."""


def busy_replicas(in_flight: float, replicas: int) -> float:
    """The replicas busy on average, E[min(N, n)] for N Poisson with mean ``in_flight``, where a request
    goes to an idle replica whenever one is idle (a least-outstanding-requests balancer). That is the
    busiest the replicas can be for the load: a balancer that spreads requests at random or in turn
    leaves a replica idle while another serves two. E[min(N, n)] = n - Σ_{k<n} (n - k) P(N = k)."""
    if in_flight <= 0:
        return 0.0
    log_mean = math.log(in_flight)
    spread = TAIL_DEVIATIONS * math.sqrt(in_flight)
    first = max(0, math.floor(in_flight - spread))
    # Above the mean's tail the terms vanish: a fleet far larger than the load sums only the tail's terms,
    # not one per replica (ten billion requests a day took a minute here).
    last = math.ceil(in_flight + spread) + TAIL_TERMS
    if replicas > last:
        # Every request finds an idle replica but for a vanishing tail: E[N], summed where N lies (the
        # difference of n and the shortfall would lose the figure's last digits to n's size).
        return sum(k * math.exp(k * log_mean - in_flight - math.lgamma(k + 1)) for k in range(first, last))
    short = 0.0
    for k in range(first, replicas):
        short += (replicas - k) * math.exp(k * log_mean - in_flight - math.lgamma(k + 1))
    return replicas - short


def hourly_rates(traffic: DailyTraffic, average_rps: float) -> tuple[float, ...]:
    """Requests per second in each hour of a served day (0 where none arrive)."""
    return tuple(average_rps * relative for relative in traffic.relative_rate)
