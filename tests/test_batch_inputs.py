"""`gpu-advisor batch` reading its input: CSV cells typed by the workload model, JSON Lines and YAML lists,
bad rows reported at their line and skipped, or stopping the run under --strict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from batch_cli import (
    CSV_HEADER,
    CSV_INPUT,
    JSONL_INPUT,
    YAML_INPUT,
    csv_rows,
    invoke,
    jsonl,
    write,
)


def test_csv_bad_row_is_reported_with_its_line_and_skipped(tmp_path: Path) -> None:
    result = invoke(write(tmp_path, "portfolio.csv", CSV_INPUT), "--jobs", "1")
    assert result.exit_code == 1  # rows were skipped, result.stderr
    rows = jsonl(result.stdout)
    assert [(r["line"], r["name"]) for r in rows] == [(2, "public-chat"), (3, "prototype"), (5, "hr")]
    assert "portfolio.csv:4: invalid workload" in result.stderr
    assert "model.precision" in result.stderr and "'fp9'" in result.stderr


def test_csv_cells_are_typed_by_the_workload_model(tmp_path: Path) -> None:
    result = invoke(write(tmp_path, "portfolio.csv", CSV_INPUT), "--jobs", "1")
    by_name = {r["name"]: r for r in jsonl(result.stdout)}
    # "yes" is a boolean because personal_data is one; an empty cell leaves the field to its default.
    assert by_name["hr"]["workload"]["personal_data"] is True
    assert by_name["hr"]["workload"]["load_pattern"] == "variable"
    assert "load_pattern" in by_name["prototype"]["workload"]["defaults_used"]
    assert by_name["prototype"]["workload"]["params_b"] == 8.0


def test_csv_cell_of_the_wrong_type_names_the_column(tmp_path: Path) -> None:
    text = CSV_HEADER + "x,,8,bf16,lots,,\n"
    summary = tmp_path / "summary.json"
    result = invoke(write(tmp_path, "w.csv", text), "--summary", str(summary))
    assert result.exit_code == 1  # rows were skipped
    assert "w.csv:2: requests_per_day: 'lots' is not a whole number" in result.stderr
    # The row's name cell still names it (it was null).
    (error,) = json.loads(summary.read_text(encoding="utf-8"))["error_list"]
    assert (error["line"], error["name"]) == (2, "x")


def test_a_csv_row_of_the_wrong_cell_count_is_named_by_its_name_cell(tmp_path: Path) -> None:
    text = (
        "name,model.name,model.precision,requests_per_day\na,llama-3.1-8b,fp8,1000\ne,llama-3.1-8b,fp8,1,x\n"
    )
    summary = tmp_path / "summary.json"
    result = invoke(write(tmp_path, "w.csv", text + ",llama-3.1-8b\n"), "--summary", str(summary))
    assert result.exit_code == 1
    # The name was null; a row without a name cell stays unnamed.
    errors = json.loads(summary.read_text(encoding="utf-8"))["error_list"]
    assert [(error["line"], error["name"]) for error in errors] == [(3, "e"), (4, None)]
    assert "w.csv:3: 5 cells, the header has 4" in result.stderr


def test_a_csv_cell_with_a_thousands_dot_is_told_what_to_write(tmp_path: Path) -> None:
    """A German spreadsheet's 1.500: refused with the whole number meant, as YAML and JSON Lines are."""
    result = invoke(write(tmp_path, "w.csv", CSV_HEADER + "x,,8,bf16,1.500,,\n"))
    assert result.exit_code == 1
    assert (
        "w.csv:2: requests_per_day: '1.500' is not a whole number (if a dot separates thousands, write 1500: "
        "a data file reads the dot as a decimal point or as text)"
    ) in result.stderr


def test_a_csv_cell_with_thousands_commas_is_told_what_to_write(tmp_path: Path) -> None:
    """An English spreadsheet's 1,500 and 1,500,000 (quoted cells): the README promises the hint there too."""
    text = CSV_HEADER + 'x,,8,bf16,"1,500",,\ny,,8,bf16,"1,500,000",,\n'
    result = invoke(write(tmp_path, "w.csv", text))
    assert result.exit_code == 1
    assert "w.csv:2: requests_per_day: '1,500' is not a whole number: write 1500\n" in result.stderr
    assert "w.csv:3: requests_per_day: '1,500,000' is not a whole number: write 1500000\n" in result.stderr


