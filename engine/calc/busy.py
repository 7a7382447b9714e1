"""When a plan's GPUs are busy: the time-based utilization, beside the throughput share of the plan.

A replica run at a fifth of its throughput is still needed every hour in which a request is in flight;
the serverless and buy-versus-rent heuristics compare prices by this busy share, not by the throughput
share (``ReplicaPlan.utilization``).
"""

from __future__ import annotations

from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.traffic import DailyTraffic, busy_hours_per_day
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.load import BusyShareRoute, Load

BUSY_SHARE_DECIMALS = 3
"""The busy share is stated to a tenth of a percent (44 minutes of a 730-hour month). Finer is not in
the model, whose load changes hour by hour and whose arrivals are taken as Poisson: 1 - e^(-λS) never
reaches 1, so a service with requests in flight every hour came out at 0.999999994, and a node whose cards
all serve around the clock at 49.9999997 % of its card-hours, under the documents' 50 % edge on a few
millionths; each of two replicas with 18 requests in flight on average came out at 0.9999, the node at
49.995 %."""


SHARES_KEPT = 256
"""Busy shares kept (``busy_share``): a few GPUs' plans a recommendation, each fleet and per replica."""


# Kept per plan, load and traffic, which are never changed once made (a named tuple, a frozen model and
# a frozen dataclass; a capacity's are kept, ``capacity.plan_capacity``), and the numbers by value: the
# share sums over the day's hours, for several GPUs a recommendation.
@per_object(entries=SHARES_KEPT)
def busy_share(
    plan: ReplicaPlan,
    load: Load,
    traffic: DailyTraffic,
    days_per_month: float,
    paid_hours: float,
    per_replica: bool = False,
    /,
) -> float:
    """The share of the paid hours in which at least one request is in flight on ``plan``'s GPU: a
    batch's running hours; a service's busy hours (``busy_hours_per_day``) over its served hours, times
    the share of the paid hours that are served (``BUSY_SHARE_DECIMALS``).

    ``per_replica``: in flight on one replica rather than on any, the requests sent to an idle replica
    whenever one is idle, the spares among them (``busy_replicas``): at one request in flight on average,
    each of two replicas is busy 44.8 % of the hours where the fleet is busy 63.2 %. A batch runs every
    replica for its running hours."""
    if plan.hours_per_day_running is not None:
        share = plan.hours_per_day_running * days_per_month / paid_hours
    else:
        rps, service = load.average_requests_per_second, plan.service
        if paid_hours < load.served_hours_per_month:
            # The GPUs run in the day's busiest paid hours: only those hours' busy time is theirs.
            kept = busy_hours_per_day(traffic, rps, service, per_replica, paid_hours / days_per_month)
            share = kept * days_per_month / paid_hours
        else:
            busy = busy_hours_per_day(traffic, rps, service, per_replica)
            share = busy / traffic.hours_per_day * load.served_hours_per_month / paid_hours
    rounded = round(share, BUSY_SHARE_DECIMALS)
    # A share too small to show keeps its value: a GPU that serves a few requests a month is not idle.
    return min(1.0, rounded if rounded > 0 else share)


def load_on(
    plan: ReplicaPlan,
    load: Load,
    traffic: DailyTraffic,
    days_per_month: float,
    paid_hours: float,
    route: BusyShareRoute,
) -> Load:
    """The load with its busy share and requests in flight on ``plan``'s GPU. A batch keeps every
    replica's batch full while it runs."""
    if plan.hours_per_day_running is not None:
        average = peak = float(plan.replicas * plan.batch)
    else:
        average = plan.service.in_flight(load.average_requests_per_second)
        peak = plan.service.in_flight(load.peak_requests_per_second)
    return load.model_copy(
        update={
            "busy_share": busy_share(plan, load, traffic, days_per_month, paid_hours),
            "busy_share_gpu": plan.gpu,
            "busy_share_route": route,
            "requests_in_flight_average": average,
            "requests_in_flight_peak": peak,
            "service_seconds_alone": plan.service.alone,
        }
    )
