"""The batch summary names the workloads its total leaves out for want of a monthly figure, as it names
those that need attention: the reader finds what the total does not count."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import invoke

CHAT = {"name": "chat", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 5000}
CONTRACTS = {
    "name": "vertrag-pruefung",
    "model": {"name": "llama-3.1-405b", "precision": "fp8"},
    "requests_per_day": 5000,
    "avg_input_tokens": 6000,
    "avg_output_tokens": 800,
    "schedule": "office_hours",
    "company_country": "DE",
    "personal_data": True,
    "business_critical": True,
}


def test_a_workload_without_a_monthly_figure_is_named(tmp_path: Path) -> None:
    rows = tmp_path / "portfolio.jsonl"
    rows.write_text("\n".join(json.dumps(w) for w in (CHAT, CONTRACTS)) + "\n", encoding="utf-8")
    result = invoke("batch", str(rows), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 0, result.output
    assert "(not counting 1 without a monthly figure)\n  line 2  vertrag-pruefung: no monthly figure\n" in (
        result.stderr
    )
    written = invoke("batch", str(rows), "-o", str(tmp_path / "o.csv"), "--summary", str(tmp_path / "s.json"))
    assert written.exit_code == 0, written.output
    summary = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert summary["without_monthly_cost_rows"] == [{"line": 2, "name": "vertrag-pruefung"}]


def test_a_portfolio_priced_throughout_names_none(tmp_path: Path) -> None:
    rows = tmp_path / "portfolio.jsonl"
    rows.write_text(json.dumps(CHAT) + "\n", encoding="utf-8")
    result = invoke("batch", str(rows), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 0, result.output
    assert "Total monthly cost: $" in result.stderr
    assert "no monthly figure" not in result.stderr
