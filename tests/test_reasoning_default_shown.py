"""Whether the model thinks before it answers moves the decision (KNB021 sets an API of it aside); left to
the catalog, it was in no table and not among the defaults used."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

R1 = {
    "name": "r1",
    "model": {"name": "deepseek-r1", "precision": "fp8"},
    "requests_per_day": 2000,
    "on_premises_required": False,
}


def test_a_reasoning_model_left_to_the_catalog_is_a_default_said_in_the_workload_table() -> None:
    result = run(R1)
    assert result.workload.reasoning and result.workload.defaults_used[0] == "reasoning"
    assert (
        "| Reasoning model (thinks before it answers) | yes (the catalog's for this model; model.reasoning "
        "sets it) |\n"
    ) in render_memo(result)


def test_a_reasoning_flag_the_file_gives_is_not_a_default() -> None:
    result = run({**R1, "model": {**R1["model"], "reasoning": False}})
    assert not result.workload.reasoning and "reasoning" not in result.workload.defaults_used
    assert "| Reasoning model (thinks before it answers) | no |\n" in render_memo(result)


def test_a_model_given_by_its_size_answers_directly_by_default() -> None:
    result = run({**R1, "model": {"params_b": 13, "precision": "bf16"}})
    assert "| Reasoning model (thinks before it answers) | no (default; model.reasoning sets it) |\n" in (
        render_memo(result)
    )
