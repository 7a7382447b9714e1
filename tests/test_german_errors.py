"""No English sentence in the German error outputs: what refuses the malformed-input corpus (as a workload,
a proposal, an overrides file), a parser's, the value rules' and the operating system's complaints, a batch
with bad rows, and every catalog table at 80 and 100 columns (``test_languages.py`` has the memo, check,
tco and batch summary)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import EXAMPLES_DIR, REPO_ROOT
from test_languages import AS_OF, english_words, invoke


def test_german_batch_with_bad_rows_has_no_english_sentence(tmp_path: Path) -> None:
    """A portfolio with rows every reader refuses: the row errors, the summary and the exit message."""
    rows = tmp_path / "rows.jsonl"
    good = (
        '{"name": "chat", "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "requests_per_day": 100000}'
    )
    rows.write_text(
        "\n".join(
            [
                good,
                '{"name": "a",}',
                '{"name": "b" "c"}',
                '{"name": "c"} 1',
                '{"name": "d", "name": "e"}',
                "[1, 2]",
                '{"name": "f", "model": {"name": "llama-9", "precision": "fp8"}, "requests_per_day": 1}',
                good.replace("100000", "1e400"),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    args = ["batch", str(rows), "--as-of", AS_OF, "--lang", "de", "--currency", "EUR", "--jobs", "1"]
    result = invoke(*args, "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 1
    assert result.stderr.count("Fehler: ") == 7, result.stderr
    assert english_words(result.stderr.replace("--allow-bad-rows", "")) == []


# --- the error outputs of the examples and the malformed corpus in German --------------------------------

MALFORMED = REPO_ROOT / "tests" / "malformed"


@pytest.mark.parametrize(
    "name", sorted(p.name for p in MALFORMED.glob("*") if p.suffix in (".yaml", ".json"))
)
def test_german_errors_of_the_malformed_corpus_have_no_english_sentence(name: str, tmp_path: Path) -> None:
    """Every file of the corpus as a workload, as a proposal, as overrides: whatever refuses it says so in
    German (the parser's, the value rules' and the validation's words)."""
    path = str(MALFORMED / name)
    said = []
    for args in (
        ("recommend", path),
        ("check", path),
        ("recommend", str(EXAMPLES_DIR / "prototype.yaml"), "--overrides", path),
    ):
        result = invoke(*args, "--as-of", AS_OF, "--lang", "de", "--currency", "EUR")
        assert "Traceback" not in result.output
        if result.exit_code == 2:
            said.append(result.stderr)
    assert said, name
    assert [english_words(text) for text in said] == [[] for _ in said]


READ_ERRORS = {
    "tab.yaml": "name: chat\n\tmodel: x\n",
    "mapping.yaml": "name: chat: bot\n",
    "colon.yaml": "name: chat\nmodel\nrequests_per_day: 1\n",
    "quote.yaml": "name: 'chat\n",
    "indent.yaml": "name: chat\n- model\n",
    "flow.yaml": "name: chat\nmodel: {name: llama-3.1-8b\n",
    "documents.yaml": "name: chat\n---\nname: bot\n",
    "directive.yaml": "%YAML 1.x\n---\nname: chat\n",
    "control.yaml": "name: chat\x07\n",
    "twice.yaml": "name: a\nname: b\n",
    "zero.yaml": "name: a\nmodel: {name: llama-3.1-8b, precision: fp8}\nrequests_per_day: 05000\n",
    "huge.yaml": "name: a\nmodel: {name: llama-3.1-8b, precision: fp8}\nrequests_per_day: 1e400\n",
    "list.yaml": "- 1\n- 2\n",
    "model.yaml": "name: a\nmodel: {name: llama-9, precision: fp8}\nrequests_per_day: 100\n",
    "context.yaml": "name: a\nmodel: {name: llama-3.1-8b, precision: fp8}\nrequests_per_day: 100\n"
    "context_tokens: 1000000\n",
    "range.yaml": "name: a\nmodel: {name: llama-3.1-8b, precision: fp8}\n"
    "requests_per_day: {low: 5, high: 1}\n",
}


@pytest.mark.parametrize("name", sorted(READ_ERRORS))
def test_german_read_errors_have_no_english_sentence(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text(READ_ERRORS[name], encoding="utf-8")
    for command in ("recommend", "check"):
        result = invoke(command, str(path), "--as-of", AS_OF, "--lang", "de")
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("Fehler: "), result.stderr
        assert english_words(result.stderr) == []


def test_german_os_errors_have_no_english_sentence(tmp_path: Path) -> None:
    for args in (
        ("recommend", str(tmp_path / "missing.yaml")),
        ("recommend", str(tmp_path)),
        ("check", str(tmp_path / "missing.yaml")),
        ("batch", str(tmp_path), "--input-format", "csv", "-o", str(tmp_path / "out.jsonl")),
        ("batch", str(tmp_path / "missing.csv"), "-o", str(tmp_path / "out.jsonl")),
        ("recommend", str(EXAMPLES_DIR / "prototype.yaml"), "-o", str(tmp_path / "no" / "memo.md")),
        ("recommend", str(EXAMPLES_DIR / "prototype.yaml"), "--overrides", str(tmp_path)),
    ):
        result = invoke(*args, "--lang", "de")
        assert result.exit_code == 2, (args, result.output)
        assert english_words(result.stderr) == [], args


@pytest.mark.parametrize("kind", ["offers", "gpus", "models", "apis", "serverless"])
def test_german_catalog_has_no_english_sentence(kind: str) -> None:
    """The tables, their headings and notes; the sources' own titles and notes stay as published."""
    for columns in ("80", "100"):
        result = invoke("catalog", kind, "--as-of", AS_OF, "--lang", "de", env={"COLUMNS": columns})
        assert result.exit_code == 0, result.output
        assert english_words(without_catalog_sources(result.output)) == []
    eu = invoke("catalog", "offers", "--eu", "--as-of", AS_OF, "--lang", "de", "--currency", "EUR")
    assert english_words(without_catalog_sources(eu.output)) == []


def without_catalog_sources(text: str) -> str:
    """Without the numbered notes that quote the sources ('[3] title, section' and its indented lines)."""
    kept, note = [], False
    for line in text.splitlines():
        note = bool(re.match(r"\[\d+\] ", line)) or (note and line.startswith("    "))
        if not note:
            kept.append(line)
    return "\n".join(kept)
