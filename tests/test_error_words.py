"""Refusals that say in words what is allowed: a control character in a name, a range without its ends,
a file that is not UTF-8 (a UTF-16 one named so), and a batch's YAML list that is not UTF-8 said as a
workload file's is, in English and German."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

import pytest
from helpers import invoke

MODEL = "model: {name: llama-3.1-8b, precision: bf16}\n"
WORKLOAD = f"name: a\n{MODEL}requests_per_day: 5000\n"
ITEM = f"- name: a\n  {MODEL}  requests_per_day: 5000\n"
UTF16 = "UTF-16 text (it starts with a UTF-16 byte-order mark), not UTF-8; save it as UTF-8"
UTF16_DE = (
    "UTF-16-Text (er beginnt mit einer UTF-16-Byte-Order-Mark), kein UTF-8; speichern Sie die Datei als UTF-8"
)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "error: <stdin>: invalid workload\n  name: one line of text, without control characters such as "
            "tabs or line breaks (got 'a\\tb')\n",
        ),
        (
            "de",
            "Fehler: <stdin>: ungültiger Workload\n  name: eine Textzeile, ohne Steuerzeichen wie "
            "Tabulatoren oder Zeilenumbrüche (angegeben: 'a\\tb')\n",
        ),
    ],
)
def test_a_control_character_in_a_name_is_said_in_words(lang: str, said: str) -> None:
    """It said "String should match pattern '^[^\\x00-\\x1f\\x7f]+$'"."""
    result = invoke("recommend", "-", "--lang", lang, stdin=f'name: "a\\tb"\n{MODEL}requests_per_day: 5\n')
    assert (result.exit_code, result.output) == (2, said)


def test_a_range_without_its_ends_says_what_the_field_takes() -> None:
    """``requests_per_day: {a: 1}`` said "requests_per_day.low: Field required" alone."""
    document = f"name: a\n{MODEL}requests_per_day: {{a: 1}}\n"
    result = invoke("recommend", "-", stdin=document)
    assert (result.exit_code, result.output) == (
        2,
        "error: <stdin>: requests_per_day.low: Field required: requests_per_day takes a number, or a range "
        "{low, high} with both\n",
    )
    german = invoke("recommend", "-", "--lang", "de", stdin=document)
    takes = "Pflichtfeld fehlt: requests_per_day ist eine Zahl oder eine Spanne {low, high} mit beiden Werten"
    assert german.output == (
        "Fehler: <stdin>: ungültiger Workload\n"
        f"  requests_per_day.low: {takes}\n"
        f"  requests_per_day.high: {takes}\n"
        "  requests_per_day.a: unbekanntes Feld; zulässige Felder: low, high, shape, mode\n"
    )
    growth = invoke("recommend", "-", stdin=f"{WORKLOAD}volume_growth: {{low: 0.1}}\n")
    assert growth.output == (
        "error: <stdin>: volume_growth.high: Field required: volume_growth takes a number, or a range "
        "{low, high} with both\n"
    )


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_named_so_by_every_reader(tmp_path: Path, encoding: str) -> None:
    """It said "not UTF-8 text (byte 0)", and batch read a UTF-16 YAML list as one mapping ("a workload
    list is a YAML list of mappings")."""
    mark = codecs.BOM_UTF16_LE if encoding == "utf-16-le" else codecs.BOM_UTF16_BE
    workload, portfolio, lines = tmp_path / "w.yaml", tmp_path / "b.yaml", tmp_path / "b.jsonl"
    workload.write_bytes(mark + WORKLOAD.encode(encoding))
    portfolio.write_bytes(mark + ITEM.encode(encoding))
    lines.write_bytes(mark + '{"name": "a"}\n'.encode(encoding))
    for args in (["recommend", str(workload)], ["check", str(workload)], ["batch", str(portfolio)]):
        result = invoke(*args)
        assert (result.exit_code, result.output) == (2, f"error: {args[1]}: {UTF16}\n")
        german = invoke(*args, "--lang", "de")
        assert german.output == f"Fehler: {args[1]}: {UTF16_DE}\n"
    rows = invoke("batch", str(lines), "--jobs", "1")
    assert f"error: {lines}:1: {UTF16}\n" in rows.output


def test_a_byte_that_is_not_utf8_says_to_save_the_file_as_utf8(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_bytes(b"name: a\xd0\n" + MODEL.encode() + b"requests_per_day: 5\n")
    for args in (["recommend", str(path)], ["batch", str(path)]):
        result = invoke(*args)
        assert (result.exit_code, result.output) == (
            2,
            f"error: {path}: not UTF-8 text (byte 7); save it as UTF-8\n",
        )


def test_a_byte_that_is_not_utf8_far_into_a_yaml_list_names_where_reading_stopped(tmp_path: Path) -> None:
    """Past the reader's first chunk the byte stops the list: the rows before it run, and the message
    named line 0 and the parser's words ("not valid YAML (unacceptable character #x00d0: invalid
    continuation byte ...)"). The byte's own line is named, and the line reading stopped at, which the
    reader, decoding ahead of the parser, may leave well before it: the workloads between are not run."""
    path = tmp_path / "b.yaml"
    path.write_bytes(ITEM.encode() * 200 + b"- name: \xd0x\n")
    result = invoke("batch", str(path), "--jobs", "1", "--as-of", "2026-11-30")
    assert result.exit_code == 1
    assert (
        f"error: {path}:601: not UTF-8 text (byte 16408); save it as UTF-8: reading stopped at line 600; the "
        "workload read there and the rest of the file are skipped\n" in result.output
    )
    assert "200 workloads, 199 evaluated, 1 with errors" in result.output
    # 230 items: the byte is on line 691, reading stops at line 600 (the reader's chunk ends there).
    far = tmp_path / "far.yaml"
    far.write_bytes(ITEM.encode() * 230 + b"- name: \xd0x\n")
    stopped = invoke("batch", str(far), "--jobs", "1", "--as-of", "2026-11-30")
    assert (
        f"error: {far}:691: not UTF-8 text (byte 18868); save it as UTF-8: reading stopped at line 600;"
        in (stopped.output)
    )


UTF16_LOOKS = "looks like UTF-16 text (a zero byte beside each character), not UTF-8; save it as UTF-8"
UTF16_LOOKS_DE = (
    "sieht nach UTF-16-Text aus (ein Nullbyte neben jedem Zeichen), kein UTF-8; speichern Sie die Datei als "
    "UTF-8"
)
PORTFOLIO_CSV = "name,model.name,model.precision,requests_per_day\r\na,llama-3.1-8b,bf16,5000\r\n"
RATES_CSV = "provider,offer,gpu,usd_per_gpu_hour\nlambda,on-demand,h100-sxm,2.49\n"


@pytest.mark.parametrize(
    ("encoding", "mark", "english", "german"),
    [
        ("utf-16-le", codecs.BOM_UTF16_LE, UTF16, UTF16_DE),
        ("utf-16-be", codecs.BOM_UTF16_BE, UTF16, UTF16_DE),
        ("utf-16-le", b"", UTF16_LOOKS, UTF16_LOOKS_DE),
        ("utf-16-be", b"", UTF16_LOOKS, UTF16_LOOKS_DE),
    ],
)
def test_a_utf16_csv_is_named_so(
    tmp_path: Path, encoding: str, mark: bytes, english: str, german: str
) -> None:
    """A CSV saved as a spreadsheet's "Unicode text" said "not UTF-8 text (the header's column 1)" with a
    byte-order mark, and without one "unknown column 'n\\x00a\\x00m\\x00e\\x00'" (batch) or "unknown value
    'p\\x00r\\x00...'" (catalog import): its NUL bytes are valid UTF-8."""
    from click.testing import CliRunner

    from gpu_advisor.cli import main

    portfolio, rates = tmp_path / "b.csv", tmp_path / "rates.csv"
    portfolio.write_bytes(mark + PORTFOLIO_CSV.encode(encoding))
    rates.write_bytes(mark + RATES_CSV.encode(encoding))
    result = invoke("batch", str(portfolio))
    assert (result.exit_code, result.output) == (2, f"error: {portfolio}: {english}\n")
    assert invoke("batch", str(portfolio), "--lang", "de").output == f"Fehler: {portfolio}: {german}\n"
    piped = CliRunner().invoke(main, ["batch", "-", "--input-format", "csv"], input=portfolio.read_bytes())
    assert (piped.exit_code, piped.output) == (2, f"error: -: {english}\n")
    imported = invoke("catalog", "import", str(rates), "--format", "csv", "-o", str(tmp_path / "o.yaml"))
    assert (imported.exit_code, imported.output) == (2, f"error: {rates}: {english}\n")
    assert not (tmp_path / "o.yaml").exists()


def test_a_csv_in_utf8_with_a_nul_byte_later_is_no_utf16(tmp_path: Path) -> None:
    """Only a first line of ASCII text in UTF-16 reads as UTF-16: a UTF-8 header is read as before."""
    portfolio = tmp_path / "b.csv"
    portfolio.write_bytes(b"name,model.nam\x00e\n")
    result = invoke("batch", str(portfolio))
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {portfolio}:1: unknown column 'model.nam\\x00e'; allowed: name,")


def test_every_free_text_pattern_is_defined_once_and_said_in_words() -> None:
    """The patterns were written out again in ``PATTERN_TYPES``, where a change to a model's pattern would
    have left its problems said as a regular expression."""
    from gpu_advisor.engine.domain.input_errors import PATTERN_TYPES, pattern_words
    from gpu_advisor.engine.domain.proposal import ProposalInput, Waiver
    from gpu_advisor.engine.domain.text_patterns import NAME, ONE_LINE, TEXT
    from gpu_advisor.engine.domain.workload import WorkloadInput

    def pattern(model: Any, field: str) -> str:
        (found,) = [
            getattr(m, "pattern", None) for m in model.model_fields[field].metadata if hasattr(m, "pattern")
        ]
        return str(found)

    used = {
        pattern(WorkloadInput, "name"),
        pattern(ProposalInput, "name"),
        pattern(Waiver, "reason"),
        pattern(Waiver, "owner"),
    }
    assert used == set(PATTERN_TYPES) == {NAME, ONE_LINE, TEXT}
    assert [str(pattern_words(p)) for p in (NAME, ONE_LINE, TEXT)] == [
        "one line of text, without control characters such as tabs or line breaks",
        "one line of text, without control characters such as tabs or line breaks",
        "text without control characters other than tabs and line breaks",
    ]
    assert pattern_words(r"^[A-Z]{2}$") is None
