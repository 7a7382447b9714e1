"""One language and currency on every command that writes text: --lang/--currency and their environment
variables on check, batch, sweep and tco; organization rules' own German texts; German that reads as
written in German; and no English sentence in the German outputs of the examples."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, REPO_ROOT

from gpu_advisor.cli import main

POLICY = str(REPO_ROOT / "examples" / "org-policy")
PROPOSAL = str(EXAMPLES_DIR / "proposals" / "public-chat.yaml")
AS_OF = "2026-11-30"
BATCH_CSV = "name,model.name,model.precision,requests_per_day\nchat,llama-3.1-8b,fp8,100000\n"


def invoke(*args: str, env: dict[str, str] | None = None, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), env=env, input=stdin)


def check_de(*extra: str, env: dict[str, str] | None = None) -> str:
    result = invoke("check", PROPOSAL, "--as-of", AS_OF, "--soft-fail", *extra, env=env)
    assert result.exit_code == 0, result.output
    return result.output


# --- --lang and --currency on every command that writes text ----------------------------------------


def test_check_speaks_german_in_euro() -> None:
    text = check_de("--lang", "de", "--currency", "EUR", "--format", "markdown")
    assert "1 Vorschlag geprüft: 0 nicht bestanden, 1 mit Warnungen" not in text
    assert "1 Vorschlag geprüft: 0 nicht bestanden, 1 mit Warnung, 0 offen, 0 bestanden." in text
    assert "| Ergebnis | Regel | Prüfung | Meldung |" in text
    assert (
        "Dedizierte Cloud-GPUs, 4 × h100-sxm bei aws p5-reserved-3y-2026-09 (reserviert), Region us-east-1"
        in text
    )
    assert re.search(r", [0-9.]+ € pro Monat\. Die Regeln empfehlen \*\*", text)
    assert "Kein Ersatzreplikat für einen Workload, der eines braucht" in text  # SIZ012's German title
    assert "$" not in text


def test_environment_variables_choose_language_and_currency_and_options_win() -> None:
    german = check_de(env={"GPU_ADVISOR_LANG": "de", "GPU_ADVISOR_CURRENCY": "EUR"})
    assert "24 bestanden, 3 mit Warnung, 0 nicht bestanden, 0 offen" in german
    english = check_de(
        "--lang", "en", "--currency", "USD", env={"GPU_ADVISOR_LANG": "de", "GPU_ADVISOR_CURRENCY": "EUR"}
    )
    assert "24 passed, 3 with warnings, 0 failed, 0 unknown" in english


def test_an_unknown_language_in_the_environment_is_bad_input() -> None:
    result = invoke("check", PROPOSAL, env={"GPU_ADVISOR_LANG": "fr"})
    assert result.exit_code == 2
    assert "GPU_ADVISOR_LANG" in result.output or "--lang" in result.output


def test_tco_in_german_and_euro() -> None:
    result = invoke("tco", "--lang", "de", "--currency", "EUR")
    assert result.exit_code == 0, result.output
    # 285,000 USD at the knowledge base's rate, written the German way
    assert result.output.startswith("Eigener Server: hgx-h100-8 (8 x h100-sxm) für ")
    assert "abgeschrieben über 36 Monate (3 Jahre; 26.280 Stunden)" in result.output
    assert "Pro GPU-Stunde:" in result.output and "  Kapital     " in result.output
    assert "niedriger Preis" in result.output and "$" not in result.output


def german_batch(tmp_path: Path) -> tuple[Path, Any]:
    """The example rows through ``batch`` in German and EUR: the rows file and the result."""
    source = tmp_path / "rows.csv"
    source.write_text(BATCH_CSV, encoding="utf-8")
    result = CliRunner().invoke(
        main,
        [
            "batch",
            str(source),
            "--as-of",
            AS_OF,
            "--lang",
            "de",
            "--currency",
            "EUR",
            "--jobs",
            "1",
            "-o",
            str(tmp_path / "out.jsonl"),
        ],
    )
    return source, result


def test_batch_summary_in_german_and_euro(tmp_path: Path) -> None:
    source, result = german_batch(tmp_path)
    assert result.exit_code == 0, result.stderr
    assert f"{source}: 1 Workload, 1 ausgewertet, 0 mit Fehlern (ausgewertet am {AS_OF})" in result.stderr
    assert "Nach Bereitstellung:\n  Managed API" in result.stderr
    assert re.search(r"Monatliche Gesamtkosten: [0-9.]+ €\n", result.stderr)


def test_sweep_in_german_and_euro() -> None:
    result = invoke(
        "sweep",
        str(EXAMPLES_DIR / "public-chat.yaml"),
        "--vary",
        "requests_per_day=100000:1100000:500000",
        "--as-of",
        AS_OF,
        "--lang",
        "de",
        "--currency",
        "EUR",
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith(
        "Variation von public-chat: requests_per_day von 100.000 bis 1.100.000 in Schritten von 500.000"
    )
    assert "EUR/Monat  Entscheidende Regel" in result.output and "$" not in result.output


# --- organization rules in German ----------------------------------------------------------------------


def test_organization_rules_use_their_own_german_texts() -> None:
    text = check_de("--lang", "de", "--policy", POLICY)
    assert "ORG002 Firmenrichtlinie: Der Vorschlag läuft außerhalb der EU [Organisationsregel]" in text
    assert "die vorgeschlagene Region (us-east-1) liegt nicht in der EU." in text
    assert "Company policy" not in text


def test_an_organization_rule_without_german_keeps_its_english(tmp_path: Path) -> None:
    directory = tmp_path / "policy"
    shutil.copytree(POLICY, directory)
    path = directory / "eu-only.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for rule in data["rules"]:
        rule.pop("translations", None)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    text = check_de("--lang", "de", "--policy", str(directory))
    assert "ORG002 Company policy: the proposal runs outside the EU" in text


def test_a_german_message_naming_an_unknown_field_is_refused_at_load(tmp_path: Path) -> None:
    directory = tmp_path / "policy"
    shutil.copytree(POLICY, directory)
    path = directory / "eu-only.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["rules"][1]["translations"]["de"]["message"] = "Region {{ regoin }} liegt nicht in der EU."
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = invoke("check", PROPOSAL, "--lang", "de", "--policy", str(directory))
    assert result.exit_code == 2
    # Said in the language asked for, as every validation error is.
    assert result.output == (
        f"Fehler: --policy {directory}: ungültige Organisationsrichtlinie\n"
        "Regel ORG002: Feld translations.de.message: 'regoin' ist kein Feld der proposal-Fakten\n"
    )
    english = invoke("check", PROPOSAL, "--policy", str(directory))
    assert (
        "rule ORG002: field translations.de.message: 'regoin' is not a field of proposal facts"
        in english.output
    )


def test_a_policy_file_that_is_no_rule_file_is_refused_in_german(tmp_path: Path) -> None:
    directory = tmp_path / "policy"
    directory.mkdir()
    (directory / "bad.yaml").write_text("schema_version: 1\nfamily: ORG\nrules:\n  - id: ORG1\n", "utf-8")
    result = invoke("check", PROPOSAL, "--lang", "de", "--policy", str(directory))
    assert result.exit_code == 2
    assert result.output.startswith(
        f"Fehler: --policy {directory}: ungültige Organisationsrichtlinie\n"
        f"{directory / 'bad.yaml'}: ungültige Regeldatei\n"
    )
    assert (
        "  rules.0.id: Der Text muss dem Muster '^[A-Z]{3}[0-9]{3}$' entsprechen (angegeben: 'ORG1')\n"
        in (result.output)
    )
    assert "  rules.0.topic: Pflichtfeld fehlt\n" in result.output


# --- German and English phrases -------------------------------------------------------------------------


def fp8_memo(lang: str) -> str:
    result = invoke("recommend", str(EXAMPLES_DIR / "public-chat.yaml"), "--as-of", AS_OF, "--lang", lang)
    assert result.exit_code == 0, result.output
    return result.output


def test_one_byte_is_singular_in_both_languages() -> None:
    english, german = fp8_memo("en"), fp8_memo("de")
    assert "× 1 byte (FP8)" in english and "1 bytes" not in english
    assert "× 1 Byte (FP8)" in german and "1 Bytes" not in german


def test_the_kv_cache_precision_is_named_in_the_memo_language() -> None:
    english, german = fp8_memo("en"), fp8_memo("de")
    assert "the KV cache (16-bit) of at least" in " ".join(english.split())
    assert "den KV-Cache (16 Bit) von mindestens" in " ".join(german.split())
    assert "16-bit" not in german


def test_a_price_names_its_pricing_once() -> None:
    for lang in ("en", "de"):
        assert "(on-demand, on-demand)" not in fp8_memo(lang)


# --- no English sentence in the German outputs of the examples ------------------------------------------

STOP_WORDS = (" the ", " and ", " of ", " is ", " are ", " with ", " for ", " to ", " not ", " which ")
"""Words of an English sentence that no German sentence has."""
ALLOWED = re.compile(
    r"`[^`]*`"  # code: commands, options, file names
    r"|<https?://[^>]*>|https?://\S+"  # addresses
)


def english_words(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        line = ALLOWED.sub(" ", line)
        padded = f" {line.lower()} "
        found = [word.strip() for word in STOP_WORDS if word in padded]
        if found:
            lines.append(f"{found}: {line.strip()[:160]}")
    return lines


@pytest.mark.parametrize("example", ["public-chat", "hr-assistant", "nightly-batch", "prototype"])
def test_german_memo_has_no_english_sentence(example: str) -> None:
    result = invoke(
        "recommend",
        str(EXAMPLES_DIR / f"{example}.yaml"),
        "--as-of",
        AS_OF,
        "--lang",
        "de",
        "--currency",
        "EUR",
    )
    assert result.exit_code == 0, result.output
    assert english_words(without_sources(result.output)) == []


def without_sources(text: str) -> str:
    """Without what the knowledge base quotes in its own (English) words: a source's title and note with
    its date, and the price dates' table rows (the cost notes themselves are German: test_knowledge_texts)."""
    return "\n".join(line for line in text.splitlines() if not SOURCE_LINE.search(line))


