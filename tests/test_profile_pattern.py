"""A workload's own load profile given without a load pattern: the pattern the rules read is the one whose
published profile's busiest hour over the mean of the schedule's hours is nearest the profile's own
(``pipeline/defaults.profile_pattern``), not the default steady one."""

from __future__ import annotations

import math

import pytest
from helpers import run

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.pipeline.defaults import profile_pattern

CALL_CENTRE = [0, 0, 0, 0, 0, 0, 0.5, 1, 1.5, 2, 2, 1.8, 1.2, 1.5, 2, 2, 1.8, 1.5, 1, 0.6, 0, 0, 0, 0]
"""Nothing from 20:00 to 06:00: 20.4 in the day, a mean of 0.85 an hour, a busiest hour of 2."""

WORKLOAD = {
    "name": "call-centre",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 50000,
}


def test_a_call_centre_day_is_variable() -> None:
    """Its busiest hour is 2 / 0.85 = 2.353 times the mean: |ln 2.353 - ln 2.31| is 0.02 from the variable
    profile's (busiest 2.31 over a mean of 1.0 in its 24 hours), 0.57 from the steady one's (1.33)."""
    knowledge = load_knowledge()
    always = knowledge.schedule("always")
    assert math.log(2 / (20.4 / 24)) == pytest.approx(0.8557, abs=5e-5)
    assert profile_pattern(CALL_CENTRE, always, knowledge) == "variable"
    result = run({**WORKLOAD, "load_profile": CALL_CENTRE})
    assert (result.workload.load_pattern, result.workload.load_pattern_source) == ("variable", "load_profile")
    assert "load_pattern" not in result.workload.defaults_used


def test_a_flat_day_with_a_midday_rise_is_steady() -> None:
    """1 in every hour but 1.5 from 12:00 to 14:00: a mean of 25 / 24 = 1.042 and a busiest hour 1.44 times
    it, nearer the steady profile's 1.33 than the variable one's 2.31."""
    flat = [1.0] * 24
    flat[12] = flat[13] = 1.5
    result = run({**WORKLOAD, "load_profile": flat})
    assert (result.workload.load_pattern, result.workload.load_pattern_source) == ("steady", "load_profile")


def test_a_pattern_given_beside_the_profile_is_kept() -> None:
    result = run({**WORKLOAD, "load_profile": CALL_CENTRE, "load_pattern": "steady"})
    assert (result.workload.load_pattern, result.workload.load_pattern_source) == ("steady", "input")


def test_without_a_profile_the_pattern_is_the_default() -> None:
    result = run(WORKLOAD)
    assert (result.workload.load_pattern, result.workload.load_pattern_source) == ("steady", "default")
    assert "load_pattern" in result.workload.defaults_used


def test_the_schedules_hours_are_what_the_ratio_is_over() -> None:
    """The call centre's day in office hours (8 hours from 09:00): 2, 2, 1.8, 1.2, 1.5, 2, 2, 1.8, a mean
    of 1.7875 and a busiest hour 1.119 times it, nearest the steady profile's 1.33 / 1.154 = 1.152 over the
    same hours (the variable one's: 2.31 / 1.70 = 1.36): steady within the hours served."""
    knowledge = load_knowledge()
    office = knowledge.schedule("office_hours")
    assert (office.first_hour, office.hours_per_day) == (9, 8)
    assert profile_pattern(CALL_CENTRE, office, knowledge) == "steady"
