"""The paid hours with requests, where a service's load profile leaves some of its schedule's hours
empty (PRC024's case), and what the rental buying is compared with would bill at them: TCO017 sets that
beside owning, whose comparison is at every paid hour."""

from __future__ import annotations

from gpu_advisor.engine.calc.traffic import idle_served_hours
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.own_costs import OwnHardware
from gpu_advisor.engine.domain.workload import ResolvedWorkload


def rent_at_hours_with_requests(
    knowledge: Knowledge, resolved: ResolvedWorkload, own: OwnHardware
) -> dict[str, float]:
    """The paid hours with requests (``hours_with_requests``) and what the rental buying is compared with
    (billed by the hour) would bill at them; zeros where no paid hour is empty or it bills every hour, or
    its cards are kept beyond the paid hours (PRC033: a business-critical service stops them in none)."""
    hours = hours_with_requests(knowledge, resolved)
    billed, cost = own.cheapest_billed_hours_per_month, own.cheapest_same_hours_usd_per_month
    hourly = own.cheapest_same_hours_billing == "hourly"
    if not hours or not hourly or not billed or cost is None or billed > resolved.hours_per_month:
        return {"hours_with_requests_per_month": 0.0, "rent_usd_per_month_at_hours_with_requests": 0.0}
    return {
        "hours_with_requests_per_month": hours,
        "rent_usd_per_month_at_hours_with_requests": cost * hours / billed,
    }


def hours_with_requests(knowledge: Knowledge, resolved: ResolvedWorkload) -> float:
    """The paid hours a month with requests where the load profile leaves some of a service's schedule
    hours empty and every schedule hour is paid (PRC024's case); 0 otherwise."""
    schedule = knowledge.schedule(resolved.schedule)
    if resolved.load_pattern == "batch" or resolved.hours_per_month < schedule.hours_per_month:
        return 0.0
    idle = idle_served_hours(tuple(resolved.load_profile), schedule.first_hour, schedule.hours_per_day)
    if not idle or idle < knowledge.threshold("idle_profile_hours_min").value:
        return 0.0
    return resolved.hours_per_month - idle * schedule.days_per_month
