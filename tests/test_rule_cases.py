"""Each rule fires where the documents say it should and stays silent where they don't."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import yaml
from helpers import TESTS_DIR, merged, run

from gpu_advisor.engine.rulebook.loading import load_rulebook

CASES_FILE = TESTS_DIR / "rule_cases" / "cases.yaml"
CASES: dict[str, Any] = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))


def case_id(case: dict[str, Any]) -> str:
    return str(case["name"])


@pytest.mark.parametrize("case", CASES["cases"], ids=case_id)
def test_rule_case(case: dict[str, Any]) -> None:
    evaluated_on = case.get("evaluated_on")
    result = run(
        merged(CASES["base"], case["workload"]),
        evaluated_on if isinstance(evaluated_on, dt.date) else dt.date(2026, 11, 30),
    )
    fired = set(result.fired_rules)
    if "fired_exactly" in case:
        assert sorted(fired) == sorted(case["fired_exactly"])
    for rule_id in case.get("fires", []):
        assert rule_id in fired, f"{rule_id} should fire; fired: {sorted(fired)}"
    for rule_id in case.get("does_not_fire", []):
        assert rule_id not in fired, f"{rule_id} should not fire; fired: {sorted(fired)}"
    decision = result.decision.model_dump()
    for field, expected in case.get("decision", {}).items():
        assert decision[field] == expected, f"decision.{field}: {decision[field]!r} != {expected!r}"


def test_every_rule_has_a_case_where_it_fires_and_one_where_it_does_not() -> None:
    firing: set[str] = set()
    silent: set[str] = set()
    for case in CASES["cases"]:
        firing.update(case.get("fires", []), case.get("fired_exactly", []))
        silent.update(case.get("does_not_fire", []))
    rule_ids = {rule.id for rule in load_rulebook().rules if not rule.is_check}  # checks: test_check.py
    assert rule_ids - firing == set(), "rules without a firing case"
    assert rule_ids - silent == set(), "rules without a silent case"
    assert (firing | silent) - rule_ids == set(), "cases name unknown rules"