def test_csv_load_profile_cell_holds_24_numbers(tmp_path: Path) -> None:
    day = " ".join(["0"] * 9 + ["1"] * 8 + ["0"] * 7)
    text = (
        "name,model.name,model.precision,requests_per_day,schedule,load_profile\n"
        f"office,llama-3.1-8b,bf16,20000,office_hours,{day}\n"
        "short,llama-3.1-8b,bf16,20000,office_hours,1;2\n"
        "words,llama-3.1-8b,bf16,20000,office_hours,flat\n"
    )
    result = invoke(write(tmp_path, "w.csv", text), "--jobs", "1")
    (row,) = jsonl(result.stdout)
    assert row["workload"]["load_profile"] == [0.0] * 9 + [1.0] * 8 + [0.0] * 7
    assert row["load"]["profile_source"] == "input"
    assert (
        "w.csv:3: invalid workload\n  load_profile: a load profile has 24 hourly values, got 2"
        in result.stderr
    )
    assert "w.csv:4: load_profile: 'flat' is not a number" in result.stderr


def test_csv_unknown_column_stops_with_a_suggestion(tmp_path: Path) -> None:
    result = invoke(write(tmp_path, "w.csv", "name,model.precison\nx,fp8\n"))
    assert result.exit_code == 2
    assert "unknown column 'model.precison'" in result.stderr
    assert "did you mean 'model.precision'?" in result.stderr
    assert "Traceback" not in result.output


def test_a_csv_line_longer_than_a_workload_stops_the_file_before_it_is_held(tmp_path: Path) -> None:
    """A CSV of one endless line (/dev/zero, a broken export) was read whole into memory (7.9 GB after
    10 s): a line is read up to the size a workload file may have, and a longer one stops the run."""
    result = invoke(write(tmp_path, "w.csv", "name,requests_per_day\n" + "x" * 1_100_000 + "\n"))
    assert result.exit_code == 2
    assert "w.csv:2: the line is longer than 1000000 bytes" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("name", "text"),
    [("empty.csv", ""), ("header.csv", CSV_HEADER), ("empty.jsonl", ""), ("empty.yaml", "[]\n")],
)
def test_an_input_without_a_workload_is_refused_and_writes_nothing(
    tmp_path: Path, name: str, text: str
) -> None:
    """A truncated export (nothing, or a header alone) stops with exit 2, as ``check`` refuses a file
    without a proposal: it passed as a clean run of 0 workloads."""
    source = write(tmp_path, name, text)
    result = invoke(source, "--output", str(tmp_path / "out.csv"))
    assert result.exit_code == 2
    assert result.stderr == f"error: {source}: no workload in the file\n"
    assert not (tmp_path / "out.csv").exists()
    # To standard output neither: not even the CSV header of results there are none of.
    streamed = invoke(source, "--format", "csv")
    assert (streamed.exit_code, streamed.stdout) == (2, "")


def test_jsonl_bad_line_is_reported_and_the_rest_continues(tmp_path: Path) -> None:
    result = invoke(write(tmp_path, "w.jsonl", JSONL_INPUT), "--jobs", "2")
    assert result.exit_code == 1  # rows were skipped, result.stderr
    assert [(r["line"], r["name"]) for r in jsonl(result.stdout)] == [(1, "small"), (2, "big"), (5, "last")]
    assert "w.jsonl:3: not valid JSON" in result.stderr


def test_yaml_list_bad_item_is_reported_at_its_line(tmp_path: Path) -> None:
    result = invoke(write(tmp_path, "w.yaml", YAML_INPUT), "--format", "csv")
    assert result.exit_code == 1  # rows were skipped, result.stderr
    assert [(r["line"], r["name"]) for r in csv_rows(result.stdout)] == [("1", "small"), ("7", "big")]
    assert "w.yaml:4: invalid workload" in result.stderr
    assert "requests_per_day: Input should be a valid integer (got '500')" in result.stderr


