"""A workload's own load profile with hours that carry no requests: the schedule pays them (PRC024 says
so and names the hours_per_month that leaves them out), and with those hours left unpaid no request finds
no GPU (PRC009 silent) and the busy share is over the paid hours, the served hours' busy time in them."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run

from gpu_advisor.engine.calc.traffic import idle_served_hours, share_outside_busiest_hours

# A call centre's day: nothing from 20:00 to 06:00.
PROFILE = [0, 0, 0, 0, 0, 0, 0.5, 2, 4, 5, 4, 3, 2, 3, 5, 5, 4, 2, 1, 0.5, 0, 0, 0, 0]
CALL_CENTRE: dict[str, Any] = {
    "name": "callcentre-assist",
    "model": {"name": "qwen2.5-32b", "precision": "fp8"},
    "requests_per_day": 50_000,
    "avg_input_tokens": 1200,
    "avg_output_tokens": 250,
    "load_pattern": "variable",
    "schedule": "always",
    "load_profile": PROFILE,
    "latency_sensitive": True,
    "company_country": "DE",
}


def finding(result: Any, rule: str) -> str:
    return str(next(f.message for f in result.findings if f.rule_id == rule))


def test_the_quiet_hours_are_counted_and_the_busiest_paid_hours_carry_every_request() -> None:
    """10 of the 24 hours have no weight; paying 14 hours a day keeps every request, 12 leave out the
    two lightest (0.5 + 0.5 of the profile's 41)."""
    profile = tuple(float(p) for p in PROFILE)
    assert idle_served_hours(profile, 0, 24) == 10
    assert share_outside_busiest_hours(profile, 0, 24, 14.0) == 0.0
    assert share_outside_busiest_hours(profile, 0, 24, 12.0) == pytest.approx(1 / 41)
    assert share_outside_busiest_hours(profile, 0, 24, 24.0) == 0.0
    # A flat profile left 12 of 24 hours loses half its requests.
    assert share_outside_busiest_hours((1.0,) * 24, 0, 24, 12.0) == pytest.approx(0.5)


def test_paid_hours_without_requests_are_named_with_the_hours_that_leave_them_out() -> None:
    """730 paid hours around the clock, 10 of each day's without requests: 730 - 10 x 30.42 = 425.8."""
    result = run(CALL_CENTRE)
    assert "PRC024" in result.fired_rules
    assert "PRC009" not in result.fired_rules
    message = " ".join(finding(result, "PRC024").split())
    assert message.startswith(
        "The load profile has no requests in 10 of the 24 hours a day the schedule (always) serves, and "
        "they are paid"
    )
    assert "give hours_per_month: 426, the hours with requests" in message


def test_with_the_quiet_hours_unpaid_the_busy_share_is_over_the_paid_hours() -> None:
    """The same load on 426 paid hours: no request falls outside the 14 busiest hours a day, so PRC009
    stays silent, and the busy hours, unchanged, are a larger share of fewer paid hours: the share on
    730 paid hours times 730 / 426 (both worked out from the same busy hours)."""
    around_the_clock = run(CALL_CENTRE)
    paid = run({**CALL_CENTRE, "hours_per_month": 426})
    assert "PRC009" not in paid.fired_rules and "PRC024" not in paid.fired_rules
    assert around_the_clock.load.busy_share is not None and paid.load.busy_share is not None
    assert (paid.load.served_hours_per_month, paid.load.paid_hours_per_month) == (730, 426)
    # The 14 busiest hours a day carry every request: none is lost, all the busy time falls in them.
    assert paid.load.requests_share_in_paid_hours == pytest.approx(1.0)
    assert paid.load.busy_share == pytest.approx(around_the_clock.load.busy_share * 730 / 426, abs=1e-3)


def test_paid_hours_that_leave_out_requests_are_still_warned_of() -> None:
    """12 paid hours a day (365 a month) leave out the two lightest hours' requests, 1 / 41 = 2.4 % of
    them: above the 1 % line, PRC009 names that share."""
    result = run({**CALL_CENTRE, "hours_per_month": 365})
    assert "PRC009" in result.fired_rules
    assert "about 2 % of a day's requests even where the GPUs run in its busiest hours" in " ".join(
        finding(result, "PRC009").split()
    )


def test_paid_hours_that_leave_out_requests_count_only_the_kept_requests_busy_time() -> None:
    """At 10,000 requests a day, 12 paid hours a day (12 x 30.42 = 365.04 a month) keep 40 of the
    profile's 41 parts of the requests: on one offer, the throughput used is the around-the-clock one
    times 730 / 365.04, times 40 / 41 for the requests that find no GPU (they were counted in the paid
    hours), and the busy share is that of the 12 busiest hours."""
    light = {**CALL_CENTRE, "requests_per_day": 10_000}
    around = run(light)
    paid = run({**light, "hours_per_month": 365.04})
    assert paid.load.requests_share_in_paid_hours == pytest.approx(40 / 41)

    def option(result: Any) -> Any:
        # The same offer in both runs (fewer paid hours make another GPU the cheapest).
        return next(
            o for o in result.options if (o.provider, o.offer, o.gpu) == ("runpod", "community", "h100-pcie")
        )

    before, after = option(around), option(paid)
    assert before.replicas == after.replicas
    assert before.busy_share is not None and after.busy_share is not None
    # The busy time of the 12 busiest hours a day over them: above the whole day's share scaled to the
    # paid hours, and below that scaled by the requests kept too, since the two hours cut are the
    # lightest, which carry the most busy time per request (1 - e^(-λS) is concave).
    scaled = before.busy_share * 730 / 365.04
    assert scaled * 40 / 41 > after.busy_share > scaled * 0.9
    assert after.utilization == pytest.approx(before.utilization * 730 / 365.04 * 40 / 41, rel=1e-6)


def test_the_busy_hours_of_the_busiest_paid_hours_are_summed_exactly() -> None:
    """Three served hours at 0.5, 1 and 1.5 times the mean rate of 1 request/s, 2 s a request: busy
    1 - e^(-λS) of each. 1.5 paid hours keep the busiest hour and half of the next."""
    import math

    from gpu_advisor.engine.calc.traffic import ServiceTime, busy_hours_per_day, daily_traffic

    traffic = daily_traffic((0.5, 1.0, 1.5, *([0.0] * 21)), 0, 3)
    service = ServiceTime.constant(2.0, 1)
    busy = [1 - math.exp(-rate * 2.0) for rate in (0.5, 1.0, 1.5)]
    assert busy_hours_per_day(traffic, 1.0, service) == pytest.approx(sum(busy))
    assert busy_hours_per_day(traffic, 1.0, service, hours_kept=1.5) == pytest.approx(busy[2] + busy[1] / 2)
    assert busy_hours_per_day(traffic, 1.0, service, hours_kept=5) == pytest.approx(sum(busy))
