"""A workload that needs no GPU (DEP014) must read, above the fold, that the GPU route its summary names
is for comparison only."""

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


def test_a_workload_that_needs_no_gpu_is_told_so_in_the_summary() -> None:
    result = recommend(validate_workload(NO_GPU, "test"), EVALUATED_ON)
    assert "DEP014" in result.fired_rules
    assert result.decision.deployment == "own_hardware"
    assert (
        "The workload states that it needs no GPU (DEP014): the GPU route above is for comparison only; run "
        "it on a CPU instance."
    ) in summary(render_memo(result))


def test_a_workload_that_needs_a_gpu_has_no_such_line() -> None:
    result = recommend(validate_workload({**NO_GPU, "needs_gpu": True}, "test"), EVALUATED_ON)
    assert "DEP014" not in result.fired_rules
    assert "needs no GPU" not in summary(render_memo(result))
