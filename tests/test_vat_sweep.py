"""``sweep`` says when its costs include VAT the company cannot recover, and that a swept price is taken as
net with the VAT added, as the catalog's are; where the catalog has no rate for the company's country it
says the costs are net (KNB023). Before, a German authority's sweep gave costs with 19 % VAT unsaid."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import DE_AUTHORITY_OWN, invoke

AUTHORITY: dict[str, Any] = DE_AUTHORITY_OWN
"""A German authority's 70B service whose data stays in the building: two owned HGX H100 servers."""
PRICES = "server_price_usd=250000:350000:50000"
SAID = (
    "Every amount here includes 19 % VAT (DE) on what is bought, as the company cannot recover it "
    "(input_vat_recoverable: false); staff costs carry none."
)


def sweep(tmp_path: Path, workload: dict[str, Any], vary: str, *options: str) -> str:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    result = invoke("sweep", str(path), "--vary", vary, "--as-of", "2026-12-07", *options)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_text_says_the_costs_include_vat_and_the_swept_price_is_net(tmp_path: Path) -> None:
    lines = sweep(tmp_path, AUTHORITY, PRICES).splitlines()
    assert lines[1:3] == [
        SAID,
        "The values of server_price_usd are taken as net of VAT, as the catalog's prices are, and 19 % VAT "
        "is added to them.",
    ]


def test_a_workload_variable_only_says_the_costs_include_vat(tmp_path: Path) -> None:
    lines = sweep(tmp_path, AUTHORITY, "requests_per_day=40000:80000:40000").splitlines()
    assert lines[1:3] == [SAID, ""]


def test_the_json_gives_the_rate_and_the_swept_price_carries_it(tmp_path: Path) -> None:
    paid = json.loads(sweep(tmp_path, AUTHORITY, PRICES, "--format", "json"))
    net = json.loads(
        sweep(tmp_path, {**AUTHORITY, "input_vat_recoverable": True}, PRICES, "--format", "json")
    )
    assert paid["purchases_vat"]["rate"] == 0.19 and net["purchases_vat"] is None
    # Two servers: each $50,000 step of the price adds 2 x 50,000 / 36 a month, with 19 % VAT where the
    # company cannot recover it.
    assert steps(paid) == pytest.approx([2 * 50_000 / 36 * 1.19] * 2)
    assert steps(net) == pytest.approx([2 * 50_000 / 36] * 2)


def steps(result: dict[str, Any]) -> list[float]:
    costs = [point["usd_per_month"] for point in result["points"]]
    return [after - before for before, after in itertools.pairwise(costs)]


def test_in_german(tmp_path: Path) -> None:
    lines = sweep(tmp_path, AUTHORITY, PRICES, "--lang", "de").splitlines()
    assert lines[2] == (
        "Die Werte von server_price_usd werden wie die Preise des Katalogs als Nettobeträge genommen und mit "
        "19 % Umsatzsteuer beaufschlagt."
    )


def test_without_a_rate_the_costs_are_said_to_be_net(tmp_path: Path) -> None:
    output = sweep(tmp_path, {**AUTHORITY, "company_country": "FR"}, PRICES)
    assert output.splitlines()[1] == (
        "Every amount here is net of VAT: the company cannot recover input VAT (input_vat_recoverable: "
        "false), but the catalog has no VAT rate for its country (KNB023)."
    )
    assert json.loads(sweep(tmp_path, {**AUTHORITY, "company_country": "FR"}, PRICES, "--format", "json"))[
        "vat_rate_missing"
    ]


def test_nothing_is_said_where_the_company_recovers_vat(tmp_path: Path) -> None:
    assert "VAT" not in sweep(tmp_path, {**AUTHORITY, "input_vat_recoverable": True}, PRICES)