def test_yaml_aliases_are_refused(tmp_path: Path) -> None:
    """The alias is a bad row that ends the reading; the item before it is kept and run (one bad spot
    lost every result)."""
    text = "- &w {name: a, model: {params_b: 8, precision: bf16}, requests_per_day: 5}\n- *w\n"
    result = invoke(write(tmp_path, "w.yaml", text), "--format", "csv")
    assert result.exit_code == 1
    assert [(r["line"], r["name"]) for r in csv_rows(result.stdout)] == [("1", "a")]
    assert (
        "w.yaml:2: not valid YAML (line 2, column 3: aliases (*name) are not allowed in gpu-advisor input): "
        "the list is read up to here, the rest of the file is skipped"
    ) in result.stderr


def test_a_syntax_error_in_a_yaml_list_keeps_the_items_before_it(tmp_path: Path) -> None:
    text = (
        "- {name: a, model: {params_b: 8, precision: bf16}, requests_per_day: 5}\n"
        "- {name: b, model: {params_b: 8, precision: bf16}, requests_per_day: 6}\n"
        "- {name: c, model: [\n"
        "- {name: d, model: {params_b: 8, precision: bf16}, requests_per_day: 7}\n"
    )
    result = invoke(write(tmp_path, "w.yaml", text), "--format", "csv")
    assert result.exit_code == 1
    assert [r["name"] for r in csv_rows(result.stdout)] == ["a", "b"]
    assert "the list is read up to here, the rest of the file is skipped" in result.stderr
    # Not a bad row to allow: the workloads after it were never read, so a truncated portfolio does not
    # pass as clean, and the summary says where the reading stopped.
    summary = tmp_path / "summary.json"
    allowed = invoke(
        write(tmp_path, "w.yaml", text), "--format", "csv", "--allow-bad-rows", "--summary", str(summary)
    )
    assert allowed.exit_code == 1
    assert "the input could not be read from line 4 on" in allowed.stderr
    data = json.loads(summary.read_text(encoding="utf-8"))
    assert (data["unread_from_line"], data["workloads"], data["evaluated"]) == (4, 3, 2)


def test_a_stray_quote_to_the_end_of_a_csv_stops_the_reading_there(tmp_path: Path) -> None:
    """A quote opened on line 3 swallowed the other 998 rows of the file: they were in no count, no
    error and no total, and --allow-bad-rows exited 0."""
    text = "name,model.name,model.precision,requests_per_day\n" + "a,llama-3.1-8b,fp8,5000\n"
    text += '"b,llama-3.1-8b,fp8,5000\n' + "".join(f"{n},llama-3.1-8b,fp8,5000\n" for n in "cde")
    summary = tmp_path / "summary.json"
    result = invoke(
        write(tmp_path, "w.csv", text), "--format", "csv", "--allow-bad-rows", "--summary", str(summary)
    )
    assert result.exit_code == 1
    assert [r["name"] for r in csv_rows(result.stdout)] == ["a"]
    assert (
        "w.csv:3: not valid CSV (unexpected end of data): a quote opened on this line takes in every line "
        "after it, so the file is read up to here and the rest is skipped"
    ) in result.stderr
    data = json.loads(summary.read_text(encoding="utf-8"))
    assert (data["unread_from_line"], data["workloads"], data["evaluated"]) == (3, 2, 1)


