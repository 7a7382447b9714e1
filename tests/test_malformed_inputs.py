"""The malformed-input corpus (``tests/malformed/``) through every command that reads that kind of input:
recommend, check, sweep, batch and recommend --overrides (the HTTP service's part is in
``test_service.py``). Every input ends in exit 0, 2 or 3, never a traceback, and a refusal names the field."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from helpers import TESTS_DIR
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpu_advisor.cli import main
from gpu_advisor.engine.domain.knowledge import loading
from gpu_advisor.knowledge import KNOWLEDGE_DIR

CORPUS = TESTS_DIR / "malformed"
EXPECTED: dict[str, Any] = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))
WORKLOADS: dict[str, dict[str, Any]] = EXPECTED["workloads"]
AS_OF = "2026-11-30"


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def assert_clean(result: Result, expected: dict[str, Any], what: str, passed: tuple[int, ...] = (0,)) -> None:
    """The exit code expected (one of ``passed`` where the input is read), no traceback, and a refusal
    that names the field."""
    output = result.output + (result.stderr if result.stderr_bytes else "")
    assert result.exit_code in (0, 1, 2, 3), f"{what}: exit {result.exit_code}\n{output}"
    assert "Traceback" not in output, what
    assert result.exception is None or isinstance(result.exception, SystemExit), (what, result.exception)
    assert result.exit_code in (passed if expected["exit"] == 0 else (expected["exit"],)), (
        f"{what}:\n{output}"
    )
    if expected["exit"] != 0:
        assert expected["field"] in output, f"{what}:\n{output}"


def text(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


def as_proposal(name: str) -> str:
    """The workload as the workload of a proposal document, written in the workload's own format."""
    if name.endswith(".json"):
        return f'{{"workload": {text(name).strip()}, "proposal": {{"deployment": "api"}}}}\n'
    indented = "".join(f"  {line}\n" for line in text(name).splitlines())
    return f"workload:\n{indented}proposal: {{deployment: api}}\n"


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_recommend_check_and_sweep_read_a_workload_cleanly(name: str, tmp_path: Path) -> None:
    expected = WORKLOADS[name]
    path = str(CORPUS / name)
    result = invoke("recommend", path, "--format", "json", "--as-of", AS_OF)
    assert_clean(result, expected, f"recommend {name}")
    if expected["exit"] == 0:
        assert json.loads(result.output)["workload"][expected["field"]] == expected["value"]
    proposal = tmp_path / f"proposal{Path(name).suffix}"
    proposal.write_text(as_proposal(name), encoding="utf-8")
    # check exits 1 where a check fails: the input was read
    assert_clean(invoke("check", str(proposal), "--as-of", AS_OF), expected, f"check {name}", passed=(0, 1))
    sweep = invoke("sweep", path, "--vary", "avg_output_tokens=100:200:100", "--as-of", AS_OF)
    assert_clean(sweep, expected, f"sweep {name}")


def batch_input(names: list[str], tmp_path: Path) -> tuple[Path, Path]:
    """The corpus as a YAML list and as JSON Lines, each with a good workload first and last."""
    good = "name: good\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 5000\n"
    items = [good, *(text(name) for name in names if name.endswith(".yaml")), good]
    listed = tmp_path / "portfolio.yaml"
    listed.write_text(
        "".join("- " + "\n  ".join(item.rstrip("\n").splitlines()) + "\n" for item in items), encoding="utf-8"
    )
    good_line = json.dumps(yaml.safe_load(good))
    lines = [good_line, *(text(name).strip() for name in names if name.endswith(".json")), good_line]
    jsonl = tmp_path / "portfolio.jsonl"
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return listed, jsonl


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_reports_each_bad_row_and_keeps_the_others(jobs: str, tmp_path: Path) -> None:
    # An alias stops a YAML list where it stands (the reader cannot skip to the next item): see below.
    names = sorted(name for name in WORKLOADS if name != "alias.yaml")
    for path in batch_input(names, tmp_path):
        result = invoke("batch", str(path), "--jobs", jobs, "--as-of", AS_OF)
        assert result.exit_code == 1, result.output  # bad rows were skipped
        assert "Traceback" not in result.output
        rows = [json.loads(line) for line in result.stdout.splitlines()]
        kind = ".yaml" if path.suffix == ".yaml" else ".json"
        read = [name for name in names if name.endswith(kind) and WORKLOADS[name]["exit"] == 0]
        refused = [name for name in names if name.endswith(kind) and WORKLOADS[name]["exit"] == 2]
        assert [row["name"][:6] for row in rows] == ["good", *(["corpus"] * len(read)), "good"], result.stderr
        for name in refused:
            assert WORKLOADS[name]["field"] in result.stderr, (name, result.stderr)
        assert (
            f"{len(refused) + len(read) + 2} workloads, {len(read) + 2} evaluated, {len(refused)} with errors"
            in result.stderr
        )


