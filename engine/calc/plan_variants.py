"""A replica plan as run otherwise: without the spares a rule added (what they cost is the bill less
this one's), a batch's plan on every replica the whole instances it rents hold, and a batch's plan with
the replicas a spot run's rework needs; whether two plans bill alike, and the plan throughput alone
chooses as a result states it."""

from __future__ import annotations

import math

from gpu_advisor.engine.calc.batch_run import run_hours, units_fitting
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.domain.options import ThroughputAlone


def without_spares(plan: ReplicaPlan) -> ReplicaPlan:
    """The plan with only the replicas the peak (or the batch's window) needs: what its spares cost is
    its bill less this one's. A batch's day of work then runs longer on the fewer replicas, each with
    more of its requests (``batch_run.run_hours``)."""
    replicas = plan.replicas - plan.spare_replicas
    lean = plan._replace(
        replicas=replicas,
        spare_replicas=0,
        gpus=replicas * plan.cards_per_replica,
        spares_asked=0,
        min_replicas=1,
    )
    if plan.hours_per_day_running is None or replicas == plan.replicas:
        return lean
    longer = plan.replicas / replicas
    return lean._replace(
        hours_per_day_running=_run_hours(plan, replicas),
        utilization=min(1.0, plan.utilization * longer),
        capacity_utilization_at_peak=plan.capacity_utilization_at_peak * longer,
        service=plan.service._replace(replicas=replicas),
    )


def batch_on_instances(plan: ReplicaPlan, replicas_hosted: int) -> ReplicaPlan:
    """A batch plan run on every replica the rented instances hold: whole instances that hold more
    replicas than the plan needs finish the day's work sooner on them, each with fewer of its requests,
    and bill fewer hours."""
    if plan.hours_per_day_running is None or replicas_hosted <= plan.replicas:
        return plan
    share = plan.replicas / replicas_hosted
    working = replicas_hosted - plan.spare_replicas
    return plan._replace(
        replicas=replicas_hosted,
        replicas_for_peak=working,
        replicas_for_throughput=working,
        gpus=replicas_hosted * plan.cards_per_replica,
        gpus_for_peak=working * plan.cards_per_replica,
        utilization=plan.utilization * share,
        capacity_utilization_at_peak=plan.capacity_utilization_at_peak * share,
        hours_per_day_running=_run_hours(plan, replicas_hosted),
        service=plan.service._replace(replicas=replicas_hosted),
    )


def _run_hours(plan: ReplicaPlan, replicas: int) -> float:
    """A batch ``plan``'s run on ``replicas`` replicas sharing its requests."""
    rps = plan.requests_per_second_per_replica
    return run_hours(plan.run_requests, plan.roofline, plan.batch, rps, replicas)


def with_rework_replicas(plan: ReplicaPlan, overhead: float) -> ReplicaPlan:
    """A batch's ``plan`` on a spot offer that redoes ``overhead`` of the work after interruptions: a run
    takes that much longer, so the replicas are sized for the work and the rework within the window (with
    the estimate's error band taken off, as the plan's own count is)."""
    if not overhead:
        return plan
    # Each replica's run takes 1 + overhead times as long: as many replicas as give each no more requests
    # than fit in the window so shortened (waves are whole, so scaling the window's replicas by 1 + overhead
    # fell short), then, as ``replicas._planned`` counts them, the spares and at least min_replicas.
    rps = plan.requests_per_second_per_replica
    shortened = plan.run_window_seconds / (1 + overhead)
    needed = units_fitting(plan.run_requests, plan.roofline, plan.batch, rps, shortened)
    if needed is not None:
        working = math.ceil(needed)
    else:
        # Not one request keeps the window with the rework: the nearest count, its run said as it is.
        working = math.ceil(plan.window_replicas * (1 + overhead) - 1e-9)
    added = max(working + plan.spares_asked, plan.min_replicas) - plan.replicas
    if added > 0:
        return batch_on_instances(plan, plan.replicas + added)._replace(rework_replicas=added)
    rework = working - plan.replicas_for_peak
    if rework <= 0:
        return plan
    # A stated min_replicas already runs the replicas the rework needs: they are the rework's, not spares.
    return plan._replace(
        replicas_for_peak=working,
        gpus_for_peak=working * plan.cards_per_replica,
        spare_replicas=plan.replicas - working,
        rework_replicas=rework,
    )


def same_shape(plan: ReplicaPlan, other: ReplicaPlan) -> bool:
    """The two plans bill alike on any offer: the same cards per replica and replicas."""
    return (plan.cards_per_replica, plan.replicas) == (other.cards_per_replica, other.replicas)


def throughput_alone(plan: ReplicaPlan, usd_per_month: float, servers: int | None = None) -> ThroughputAlone:
    """``plan``, the plan throughput alone chooses (``capacity.plan_for_throughput_alone``), as a result
    states it, with its bill (and, on own servers, the servers that hold it)."""
    return ThroughputAlone(
        cards_per_replica=plan.cards_per_replica,
        replicas=plan.replicas,
        spare_replicas=plan.spare_replicas,
        gpus=plan.gpus,
        usd_per_month=usd_per_month,
        servers=servers,
    )
