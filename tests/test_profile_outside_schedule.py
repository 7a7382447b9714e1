"""A workload's own load profile and its schedule disagree about when requests come (KNB015): the day's
requests are taken to arrive in the served hours, so the served hours carry what the profile puts
elsewhere; most of it there is flagged."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run

from gpu_advisor.engine.calc.traffic import share_outside_served_hours

# Busy at night: 10 in hours 0 to 6 and 18 to 23, 1 in hours 7 to 17; 141 in all.
NIGHT = (10.0,) * 7 + (1.0,) * 11 + (10.0,) * 6


def test_the_share_outside_the_served_hours_worked_out_by_hand() -> None:
    # Office hours serve 8 hours from 9:00: hours 9 to 16 carry 8 of 141, so 133 / 141 fall outside.
    assert share_outside_served_hours(NIGHT, 9, 8) == pytest.approx(133 / 141)
    # Around the clock nothing falls outside; half an hour served of hour 16 counts half of it.
    assert share_outside_served_hours(NIGHT, 0, 24) == 0
    assert share_outside_served_hours(NIGHT, 9, 7.5) == pytest.approx(1 - 7.5 / 141)
    # Wrapping past midnight: 22:00 for 4 hours serves 22, 23, 0 and 1, 40 of 141.
    assert share_outside_served_hours(NIGHT, 22, 4) == pytest.approx(101 / 141)


WORKLOAD: dict[str, Any] = {
    "name": "night-profile",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 80_000,
    "schedule": "office_hours",
    "load_pattern": "variable",
    "load_profile": list(NIGHT),
    "company_country": "DE",
}


def test_a_profile_mostly_outside_the_schedule_is_flagged() -> None:
    result = run(WORKLOAD)
    message = next(f.message for f in result.findings if f.rule_id == "KNB015")
    assert " ".join(message.split()) == (
        "The workload's own load_profile puts 94 % of a day's requests in hours its schedule (office_hours: "
        "9:00 to 17:00) does not serve. gpu-advisor takes the 80,000 requests a day to arrive in the served "
        "hours, shaped there by the profile, so the served hours carry that share too and the replicas are "
        "sized for it. If the requests do arrive in the other hours, choose a schedule that serves them; if "
        "only the served hours' share arrives, lower requests_per_day to it, about 4,539."  # 80,000 × 8 / 141
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"schedule": "always"},  # every hour served
        # The steady pattern's own profile puts 62 % outside office hours: cut to the schedule by design.
        {"load_profile": None, "load_pattern": "steady"},
    ],
)
def test_no_flag_where_the_schedule_serves_the_profile(changes: dict[str, Any]) -> None:
    workload = {key: value for key, value in {**WORKLOAD, **changes}.items() if value is not None}
    assert "KNB015" not in run(workload).fired_rules