def test_an_alias_in_a_batch_list_ends_the_reading_as_a_bad_row(tmp_path: Path) -> None:
    """The rows before it are run (exit 1: a row skipped), as a bad row of any other kind."""
    listed, _ = batch_input(["alias.yaml"], tmp_path)
    result = invoke("batch", str(listed), "--jobs", "1", "--as-of", AS_OF)
    assert result.exit_code == 1
    assert "aliases (*name) are not allowed" in result.output and "Traceback" not in result.output


def test_strict_batch_stops_at_the_first_bad_row_with_exit_2(tmp_path: Path) -> None:
    listed, _ = batch_input(["impossible-date.yaml"], tmp_path)
    result = invoke("batch", str(listed), "--strict", "--jobs", "1", "--as-of", AS_OF)
    assert result.exit_code == 2
    assert "utilization" in result.stderr and "Traceback" not in result.output


def test_a_csv_byte_that_is_not_utf8_spoils_its_row_only() -> None:
    result = invoke("batch", str(CORPUS / "bad-byte.csv"), "--jobs", "1", "--as-of", AS_OF)
    assert result.exit_code == 1, result.output  # the bad row was skipped
    assert [json.loads(line)["name"] for line in result.stdout.splitlines()] == ["good", "also-good"]
    assert "bad-byte.csv:3: name: not UTF-8 text; save the file as UTF-8\n" in result.stderr


def test_csv_output_escapes_names_a_spreadsheet_would_run() -> None:
    result = invoke(
        "batch", str(CORPUS / "formula-names.csv"), "--format", "csv", "--jobs", "1", "--as-of", AS_OF
    )
    assert result.exit_code == 0, result.output
    names = [row["name"] for row in csv.DictReader(io.StringIO(result.stdout))]
    assert names == ['\'=HYPERLINK("http://example.com")', "'+1", "'-1", "'@SUM(A1)"]


@pytest.mark.parametrize("name", sorted(EXPECTED["proposals"]))
def test_check_reads_a_proposal_cleanly(name: str) -> None:
    result = invoke("check", str(CORPUS / name), "--as-of", AS_OF)
    assert_clean(result, EXPECTED["proposals"][name], name)


@pytest.mark.parametrize("name", sorted(EXPECTED["overrides"]))
def test_overrides_are_read_cleanly(name: str) -> None:
    example = str(TESTS_DIR.parent / "examples" / "prototype.yaml")
    result = invoke("recommend", example, "--overrides", str(CORPUS / name), "--as-of", AS_OF)
    assert_clean(result, EXPECTED["overrides"][name], name)


def test_sweep_refuses_bounds_no_figure_can_take() -> None:
    example = str(TESTS_DIR.parent / "examples" / "prototype.yaml")
    for spec, message in (
        ("usd_per_kwh=1e308:1e308:1", "START '1e308' is too large"),
        ("usd_per_kwh=20:20:1", "less than or equal to 10"),
        ("server_price_usd=1e14:1e14:1", "less than or equal to 1000000000"),
        ("price:aws/p5-on-demand/h100-sxm=5000:5000:1", "less than 1000"),
    ):
        result = invoke("sweep", example, "--vary", spec, "--as-of", AS_OF)
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output


# --- the knowledge base ------------------------------------------------------------------------------------


