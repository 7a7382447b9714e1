"""gpu-advisor ask driven with typed input: every message in the chosen language, numbers read as the
language writes them, choices matched forgivingly, a review of all answers before saving."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.questionnaire import AnswerError, load_questions, parse_answer, read_number
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.i18n.formats import Format

ENGLISH_LEAKS = ("Input should", "is not a valid", "Error:", "Please ", "That value")


def run_ask(tmp_path: Path, lines: list[str], *args: str) -> Result:
    """``ask`` in ``tmp_path`` with one line of input per entry; Enter for every question left over, and
    Enter at the review (which saves)."""
    result = CliRunner().invoke(
        main,
        ["ask", "--as-of", "2026-11-30", *args],
        input="\n".join(lines) + "\n" * (len(load_questions()) + 2),
    )
    result.files = {  # type: ignore[attr-defined]
        p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir() if p.is_file()
    }
    return result


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


GERMAN_START = ["Chat", "2", "", "nein"]  # name, llama-3.1-70b, precision default, own weights


def test_german_answers_to_questions_with_a_default_are_explained_in_german(tmp_path: Path) -> None:
    # avg_input_tokens has a default (300): "abc" once went through click's English int conversion.
    result = run_ask(tmp_path, [*GERMAN_START, "5000", "abc", "400"], "--lang", "de")
    assert result.exit_code == 0, result.output
    assert "Bitte geben Sie eine ganze Zahl an, zum Beispiel 150.000." in result.output
    assert "is not a valid integer" not in result.output
    assert yaml.safe_load(result.files["Chat.yaml"])["avg_input_tokens"] == 400  # type: ignore[attr-defined]


def test_german_limits_are_explained_in_german(tmp_path: Path) -> None:
    result = run_ask(tmp_path, [*GERMAN_START, "-5", "5000"], "--lang", "de")
    assert result.exit_code == 0, result.output
    assert "Dieser Wert ist nicht zulässig: Erwartet wird ein Wert größer als 0." in result.output
    for leak in ENGLISH_LEAKS:
        assert leak not in result.output, leak


def test_a_country_code_in_small_letters_is_its_code_and_a_name_is_explained(tmp_path: Path) -> None:
    fmt = Format.named("de")
    (question,) = [q for q in load_questions() if q.field == "company_country"]
    assert parse_answer(question, "at", load_knowledge(), fmt) == "AT"
    with pytest.raises(AnswerError) as error:
        parse_answer(question, "Deutschland", load_knowledge(), fmt)
    assert str(error.value) == "Dieser Wert ist nicht zulässig: ein ISO-3166-Code aus zwei Buchstaben."


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        (
            "en",
            "XX is no ISO 3166-1 country code: give the two-letter code of the company's country, such as "
            "DE, AT or CH.",
        ),
        (
            "de",
            "XX ist kein Ländercode nach ISO 3166-1: Geben Sie den zweibuchstabigen Code des Landes des "
            "Unternehmens an, etwa DE, AT oder CH.",
        ),
    ],
)
def test_a_country_code_iso_does_not_assign_is_refused(lang: str, message: str) -> None:
    (question,) = [q for q in load_questions() if q.field == "company_country"]
    with pytest.raises(AnswerError) as error:
        parse_answer(question, "XX", load_knowledge(), Format.named(lang))
    assert str(error.value) == message
    assert parse_answer(question, "AT", load_knowledge(), Format.named(lang)) == "AT"


@pytest.mark.parametrize(
    ("lang", "text", "integer", "value"),
    [
        ("de", "0,7", False, 0.7),
        ("de", "0.7", False, 0.7),  # not a thousands group: a decimal point, as typed
        ("de", "5.000", False, 5000),
        ("de", "5.000", True, 5000),
        ("de", "1.000.000", True, 1_000_000),
        ("de", "1.234,5", False, 1234.5),
        ("de", "5,000", False, 5.0),
        ("en", "0.7", False, 0.7),
        ("en", "0,7", False, 0.7),  # not a thousands group: a decimal comma, as typed
        ("en", "5,000", False, 5000),
        ("en", "5,000", True, 5000),
        ("en", "1,234.5", False, 1234.5),
        ("en", "5.000", False, 5.0),
        ("en", "150 000", True, 150000),
    ],
)
def test_one_number_reader_by_language(lang: str, text: str, integer: bool, value: float) -> None:
    assert read_number(text, integer, Format.named(lang)) == value


@pytest.mark.parametrize(
    ("lang", "text"), [("de", "5,000"), ("de", "0,7"), ("en", "5.000"), ("en", "1.5"), ("en", "1,00")]
)
def test_a_decimal_is_no_whole_number(lang: str, text: str) -> None:
    with pytest.raises(AnswerError):
        read_number(text, True, Format.named(lang))


def test_every_number_question_reads_numbers_alike(tmp_path: Path) -> None:
    """hours_per_month and utilization (numbers) read like requests_per_day (a whole number)."""
    knowledge, fmt = load_knowledge(), Format.named("de")
    by_field = {q.field: q for q in load_questions()}
    assert parse_answer(by_field["requests_per_day"], "5.000", knowledge, fmt) == 5000
    # one thousand hours, not one: above the 744 hours of a month
    with pytest.raises(AnswerError, match="höchstens 744"):
        parse_answer(by_field["hours_per_month"], "1.000", knowledge, fmt)
    assert parse_answer(by_field["hours_per_month"], "176,5", knowledge, fmt) == 176.5
    assert parse_answer(by_field["utilization"], "0,7", knowledge, fmt) == 0.7
    assert parse_answer(by_field["utilization"], "0.7", knowledge, Format.named("en")) == 0.7
    assert parse_answer(by_field["utilization"], "0,7", knowledge, Format.named("en")) == 0.7


def test_choices_ignore_case_and_suggest_a_close_match(tmp_path: Path) -> None:
    knowledge, fmt = load_knowledge(), Format.named("en")
    by_field = {q.field: q for q in load_questions()}
    assert parse_answer(by_field["model.name"], "Llama-3.1-70B", knowledge, fmt) == "llama-3.1-70b"
    assert parse_answer(by_field["load_pattern"], "Steady", knowledge, fmt) == "steady"
    with pytest.raises(AnswerError, match=r"Did you mean 'llama-3\.1-8b'\?"):
        parse_answer(by_field["model.name"], "lama-3.1-8b", knowledge, fmt)
    with pytest.raises(AnswerError, match=r"Meinten Sie 'variable'\?"):
        parse_answer(by_field["load_pattern"], "varible", knowledge, Format.named("de"))


MODEL_CHOICES = (
    "Please pick a number from 1 to 12 or one of: llama-3.1-8b, llama-3.1-70b, llama-3.1-405b, mixtral-8x7b, "
    "qwen2.5-7b, qwen2.5-72b, deepseek-r1, qwen2.5-32b, llama-3.3-70b, mistral-7b, qwen3-235b-a22b, other."
)


def model_answer_error(text: str, lang: str = "en") -> str:
    question = next(q for q in load_questions() if q.field == "model.name")
    with pytest.raises(AnswerError) as error:
        parse_answer(question, text, load_knowledge(), Format.named(lang))
    return str(error.value)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        # Llama 3.1 comes in 8B, 70B and 405B: a 7B is none of them. Its spelling is nearest llama-3.1-70b,
        # its size llama-3.1-8b (8/7 against 70/7), and the catalog's 7B models are Qwen2.5 and Mistral.
        (
            "llama-3.1-7b",
            "No catalog model of that name has 7B parameters; 'other' takes a model by its size. Did you "
            "mean one of 'llama-3.1-8b', 'qwen2.5-7b', 'mistral-7b'?",
        ),
        (
            "Llama 3.3 7B",
            "No catalog model of that name has 7B parameters; 'other' takes a model by its size. Did you "
            "mean one of 'llama-3.1-8b', 'qwen2.5-7b', 'mistral-7b'?",
        ),
        # no 80B model at all: the Llama 3.1 nearest in size, and that it is another size
        (
            "llama-3.1-80b",
            "No catalog model of that name has 80B parameters; 'other' takes a model by its size. Did you "
            "mean 'llama-3.1-70b'?",
        ),
        # a misspelling of a model of the size typed is that model
        ("lama-3.1-8b", "Did you mean 'llama-3.1-8b'?"),
        ("qwen-72b", "Did you mean 'qwen2.5-72b'?"),
        # no size typed: every model the answer starts
        ("llama-3.1", "Did you mean one of 'llama-3.1-8b', 'llama-3.1-70b', 'llama-3.1-405b'?"),
    ],
)
def test_a_model_named_with_a_size_is_not_taken_for_another_size(typed: str, said: str) -> None:
    assert model_answer_error(typed) == f"{MODEL_CHOICES} {said}"


def test_a_missing_size_in_german() -> None:
    assert model_answer_error("llama-3.1-7b", "de") == (
        "Bitte wählen Sie eine Zahl von 1 bis 12 oder einen dieser Werte: llama-3.1-8b, llama-3.1-70b, "
        "llama-3.1-405b, mixtral-8x7b, qwen2.5-7b, qwen2.5-72b, deepseek-r1, qwen2.5-32b, llama-3.3-70b, "
        "mistral-7b, qwen3-235b-a22b, other (andere). Kein Katalogmodell dieses Namens hat 7 Mrd. "
        "Parameter; mit 'andere' geben Sie ein Modell über seine Größe an. Meinten Sie einen dieser Werte: "
        "'llama-3.1-8b', 'qwen2.5-7b', 'mistral-7b'?"
    )


def test_ask_says_it_and_asks_again(tmp_path: Path) -> None:
    result = run_ask(tmp_path, ["bot", "llama-3.1-7b", "1", "", "", "5000"])
    assert result.exit_code == 0, result.output
    assert (
        f"  > llama-3.1-7b\n   {MODEL_CHOICES} No catalog model of that name has 7B parameters; 'other' "
        "takes a model by its size. Did you mean one of 'llama-3.1-8b', 'qwen2.5-7b', 'mistral-7b'?\n  > 1\n"
    ) in result.output
    assert "name: llama-3.1-8b" in result.files["bot.yaml"]  # type: ignore[attr-defined]


def test_german_words_are_choices_for_german_users(tmp_path: Path) -> None:
    knowledge, fmt = load_knowledge(), Format.named("de")
    by_field = {q.field: q for q in load_questions()}
    assert parse_answer(by_field["model.name"], "andere", knowledge, fmt) == "other"
    assert parse_answer(by_field["personal_data_region"], "Andere", knowledge, fmt) == "other"
    assert parse_answer(by_field["load_pattern"], "gleichmäßig", knowledge, fmt) == "steady"
    assert parse_answer(by_field["schedule"], "Bürozeiten", knowledge, fmt) == "office_hours"
    assert parse_answer(by_field["model.custom_weights"], "Ja", knowledge, fmt) is True
    assert parse_answer(by_field["model.custom_weights"], "NEIN", knowledge, fmt) is False


def test_the_review_lists_every_answer_and_changes_one_by_number(tmp_path: Path) -> None:
    # Answers: name, model, precision, own weights, requests; Enter for the rest; then at the review
    # change answer 5 (requests per day) and save.
    lines = ["bot", "2", "", "", "5000", *[""] * 19, "5", "7000", ""]
    result = run_ask(tmp_path, lines)
    assert result.exit_code == 0, result.output
    review = result.output.split("Your answers:")[1]
    assert "  5. How many requests a day? 5,000" in review
    assert "Enter a number to change that answer, or press Enter to save bot.yaml." in review
    assert yaml.safe_load(result.files["bot.yaml"])["requests_per_day"] == 7000  # type: ignore[attr-defined]


def test_a_changed_answer_asks_the_questions_it_brings_in(tmp_path: Path) -> None:
    """Changing the model to 'other' asks for its size before the review comes back."""
    lines = ["bot", "2", "", "", "5000", *[""] * 19, "2", "other", "8", "", ""]
    result = run_ask(tmp_path, lines)
    assert result.exit_code == 0, result.output
    saved = yaml.safe_load(result.files["bot.yaml"])  # type: ignore[attr-defined]
    # Enter took the precision and no own weights, both stated; the active parameters were left empty.
    assert saved["model"] == {"params_b": 8, "precision": "bf16", "custom_weights": False}


def test_the_german_review_is_german(tmp_path: Path) -> None:
    result = run_ask(tmp_path, [*GERMAN_START, "5000"], "--lang", "de")
    assert result.exit_code == 0, result.output
    review = result.output.split("Ihre Antworten:")[1]
    assert "  5. Wie viele Anfragen pro Tag? 5.000" in review
    save = (
        "Geben Sie die Nummer einer Antwort ein, um sie zu ändern, oder drücken Sie Enter, "
        "um Chat.yaml zu speichern."
    )
    assert save in review


def test_an_existing_workload_file_is_named_before_saving_and_kept(tmp_path: Path) -> None:
    (tmp_path / "bot.yaml").write_text("keep\n", encoding="utf-8")
    result = run_ask(tmp_path, ["bot", "2", "", "", "5000"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "bot.yaml").read_text(encoding="utf-8") == "keep\n"
    assert yaml.safe_load(result.files["bot-2.yaml"])["name"] == "bot"  # type: ignore[attr-defined]
    assert "bot.yaml exists already; the answers go to bot-2.yaml" in result.output


def test_a_changed_prompt_length_asks_again_for_the_context_it_outgrows(tmp_path: Path) -> None:
    """The context window (8,192) held prompt plus answer; a 10,000-token prompt asks for it again, with
    the sum as the default."""
    lines = ["bot", "2", "", "", "5000", *[""] * 19, "6", "10000", "", "", ""]
    result = run_ask(tmp_path, lines)
    assert result.exit_code == 0, result.output
    assert "[10150]> " in result.output
    saved = yaml.safe_load(result.files["bot.yaml"])  # type: ignore[attr-defined]
    assert (saved["avg_input_tokens"], saved["context_tokens"]) == (10000, 10150)


def test_the_review_refuses_a_number_it_does_not_list(tmp_path: Path) -> None:
    result = run_ask(tmp_path, ["bot", "2", "", "", "5000", *[""] * 19, "99", ""], "--lang", "de")
    assert result.exit_code == 0, result.output
    retry = "Bitte geben Sie eine Zahl von 1 bis 24 ein oder drücken Sie Enter, um zu speichern."
    assert retry in result.output


def test_with_force_the_review_says_the_existing_file_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "bot.yaml").write_text("old\n", encoding="utf-8")
    result = run_ask(tmp_path, ["bot", "2", "", "", "5000"], "--force", "--lang", "de")
    assert result.exit_code == 0, result.output
    assert "bot.yaml gibt es bereits; die Datei wird ersetzt (--force)." in result.output
    assert yaml.safe_load(result.files["bot.yaml"])["name"] == "bot"  # type: ignore[attr-defined]


def test_the_questions_help_gives_the_knowledge_bases_figures() -> None:
    """The help lines state defaults that live in ``knowledge/``: a changed default must change them too."""
    knowledge = load_knowledge()
    helps = {question.field: question.help for question in load_questions()}
    window = knowledge.workload_default_values()["batch_window_hours"]
    assert f"the default ({window:g} hours)" in helps["batch_window_hours"]
    for schedule in knowledge.schedules.schedules:
        words = f"{schedule.hours_per_day:g} hours on {schedule.days_per_month:g} days"
        if schedule.hours_per_day == 24:
            words = f"{schedule.hours_per_month:g} hours a month"
        assert f"{schedule.id}: {words}" in helps["schedule"]
    paid = ", ".join(f"{s.hours_per_month:g}" for s in knowledge.schedules.schedules[:-1])
    last = knowledge.schedules.schedules[-1].hours_per_month
    assert f"the schedule's hours ({paid} or {last:g})" in helps["hours_per_month"]


def test_a_prompt_or_answer_that_leaves_no_window_is_asked_again() -> None:
    """The context window (at most 10,000,000 tokens) must hold prompt plus answer: a prompt of
    10,000,000 leaves no token for the answer (counted at 1 until asked), so it is refused where it is
    given, rather than every answer to the window's question being refused after it."""
    by_field = {q.field: q for q in load_questions()}
    knowledge, fmt = load_knowledge(), Format.named("en")
    with pytest.raises(AnswerError) as refused:
        parse_answer(by_field["avg_input_tokens"], "10000000", knowledge, fmt, {})
    assert str(refused.value) == (
        "The prompt and the answer together come to at least 10,000,001 tokens, more than the longest "
        "context window gpu-advisor sizes (10,000,000 tokens): give a shorter one."
    )
    assert parse_answer(by_field["avg_input_tokens"], "9999999", knowledge, fmt, {}) == 9_999_999
    with pytest.raises(AnswerError, match="at least 10,000,149 tokens"):
        parse_answer(by_field["avg_output_tokens"], "150", knowledge, fmt, {"avg_input_tokens": 9_999_999})
    # Within the catalog model's own context too: the workload was refused only once saved.
    with pytest.raises(AnswerError) as beyond:
        parse_answer(by_field["avg_input_tokens"], "200000", knowledge, fmt, {"model.name": "llama-3.1-8b"})
    assert str(beyond.value) == (
        "The prompt and the answer together come to at least 200,001 tokens, more than llama-3.1-8b's "
        "context of 131,072 tokens: give a shorter one."
    )
    german = Format.named("de")
    with pytest.raises(AnswerError, match=r"^Prompt und Antwort zusammen ergeben mindestens 10\.000\.001 "):
        parse_answer(by_field["avg_input_tokens"], "10000000", knowledge, german, {})


