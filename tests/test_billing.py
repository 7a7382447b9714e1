"""How the day's traffic and the busy share are worked out, with the figures worked out by hand here: the
profile over a schedule's hours, the busy share (M/G/∞) and the service time under load (serverless
instance-hours: test_serverless_billing.py)."""

from __future__ import annotations

import math

import pytest
from helpers import run

from gpu_advisor import api
from gpu_advisor.engine.calc.traffic import ServiceTime, busy_hours_per_day, busy_replicas, daily_traffic
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

FLAT = (1.0,) * 24


# --- the day's traffic --------------------------------------------------------------------------------


def test_a_profile_is_spread_over_the_schedules_hours() -> None:
    # Office hours, 9:00 to 17:00, with the steady profile: hours 9 to 16 carry 1.09, 0.97, 1.03, 1.15,
    # 1.28, 1.33, 1.25, 1.13 (sum 9.23); each hour's rate over the mean of the eight is p x 8 / 9.23.
    steady = load_knowledge().load_profile("steady").hourly
    traffic = daily_traffic(steady, 9, 8)
    assert traffic.served == (0,) * 9 + (1,) * 8 + (0,) * 7
    assert traffic.relative_rate[14] == pytest.approx(1.33 * 8 / 9.23)
    assert traffic.relative_rate[8] == 0 and traffic.relative_rate[17] == 0
    assert sum(traffic.relative_rate) / 8 == pytest.approx(1.0)


def test_a_schedule_wraps_past_midnight_and_serves_part_of_an_hour() -> None:
    traffic = daily_traffic(FLAT, 22, 3.5)
    assert traffic.served[22:] == (1, 1) and traffic.served[:2] == (1, 0.5)
    assert traffic.relative_rate[1] == pytest.approx(1.0)  # the rate within the half hour served


def test_a_profile_without_traffic_in_the_schedules_hours_is_refused() -> None:
    night = (1.0,) * 6 + (0.0,) * 18
    with pytest.raises(ValueError, match="no traffic in the hours the schedule serves"):
        daily_traffic(night, 9, 8)
    workload = {
        "name": "night",
        "model": {"name": "llama-3.1-8b", "precision": "bf16"},
        "requests_per_day": 1000,
        "schedule": "office_hours",
        "load_profile": list(night),
    }
    with pytest.raises(api.InputError, match="load_profile") as error:
        run(workload)
    assert error.value.field == "load_profile"


def test_a_profile_needs_24_values() -> None:
    workload = {
        "name": "short",
        "model": {"name": "llama-3.1-8b", "precision": "bf16"},
        "requests_per_day": 1000,
        "load_profile": [1.0] * 23,
    }
    with pytest.raises(api.InputError, match="24 hourly values"):
        api.workload_from_dict(workload, "short")


def test_a_workloads_own_profile_moves_the_peak() -> None:
    # All traffic in two hours of the day: each carries half of it, at 12 times the day's mean rate.
    base = {"name": "own", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 86_400}
    two_hours = [0.0] * 24
    two_hours[10] = two_hours[11] = 1.0
    result = run({**base, "load_profile": two_hours})
    assert result.load.profile_source == "input"
    assert result.load.busiest_hour_requests_per_second == pytest.approx(12.0)
    assert result.load.peak_requests_per_second == pytest.approx(12.0 * 1.27)  # the steady pattern's burst
    assert "load_profile" not in result.workload.defaults_used
    assert "load_profile" in run(base).workload.defaults_used


# --- busy share and service time ----------------------------------------------------------------------


def test_busy_hours_follow_m_g_infinity() -> None:
    # 0.1 requests/s around the clock, 2 s each: each hour is busy 1 - e^(-0.2) = 18.127 % of its time.
    service = ServiceTime.constant(2.0, replicas=1)
    busy = busy_hours_per_day(daily_traffic(FLAT, 0, 24), 0.1, service)
    assert busy == pytest.approx(24 * (1 - math.exp(-0.2)))
    assert busy == pytest.approx(4.3505, abs=1e-4)


def test_each_replica_is_busy_less_often_than_the_fleet() -> None:
    # 1 request/s around the clock, 2 s each, over 4 replicas (batch 1: S stays 2 s): N, the requests in
    # flight, is Poisson with mean 2; the fleet has one in flight 1 - e^(-2) = 86.47 % of each hour. Sent
    # to an idle replica whenever one is idle, min(N, 4) replicas are busy:
    # E = 4 - (4 p0 + 3 p1 + 2 p2 + p3) with p_k = e^(-2) 2^k / k!, so each is busy E / 4 = 48.12 %.
    # Counting the fleet's share on every replica's cards made a spare as busy as the fleet.
    p = [math.exp(-2) * 2**k / math.factorial(k) for k in range(4)]
    each = (4 - (4 * p[0] + 3 * p[1] + 2 * p[2] + p[3])) / 4
    assert each == pytest.approx(0.481215, abs=1e-6)
    service = ServiceTime.constant(2.0, replicas=4)
    day = daily_traffic(FLAT, 0, 24)
    assert busy_hours_per_day(day, 1.0, service) == pytest.approx(24 * (1 - math.exp(-2)))
    assert busy_hours_per_day(day, 1.0, service, per_replica=True) == pytest.approx(24 * each)


def test_busy_replicas_reach_the_replicas_under_a_heavy_load() -> None:
    # 800 requests in flight on average over 900 replicas: about 800 busy; far below the mean, the
    # Poisson terms are left out (busy_replicas' tail cut) without changing the figure.
    assert busy_replicas(800.0, 900) == pytest.approx(800.0, abs=0.01)
    assert busy_replicas(5.0, 1) == pytest.approx(1 - math.exp(-5))
    assert busy_replicas(0.0, 3) == 0.0


def test_a_fleet_far_larger_than_the_load_sums_only_the_tail() -> None:
    """E[min(N, n)] worked out term by term over every k below n, against the cut sum: the same figure
    where n lies far above the mean (a fleet of ten million replicas for 50 in flight took a term per
    replica, a minute for one workload)."""

    def every_term(mean: float, n: int) -> float:
        return n - sum((n - k) * math.exp(k * math.log(mean) - mean - math.lgamma(k + 1)) for k in range(n))

    # Small means too, where twelve deviations above the mean are not yet the tail (0.0067 summed only
    # k = 0 and 1, off by 0.67 %).
    for mean, n in ((30.0, 200), (30.0, 31), (400.0, 2_000), (0.0067, 3), (0.003, 40), (1e-6, 50)):
        assert busy_replicas(mean, n) == pytest.approx(every_term(mean, n), rel=1e-12)
    assert busy_replicas(50.0, 10_000_000) == pytest.approx(50.0, rel=1e-12)
