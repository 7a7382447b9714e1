"""``check`` says what its figures include, as ``recommend`` does, where the company cannot recover VAT:
the proposal's cost and the recommendation's carry the company country's rate, and the text, Markdown and
JSON say so (``purchases_vat``); a country the catalog has no rate for is checked net, and KNB024 warns.
Before, check priced a German authority's proposal with 19 % VAT and said nothing of it, and a French
authority's proposal was checked net without a word."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import GERMAN_PURCHASES_VAT, invoke

WORKLOAD: dict[str, Any] = {
    "name": "de-authority",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 400,
    "load_pattern": "variable",
    "schedule": "office_hours",
    "company_country": "DE",
    "input_vat_recoverable": False,
}
PROPOSAL: dict[str, Any] = {
    "name": "eight H100 at AWS",
    "deployment": "dedicated_cloud",
    "provider": "aws",
    "offer": "p5-on-demand",
    "gpu": "h100-sxm",
    "gpus": 8,
    "pricing": "on_demand",
    "region": "us-east-1",
}
"""AWS's P5 on demand, which the catalog prices at its newer list (KNB011): $6.88 a card-hour."""
SAID = (
    "Every amount here includes 19 % VAT (DE) on what is bought, as the company cannot recover it "
    "(input_vat_recoverable: false); staff costs carry none."
)


def check(tmp_path: Path, workload: dict[str, Any], *options: str) -> str:
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": workload, "proposal": PROPOSAL}), encoding="utf-8")
    return invoke("check", str(path), "--as-of", "2026-12-07", *options).output


def test_the_text_says_the_amounts_include_the_vat(tmp_path: Path) -> None:
    lines = check(tmp_path, WORKLOAD).splitlines()
    (at,) = [index for index, line in enumerate(lines) if line.startswith("  proposed: ")]
    assert lines[at + 1] == "  " + SAID


def test_the_markdown_says_it_after_the_costs(tmp_path: Path) -> None:
    (line,) = [
        line
        for line in check(tmp_path, WORKLOAD, "--format", "markdown").splitlines()
        if line.startswith("`")
    ]
    assert line.endswith(" per month. " + SAID)


def test_the_json_carries_the_rate_and_the_cost_with_it(tmp_path: Path) -> None:
    (paid,) = json.loads(check(tmp_path, WORKLOAD, "--format", "json"))
    (net,) = json.loads(check(tmp_path, {**WORKLOAD, "input_vat_recoverable": True}, "--format", "json"))
    assert paid["purchases_vat"] == GERMAN_PURCHASES_VAT
    assert net["purchases_vat"] is None
    # 8 cards x 176 paid hours x $6.88, and that with 19 % VAT.
    assert net["usd_per_month"] == pytest.approx(8 * 176 * 6.88, abs=0.01)
    assert paid["usd_per_month"] == pytest.approx(net["usd_per_month"] * 1.19, abs=0.01)
    (knb014,) = [r for r in paid["results"] if r["rule_id"] == "KNB014"]
    assert knb014["knowledge"][-1] == (
        "offers: aws/p5-on-demand/h100-sxm at 4.641 USD per GPU-hour with 19 % VAT (2026-03-27)"
    )
    assert "KNB024" not in {r["rule_id"] for r in net["results"]}


def test_in_german(tmp_path: Path) -> None:
    assert (
        "  Jeder Betrag hier enthält 19 % Umsatzsteuer (DE) auf das Eingekaufte, da das Unternehmen sie "
        "nicht als Vorsteuer abziehen kann (input_vat_recoverable: false); Personalkosten tragen keine."
    ) in check(tmp_path, WORKLOAD, "--lang", "de").splitlines()


def test_a_country_without_a_rate_is_checked_net_and_kNB024_says_so(tmp_path: Path) -> None:
    french = {**WORKLOAD, "company_country": "FR"}
    (result,) = json.loads(check(tmp_path, french, "--format", "json"))
    assert result["purchases_vat"] is None
    assert result["usd_per_month"] == pytest.approx(8 * 176 * 6.88, abs=0.01)
    (item,) = [r for r in result["results"] if r["rule_id"] == "KNB024"]
    assert (item["status"], item["severity"]) == ("warn", "warning")
    assert item["message"] == (
        "The workload says its company cannot recover the VAT it pays (input_vat_recoverable: false), but "
        "the catalog has no VAT rate for FR (knowledge/vat_rates.yaml holds those of DE, AT, CH), so the "
        "proposal's cost and the recommendation's are net of VAT: each purchase costs that rate more than "
        "shown, staff costs none. Add the rate before comparing them with a budget or with each other (an "
        "owned server's staff line carries no VAT)."
    )
    assert SAID not in check(tmp_path, french)
    # Where the catalog has the rate, the check passes.
    (german,) = json.loads(check(tmp_path, WORKLOAD, "--format", "json"))
    (passed,) = [r for r in german["results"] if r["rule_id"] == "KNB024"]
    assert passed["status"] == "pass"
