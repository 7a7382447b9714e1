"""A workload's own load profile given without a load pattern: the pattern the rules read is the one whose
published profile's shape over the schedule's hours (busiest and quietest hour, each over the mean) is
nearest the profile's own (``pipeline/defaults.profile_pattern``), not the default steady one."""

from __future__ import annotations

import math

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

STEADY, VARIABLE = (1.33 / 1.0, 0.70 / 1.0), (2.31 / 1.0, 0.06 / 1.0)
"""The published profiles around the clock: busiest and quietest hour over a mean of 1.0 (their 24 hours
sum to 24, to the figures' rounding)."""


def test_a_call_centre_day_is_variable() -> None:
    """Busiest 2 / 0.85 = 2.353 times the mean, quietest 0: 0.07 from the variable profile's point,
    1.24 from the steady one's."""
    own = (2 / (20.4 / 24), 0.0)
    assert (round(math.dist(own, VARIABLE), 2), round(math.dist(own, STEADY), 2)) == (0.07, 1.24)
    assert profile_pattern(CALL_CENTRE, load_knowledge().schedule("always"), load_knowledge()) == "variable"
    result = run({**WORKLOAD, "load_profile": CALL_CENTRE})
    assert (result.workload.load_pattern, result.workload.load_pattern_source) == ("variable", "load_profile")
    assert "load_pattern" not in result.workload.defaults_used


def test_a_flat_day_with_ten_empty_hours_is_variable() -> None:
    """Fourteen hours of 1 and ten of 0: busiest 1 / (14 / 24) = 1.71 times the mean, nearer the steady
    profile's 1.33 than the variable one's 2.31 by itself, but its empty hours put it 0.60 from the
    variable point and 0.80 from the steady one."""
    day = [0.0] * 6 + [1.0] * 14 + [0.0] * 4
    own = (24 / 14, 0.0)
    assert (round(math.dist(own, VARIABLE), 2), round(math.dist(own, STEADY), 2)) == (0.6, 0.8)
    assert run({**WORKLOAD, "load_profile": day}).workload.load_pattern == "variable"


def test_a_flat_day_is_steady_and_never_a_batch() -> None:
    """[1] x 24 is the batch profile's own shape (a scheduler's, not a load's): the nearest service
    pattern is steady. A midday rise (1.5 from 12:00 to 14:00: 1.44 and 0.96 over a mean of 1.042)
    stays steady."""
    assert run({**WORKLOAD, "load_profile": [1.0] * 24}).workload.load_pattern == "steady"
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


def test_the_schedules_hours_are_what_the_shape_is_over() -> None:
    """The call centre's day in office hours (8 hours from 09:00): 2, 2, 1.8, 1.2, 1.5, 2, 2, 1.8, a mean
    of 1.7875: busiest 1.12, quietest 0.67 times it. Over the same hours the steady profile's is 1.15 and
    0.84, the variable one's 1.36 and 0.49: steady within the hours served."""
    knowledge = load_knowledge()
    office = knowledge.schedule("office_hours")
    assert (office.first_hour, office.hours_per_day) == (9, 8)
    assert profile_pattern(CALL_CENTRE, office, knowledge) == "steady"
