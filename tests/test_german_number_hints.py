"""Input written the German way gets told how to write it: a decimal comma in a file or a CSV cell, and a
CSV file a spreadsheet saved with semicolons (Excel's German default). Each said in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import invoke

WORKLOAD = "name: t\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 1000\nutilization: 0,5\n"


def test_a_decimal_comma_in_a_workload_file_is_told_the_point(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(WORKLOAD, encoding="utf-8")
    english = invoke("recommend", str(path))
    assert english.exit_code == 2
    assert (
        "utilization: Input should be a valid number (got '0,5') (write 0.5: a data file takes a decimal "
        "point, not a comma)"
    ) in english.output
    german = invoke("recommend", str(path), "--lang", "de")
    assert "(schreiben Sie 0.5: In einer Datendatei steht ein Dezimalpunkt, kein Komma)" in german.output


def test_a_decimal_comma_in_a_csv_cell_is_told_the_point(tmp_path: Path) -> None:
    path = tmp_path / "w.csv"
    path.write_text(
        'name,model.name,model.precision,requests_per_day,utilization\na,llama-3.1-8b,bf16,1000,"0,5"\n',
        encoding="utf-8",
    )
    result = invoke("batch", str(path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 1
    assert "utilization: '0,5' is not a number: write 0.5, with a decimal point, not a comma" in result.output


def test_a_semicolon_csv_is_told_to_use_commas(tmp_path: Path) -> None:
    path = tmp_path / "w.csv"
    path.write_text(
        "name;model.name;model.precision;requests_per_day\na;llama-3.1-8b;bf16;1000\n", encoding="utf-8"
    )
    result = invoke("batch", str(path), "-o", str(tmp_path / "out.csv"), "--lang", "de")
    assert result.exit_code == 2
    assert "w.csv:1: die Spalten sind durch Semikolons getrennt" in result.output
    assert not (tmp_path / "out.csv").exists()


def test_a_comma_before_three_digits_gets_both_readings(tmp_path: Path) -> None:
    """'1,500' is English thousands as likely as a German decimal comma: "write 1.5" alone turned a
    1,500 ms target into 1.5 ms, which no GPU meets."""
    path = tmp_path / "w.yaml"
    path.write_text(
        "name: t\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 1000\n"
        "max_time_to_first_token_ms: 1,500\n",
        encoding="utf-8",
    )
    result = invoke("recommend", str(path))
    assert "(write 1500, or 1.5 where the comma is a decimal comma:" in result.output
    csv = tmp_path / "w.csv"
    csv.write_text(
        'name,model.name,model.precision,requests_per_day,max_time_to_first_token_ms\na,llama-3.1-8b,bf16,1000,"1,500"\n',
        encoding="utf-8",
    )
    result = invoke("batch", str(csv), "-o", str(tmp_path / "out.csv"))
    assert "'1,500' is not a number: write 1500, or 1.5 where the comma is a decimal comma" in result.output


def test_thousands_commas_alone_are_told_the_whole_number(tmp_path: Path) -> None:
    """'1,500,000' cannot be a decimal comma (it said Python's "could not convert string to float"), and
    a whole-number field given '1,500' has no decimal reading."""
    csv = tmp_path / "w.csv"
    csv.write_text(
        "name,model.name,model.precision,requests_per_day,max_time_to_first_token_ms\n"
        'a,llama-3.1-8b,bf16,1000,"1,500,000"\n',
        encoding="utf-8",
    )
    result = invoke("batch", str(csv), "-o", str(tmp_path / "out.csv"))
    assert "max_time_to_first_token_ms: '1,500,000' is not a number: write 1500000\n" in result.output
    path = tmp_path / "w.yaml"
    path.write_text(
        "name: t\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 1,500\n", encoding="utf-8"
    )
    result = invoke("recommend", str(path))
    assert "(got '1,500') (write 1500: a data file takes no thousands commas)" in result.output


def test_underscores_between_digits_get_the_plain_number(tmp_path: Path) -> None:
    """'2_000_000' is how Python writes two million; the data file's reader takes it for text."""
    path = tmp_path / "w.yaml"
    path.write_text(
        "name: t\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 2_000_000\n",
        encoding="utf-8",
    )
    result = invoke("recommend", str(path))
    assert result.exit_code == 2
    assert (
        "requests_per_day: Input should be a valid integer (got '2_000_000') (write 2000000: a data file "
        "takes "
        "no underscores between digits)\n"
    ) in result.output
    german = invoke("recommend", "--lang", "de", str(path))
    assert (
        "(schreiben Sie 2000000: In einer Datendatei sind keine Unterstriche zwischen Ziffern zulässig)"
        in (german.output)
    )
    # A name with underscores is no number: the hint is for numeric fields only.
    path.write_text(
        "name: t\nmodel: {name: llama_3, precision: bf16}\nrequests_per_day: 1000\n", encoding="utf-8"
    )
    assert "no underscores between digits" not in invoke("recommend", str(path)).output


@pytest.mark.parametrize("written", ["2'000'000", "2\u2019000\u2019000", "2 000 000", "2\u202f000\u202f000"])
def test_swiss_and_din_thousands_get_the_plain_number(tmp_path: Path, written: str) -> None:
    """A Swiss user writes two million 2'000'000, DIN 5008 2 000 000: the data file's reader takes either
    for text, and the error says what to write, in a YAML file and in a batch's CSV cell."""
    path = tmp_path / "w.yaml"
    path.write_text(
        f'name: t\nmodel: {{name: llama-3.1-8b, precision: bf16}}\nrequests_per_day: "{written}"\n',
        encoding="utf-8",
    )
    result = invoke("recommend", str(path))
    assert result.exit_code == 2
    assert "(write 2000000: a data file takes no apostrophes or spaces between digits)\n" in result.output
    german = invoke("recommend", "--lang", "de", str(path))
    assert (
        "(schreiben Sie 2000000: In einer Datendatei sind keine Apostrophe oder Leerzeichen" in german.output
    )
    rows = tmp_path / "w.csv"
    rows.write_text(f'name,model.name,model.precision,requests_per_day\na,llama-3.1-8b,bf16,"{written}"\n')
    assert "is not a whole number: write 2000000" in invoke("batch", str(rows)).output


def test_a_number_with_a_space_in_the_wrong_place_gets_no_thousands_hint(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(
        'name: t\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: "20 00"\n', encoding="utf-8"
    )
    assert "apostrophes or spaces" not in invoke("recommend", str(path)).output
