"""What the readers of input complain about, said in German under --lang de: a YAML, JSON or CSV parser's
complaint (a known kind as a German sentence with its line and column, an unknown kind as a syntax error
with its position), a value the value rules refuse, an operating system error (by its number), a bad
date, on recommend, check and batch; English keeps the parsers' and the system's own words."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from gpu_advisor.cli import main
from gpu_advisor.engine.common import read_problems, yaml_core
from gpu_advisor.engine.common.wording import Grouped, Words
from gpu_advisor.engine.i18n.environment import catalog, say

AS_OF = "2026-11-30"
GOOD = "name: chat\nmodel: {name: llama-3.1-8b, precision: fp8}\nrequests_per_day: 1000\n"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, [*args, "--as-of", AS_OF])


def refused(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    return result.stderr


# --- YAML: a known kind as a German sentence, an unknown kind as a syntax error -------------------------

YAML_CASES = [
    (
        "name: chat\n\tmodel: x\n",
        "line 2, column 1: while scanning for the next token, found character '\\t' that cannot start any "
        "token",
        "Zeile 2, Spalte 1: Tabulatorzeichen sind in YAML nicht erlaubt; rücken Sie mit Leerzeichen ein",
    ),
    (
        "name: chat: bot\n",
        "line 1, column 11: mapping values are not allowed here",
        "Zeile 1, Spalte 11: hier darf kein „Schlüssel: Wert“ beginnen; prüfen Sie die Einrückung oder "
        "setzen Sie den Text in Anführungszeichen",
    ),
    (
        "name: chat\nmodel\nrequests_per_day: 1\n",
        "line 3, column 1: while scanning a simple key, could not find expected ':'",
        "Zeile 3, Spalte 1: nach dem Schlüssel fehlt der Doppelpunkt",
    ),
    (
        "name: 'chat\n",
        # The quote left open on line 1 is named beside where its end is missed.
        "line 2, column 1: while scanning a quoted scalar, found unexpected end of stream; opened on line 1, "
        "column 7",
        "Zeile 2, Spalte 1: die Datei endet, bevor die Anführungszeichen geschlossen werden; geöffnet in "
        "Zeile 1, Spalte 7",
    ),
    (
        "name: chat\n- model\n",
        "line 2, column 1: while parsing a block mapping, expected <block end>, but found '-'",
        "Zeile 2, Spalte 1: die Einrückung stimmt nicht: Erwartet wird das Ende der Zuordnung, gefunden: "
        "ein Listeneintrag (-)",
    ),
    (
        "name: chat\nmodel: {name: llama-3.1-8b\n",
        "line 3, column 1: while parsing a flow mapping, expected ',' or '}', but got '<stream end>'; opened "
        "on line 2, column 8",
        "Zeile 3, Spalte 1: in der Zuordnung in geschweiften Klammern fehlt ein Komma oder die schließende "
        "Klammer, gefunden: das Dateiende; geöffnet in Zeile 2, Spalte 8",
    ),
    (
        'name: "chat\\q"\n',
        "line 1, column 13: while scanning a double-quoted scalar, found unknown escape character 'q'",
        "Zeile 1, Spalte 13: unbekanntes Escape-Zeichen 'q' nach \\ in einem Text in doppelten "
        "Anführungszeichen",
    ),
    (
        "name: chat\n---\nname: bot\n",
        "line 2, column 1: expected a single document in the stream, but found another document",
        "Zeile 2, Spalte 1: die Datei enthält mehr als ein YAML-Dokument; erwartet wird genau eines",
    ),
    (
        # a kind the catalog does not know: in German a syntax error at its position
        "%YAML 1.x\n---\nname: chat\n",
        "line 1, column 9: while scanning a directive, expected a digit, but found 'x'",
        "Zeile 1, Spalte 9: Syntaxfehler",
    ),
    (
        "name: chat\x07\n",
        "unacceptable character #x0007: special characters are not allowed in "
        '"<unicode string>", position 10',
        "unzulässiges Zeichen #x0007 an Position 10: Steuerzeichen sind nicht erlaubt",
    ),
]


@pytest.mark.parametrize(("text", "english", "german"), YAML_CASES)
def test_a_yaml_complaint_in_english_as_pyyaml_wrote_it_and_in_german(
    text: str, english: str, german: str
) -> None:
    with pytest.raises(yaml.YAMLError) as raised:
        yaml_core.build(yaml_core.compose(text))
    problem = read_problems.yaml_problem(raised.value)
    assert (str(problem), say("en", problem), say("de", problem)) == (english, english, german)
    assert yaml_core.yaml_problem(raised.value) == english


@pytest.mark.parametrize(("text", "english", "german"), YAML_CASES[:3] + YAML_CASES[-2:])
def test_recommend_and_check_say_a_yaml_complaint_in_german(
    text: str, english: str, german: str, tmp_path: Path
) -> None:
    workload = tmp_path / "chat.yaml"
    workload.write_text(text, encoding="utf-8")
    expected = f"Fehler: {workload}: kein gültiges YAML oder JSON ({german})\n"
    assert refused("recommend", str(workload), "--lang", "de") == expected
    assert refused("recommend", str(workload)) == f"error: {workload}: not valid YAML or JSON ({english})\n"
    proposal = tmp_path / "proposal.yaml"
    proposal.write_text(text, encoding="utf-8")
    expected = f"Fehler: {proposal}: kein gültiges YAML oder JSON ({german})\n"
    assert refused("check", str(proposal), "--lang", "de") == expected


def test_every_token_the_parser_names_has_german_words() -> None:
    german = catalog("de")
    assert sorted(set(read_problems.YAML_TOKENS) - set(german)) == []
    assert all("<" not in german[token] for token in read_problems.YAML_TOKENS)


# --- JSON and CSV in a batch ------------------------------------------------------------------------------


def test_batch_says_json_and_csv_complaints_in_german(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        '{"name": "a",}\n{"name": "b" "c"}\n{"name": "c"} 1\n{"name": "d\te"}\n[1, 2]\n', encoding="utf-8"
    )
    result = invoke("batch", str(rows), "--lang", "de", "--jobs", "1", "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"Fehler: {rows}:1: kein gültiges JSON (erwartet wird ein Schlüssel in doppelten Anführungszeichen "
        "(Zeile 1, Spalte 14))\n"
        f"Fehler: {rows}:2: kein gültiges JSON (hier fehlt ein Komma (Zeile 1, Spalte 14))\n"
        f"Fehler: {rows}:3: kein gültiges JSON (nach dem Ende des JSON-Werts folgt weiterer Text "
        "(Zeile 1, Spalte 15))\n"
        f"Fehler: {rows}:4: kein gültiges JSON (Steuerzeichen (etwa Tabulator oder Zeilenumbruch) in einem "
        "Text; schreiben Sie \\t oder \\n (Zeile 1, Spalte 12))\n"
        f"Fehler: {rows}:5: ein Workload ist eine Zuordnung von Feldern, angegeben: eine Liste\n"
    ), result.stderr
    english = invoke("batch", str(rows), "--jobs", "1", "-o", str(tmp_path / "en.jsonl"))
    assert (
        f"error: {rows}:2: not valid JSON (Expecting ',' delimiter (line 1, column 14))\n" in english.stderr
    )
    assert f"error: {rows}:5: a workload is a mapping of fields, got list\n" in english.stderr
    table = tmp_path / "rows.csv"
    table.write_text(
        'name,model.name,model.precision,requests_per_day\na,llama-3.1-8b,fp8,"12\n', encoding="utf-8"
    )
    result = invoke("batch", str(table), "--lang", "de", "--jobs", "1", "-o", str(tmp_path / "csv.jsonl"))
    assert (
        f"Fehler: {table}:2: kein gültiges CSV (die Datei endet mitten in einem Feld in Anführungszeichen)\n"
        in result.stderr
    )


def test_an_unknown_json_complaint_is_a_syntax_error_in_german() -> None:
    problem = read_problems.json_problem("Something new", 2, 5)
    assert str(problem) == "Something new (line 2, column 5)"
    assert say("de", problem) == "Syntaxfehler (Zeile 2, Spalte 5)"


# --- the value rules --------------------------------------------------------------------------------------

VALUE_CASES = [
    ("name: a\nname: b\n", ":2: Schlüssel 'name' ist doppelt angegeben"),
    (
        GOOD.replace("1000", "05000"),
        ":3: requests_per_day: '05000': Zahlen mit führender Null werden "
        "abgelehnt (YAML 1.1 liest sie als Oktalzahl); schreiben Sie 5000",
    ),
    (GOOD.replace("1000", "1e400"), ":3: requests_per_day: '1e400' ist keine endliche Zahl"),
    (
        GOOD.replace("1000", "99999999999999999999"),
        ":3: requests_per_day: '99999999999999999999' ist zu groß; Zahlen dürfen höchstens 1e15 betragen",
    ),
    (
        GOOD + "utilization: 1e-400\n",
        ":4: utilization: '1e-400' ist zu klein; Zahlen außer 0 müssen mindestens 1e-15 betragen",
    ),
    (
        GOOD + "personal_data: !!bool maybe\n",
        ":4: personal_data: 'maybe' ist kein Wahrheitswert; schreiben Sie true oder false",
    ),
    (GOOD + "1: x\n", ":4: ein Schlüssel ist Text, nicht '1'; setzen Sie ihn in Anführungszeichen"),
    (
        GOOD + "load_pattern: !!python/name:os.system steady\n",
        ":4: load_pattern: das Tag "
        "!!python/name:os.system ist nicht erlaubt (nur !!str, !!int, !!float, !!bool, !!null)",
    ),
    (
        '{"name": "\\ud83d", "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "requests_per_day": 1}',
        ": name: kein gültiger Unicode-Text (ein alleinstehendes Surrogat wie \\ud83d)",
    ),
]


@pytest.mark.parametrize(("text", "german"), VALUE_CASES)
def test_a_refused_value_is_said_in_german(text: str, german: str, tmp_path: Path) -> None:
    workload = tmp_path / ("chat.json" if text.startswith("{") else "chat.yaml")
    workload.write_text(text, encoding="utf-8")
    assert refused("recommend", str(workload), "--lang", "de") == f"Fehler: {workload}{german}\n"


def test_a_refused_value_in_a_batch_row_is_said_in_german(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"name": "a", "name": "b"}\n{"name": "a", "requests_per_day": NaN}\n', encoding="utf-8")
    result = invoke("batch", str(rows), "--lang", "de", "--jobs", "1", "-o", str(tmp_path / "out.jsonl"))
    assert result.stderr.startswith(
        f"Fehler: {rows}:1: Schlüssel 'name' ist doppelt angegeben\n"
        f"Fehler: {rows}:2: requests_per_day: 'NaN' ist keine endliche Zahl\n"
    ), result.stderr
    table = tmp_path / "rows.csv"
    table.write_text(
        "name,model.name,model.precision,requests_per_day\na,llama-3.1-8b,fp8,1e400\n", encoding="utf-8"
    )
    result = invoke("batch", str(table), "--lang", "de", "--jobs", "1", "-o", str(tmp_path / "csv.jsonl"))
    assert f"Fehler: {table}:2: requests_per_day: '1e400' ist keine ganze Zahl\n" in result.stderr


# --- the operating system: by the error's number ------------------------------------------------------------


def test_a_missing_file_and_a_directory_in_german(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    assert refused("recommend", str(missing), "--lang", "de") == f"Fehler: {missing}: Datei nicht gefunden\n"
    assert refused("check", str(missing), "--lang", "de") == f"Fehler: {missing}: Datei nicht gefunden\n"
    assert refused("recommend", str(tmp_path), "--lang", "de") == (
        f"Fehler: {tmp_path}: kann nicht gelesen werden (ist ein Verzeichnis)\n"
    )
    assert refused("recommend", str(tmp_path)) == f"error: {tmp_path}: cannot be read (Is a directory)\n"
    batch = ("batch", str(tmp_path), "--input-format", "csv", "-o", str(tmp_path / "out.jsonl"))
    assert (
        refused(*batch, "--lang", "de")
        == f"Fehler: {tmp_path}: kann nicht gelesen werden (ist ein Verzeichnis)\n"
    )


@pytest.mark.parametrize(
    ("number", "english", "german"),
    [
        (errno.EACCES, "Permission denied", "keine Berechtigung"),
        (errno.EPERM, "Operation not permitted", "Vorgang nicht zulässig"),
        (errno.ELOOP, "Too many levels of symbolic links", "zu viele Ebenen symbolischer Verknüpfungen"),
        (errno.EIO, "Input/output error", "Ein-/Ausgabefehler"),
        (errno.EPROTO, "Protocol error", "Fehler des Betriebssystems (EPROTO)"),
    ],
)
def test_an_unreadable_file_in_german_by_the_error_number(
    number: int, english: str, german: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workload = tmp_path / "chat.yaml"
    workload.write_text(GOOD, encoding="utf-8")

    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(number, english)

    monkeypatch.setattr(Path, "open", refuse)
    assert refused("recommend", str(workload), "--lang", "de") == (
        f"Fehler: {workload}: kann nicht gelesen werden ({german})\n"
    )
    assert refused("recommend", str(workload)) == f"error: {workload}: cannot be read ({english})\n"


def test_every_error_number_the_catalog_knows_has_german_words() -> None:
    german = catalog("de")
    assert sorted(set(read_problems.OS_ERRORS.values()) - set(german)) == []


def test_an_output_that_cannot_be_written_in_german(tmp_path: Path) -> None:
    workload = tmp_path / "chat.yaml"
    workload.write_text(GOOD, encoding="utf-8")
    output = tmp_path / "no" / "memo.md"
    assert refused("recommend", str(workload), "--lang", "de", "-o", str(output)) == (
        f"Fehler: -o/--output: '{output}' kann nicht geschrieben werden (das Verzeichnis "
        f"'{output.parent}' existiert nicht)\n"
    )
    assert refused("recommend", str(workload), "--lang", "de", "-o", str(workload)) == (
        f"Fehler: -o/--output: '{workload}' ist eine Eingabedatei dieses Befehls ('{workload}'); "
        "schreiben Sie die Ausgabe an einen anderen Ort\n"
    )


# --- dates ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["2026-02-30", "1.5", "gestern"])
def test_an_invalid_as_of_in_an_overrides_file_in_german(written: str, tmp_path: Path) -> None:
    workload = tmp_path / "chat.yaml"
    workload.write_text(GOOD, encoding="utf-8")
    overrides = tmp_path / "prices.yaml"
    overrides.write_text(f"own_server: {{usd_per_kwh: 0.31}}\nas_of: {written}\n", encoding="utf-8")
    shown = written if written == "1.5" else repr(written)
    assert refused("recommend", str(workload), "--lang", "de", "--overrides", str(overrides)) == (
        f"Fehler: --overrides {overrides}: ungültige Overrides\n"
        f"  as_of: Erwartet wird ein Datum (JJJJ-MM-TT) (angegeben: {shown})\n"
    )


def test_an_invalid_as_of_option_in_german(tmp_path: Path) -> None:
    workload = tmp_path / "chat.yaml"
    workload.write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(main, ["recommend", str(workload), "--lang", "de", "--as-of", "2026-13-01"])
    assert result.stderr == "Fehler: --as-of: '2026-13-01' ist kein Datum; verwenden Sie JJJJ-MM-TT\n"


# --- what the checks of a workload and a proposal refuse ----------------------------------------------------


def test_the_refusals_of_a_proposal_name_it_in_german(tmp_path: Path) -> None:
    proposals = tmp_path / "proposals.yaml"
    proposals.write_text("- 1\n", encoding="utf-8")
    assert refused("check", str(proposals), "--lang", "de") == (
        f"Fehler: {proposals} (Vorschlag 1): ein Vorschlag ist eine Zuordnung mit workload und proposal\n"
    )
    proposals.write_text(
        "workload:\n" + "".join(f"  {line}\n" for line in GOOD.splitlines()) + "proposal: {deployment: api}\n"
        "waivers: [{rule: XYZ999, reason: tested, owner: ops, until: 2027-01-01}]\n",
        encoding="utf-8",
    )
    said = refused("check", str(proposals), "--lang", "de")
    assert said.startswith(
        f"Fehler: {proposals} (Vorschlag 1): waivers.0.rule: unbekannter Wert 'XYZ999'; zulässig: "
    )


def test_a_workload_the_catalog_contradicts_in_german(tmp_path: Path) -> None:
    workload = tmp_path / "chat.yaml"
    workload.write_text(GOOD.replace("llama-3.1-8b", "llama-3.1-8"), encoding="utf-8")
    said = refused("recommend", str(workload), "--lang", "de")
    assert said.startswith(
        f"Fehler: {workload}: ungültiger Workload\n  model.name: unbekannter Wert 'llama-3.1-8'; zulässig: "
    )
    assert said.endswith(
        ", qwen3-235b-a22b (meinten Sie 'llama-3.1-8b'?); ein Modell, das der Katalog nicht kennt, wird "
        "statt mit einem Namen mit seiner Größe beschrieben: params_b (und active_params_b für ein "
        "Mixture-of-Experts-Modell)\n"
    )
    workload.write_text(GOOD + "context_tokens: 1000000\n", encoding="utf-8")
    assert refused("recommend", str(workload), "--lang", "de") == (
        f"Fehler: {workload}: context_tokens: 1.000.000 übersteigt den größten Kontext von llama-3.1-8b "
        "(131.072 Tokens)\n"
    )
    assert refused("recommend", str(workload)) == (
        f"error: {workload}: context_tokens: 1,000,000 exceeds llama-3.1-8b's maximum context of 131,072 "
        "tokens\n"
    )
    workload.write_text(GOOD.replace("1000\n", "{low: 500, high: 100}\n"), encoding="utf-8")
    assert refused("recommend", str(workload), "--lang", "de") == (
        f"Fehler: {workload}: ungültiger Workload\n  requests_per_day: high (100) liegt unter low (500)\n"
    )


def test_words_write_a_grouped_number_in_the_language() -> None:
    words = Words(
        "%(what)s exceeds %(model)s's maximum context of %(most)s tokens",
        what=Words.joined("%(tokens)s", tokens=Grouped(200150)),
        model="llama-3.1-8b",
        most=Grouped(131072),
    )
    assert (str(words), say("de", words)) == (
        "200,150 exceeds llama-3.1-8b's maximum context of 131,072 tokens",
        "200.150 übersteigt den größten Kontext von llama-3.1-8b (131.072 Tokens)",
    )
