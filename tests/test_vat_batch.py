"""The batch summary says where its total adds workloads priced with VAT (their companies cannot recover
it) to workloads priced net, with each part; the JSON summary gives them (``purchases_vat``,
``vat_rate_missing``). Before, the total added a German authority's gross bill to net ones unsaid."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gpu_advisor.cli import main

CHAT: dict[str, Any] = {
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 400,
    "load_pattern": "variable",
    "schedule": "office_hours",
    "personal_data": True,
}
"""A 70B chat in office hours: IONOS's hosted Llama 3.3 70B is its decision in Germany and France alike."""
WORKLOADS = [
    {**CHAT, "name": "de-authority", "company_country": "DE", "input_vat_recoverable": False},
    {**CHAT, "name": "de-company", "company_country": "DE"},
    {**CHAT, "name": "fr-authority", "company_country": "FR", "input_vat_recoverable": False},
]


def run_batch(tmp_path: Path, workloads: list[dict[str, Any]], *options: str) -> tuple[str, dict[str, Any]]:
    source = tmp_path / "workloads.jsonl"
    source.write_text("".join(json.dumps(w) + "\n" for w in workloads), encoding="utf-8")
    summary = tmp_path / "summary.json"
    args = ["batch", str(source), "--jobs", "1", "--as-of", "2026-12-07", "-o", str(tmp_path / "out.jsonl")]
    text = CliRunner().invoke(main, [*args, "--force", *options])
    assert text.exit_code == 0, text.output
    written = CliRunner().invoke(main, [*args, "--force", "--summary", str(summary)])
    assert written.exit_code == 0, written.output
    return text.stderr, json.loads(summary.read_text(encoding="utf-8"))


def test_the_summary_says_what_the_total_adds(tmp_path: Path) -> None:
    text, summary = run_batch(tmp_path, WORKLOADS)
    results = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    costs = {r["name"]: r["decision"]["usd_per_month"] for r in results}
    # The authority's bill is the company's with 19 % VAT; the French authority's stays net.
    assert costs["de-authority"] == pytest.approx(costs["de-company"] * 1.19)
    assert costs["fr-authority"] == pytest.approx(costs["de-company"])
    assert summary["purchases_vat"] == [
        {"country": "DE", "rate": 0.19, "workloads": 1, "usd_per_month": round(costs["de-authority"], 2)}
    ]
    assert summary["vat_rate_missing"] == 1
    net = costs["de-company"] + costs["fr-authority"]
    lines = text.splitlines()
    at = lines.index(f"Total monthly cost: ${sum(costs.values()):,.0f}")
    assert lines[at + 1 : at + 4] == [
        "The total adds workloads priced with VAT, as their companies cannot recover it "
        "(input_vat_recoverable: false), to workloads priced net:",
        f"  1 workload with 19 % VAT (DE): ${costs['de-authority']:,.0f}",
        f"  2 workloads net of VAT: ${net:,.0f} (of them, 1 cannot recover VAT, but the catalog has no rate "
        "for its country: KNB023)",
    ]


def test_in_german(tmp_path: Path) -> None:
    text, _ = run_batch(tmp_path, WORKLOADS, "--lang", "de")
    assert (
        "Die Summe addiert Workloads mit Umsatzsteuer, da ihre Unternehmen sie nicht als Vorsteuer abziehen "
        "können (input_vat_recoverable: false), zu Workloads ohne Umsatzsteuer:"
    ) in text.splitlines()


def test_a_total_all_with_vat_and_one_all_net(tmp_path: Path) -> None:
    text, summary = run_batch(tmp_path, WORKLOADS[:1])
    assert (
        "The total includes VAT, as the companies cannot recover it (input_vat_recoverable: false):" in text
    )
    assert "net of VAT" not in text
    text, summary = run_batch(tmp_path, WORKLOADS[2:])
    assert summary["purchases_vat"] == []
    assert (
        "The total is net of VAT: 1 workload cannot recover it, but the catalog has no rate for its country "
        "(KNB023)."
    ) in text.splitlines()


def test_nothing_is_said_where_every_company_recovers_vat(tmp_path: Path) -> None:
    text, summary = run_batch(tmp_path, [WORKLOADS[1]])
    assert (summary["purchases_vat"], summary["vat_rate_missing"]) == ([], 0)
    assert "VAT" not in text