def test_answers_from_a_file_are_never_saved_over_it_even_with_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ask --from hr.yaml --force`` on a workload called hr: the default file, hr.yaml, is the input;
    it was refused only after the last answer, and nothing was saved. The answers go to hr-2.yaml."""
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "hr.yaml"
    text = "name: hr\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 5000\n"
    source.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(
        main,
        ["ask", "--as-of", "2026-11-30", "--from", "hr.yaml", "--force"],
        input="\n" * (len(load_questions()) + 2),
    )
    assert result.exit_code == 0, result.output
    assert source.read_text(encoding="utf-8") == text
    assert yaml.safe_load((tmp_path / "hr-2.yaml").read_text(encoding="utf-8"))["name"] == "hr"
    assert (tmp_path / "hr-memo.md").exists()


def test_answers_offered_from_a_file_stay_stated(tmp_path: Path) -> None:
    source = tmp_path / "given.yaml"
    given = {
        "name": "bot",
        "model": {"name": "llama-3.1-8b", "precision": "bf16"},
        "requests_per_day": 5000,
        "context_tokens": 8192,
        "company_country": "DE",
    }
    source.write_text(yaml.safe_dump(given), encoding="utf-8")
    result = run_ask(tmp_path, [], "--from", str(source), "--save", "out.yaml")
    assert result.exit_code == 0, result.output
    saved = yaml.safe_load(result.files["out.yaml"])  # type: ignore[attr-defined]
    # The file's defaults-valued fields stay; the questions it left out take their defaults, confirmed
    # with Enter and so stated.
    model = {**given["model"], "custom_weights": False}
    assert saved == {**given, "model": model, "avg_input_tokens": 300, **CONFIRMED}


def test_a_directory_it_may_not_write_in_is_refused_before_the_first_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only directory was found when the answers were saved, after the last question: they were
    lost. It is refused first, for a named file and for the default names in the current directory.
    (Checked with the permission test replaced: as root every directory is writable.)"""
    from gpu_advisor.engine.common import safe_files

    monkeypatch.chdir(tmp_path)
    locked = tmp_path / "ro"
    locked.mkdir()
    monkeypatch.setattr(safe_files.os, "access", lambda path, mode: Path(path).resolve() != locked)
    named = CliRunner().invoke(main, ["ask", "--save", "ro/a.yaml", "--memo", "m.md"], input="bot\n")
    # The operating system's refusal: exit 5, as README's exit codes say.
    assert (named.exit_code, named.output) == (
        5,
        "error: --save: cannot write 'ro/a.yaml' (no permission to write in 'ro')\n",
    )
    monkeypatch.chdir(locked)
    default = CliRunner().invoke(main, ["ask"], input="bot\n")
    assert (default.exit_code, default.output) == (
        5,
        "error: --save: cannot write 'NAME.yaml' (no permission to write in '.')\n",
    )