SOURCE_LINE = re.compile(
    r"\(\d{4}-\d{2}-\d{2}\)\.?$|<https?://|, \d{4}-\d{2}-\d{2}\)|\| \d{4}-\d{2}-\d{2} \|"
)


@pytest.mark.parametrize("output_format", ["text", "markdown"])
def test_german_check_has_no_english_sentence(output_format: str) -> None:
    text = check_de(
        "--lang", "de", "--currency", "EUR", "--policy", POLICY, "--show-all", "--format", output_format
    )
    assert english_words(text) == []


def test_german_tco_has_no_english_sentence() -> None:
    result = invoke("tco", "--lang", "de", "--currency", "EUR")
    assert result.exit_code == 0, result.output
    assert english_words(without_sources(result.output)) == []


def test_german_batch_summary_has_no_english_sentence(tmp_path: Path) -> None:
    _, result = german_batch(tmp_path)
    assert result.exit_code == 0, result.stderr
    assert english_words(result.stderr) == []


# --- batch and sweep messages in German ----------------------------------------------------------------

BAD_ROWS_CSV = BATCH_CSV + "bad,llama-3.1-8b,fp9,-5\n"


def test_batch_row_errors_and_the_exit_message_in_german(tmp_path: Path) -> None:
    source = tmp_path / "rows.csv"
    source.write_text(BAD_ROWS_CSV, encoding="utf-8")
    args = ["batch", str(source), "--as-of", AS_OF, "--jobs", "1", "-o", str(tmp_path / "out.jsonl")]
    result = CliRunner().invoke(main, [*args, "--lang", "de"])
    assert result.exit_code == 1
    assert (
        f"Fehler: {source}:3: ungültiger Workload\n"
        "  model.precision: Erwartet wird 'fp32', 'bf16', 'fp16', 'fp8', 'int8' oder 'int4' "
        "(angegeben: 'fp9')\n"
        "  requests_per_day: Erwartet wird ein Wert größer als 0 (angegeben: -5)\n"
    ) in result.stderr
    assert result.stderr.endswith("1 Zeile übersprungen: Exit-Code 1 (--allow-bad-rows: 0)\n")
    strict = CliRunner().invoke(main, [*args, "--lang", "de", "--strict", "--force"])
    assert strict.exit_code == 2
    assert strict.stderr.endswith("(--strict: bei der ersten fehlerhaften Zeile angehalten)\n")
    assert english_words(strict.stderr.replace("--strict", "")) == []
    english = CliRunner().invoke(main, [*args, "--force"])
    assert english.stderr.endswith("1 row skipped: exit code 1 (--allow-bad-rows: 0)\n")
    assert f"error: {source}:3: invalid workload\n" in english.stderr


