"""A workload file's ranges priced at a point by a run without scenarios: the memo's Workload table and
the JSON's ``ranges_not_drawn`` say so, as standard error does, where they were silent (a 60,000 to
140,000 requests-a-day range read as a plain 90,000)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import invoke

FILE = """\
name: code-assist
model: {name: qwen2.5-32b, precision: fp8}
requests_per_day: {low: 60000, high: 140000, shape: triangular, mode: 90000}
volume_growth: {low: 0.2, high: 0.8}
avg_input_tokens: 2500
avg_output_tokens: 120
company_country: DE
"""


def written(tmp_path: Path, text: str) -> str:
    path = tmp_path / "workload.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_memo_and_the_json_name_the_ranges_priced_at_a_point(tmp_path: Path) -> None:
    path = written(tmp_path, FILE)
    memo = invoke("recommend", path, "--as-of", "2026-11-30").output
    assert (
        "| Requests per day | 90,000 (the point value of the file's range from 60,000 to 140,000; "
        "`--scenarios N` draws the range) |\n"
        "| Volume growth in a year | 20 % to 80 %, not priced here: `--scenarios N` draws it with the "
        "volume |\n"
    ) in memo
    data = json.loads(invoke("recommend", path, "--as-of", "2026-11-30", "--format", "json").stdout)
    assert data["ranges_not_drawn"] == {
        "requests_per_day": {"low": 60000.0, "high": 140000.0, "shape": "triangular", "mode": 90000.0},
        "volume_growth": {"low": 0.2, "high": 0.8, "shape": "uniform", "mode": None},
    }


def test_a_file_without_ranges_says_nothing_of_them(tmp_path: Path) -> None:
    plain = FILE.replace("{low: 60000, high: 140000, shape: triangular, mode: 90000}", "90000")
    path = written(tmp_path, plain.replace("volume_growth: {low: 0.2, high: 0.8}\n", ""))
    memo = invoke("recommend", path, "--as-of", "2026-11-30").output
    assert "| Requests per day | 90,000 |\n" in memo
    assert "Volume growth in a year" not in memo
    data = json.loads(invoke("recommend", path, "--as-of", "2026-11-30", "--format", "json").stdout)
    assert data["ranges_not_drawn"] is None