def test_the_answers_own_standard_input() -> None:
    """``ask --from -`` read the workload from standard input and found no answers left ("Stopped:
    nothing was saved.", exit 130)."""
    result = CliRunner().invoke(main, ["ask", "--from", "-"], input="name: x\n")
    assert (result.exit_code, result.output) == (
        2,
        "error: --from: standard input carries the answers; name a workload file\n",
    )


def test_an_answer_taken_with_enter_follows_its_default_when_the_review_changes_what_it_depends_on(
    tmp_path: Path,
) -> None:
    """Enter took "users wait for the answers" (yes, for a steady service); the review makes the load a
    batch, whose default is no: the review shows that no, and Enter there confirms it, instead of
    stating a yes made for a service."""
    lines = ["rev", "1", "", "", "500000", *[""] * 19, "10", "batch", ""]
    result = run_ask(tmp_path, lines)
    assert result.exit_code == 0, result.output
    assert "  10. How does the load behave? steady" in result.output.split("Your answers:")[1]
    saved = yaml.safe_load(result.files["rev.yaml"])  # type: ignore[attr-defined]
    assert saved["load_pattern"] == "batch"
    assert saved["latency_sensitive"] is False


def test_the_other_way_round_a_batch_made_a_service_waits_for_its_answers(tmp_path: Path) -> None:
    # Enter for prompt, answer and context lengths and the shared prompt start; a batch, done within 8
    # hours.
    lines = ["rev", "1", "", "", "500000", *[""] * 4, "batch", "8", *[""] * 15, "10", "steady", ""]
    result = run_ask(tmp_path, lines)
    assert result.exit_code == 0, result.output
    saved = yaml.safe_load(result.files["rev.yaml"])  # type: ignore[attr-defined]
    assert saved["load_pattern"] == "steady"
    assert saved["latency_sensitive"] is True


