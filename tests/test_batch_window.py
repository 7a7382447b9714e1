"""A batch window is a batch's: ``batch_window_hours`` beside another load pattern is refused (exit 2,
naming the field) wherever a workload is read, instead of silently ignored; the questionnaire asks for it
only for a batch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.questionnaire import load_questions, with_unasked
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.input_errors import error_text
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.web.form import read_form

AS_OF = "2026-11-30"
BASE: dict[str, Any] = {
    "name": "reports",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 100_000,
}
STEADY = (
    "batch_window_hours: applies to load_pattern: batch only, and this workload's load_pattern is steady; "
    "set load_pattern: batch or leave batch_window_hours out (got 6)"
)


def refusal(workload: dict[str, Any], lang: str = "en") -> str:
    with pytest.raises(InputError) as error:
        validate_workload(workload, "w.yaml")
    # The check across the two fields is reported at the load pattern it depends on.
    assert error.value.field in ("batch_window_hours", "load_pattern")
    return error_text(error.value, lang)


def test_a_window_beside_a_steady_load_is_refused_naming_the_field(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump({**BASE, "load_pattern": "steady", "batch_window_hours": 6}), "utf-8")
    result = CliRunner().invoke(main, ["recommend", str(path), "--as-of", AS_OF])
    assert result.exit_code == 2
    assert result.output == f"error: {path}: invalid workload\n  {STEADY}\n"


def test_a_window_beside_a_variable_load_or_the_default_one_is_refused() -> None:
    assert refusal({**BASE, "load_pattern": "variable", "batch_window_hours": 6}) == (
        "w.yaml: invalid workload\n  batch_window_hours: applies to load_pattern: batch only, and this "
        "workload's load_pattern is variable; set load_pattern: batch or leave batch_window_hours out (got 6)"
    )
    # Left out, the load pattern is the documented default, steady.
    assert refusal({**BASE, "batch_window_hours": 6}) == (
        "w.yaml: invalid workload\n  batch_window_hours: applies to load_pattern: batch only, and this "
        "workload's load_pattern is steady by default; set load_pattern: batch or leave batch_window_hours "
        "out (got 6)"
    )


def test_the_refusal_in_german() -> None:
    assert refusal({**BASE, "load_pattern": "steady", "batch_window_hours": 6}, "de") == (
        "w.yaml: ungültiger Workload\n  batch_window_hours: gilt nur für load_pattern: batch, und das "
        "load_pattern dieses Workloads ist steady; setzen Sie load_pattern: batch oder lassen Sie "
        "batch_window_hours weg (angegeben: 6)"
    )


def test_a_batch_keeps_its_window_and_a_bad_load_pattern_is_reported_alone() -> None:
    batch = validate_workload({**BASE, "load_pattern": "batch", "batch_window_hours": 6}, "w.yaml")
    assert batch.batch_window_hours == 6  # type: ignore[attr-defined]
    text = refusal({**BASE, "load_pattern": "nightly", "batch_window_hours": 6})
    assert "load_pattern: Input should be 'steady', 'variable' or 'batch' (got 'nightly')" in text
    assert "batch_window_hours" not in text


def test_a_batch_row_with_a_window_beside_a_steady_load_is_skipped_naming_the_field(tmp_path: Path) -> None:
    path = tmp_path / "w.csv"
    path.write_text(
        "name,model.name,model.precision,requests_per_day,load_pattern,batch_window_hours\n"
        "nightly,llama-3.1-8b,fp8,100000,batch,6\n"
        "chat,llama-3.1-8b,fp8,100000,steady,6\n"
        "plain,llama-3.1-8b,fp8,100000,steady,\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["batch", str(path), "--as-of", AS_OF, "--jobs", "1"])
    assert result.exit_code == 1  # a row was skipped
    # A cell is read as the field's type: the window is the number 6.0.
    assert f"{path}:3: invalid workload\n  {STEADY.replace('(got 6)', '(got 6.0)')}" in result.stderr
    names = [yaml.safe_load(line)["workload"]["name"] for line in result.stdout.splitlines()]
    assert names == ["nightly", "plain"]


def test_the_questionnaire_asks_for_the_window_only_for_a_batch() -> None:
    (question,) = [q for q in load_questions() if q.field == "batch_window_hours"]
    assert question.when is not None
    assert (question.when.field, question.when.equals, question.optional) == ("load_pattern", "batch", True)
    order = [q.field for q in load_questions()]
    assert order.index("batch_window_hours") == order.index("load_pattern") + 1


def test_the_form_reads_the_window_of_a_batch_and_leaves_it_to_a_batch() -> None:
    knowledge, fmt = load_knowledge(), Format.named("en")
    answers = {"name": "reports", "model.name": "llama-3.1-8b", "requests_per_day": "100000"}
    batch = read_form({**answers, "load_pattern": "batch", "batch_window_hours": "6"}, knowledge, fmt)
    assert batch.document is not None and batch.document["batch_window_hours"] == 6
    # A window carried in the loaded file's other fields beside a steady load cannot reach the workload:
    # the window is a question of its own, asked for a batch only.
    steady = read_form(
        {**answers, "load_pattern": "steady", "extra": '{"batch_window_hours": 6}'}, knowledge, fmt
    )
    assert steady.document is not None and "batch_window_hours" not in steady.document


def test_ask_from_a_batch_file_drops_the_window_once_the_load_is_no_batch() -> None:
    original = {**BASE, "load_pattern": "batch", "batch_window_hours": 6, "min_replicas": 2}
    document = {**BASE, "load_pattern": "steady"}
    answers = {"name": "reports", "load_pattern": "steady"}
    assert with_unasked(document, original, answers) == {**document, "min_replicas": 2}
    batch = {**document, "load_pattern": "batch", "batch_window_hours": 6}
    assert with_unasked(batch, original, {**answers, "batch_window_hours": 6}) == {**batch, "min_replicas": 2}