@pytest.mark.parametrize(
    ("kind", "context", "german", "english"),
    [
        (
            "batch_interrupted",
            {"signal": "SIGINT"},
            "abgebrochen (SIGINT): Die Ausgabe enthält jedes Ergebnis, das vorher geschrieben wurde",
            "interrupted (SIGINT): the output keeps every result written before",
        ),
        (
            "sweep_stopped",
            {"signal": "SIGTERM"},
            "abgebrochen (SIGTERM), bevor ein Ergebnis vorlag",
            "interrupted (SIGTERM) before any result",
        ),
        (
            "sweep_interrupted",
            {"signal": "SIGINT"},
            "abgebrochen (SIGINT): Die Ausgabe umfasst die Werte, die vorher ausgewertet wurden",
            "interrupted (SIGINT): the output covers the values evaluated before",
        ),
        ("rows_skipped", {"rows": 2}, "2 Zeilen übersprungen: Exit-Code 1 (--allow-bad-rows: 0)", None),
        ("empty_row", {"origin": "rows.csv:4"}, "rows.csv:4: leere Zeile", "rows.csv:4: empty row"),
    ],
)
def test_run_messages_in_german(kind: str, context: dict[str, Any], german: str, english: str | None) -> None:
    from gpu_advisor.engine.apps.batch.run import said

    assert said("de", kind, **context) == german
    if english is not None:
        assert said("en", kind, **context) == english