def test_a_stray_quote_closed_later_makes_its_lines_one_bad_row(tmp_path: Path) -> None:
    """Its cells may even count right (the quote closed inside the name of line 5): the lines between
    went into one cell silently. The row is named by all its lines, and the reading goes on after it."""
    row = "{},llama-3.1-8b,fp8,5000\n"
    header = "name,model.name,model.precision,requests_per_day\n"
    joined = header + row.format("a") + '"' + row.format("b") + row.format("c") + row.format('d"')
    result = invoke(write(tmp_path, "w.csv", joined + row.format("e")), "--format", "csv")
    assert result.exit_code == 1
    assert [r["name"] for r in csv_rows(result.stdout)] == ["a", "e"]
    assert (
        "w.csv:3-5: invalid workload\n  name: one line of text, without control characters such as tabs "
        "or line breaks" in result.stderr
    )
    assert (
        "\n  these lines were read as one row, as a quoted cell runs over them: a stray quote takes in the "
        "rows after it\n"
    ) in result.stderr
    # Text after the closing quote: not CSV, the same lines, and the rows after it are read.
    broken = header + row.format("a") + '"' + row.format("b") + row.format("c") + row.format('"d"x')
    result = invoke(write(tmp_path, "w.csv", broken + row.format("e") + row.format("f")), "--format", "csv")
    assert [r["name"] for r in csv_rows(result.stdout)] == ["a", "e", "f"]
    assert "w.csv:3-5: not valid CSV (',' expected after '\"')" in result.stderr
    # A cell count that the joined lines spoil says so.
    short = header + row.format("a") + '"b,llama-3.1-8b,fp8\nc",llama-3.1-8b,fp8,5000,7\n' + row.format("e")
    result = invoke(write(tmp_path, "w.csv", short), "--format", "csv")
    assert [r["name"] for r in csv_rows(result.stdout)] == ["a", "e"]
    assert (
        "w.csv:3-4: 5 cells, the header has 4 (a quoted cell runs over these lines: a stray quote?)"
    ) in result.stderr