def test_a_german_choice_refused_lists_the_german_words_it_takes() -> None:
    """The German words are accepted ("variabel"), so the refusal names them beside the values."""
    question = next(q for q in load_questions() if q.field == "load_pattern")
    fmt = Format.named("de")
    with pytest.raises(AnswerError) as error:
        parse_answer(question, "schwankend", load_knowledge(), fmt, {})
    assert str(error.value) == (
        "Bitte wählen Sie eine Zahl von 1 bis 3 oder einen dieser Werte: steady (gleichmäßig), variable "
        "(variabel), batch."
    )
    assert parse_answer(question, "variabel", load_knowledge(), fmt, {}) == "variable"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_swiss_thousands_are_read_in_every_language(lang: str) -> None:
    """250'000 is how a Swiss team writes a quarter of a million (the knowledge base's own CH figures
    are written so); an apostrophe elsewhere is no thousands group."""
    fmt = Format.named(lang)
    assert read_number("250'000", True, fmt) == 250_000
    assert read_number("1\u2019250\u2019000", True, fmt) == 1_250_000
    with pytest.raises(AnswerError):
        read_number("2'50", True, fmt)


@pytest.mark.parametrize(
    ("lang", "error"),
    [
        ("en", "error: standard input ended before every question was answered; nothing was saved\n"),
        (
            "de",
            "Fehler: die Standardeingabe endete, bevor alle Fragen beantwortet waren; "
            "nichts wurde gespeichert\n",
        ),
    ],
)
def test_answers_piped_in_that_end_too_soon_are_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, error: str
) -> None:
    """A script piped one answer to twenty questions: exit 2 and the error on its own line, not the
    "Stopped" and exit 130 of a user's Ctrl-C or Ctrl-D at a terminal (``test_questionnaire``)."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["ask", "--lang", lang], input="chat\n")
    assert result.exit_code == 2
    assert result.output.endswith("  > \n" + error)
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_blank_looking_answer_takes_the_default(tmp_path: Path) -> None:
    """A space or a tab was refused with "An answer is needed here." where the question shows a default:
    every answer is read without the blanks around it."""
    answers = "\n".join(["bot ", "\t1", "", " \t", "5000", " 300 "]) + "\n" * (len(load_questions()) + 2)
    result = CliRunner().invoke(main, ["ask", "--as-of", "2026-11-30"], input=answers)
    assert result.exit_code == 0, result.output
    assert "An answer is needed here." not in result.output
    # Own weights (the fourth answer, blank) took its default, no, and is stated as Enter states it.
    assert yaml.safe_load((tmp_path / "bot.yaml").read_text(encoding="utf-8")) == BOT


def test_answers_from_a_file_with_windows_line_ends_are_read(tmp_path: Path) -> None:
    """Each Enter of a CRLF file was an answer of one carriage return, refused until the input ended.
    (In a process of its own: the test runner's standard input turns CRLF into LF.)"""
    answers = tmp_path / "answers.txt"
    lines = ["bot", "1", "", "", "5000", "300"]
    answers.write_bytes(("\r\n".join(lines) + "\r\n" * (len(load_questions()) + 2)).encode())
    with answers.open("rb") as given:
        done = subprocess.run(
            [sys.executable, "-m", "gpu_advisor.cli", "ask", "--as-of", "2026-11-30"],
            stdin=given,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "An answer is needed here." not in done.stdout
    assert yaml.safe_load((tmp_path / "bot.yaml").read_text(encoding="utf-8")) == BOT


CONFIRMED = {
    "avg_output_tokens": 150,
    "context_tokens": 8192,
    "load_pattern": "steady",
    "schedule": "always",
    "latency_sensitive": True,
    "personal_data": False,
    "on_premises_required": False,
    "model_stable": True,
    "company_country": "DE",
    "volume_growing": False,
    "devops_capacity": True,
    "business_critical": False,
    "input_vat_recoverable": True,
    "framework": "pytorch",
    "needs_gpu": True,
}
"""The answers Enter confirms where a service's questions offer their defaults."""
BOT = {
    "name": "bot",
    "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": False},
    "requests_per_day": 5000,
    "avg_input_tokens": 300,
    **CONFIRMED,
}
