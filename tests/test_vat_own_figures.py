"""Your own prices (an overrides file) are taken as net of VAT, as a business is quoted, and a company that
cannot recover VAT has it added to them: the memo says so beside the figures replaced, and a range you give
for the server's price is raised as the price is. Before, the memo was silent (an authority giving a gross
quote paid the VAT twice), and the scenarios drew the server's price from your net range inside a knowledge
base whose every other price carried the VAT: a median $2,700 below the memo's own figure. The Robustness
section says where a price range includes the VAT."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import DE_AUTHORITY_OWN, invoke

AUTHORITY: dict[str, Any] = DE_AUTHORITY_OWN
"""A German authority's 70B service whose data stays in the building: two owned HGX H100 servers."""


def recommend(tmp_path: Path, workload: dict[str, Any], overrides: str | None, *options: str) -> str:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    args = ["recommend", str(path), "--as-of", "2026-12-07", *options]
    if overrides is not None:
        (tmp_path / "own.yaml").write_text(overrides, encoding="utf-8")
        args += ["--overrides", str(tmp_path / "own.yaml")]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.output


OWN_PRICE = "own_server:\n  price_eur: 240000\n"


def test_the_memo_says_your_price_is_taken_as_net_and_vat_added(tmp_path: Path) -> None:
    lines = recommend(tmp_path, AUTHORITY, OWN_PRICE).splitlines()
    at = lines.index(
        "- Figures replaced with the user's own values: hgx-h100-8.price_eur = 240000 (= 278,400 USD at 1.16 "
        "USD per EUR)."
    )
    assert lines[at + 1] == (
        "  They are taken as net of VAT, as a business is quoted, and 19 % VAT is added to each (a staff "
        "figure, a salary, stays as given): give your prices without VAT, or it is counted twice."
    )
    # 240,000 EUR x 1.16 x 1.19.
    assert "| Capital | $1.58 | $9,203 | $331,296 over 36 months (3 years) |" in lines


def test_in_german(tmp_path: Path) -> None:
    lines = recommend(tmp_path, AUTHORITY, OWN_PRICE, "--lang", "de").splitlines()
    assert (
        "  Sie werden als Nettobeträge genommen, wie ein Unternehmen sie angeboten bekommt, und jedem werden "
        "19 % Umsatzsteuer aufgeschlagen (eine Personalzahl, ein Gehalt, bleibt, wie angegeben): Geben Sie "
        "Ihre Preise ohne Umsatzsteuer an, sonst wird sie doppelt gezählt."
    ) in lines


@pytest.mark.parametrize("recoverable", [True, None])
def test_not_said_where_no_vat_is_added(tmp_path: Path, recoverable: bool | None) -> None:
    workload = {**AUTHORITY, "input_vat_recoverable": True} if recoverable else AUTHORITY
    memo = recommend(tmp_path, workload, OWN_PRICE if recoverable else None)
    assert "They are taken as net of VAT" not in memo


def test_your_range_of_the_server_price_is_raised_as_the_price_is(tmp_path: Path) -> None:
    overrides = "own_server:\n  price_usd: 300000\nranges:\n  server_price: {low: 280000, high: 320000}\n"
    output = recommend(tmp_path, AUTHORITY, overrides, "--scenarios", "20", "--format", "json")
    robustness = json.loads(output)["robustness"]
    (price,) = [i for i in robustness["inputs"] if i["id"] == "server_price"]
    assert (price["low"], price["point"], price["high"], price["vat_rate"]) == pytest.approx(
        (280_000 * 1.19, 300_000 * 1.19, 320_000 * 1.19, 0.19)
    )
    costs = robustness["cost_usd_per_month"]
    base = json.loads(recommend(tmp_path, AUTHORITY, overrides, "--format", "json"))["decision"]
    assert costs["p10"] <= base["usd_per_month"] <= costs["p90"]


def test_the_robustness_table_says_the_range_includes_vat(tmp_path: Path) -> None:
    lines = recommend(tmp_path, AUTHORITY, None, "--scenarios", "20").splitlines()
    # The documents' $250,000 to $320,000, times 1.19.
    assert any(
        line.startswith(
            "| price of the own 8-GPU H100 server | $297,500 \u2013 $380,800 including 19 % VAT | uniform | "
        )
        for line in lines
    )
    assert any(
        line.startswith(
            "Firm up first: the price of the own 8-GPU H100 server ($297,500 to $380,800 including 19 % VAT)."
        )
        for line in lines
    )
    net = recommend(tmp_path, {**AUTHORITY, "input_vat_recoverable": True}, None, "--scenarios", "20")
    assert "| price of the own 8-GPU H100 server | $250,000 \u2013 $320,000 | uniform | " in net