def test_a_quoted_cell_over_several_lines_is_read_where_its_field_takes_it(tmp_path: Path) -> None:
    """A load profile pasted from a spreadsheet column, one number a line, is 24 numbers separated by
    white space: read, as before stray quotes were looked for."""
    profile = "\n".join(["1"] * 6 + ["3"] * 12 + ["1"] * 6)
    header = "name,model.name,model.precision,requests_per_day,load_profile\n"
    text = header + f'a,llama-3.1-8b,fp8,5000,"{profile}"\n'
    result = invoke(write(tmp_path, "w.csv", text), "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    (row,) = jsonl(result.stdout)
    assert row["workload"]["load_profile"] == [1.0] * 6 + [3.0] * 12 + [1.0] * 6


@pytest.mark.parametrize(
    ("name", "text", "bad_line"),
    [("w.csv", CSV_INPUT, 4), ("w.jsonl", JSONL_INPUT, 3), ("w.yaml", YAML_INPUT, 4)],
)
def test_strict_stops_at_the_first_bad_row_with_exit_2(
    tmp_path: Path, name: str, text: str, bad_line: int
) -> None:
    result = invoke(write(tmp_path, name, text), "--strict", "--jobs", "2")
    assert result.exit_code == 2
    assert f"{name}:{bad_line}:" in result.stderr
    assert "--strict: stopped at the first bad row" in result.stderr
    assert all(row["line"] < bad_line for row in jsonl(result.stdout))
    assert "Traceback" not in result.output
    evaluated = len(jsonl(result.stdout))
    assert (
        f"{evaluated + 1} workloads, {evaluated} evaluated, 1 with errors (evaluated on "
    ) in result.stderr
    assert f"; stopped at line {bad_line}\n" in result.stderr


def test_the_summary_of_one_workload_says_one_workload(tmp_path: Path) -> None:
    source = write(tmp_path, "one.csv", CSV_HEADER + "one,llama-3.1-8b,,fp8,1000,false,steady\n")
    result = invoke(source, "--output", str(tmp_path / "out.csv"))
    assert result.exit_code == 0, result.output
    assert f"{source}: 1 workload, 1 evaluated, 0 with errors (evaluated on " in result.output


def test_a_header_that_is_not_csv_refuses_the_file(tmp_path: Path) -> None:
    """A stray quote in the header left no columns: the next row was read as the header, or the run
    wrote a results file with a header alone and exit 1."""
    out = tmp_path / "out.csv"
    for header in ('name,"model.name,model.precision,requests_per_day\n', 'name,"mo"x,model.precision,x\n'):
        text = header + "a,llama-3.1-8b,fp8,5000\nb,llama-3.1-8b,fp8,5000\n"
        result = invoke(write(tmp_path, "w.csv", text), "--format", "csv", "-o", str(out))
        assert result.exit_code == 2
        assert ": not valid CSV (" in result.stderr
        assert not out.exists()


def test_a_json_null_line_is_no_workload_not_an_empty_row(tmp_path: Path) -> None:
    text = '{"name": "a", "model": {"params_b": 8, "precision": "bf16"}, "requests_per_day": 5}\nnull\n'
    result = invoke(write(tmp_path, "w.jsonl", text), "--format", "csv")
    assert result.exit_code == 1
    assert "w.jsonl:2: no fields given: a workload is a mapping of fields\n" in result.stderr
    # A YAML list's item of null, or none, says the same.
    items = "- {name: a, model: {params_b: 8, precision: bf16}, requests_per_day: 5}\n- null\n-\n"
    listed = invoke(write(tmp_path, "w.yaml", items), "--format", "csv")
    assert listed.exit_code == 1
    for line in (2, 3):
        assert f"w.yaml:{line}: no fields given: a workload is a mapping of fields\n" in listed.stderr


def test_a_byte_order_mark_counts_in_a_json_line_s_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "w.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"name": "\xff"}\n')
    result = invoke(str(path), "--format", "csv")
    # The mark (3 bytes), then '{"name": "' (10): the bad byte is the file's 13th, counted from 0.
    assert "w.jsonl:1: " in result.stderr and "(byte 13)" in result.stderr


def test_a_quote_left_open_before_blank_lines_only_is_its_row_s_error(tmp_path: Path) -> None:
    """Blank lines after a last row whose quote is never closed took no workload in: the run stopped the
    reading ('the workloads from there are in no result') and exited 1 with --allow-bad-rows."""
    text = "name,model.name,model.precision,requests_per_day\na,llama-3.1-8b,fp8,5000\n"
    result = invoke(
        write(tmp_path, "w.csv", text + '"b,llama-3.1-8b,fp8,5000\n\n\n'),
        "--format",
        "csv",
        "--allow-bad-rows",
    )
    assert result.exit_code == 0, result.stderr
    assert "w.csv:3-5: not valid CSV (unexpected end of data)\n" in result.stderr
    assert "reading stopped" not in result.stderr


def test_every_bad_cell_of_a_row_and_every_other_problem_is_said_at_once(tmp_path: Path) -> None:
    """Row 2 has two cells of the wrong type and a third value out of range: one message names all
    three, so the row is mended in one pass (only the first cell was said; the range after it was
    mended). The fields left out for their bad cells are not said to be missing."""
    text = (
        "name,model.name,model.precision,requests_per_day,avg_input_tokens,avg_output_tokens,utilization\n"
        "a,llama-3.1-8b,bf16,-5,abc,150,x\n"
    )
    result = invoke(write(tmp_path, "w.csv", text), "--jobs", "1", "--format", "csv")
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"error: {tmp_path / 'w.csv'}:2: invalid workload\n"
        "  avg_input_tokens: 'abc' is not a whole number\n"
        "  utilization: 'x' is not a number\n"
        "  requests_per_day: Input should be greater than 0 (got -5)\n"
    )
    result = invoke(write(tmp_path, "de.csv", text), "--jobs", "1", "--format", "csv", "--lang", "de")
    assert result.stderr.startswith(
        f"Fehler: {tmp_path / 'de.csv'}:2: ungültiger Workload\n"
        "  avg_input_tokens: 'abc' ist keine ganze Zahl\n"
        "  utilization: 'x' ist keine Zahl\n"
        "  requests_per_day: Erwartet wird ein Wert größer als 0 (angegeben: -5)\n"
    )


def test_a_group_a_bad_cell_leaves_short_is_not_said_to_be_missing(tmp_path: Path) -> None:
    """model.params_b 'siebzig' is left out for its bad cell: the model then has neither a name nor a
    size, which was said as a second problem ("model: give model.name ... or model.params_b")."""
    text = "name,model.params_b,model.precision,requests_per_day\na,siebzig,bf16,-3\n"
    result = invoke(write(tmp_path, "w.csv", text), "--jobs", "1", "--format", "csv")
    assert result.stderr.startswith(
        f"error: {tmp_path / 'w.csv'}:2: invalid workload\n"
        "  model.params_b: 'siebzig' is not a number\n"
        "  requests_per_day: Input should be greater than 0 (got -3)\n"
        f"{tmp_path / 'w.csv'}: 1 workload"
    )
