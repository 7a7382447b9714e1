"""``gpu-advisor ask``: an offered default confirmed with Enter is an answer the user gave. It was left out
of the saved file, so the memo marked the asked facts "(default)" and the JSON listed them in
``workload.defaults_used`` as if never asked; now it is stated, and only what no question asked, or a
question left empty, stays a default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from test_questionnaire_answers import CONFIRMED

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.questionnaire import load_questions


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def ask(lines: list[str]) -> str:
    """``ask`` with one line of input per entry and Enter for every question left, and at the review."""
    typed = "\n".join(lines) + "\n" * (len(load_questions()) + 2)
    result = CliRunner().invoke(main, ["ask", "--as-of", "2026-11-30"], input=typed)
    assert result.exit_code == 0, result.output
    return result.output


# name, model 1 (llama-3.1-8b), precision with Enter, own weights typed, requests; Enter for the rest.
TYPED = ["bot", "1", "", "no", "5000"]


def test_enter_on_an_offered_default_is_stated_in_the_file() -> None:
    ask(TYPED)
    assert yaml.safe_load(Path("bot.yaml").read_text(encoding="utf-8")) == {
        "name": "bot",
        "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": False},
        "requests_per_day": 5000,
        "avg_input_tokens": 300,
        **CONFIRMED,
    }


def test_the_memo_marks_no_confirmed_yes_no_fact_as_a_default() -> None:
    ask(TYPED)
    rows = Path("bot-memo.md").read_text(encoding="utf-8").splitlines()
    for row in (
        "| Tokens per request | 300 in, 150 out |",
        "| Context | 8,192 tokens |",
        "| Load pattern | steady |",
        "| Schedule | around the clock, 730 paid hours per month |",
        "| Latency-sensitive | yes |",
        "| Personal data | no |",
        "| On premises required | no |",
        "| Model size stable | yes |",
        "| Company country | DE |",
        "| Volume growing | no |",
        "| DevOps capacity | yes |",
        "| Business-critical | no |",
        "| Framework | pytorch |",
        "| Needs a GPU | yes |",
        # Not asked: still the default, said so.
        "| Minimum replicas | 1 (default) |",
    ):
        assert row in rows, row


def test_the_json_lists_only_what_was_not_asked_as_defaults() -> None:
    ask(TYPED)
    result = CliRunner().invoke(main, ["recommend", "bot.yaml", "--as-of", "2026-11-30", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["workload"]["defaults_used"] == [
        "reasoning",
        "shared_prefix_tokens",
        "personal_data_region",
        "capacity_confirmed",
        "load_profile",
        "min_replicas",
        "serving_engine",
        "max_time_to_first_token_ms",
        "max_time_per_output_token_ms",
    ]


def test_a_question_left_empty_stays_a_default() -> None:
    """The paid hours and the utilization offer no default: Enter leaves them empty, and the schedule's
    hours and the derived utilization are used, as for a file that leaves them out."""
    ask(TYPED)
    saved = yaml.safe_load(Path("bot.yaml").read_text(encoding="utf-8"))
    assert ("hours_per_month" in saved, "utilization" in saved) == (False, False)
    memo = Path("bot-memo.md").read_text(encoding="utf-8")
    assert (
        "| Utilization | 10 % (derived: the share of paid hours with a request in flight, not of the cards' "
        "throughput) |"
    ) in memo.splitlines()
