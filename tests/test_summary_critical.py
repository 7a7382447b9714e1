"""The summary names each critical finding about the decision, not only counts it: a workload that needs
no GPU (DEP014) must read, above the fold, that the GPU route it prices is for comparison only."""

from __future__ import annotations

import datetime as dt

from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 12, 4)

NO_GPU = {
    "name": "signing-agent",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 100,
    "on_premises_required": True,
    "needs_gpu": False,
}


def summary(memo: str) -> str:
    return memo.split("## Summary", 1)[1].split("## Why", 1)[0]


def test_a_critical_finding_is_named_in_the_summary() -> None:
    result = recommend(validate_workload(NO_GPU, "test"), EVALUATED_ON)
    assert "DEP014" in result.fired_rules
    assert "Critical: No GPU needed: do not spend GPU hours on it (DEP014)." in summary(render_memo(result))


def test_a_workload_without_a_critical_finding_has_no_such_line() -> None:
    result = recommend(validate_workload({**NO_GPU, "needs_gpu": True}, "test"), EVALUATED_ON)
    assert not [f for f in result.findings if f.severity == "critical" and f.rule_id == "DEP014"]
    assert "Critical:" not in summary(render_memo(result))
