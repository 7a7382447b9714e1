"""A portfolio that lists a workload twice counts it twice in the total: the summary names the rows
whose name repeats an earlier row's, so the reader can tell a duplicate from two workloads."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import invoke

HEADER = "name,model.name,model.precision,requests_per_day\n"
ROWS = HEADER + "chat,llama-3.1-8b,bf16,1000\nmail,llama-3.1-8b,bf16,2000\nchat,llama-3.1-8b,bf16,1000\n"


def test_a_repeated_name_is_listed_with_the_line_it_repeats(tmp_path: Path) -> None:
    rows = tmp_path / "portfolio.csv"
    rows.write_text(ROWS, encoding="utf-8")
    result = invoke(
        "batch", str(rows), "-o", str(tmp_path / "out.csv"), "--summary", str(tmp_path / "s.json")
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert summary["evaluated"] == 3
    assert summary["repeated_count"] == 1
    assert summary["repeated"] == [{"line": 4, "name": "chat", "first_line": 2}]
    text = invoke("batch", str(rows), "-o", str(tmp_path / "o.csv")).stderr
    assert (
        "Names that repeat an earlier row's (each row is in the total: check that none is listed twice): 1\n"
        "  line 4  chat: as line 2\n"
    ) in text
    german = invoke("batch", str(rows), "-o", str(tmp_path / "d.csv"), "--lang", "de").stderr
    assert "  Zeile 4  chat: wie Zeile 2\n" in german


def test_distinct_names_list_none(tmp_path: Path) -> None:
    rows = tmp_path / "portfolio.csv"
    distinct = (
        HEADER + "chat,llama-3.1-8b,bf16,1000\nmail,llama-3.1-8b,bf16,2000\nchat-eu,llama-3.1-8b,bf16,1000\n"
    )
    rows.write_text(distinct, encoding="utf-8")
    result = invoke("batch", str(rows), "-o", str(tmp_path / "o.csv"), "--summary", str(tmp_path / "s.json"))
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert (summary["evaluated"], summary["repeated_count"], summary["repeated"]) == (3, 0, [])


def test_a_name_repeated_in_another_case_is_a_repeat(tmp_path: Path) -> None:
    """ "Chat" on line 4 repeats line 2's "chat": a reader takes them for one workload listed twice (the
    two were counted as distinct)."""
    rows = tmp_path / "portfolio.csv"
    rows.write_text(
        HEADER + "chat,llama-3.1-8b,bf16,1000\nmail,llama-3.1-8b,bf16,2000\nChat,llama-3.1-8b,bf16,1000\n",
        encoding="utf-8",
    )
    result = invoke("batch", str(rows), "-o", str(tmp_path / "o.csv"), "--summary", str(tmp_path / "s.json"))
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert summary["repeated"] == [{"line": 4, "name": "Chat", "first_line": 2}]
