"""``check`` given a workload file (no proposal beside it) says what the file is and which command reads
it, instead of listing each of the workload's fields as unknown."""

from __future__ import annotations

from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main


def test_a_workload_file_is_named_as_one() -> None:
    path = EXAMPLES_DIR / "public-chat.yaml"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert result.output == (
        f"error: {path} (proposal 1): invalid proposal\n"
        "  this is a workload file: check reads a proposal beside its workload (workload: and proposal:, "
        "see gpu-advisor schema proposal-file); gpu-advisor recommend evaluates the workload alone\n"
    )
    german = CliRunner().invoke(main, ["check", str(path), "--lang", "de"])
    assert german.exit_code == 2
    assert "  dies ist eine Workload-Datei: check liest einen Vorschlag neben" in german.output
    assert "unknown field" not in result.output


def test_a_proposal_file_missing_its_proposal_still_names_the_field() -> None:
    """Only a mapping with a workload's own fields (a model) and no workload or proposal key is taken
    for a workload file; a proposal file that lacks its proposal says so."""
    result = CliRunner().invoke(main, ["check", "-"], input="workload: {model: {name: llama-3.1-8b}}\n")
    assert result.exit_code == 2
    assert "  proposal: Field required\n" in result.output
    assert "workload file" not in result.output
