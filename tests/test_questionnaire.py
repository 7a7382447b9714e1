"""gpu-advisor ask, driven through a pseudo-terminal as a person would: wrong answers are explained and
asked again, the answers are saved as a workload file, the memo is written."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest
import yaml
from helpers import EXAMPLES_DIR

from gpu_advisor.engine.apps.questionnaire import (
    AnswerError,
    applies,
    default_for,
    load_questions,
    parse_answer,
)
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.i18n.formats import Format

GPU_ADVISOR = str(Path(sys.executable).parent / "gpu-advisor")
TIMEOUT = 30
REVIEW = "or press Enter to save"


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(
        GPU_ADVISOR,
        [
            "ask",
            "--save",
            str(tmp_path / "w.yaml"),
            "--memo",
            str(tmp_path / "memo.md"),
            "--as-of",
            "2026-11-30",
            *args,
        ],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 200),
        env={
            "PATH": str(Path(sys.executable).parent),
            "TERM": "dumb",
            "COLUMNS": "200",
            "LANG": "C.UTF-8",
            "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"],  # the suite's own (tests/conftest.py)
            # The package under test where it is found by PYTHONPATH, not the one installed.
            **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"},
        },
    )


def answer(child: pexpect.spawn, question: str, text: str) -> None:
    child.expect_exact(question)
    child.expect_exact("> ")
    child.sendline(text)


def interrupt(child: pexpect.spawn, stopped: str) -> None:
    """Ctrl-C at the prompt until ``stopped`` is said, at most three times. CPython loses a SIGINT that
    arrives after input() has released the interpreter but before its read() starts (the handler runs,
    the read then waits for a line): a person presses Ctrl-C again, and so does this."""
    for _ in range(3):
        child.sendintr()
        if child.expect_exact([stopped, pexpect.TIMEOUT], timeout=5) == 0:
            return
    raise AssertionError(f"{stopped!r} not said after three Ctrl-C")


def take_defaults_until(child: pexpect.spawn, end: str) -> None:
    """Press Enter at every remaining question until ``end`` appears."""
    for _ in (*load_questions(), "review"):
        found = child.expect([r"\n\d+\. ", REVIEW, end])
        if found == 2:
            return
        if found == 0:
            child.expect_exact("> ")
        child.sendline("")
    child.expect_exact(end)


def test_a_person_answers_including_wrong_answers(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    answer(child, "What is the workload called?", "support bot")
    answer(child, "Which model will it run?", "llama-70")  # not a choice
    child.expect_exact("Please pick a number from 1 to 12")
    child.sendline("2")  # llama-3.1-70b
    answer(child, "In which precision are the weights served?", "fp8")
    answer(child, "Are the weights your own or fine-tuned?", "maybe")
    child.expect_exact("Please answer yes or no (y/n).")
    child.sendline("n")
    answer(child, "How many requests a day?", "lots")
    child.expect_exact("Please give a whole number, for example 150000.")
    child.sendline("-5")
    child.expect_exact("That value is not allowed: Input should be greater than 0.")
    child.sendline("1,000,000")
    answer(child, "How many tokens does an average prompt have?", "")  # default 300
    answer(child, "How many tokens does an average answer have?", "")
    answer(child, "How long is the context window the service must hold?", "")
    answer(child, "How many tokens does every prompt begin with that are the same in every request?", "")
    answer(child, "How does the load behave?", "1")
    answer(child, "When does it run?", "always")
    answer(child, "How many paid hours a month, if not the schedule's?", "800")
    child.expect_exact("That value is not allowed: Input should be less than or equal to 744.")
    child.sendline("")  # the schedule's hours
    answer(child, "Do you know the GPU utilization (0 to 1)?", "1.5")
    child.expect_exact("That value is not allowed: Input should be less than or equal to 1.")
    child.sendline("")  # derive it
    answer(child, "Do users wait for the answers?", "")
    answer(child, "Does it process personal data (GDPR, the Swiss revDSG, UK GDPR)?", "yes")
    for question in ("Must the data stay in your building?", "Is the model size settled?"):
        answer(child, question, "")
    answer(child, "In which country is the company based?", "")
    child.expect_exact("Where are the people whose personal data it processes?")
    child.expect_exact("[eu]> ")  # the company's country, DE, is in the EU
    child.sendline("eea")
    child.expect_exact("Please pick a number from 1 to 5 or one of: eu, ch, uk, us, other.")
    child.sendline("")
    for question in (
        "Is the volume growing?",
        "Does the team have DevOps capacity to run rented GPUs?",
        "Is the workload business-critical?",
    ):
        answer(child, question, "")
    answer(child, "Does the company deduct the VAT it pays on purchases (input VAT)?", "no")
    answer(child, "Which framework serves the model?", "jax")
    answer(child, "Does the work need a GPU at all?", "")
    answer(child, "Your answers:", "")
    child.expect_exact("Saved the answers to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = yaml.safe_load((tmp_path / "w.yaml").read_text(encoding="utf-8"))
    # Every answer is stated, a default confirmed with Enter as well as one typed; the questions left
    # empty (paid hours, utilization) are not.
    assert saved == {
        "name": "support bot",
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": False},
        "requests_per_day": 1_000_000,
        "avg_input_tokens": 300,
        "avg_output_tokens": 150,
        "context_tokens": 8192,
        "load_pattern": "steady",
        "schedule": "always",
        "latency_sensitive": True,
        "personal_data": True,
        "on_premises_required": False,
        "model_stable": True,
        "company_country": "DE",
        "personal_data_region": "eu",
        "volume_growing": False,
        "devops_capacity": True,
        "business_critical": False,
        "input_vat_recoverable": False,
        "framework": "jax",
        "needs_gpu": True,
    }
    memo = (tmp_path / "memo.md").read_text(encoding="utf-8")
    assert memo.startswith("# GPU decision memo: support bot")
    assert "RES001" in memo  # personal data: EU only, the company's country's region confirmed
    # Confirmed with Enter, so given: no "(default)" beside them; what no question asked stays a default.
    assert "| Context | 8,192 tokens |" in memo
    assert "| Company country | DE |" in memo
    assert "| Minimum replicas | 1 (default) |" in memo
    # Answered no: every purchase priced with Germany's VAT.
    assert (
        "| Input VAT recoverable (input_vat_recoverable) | no (purchases priced with 19 % VAT, "
        "§ 12(1) UStG) |" in memo
    )


def test_prefilled_answers_are_offered_as_defaults(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--from", str(EXAMPLES_DIR / "hr-assistant.yaml"))
    take_defaults_until(child, "Saved the answers to")
    child.expect(pexpect.EOF)
    saved = yaml.safe_load((tmp_path / "w.yaml").read_text(encoding="utf-8"))
    original = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
    assert {key: saved[key] for key in original} == original


def test_ctrl_c_leaves_cleanly(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    answer(child, "What is the workload called?", "x")
    child.expect_exact("Which model will it run?")
    child.expect_exact("> ")
    interrupt(child, "Stopped: nothing was saved.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")
    assert not (tmp_path / "w.yaml").exists()


def test_end_of_input_leaves_cleanly(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    child.expect_exact("What is the workload called?")
    child.sendeof()
    child.expect_exact("Stopped: nothing was saved.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_german_questions(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--lang", "de")
    child.expect_exact("Wie heißt der Workload?")
    child.expect_exact("> ")
    interrupt(child, "Abgebrochen: nichts wurde gespeichert.")


def test_answers_that_do_not_fit_together_are_saved_with_a_way_forward(tmp_path: Path) -> None:
    """Each answer is valid alone; a context longer than the model's maximum fails only at the end."""
    child = spawn(tmp_path)
    answer(child, "What is the workload called?", "long context")
    answer(child, "Which model will it run?", "mistral-7b")
    answer(child, "In which precision are the weights served?", "")
    answer(child, "Are the weights your own or fine-tuned?", "")
    answer(child, "How many requests a day?", "5000")
    answer(child, "How many tokens does an average prompt have?", "")
    answer(child, "How many tokens does an average answer have?", "")
    answer(child, "How long is the context window the service must hold?", "100000")
    take_defaults_until(child, "The answers are saved in")
    child.expect_exact("Correct the field there and run")
    child.expect_exact("error: context_tokens: 100,000 exceeds mistral-7b's maximum context of 32,768 tokens")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    saved = yaml.safe_load((tmp_path / "w.yaml").read_text(encoding="utf-8"))
    assert saved["context_tokens"] == 100000
    assert not (tmp_path / "memo.md").exists()