@pytest.fixture
def broken_knowledge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the knowledge base that the commands load instead of the shipped one."""
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, target, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    monkeypatch.setattr(loading, "KNOWLEDGE_DIR", target)
    loading.load_knowledge.cache_clear()
    yield target
    loading.load_knowledge.cache_clear()


@pytest.mark.parametrize("case", EXPECTED["knowledge"], ids=lambda case: f"{case['file']}:{case['replace']}")
def test_a_broken_knowledge_file_is_exit_3_naming_file_and_field(
    broken_knowledge: Path, case: dict[str, Any]
) -> None:
    path = broken_knowledge / case["file"]
    changed, count = re.subn(
        case["find"], case["replace"], path.read_text(encoding="utf-8"), count=1, flags=re.M
    )
    assert count == 1, case
    path.write_text(changed, encoding="utf-8")
    example = str(TESTS_DIR.parent / "examples" / "prototype.yaml")
    for args in (("recommend", example), ("sweep", example, "--vary", "avg_output_tokens=100:200:100")):
        result = invoke(*args, "--as-of", AS_OF)
        assert result.exit_code == 3, result.output
        assert "Traceback" not in result.output
        assert case["file"] in result.output and case["field"] in result.output, result.output


# --- generated malformed workloads ---------------------------------------------------------------------

BASE_LINES = {
    "name": "w",
    "model.params_b": "8",
    "requests_per_day": "5000",
    "utilization": "0.5",
    "hours_per_month": "300",
    "personal_data": "false",
    "company_country": "DE",
    "load_pattern": "batch",  # the batch window applies to a batch only
    "batch_window_hours": "8",
    "min_replicas": "1",
}
"""A workload as YAML lines, field by field (``model.params_b`` is nested under ``model``)."""

YAML_TOKENS = [
    *("05000", "010", "-07", "0x1F", "0o17", "0x" + "f" * 4000, "9" * 4301, "1_000", "+5", "-0", "0.", ".5"),
    *("1:30", "1:23:20", "on", "off", "yes", "NO", "y", "~", "null", "True", "FALSE", "''", '""'),
    *(".inf", "-.inf", ".nan", ".NaN", "1e400", "-1e400", "1e-400", "1e16", "1e-16", "1e5", "1E-5"),
    *("2026-02-30", "2026-01-01", "2026-01-01T10:00:00Z", "!!bool maybe", "!!int ''", "!!float x"),
    *(
        "!!int 0x1F",
        "!!str 5",
        "!!binary aGk=",
        "!!timestamp 2026-01-01",
        "!!set {a}",
        "!!python/name:os.system",
    ),
    *(
        "*alias",
        "&anchor 5",
        "'5'",
        '"\\ud83d"',
        '"\\ud83d\\ude00"',
        "[1, 2]",
        "{a: 1}",
        "<<",
        "'",
        '"',
        "- x",
    ),
]
JSON_TOKENS = [
    *("NaN", "Infinity", "-Infinity", "1e400", "1e-400", "1e16", "05000", "0x1F", "9" * 4301, "-0", "1.0"),
    *("1e-05", "true", "null", "[]", "{}", '"x"', '"\\ud83d"', '"\\ud83d\\ude00"', '"NO"', '"5"', "[1, 2"),
]


def yaml_text(values: dict[str, str]) -> str:
    lines = []
    for field, value in values.items():
        if field == "model.params_b":
            lines += ["model:", f"  params_b: {value}", "  precision: bf16"]
        else:
            lines.append(f"{field}: {value}")
    return "\n".join(lines) + "\n"


def json_text(values: dict[str, str]) -> str:
    members = []
    for field, value in values.items():
        if field == "model.params_b":
            members.append(f'"model": {{"params_b": {value}, "precision": "bf16"}}')
        else:
            members.append(f'"{field}": {value}')
    return "{" + ", ".join(members) + "}"


JSON_BASE = {
    field: value if value[0].isdigit() or value == "false" else f'"{value}"'
    for field, value in BASE_LINES.items()
}


@st.composite
def malformed_workloads(draw: st.DrawFn) -> tuple[str, str | None]:
    """A workload as YAML or JSON text with one field's value replaced by a tricky token or random text,
    sometimes a key given twice or a byte spliced in; and the field changed (None: the text as a whole)."""
    as_json = draw(st.booleans())
    field = draw(st.sampled_from(sorted(BASE_LINES)))
    tokens = JSON_TOKENS if as_json else YAML_TOKENS
    token = draw(st.sampled_from(tokens) | st.text(max_size=12).map(lambda s: s.replace("\n", " ")))
    values = {**(JSON_BASE if as_json else BASE_LINES), field: token}
    text = json_text(values) if as_json else yaml_text(values)
    change = draw(st.sampled_from(["value", "value", "value", "duplicate", "splice"]))
    if change == "duplicate":
        duplicate = f', "{field}": 1}}' if as_json else f"{field}: 1\n"
        text = text[:-1] + duplicate if as_json else text + duplicate
        return text, field.split(".")[-1]
    if change == "splice":
        at = draw(st.integers(min_value=0, max_value=len(text)))
        text = text[:at] + draw(st.text(min_size=1, max_size=3)) + text[at:]
        return text, None
    return text, field


@given(malformed_workloads())
@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_malformed_workloads_exit_cleanly_naming_the_field(case: tuple[str, str | None]) -> None:
    text, field = case
    result = invoke("recommend", "-", "--format", "json", "--as-of", AS_OF, stdin=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), (text, result.exception)
    assert result.exit_code in (0, 2), (text, result.output)
    assert "Traceback" not in result.output
    if result.exit_code == 2 and field is not None and "not valid YAML" not in result.output:
        assert field in result.output, (text, result.output)


def test_ask_refuses_numbers_no_field_can_take() -> None:
    from gpu_advisor.engine.apps.questionnaire import AnswerError, read_number
    from gpu_advisor.engine.i18n.formats import Format

    for text, integer in (("nan", False), ("inf", False), ("1e400", False), ("9" * 5000, True)):
        with pytest.raises(AnswerError):
            read_number(text, integer, Format.named("en"))
    assert read_number("0.7", False, Format.named("en")) == 0.7


def test_a_policy_file_is_read_as_user_input(tmp_path: Path) -> None:
    """Aliases refused, values under the same rules; the problem is the user's: exit 2."""
    example = str(TESTS_DIR.parent / "examples" / "prototype.yaml")
    for body, message in (
        ("rules: &r []\nthresholds: *r\n", "aliases (*name) are not allowed"),
        (
            "rules: []\nthresholds: [{key: x, value: .nan}]\n",
            "thresholds.0.value: '.nan' is not a finite number",
        ),
    ):
        policies = tmp_path / f"policies{len(message)}"
        policies.mkdir()
        (policies / "org.yaml").write_text(body, encoding="utf-8")
        result = invoke("recommend", example, "--policy", str(policies), "--as-of", AS_OF)
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output