def test_the_load_section_reads_as_german() -> None:
    memo = invoke(
        "recommend", str(EXAMPLES_DIR / "public-chat.yaml"), "--as-of", AS_OF, "--lang", "de"
    ).output
    assert "Nach dem Lastprofil „gleichmäßig“ bringt die stärkste Stunde" in memo
    assert "länger, wenn sich mehrere Anfragen das Replikat teilen;" in memo
    assert "(bei der Bemessung der Replikate ist der obere Rand dieses Bandes schon abgezogen)" in memo
    assert "Nach das" not in memo and "abgezogen bemessen" not in memo


def test_a_german_check_names_the_residency_rules_by_their_german_titles() -> None:
    """RES005 quotes the residency rules that exclude the proposal's region: in German, with their German
    titles (the English title appeared in the German message before)."""
    proposal = str(REPO_ROOT / "tests" / "web" / "failing-proposal.yaml")
    args = ["check", proposal, "--format", "json", "--as-of", "2026-11-30"]
    for lang, title in (
        (
            "de",
            "RES001 (DSGVO: gpu-advisor hält personenbezogene Daten von Personen in der EU/im EWR in "
            "EU-Regionen). "
            "aws bietet h100-sxm dort an, wo der Workload laufen darf, in eu-north-1.",
        ),
        (
            "en",
            "RES001 (GDPR: gpu-advisor keeps personal data of people in the EU/EEA in EU regions). aws "
            "sells h100-sxm "
            "where the workload may run, in eu-north-1.",
        ),
    ):
        result = CliRunner().invoke(main, [*args, "--lang", lang])
        assert result.exit_code == 1, result.output
        [message] = [i["message"] for i in json_items(result.output) if i["rule_id"] == "RES005"]
        assert message.endswith(title)


def json_items(output: str) -> list[dict[str, Any]]:
    """Every check result of every proposal in ``check --format json``'s output."""
    import json

    return [item for proposal in json.loads(output) for item in proposal["results"]]


def test_a_policy_file_that_is_no_yaml_is_refused_in_german(tmp_path: Path) -> None:
    directory = tmp_path / "policy"
    directory.mkdir()
    (directory / "x.yaml").write_text("schema_version: 1\nfamily: ORG\nrules: [\n", "utf-8")
    result = invoke("check", PROPOSAL, "--lang", "de", "--policy", str(directory))
    assert result.exit_code == 2
    assert result.output == (
        f"Fehler: --policy {directory}: ungültige Organisationsrichtlinie\n"
        f"{directory / 'x.yaml'}: kein gültiges YAML (Zeile 4, Spalte 1: Syntaxfehler)\n"
    )
