"""Workload scenarios end to end: a workload through the whole pipeline, on the catalog's prices, with the
rules that must and must not fire and the decision. The rules one by one are tested on facts in
test_rule_cases.py; these show them working together."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import yaml
from helpers import TESTS_DIR, case_knowledge, merged, run

CASES_FILE = TESTS_DIR / "scenarios" / "workloads.yaml"
CASES: dict[str, Any] = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))


def case_id(case: dict[str, Any]) -> str:
    return str(case["name"])


@pytest.mark.parametrize("case", CASES["cases"], ids=case_id)
def test_rule_case(case: dict[str, Any]) -> None:
    evaluated_on = case.get("evaluated_on")
    result = run(
        merged(CASES["base"], case["workload"]),
        evaluated_on if isinstance(evaluated_on, dt.date) else dt.date(2026, 11, 30),
        knowledge=case_knowledge(case),
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
    if "best_option" in case:
        assert result.best_option is not None
        best = result.best_option.model_dump()
        for field, expected in case["best_option"].items():
            assert best[field] == expected, f"best_option.{field}: {best[field]!r} != {expected!r}"
