"""A managed API whose model reasons otherwise than the workload's: the comparison leaves it out (KNB021,
KNB022), and a proposal that names it is told why its answers or its bill differ (DEP053)."""

from __future__ import annotations

from typing import Any

from helpers import EVALUATED_ON

from gpu_advisor.api import check

CODING: dict[str, Any] = {
    "name": "de-coding-assistant",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 40000,
    "avg_input_tokens": 8000,
    "avg_output_tokens": 600,
    "context_tokens": 32768,
    "load_pattern": "variable",
    "schedule": "workdays",
    "latency_sensitive": True,
    "model_stable": True,
    "company_country": "DE",
}
TOGETHER = {
    "name": "coding on Together",
    "deployment": "api",
    "provider": "together",
    "offer": "qwen3-235b-a22b-2507-together",
}


def dep053(workload: dict[str, Any]) -> tuple[str, str | None]:
    result = check({"workload": workload, "proposal": TOGETHER}, EVALUATED_ON)
    (item,) = [i for i in result.results if i.rule_id == "DEP053"]
    return item.status, item.message


def test_an_instruct_api_for_a_thinking_model_is_a_warning_that_names_the_switch() -> None:
    """Qwen3-235B-A22B thinks first by its model card's default; Together's 2507 Instruct answers
    directly: the proposal passed every check. It now warns, and says which workload field admits such
    APIs to the comparison."""
    status, message = dep053(CODING)
    assert status == "warn"
    assert message == (
        "Qwen3 235B A22B Instruct 2507 FP8 (Together AI) serves a model that answers without a chain of "
        "thought, where the workload's model thinks before it answers: its answers are not the sized "
        "model's, and a test on the workload's own requests must show that they are good enough. Where the "
        "workload's model may answer without thinking, set model.reasoning: false and the recommendation "
        "compares such APIs (KNB021)."
    )


def test_a_workload_whose_model_answers_directly_is_not_warned() -> None:
    direct = {**CODING, "model": {**CODING["model"], "reasoning": False}}
    assert dep053(direct)[0] == "pass"
