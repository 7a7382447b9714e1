"""click's own messages (a bad option value, an unknown option, a missing argument) in the language the
command line asks for (``engine/i18n/click_words.py``)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main
from gpu_advisor.engine.i18n.click_words import CLICK_MESSAGES, requested_language
from gpu_advisor.engine.i18n.environment import catalog

FIELD = re.compile(r"\{(\w+)[^}]*\}")
EXAMPLE = str(EXAMPLES_DIR / "prototype.yaml")


def test_a_bad_option_value_is_said_in_german() -> None:
    result = CliRunner().invoke(main, ["batch", "--lang", "de", EXAMPLE, "--jobs", "x"])
    assert result.exit_code == 2
    assert result.output == (
        "Aufruf: main batch [OPTIONS] INPUT|-\n"
        "Hilfe: 'main batch --help'.\n\n"
        "Fehler: Ungültiger Wert für '--jobs': 'x' ist keine gültige Zahl.\n"
    )


def test_an_unknown_option_is_said_in_the_environments_language() -> None:
    result = CliRunner().invoke(
        main, ["recommend", EXAMPLE, "--formt", "json"], env={"GPU_ADVISOR_LANG": "de"}
    )
    assert result.exit_code == 2
    assert result.output.endswith(
        "Fehler: Die Option '--formt' gibt es nicht. (Meinten Sie eine davon: '--force', '--format'?)\n"
    )


def test_a_missing_argument_is_said_in_german_and_later_english_commands_stay_english() -> None:
    german = CliRunner().invoke(main, ["check", "--lang=de"])
    assert german.output.endswith("Fehler: Es fehlt das Argument 'PROPOSAL|DIR|-'.\n"), german.output
    english = CliRunner().invoke(main, ["check"])
    assert english.output.endswith("Error: Missing argument 'PROPOSAL|DIR|-'.\n"), english.output


@pytest.mark.parametrize(
    ("arguments", "environment", "lang"),
    [
        (["recommend", "x", "--lang", "de"], "en", "de"),
        (["recommend", "--lang=de", "--lang", "en"], "de", "en"),
        (["recommend", "x"], "de", "de"),
        (["recommend", "--lang", "fr"], "en", "en"),
        (["recommend", "--", "--lang", "de"], "en", "en"),
        # A locale's name, as LANG holds it, is its language.
        (["recommend", "x"], "de_DE.UTF-8", "de"),
        (["recommend", "x"], "de-AT", "de"),
        (["recommend", "--lang", "en_GB"], "de", "en"),
        # The POSIX default locale, a container's LANG, asks for no language.
        (["recommend", "x"], "C.UTF-8", "en"),
        (["recommend", "x"], "POSIX", "en"),
    ],
)
def test_the_language_is_read_from_the_command_line_before_the_environment(
    monkeypatch: pytest.MonkeyPatch, arguments: list[str], environment: str, lang: str
) -> None:
    monkeypatch.setenv("GPU_ADVISOR_LANG", environment)
    assert requested_language(arguments) == lang


@pytest.mark.parametrize("message", CLICK_MESSAGES)
def test_a_translation_keeps_the_fields_click_fills_in(message: str) -> None:
    german = catalog("de")[message]
    dropped = {"number_type"}  # "integer range" would stay English: the German names no type
    assert set(FIELD.findall(german)) == set(FIELD.findall(message)) - dropped


def test_every_translated_sentence_is_one_the_installed_click_says() -> None:
    """A click release that words a sentence differently would leave it English: this names it."""
    import ast
    from pathlib import Path

    import click

    said: set[str] = set()
    for source in Path(click.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("_", "ngettext"):
                said.update(
                    a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
                )
    assert [message for message in CLICK_MESSAGES if message not in said] == []


def test_a_locale_named_in_the_environment_runs_the_command_in_its_language() -> None:
    """GPU_ADVISOR_LANG=de_DE (a locale's name) made every command fail with 'not one of en, de'."""
    result = CliRunner().invoke(main, ["recommend", EXAMPLE], env={"GPU_ADVISOR_LANG": "de_DE.UTF-8"})
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# GPU-Entscheidungsmemo:")
    refused = CliRunner().invoke(main, ["recommend", EXAMPLE], env={"GPU_ADVISOR_LANG": "fr_FR"})
    assert refused.exit_code == 2 and "'fr_FR' is not one of 'en', 'de'" in refused.output
    # A container's LANG copied into it (C.UTF-8) failed every command the same way.
    plain = CliRunner().invoke(main, ["recommend", EXAMPLE], env={"GPU_ADVISOR_LANG": "C.UTF-8"})
    assert plain.exit_code == 0, plain.output
    assert plain.output.startswith("# GPU decision memo:")


def test_a_command_without_lang_says_its_errors_in_the_language_asked_for() -> None:
    """GPU_ADVISOR_LANG=de made click's own messages German on a command without --lang (``rules``), but
    the command's own refusal English under a German "Fehler:" neither; now both are German, and an
    unsupported value falls back to English there, where no --lang option refuses it."""
    allowed = (
        "deployment, export_control, interconnect, knowledge, optimization, pricing, provider, residency, "
    )
    allowed += "robustness, sizing, tco"
    for lang, expected in (
        ("de", f"Fehler: --topic: unbekannter Wert 'x'; zulässig: {allowed}\n"),
        ("fr", f"error: --topic: unknown value 'x'; allowed: {allowed}\n"),
        ("C.UTF-8", f"error: --topic: unknown value 'x'; allowed: {allowed}\n"),
    ):
        result = CliRunner().invoke(main, ["rules", "--topic", "x"], env={"GPU_ADVISOR_LANG": lang})
        assert (result.exit_code, result.output) == (2, expected), lang
    diff = CliRunner().invoke(main, ["catalog", "diff"], env={"GPU_ADVISOR_LANG": "de"})
    assert (diff.exit_code, diff.output) == (2, "Fehler: catalog diff: geben Sie OLD und NEW an\n")
    builtin = CliRunner().invoke(main, ["catalog", "diff", "--builtin"], env={"GPU_ADVISOR_LANG": "en"})
    assert (builtin.exit_code, builtin.output) == (2, "error: catalog diff: give NEW only with --builtin\n")


def test_the_systems_locale_is_not_read_and_an_unsupported_language_asked_for_is_refused() -> None:
    """LANG and LC_ALL are the system's: a French or German locale leaves the output English, silently.
    GPU_ADVISOR_LANG is set for gpu-advisor alone: a language it does not speak is refused, naming those
    it does; --lang wins over it."""
    for locale in ("fr_FR.UTF-8", "de_DE.UTF-8", "C.UTF-8"):
        system = CliRunner().invoke(main, ["recommend", EXAMPLE], env={"LANG": locale, "LC_ALL": locale})
        assert system.exit_code == 0, locale
        assert system.output.startswith("# GPU decision memo:"), locale
    refused = CliRunner().invoke(main, ["recommend", EXAMPLE], env={"GPU_ADVISOR_LANG": "fr"})
    assert (refused.exit_code, refused.output.splitlines()[-1]) == (
        2,
        "Error: Invalid value for '--lang' (env var: 'GPU_ADVISOR_LANG'): 'fr' is not one of 'en', 'de'.",
    )
    chosen = CliRunner().invoke(main, ["recommend", EXAMPLE, "--lang", "de"], env={"GPU_ADVISOR_LANG": "fr"})
    assert chosen.exit_code == 0 and chosen.output.startswith("# GPU-Entscheidungsmemo:")
