"""``ask --from`` a workload file whose own ``load_profile`` no question asks: the load pattern offered
with Enter is the one the profile implies, as the memo derives it from a file that leaves it out. It
offered "steady" for a profile busy by day, and saved ``load_pattern: steady`` where Enter was pressed.
Confirmed with Enter, the pattern offered is stated, as every answer is."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.questionnaire import load_questions

DAYTIME = [1, 1, 1, 1, 1, 1, 2, 4, 8, 10, 10, 10, 9, 9, 10, 10, 8, 6, 4, 3, 2, 1, 1, 1]
FLAT = [1] * 24


def ask_from(tmp_path: Path, workload: dict[str, object]) -> tuple[str, dict[str, object], str]:
    """Enter on every question: what was asked, the saved answers and the memo."""
    source = tmp_path / "given.yaml"
    source.write_text(yaml.safe_dump(workload), encoding="utf-8")
    out, memo = tmp_path / "out.yaml", tmp_path / "memo.md"
    result = CliRunner().invoke(
        main,
        ["ask", "--as-of", "2026-11-30", "--from", str(source), "--save", str(out), "--memo", str(memo)],
        input="\n" * (len(load_questions()) + 2),
    )
    assert result.exit_code == 0, result.output
    return result.output, yaml.safe_load(out.read_text(encoding="utf-8")), memo.read_text(encoding="utf-8")


@pytest.mark.parametrize(("profile", "pattern"), [(DAYTIME, "variable"), (FLAT, "steady")])
def test_the_pattern_offered_is_the_profiles_and_enter_states_it(
    tmp_path: Path, profile: list[int], pattern: str
) -> None:
    workload = {
        "name": "hours",
        "model": {"name": "llama-3.1-8b", "precision": "fp8"},
        "requests_per_day": 20000,
        "load_profile": profile,
    }
    asked, saved, memo = ask_from(tmp_path, workload)
    question = asked.split("How does the load behave?")[1].split("When does it run?")[0]
    assert question.split("\n")[-3:] == [f"   [{pattern}]> ", "", "11. "]
    assert saved["load_pattern"] == pattern
    assert saved["load_profile"] == profile
    assert f"| Load pattern | {pattern} |" in memo


def test_a_pattern_the_file_states_is_offered_as_stated(tmp_path: Path) -> None:
    workload = {
        "name": "hours",
        "model": {"name": "llama-3.1-8b", "precision": "fp8"},
        "requests_per_day": 20000,
        "load_pattern": "steady",
        "load_profile": DAYTIME,
    }
    asked, saved, memo = ask_from(tmp_path, workload)
    question = asked.split("How does the load behave?")[1].split("When does it run?")[0]
    assert question.split("\n")[-3:] == ["   [steady]> ", "", "11. "]
    assert saved["load_pattern"] == "steady"
    assert "| Load pattern | steady |" in memo


def test_a_pattern_taken_with_enter_still_follows_the_profile_after_the_review_changes_an_answer(
    tmp_path: Path,
) -> None:
    """A changed answer in the review works out every default taken with Enter again: the pattern's from
    the profile, not the documented "steady" (which the file would state over the profile)."""
    workload = {
        "name": "hours",
        "model": {"name": "llama-3.1-8b", "precision": "fp8"},
        "requests_per_day": 20000,
        "load_profile": DAYTIME,
    }
    source = tmp_path / "given.yaml"
    source.write_text(yaml.safe_dump(workload), encoding="utf-8")
    asked, _, _ = ask_from(tmp_path, workload)
    questions = asked.split("Your answers:")[0].count("\n\n") - 1
    out, memo = tmp_path / "changed.yaml", tmp_path / "changed.md"
    result = CliRunner().invoke(
        main,
        ["ask", "--as-of", "2026-11-30", "--from", str(source), "--save", str(out), "--memo", str(memo)],
        input="\n" * questions + "5\n30000\n\n",
    )
    assert result.exit_code == 0, result.output
    saved = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert saved["requests_per_day"] == 30000
    assert saved["load_pattern"] == "variable"
    assert "| Load pattern | variable |" in memo.read_text(encoding="utf-8")