def test_the_context_question_holds_a_long_prompt(tmp_path: Path) -> None:
    """After a 30,000-token prompt the context default rises to prompt plus answer, and a smaller
    context is explained and asked again."""
    child = spawn(tmp_path)
    answer(child, "What is the workload called?", "long prompts")
    answer(child, "Which model will it run?", "1")
    answer(child, "In which precision are the weights served?", "")
    answer(child, "Are the weights your own or fine-tuned?", "")
    answer(child, "How many requests a day?", "5000")
    answer(child, "How many tokens does an average prompt have?", "30000")
    answer(child, "How many tokens does an average answer have?", "")
    child.expect_exact("How long is the context window the service must hold?")
    child.expect_exact("[30150]> ")
    child.sendline("8192")
    child.expect_exact(
        "The context window must hold an average request: at least 30,150 tokens (prompt plus answer)."
    )
    child.sendline("")
    take_defaults_until(child, "Saved the answers to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = yaml.safe_load((tmp_path / "w.yaml").read_text(encoding="utf-8"))
    assert (saved["avg_input_tokens"], saved["context_tokens"]) == (30000, 30150)


def test_the_personal_data_region_is_asked_for_personal_data_and_defaults_to_the_company_country() -> None:
    (question,) = [q for q in load_questions() if q.field == "personal_data_region"]
    fields = [q.field for q in load_questions()]
    assert fields.index("company_country") < fields.index("personal_data_region")
    assert not applies(question, {"personal_data": False})
    assert applies(question, {"personal_data": True})
    knowledge = load_knowledge()
    defaults = {
        country: default_for(question, {"personal_data": True, "company_country": country}, {}, knowledge)
        for country in ("DE", "NO", "CH", "GB", "UK", "US", "JP")
    }
    assert defaults == {"DE": "eu", "NO": "eu", "CH": "ch", "GB": "uk", "UK": "uk", "US": "us", "JP": "other"}
    # A workload file's own value wins, as for every other question.
    assert default_for(question, {"company_country": "DE"}, {"personal_data_region": "us"}, knowledge) == "us"


def test_a_number_too_large_is_said_to_be_too_large() -> None:
    """'Please give a whole number' for 99999999999999999999, which is one: too large is what is wrong."""
    knowledge = load_knowledge()
    question = {q.field: q for q in load_questions()}["requests_per_day"]
    with pytest.raises(AnswerError) as english:
        parse_answer(question, "99999999999999999999", knowledge, Format.named("en"))
    assert str(english.value) == (
        "That value is not allowed: '99999999999999999999' is too large; a number is at most 1e15 in size."
    )
    with pytest.raises(AnswerError) as german:
        parse_answer(question, "1" + "0" * 400, knowledge, Format.named("de"))
    assert str(german.value).startswith(
        "Dieser Wert ist nicht zulässig: '1000000000000000000000000000000000000...'"
    )