def test_a_yaml_batch_list_with_a_byte_that_is_not_utf8_is_exit_2(tmp_path: Path) -> None:
    portfolio = tmp_path / "bad.yaml"
    portfolio.write_bytes(
        b"- name: a\n  model: {name: llama-3.1-8b, precision: bf16}\n  requests_per_day: 5\n- name: b\xff\n"
    )
    result = invoke("batch", str(portfolio), "--jobs", "1", "--as-of", AS_OF)
    # Said as recommend says it, not in the YAML parser's words ("unacceptable character #x00ff: invalid
    # start byte").
    said = f"error: {portfolio}: not UTF-8 text (byte 88); save it as UTF-8\n"
    assert (result.exit_code, result.output) == (2, said)
    assert invoke("recommend", str(portfolio), "--as-of", AS_OF).output == said
    german = invoke("batch", str(portfolio), "--jobs", "1", "--lang", "de")
    assert (
        german.output
        == f"Fehler: {portfolio}: kein UTF-8-Text (Byte 88); speichern Sie die Datei als UTF-8\n"
    )


def test_a_proposal_given_to_recommend_names_the_command_that_reads_it() -> None:
    """A proposal file (``workload`` and ``proposal``) is not a workload with two unknown fields: the
    error says which command reads it, in the language asked for, and a workload with a field of either
    name is still judged field by field."""
    proposal = "workload: {name: x, model: {name: llama-3.1-8b}, requests_per_day: 5}\nproposal: {name: p}\n"
    result = CliRunner().invoke(main, ["recommend", "-"], input=proposal)
    assert result.exit_code == 2
    assert result.output == (
        "error: <stdin>: this is a proposal (a workload and what is intended for it): check it with "
        "gpu-advisor check\n"
    )
    german = CliRunner().invoke(main, ["recommend", "-", "--lang", "de"], input=proposal)
    assert "dies ist ein Vorschlag (ein Workload und was damit geplant ist)" in german.output
    for layout in (
        "workload: {name: x, model: {name: llama-3.1-8b}, requests_per_day: 5}\nproposals: [{name: p}]\n",
        "proposals:\n- workload: {name: x}\n  proposal: {name: p}\n",
        "- workload: {name: x}\n  proposal: {name: p}\n",
    ):
        result = CliRunner().invoke(main, ["recommend", "-"], input=layout)
        assert result.exit_code == 2
        assert "this is a proposal (a workload and what is intended for it)" in result.output
    workload = "name: x\nmodel: {name: llama-3.1-8b}\nrequests_per_day: 5\nworkload: 1\nproposal: 2\n"
    result = CliRunner().invoke(main, ["recommend", "-"], input=workload)
    assert result.exit_code == 2
    assert "  workload: unknown field" in result.output
