"""A price listed in EUR stays the figure the provider lists where the company cannot recover VAT: the JSON's
``list_price_per_gpu_hour`` and the options table's "(€…)" give it, and the legend says the dollar (or
franc) figure beside it is that price converted with the VAT added. Before, the EUR figure was raised by
the VAT too, under a legend that called it "listed in EUR (net of VAT …)"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import EXAMPLES_DIR, invoke, read_example

AUTHORITY: dict[str, Any] = {
    **read_example(EXAMPLES_DIR / "internal-assistant.yaml"),
    "company_country": "DE",
    "input_vat_recoverable": False,
}
"""A German public authority's 8B assistant in office hours: OVHcloud's L40S, 1.40 EUR (HT) a card-hour,
is among its options."""


def recommend(workload: dict[str, Any], tmp_path: Path, *options: str) -> str:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    result = invoke("recommend", str(path), "--as-of", "2026-12-07", *options)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_json_keeps_the_listed_eur_figure(tmp_path: Path) -> None:
    data = json.loads(recommend(AUTHORITY, tmp_path, "--format", "json"))
    (ovh,) = [
        o for o in data["options"] if (o["provider"], o["offer"], o["gpu"]) == ("ovhcloud", "l40s", "l40s")
    ]
    assert ovh["currency"] == "EUR"
    assert ovh["list_price_per_gpu_hour"] == 1.40
    assert ovh["usd_per_gpu_hour"] == pytest.approx(1.40 * 1.16 * 1.19)


def test_the_franc_legend_says_the_vat_is_added_to_the_listed_price(tmp_path: Path) -> None:
    lines = recommend(AUTHORITY, tmp_path, "--currency", "CHF").splitlines()
    assert (
        "(€…): the price as the provider lists it in EUR (net of VAT where the provider says so); the franc "
        "figure beside it is that price at 0.9197 CHF per EUR (2026-01-27) with 19 % VAT added. An EU price, "
        "so no EU premium is added."
    ) in lines
    assert not any(line.startswith("(€…): listed in EUR") for line in lines)


def test_the_german_legend(tmp_path: Path) -> None:
    lines = recommend(AUTHORITY, tmp_path, "--lang", "de").splitlines()
    assert (
        "(€…): der Preis, wie der Anbieter ihn in EUR listet (ohne Umsatzsteuer, wo der Anbieter das "
        "angibt); der Dollarbetrag daneben ist dieser Preis, umgerechnet zu 1,16 USD pro EUR (Stand "
        "2025-12-31), zuzüglich 19 % Umsatzsteuer. Ein EU-Preis, daher ohne EU-Aufschlag."
    ) in lines
    assert (
        "Jeder Preis hier enthält 19 % Umsatzsteuer (DE), aufgeschlagen auf den Nettopreis des Katalogs, "
        "da das Unternehmen sie nicht als Vorsteuer abziehen kann." in lines
    )
    assert any("| ovhcloud | l40s | l40s | 2 |" in line and "(1,40 €)" in line for line in lines)


def test_a_company_that_recovers_vat_reads_the_legend_as_before(tmp_path: Path) -> None:
    lines = recommend({**AUTHORITY, "input_vat_recoverable": True}, tmp_path).splitlines()
    assert (
        "(€…): listed in EUR (net of VAT where the provider says so) and converted at 1.16 USD per EUR "
        "(2025-12-31); an EU price, so no EU premium is added."
    ) in lines
    assert any(
        "| ovhcloud | l40s | l40s | 2 | on-demand | EU (FR) | $1.62 (€1.40) |" in line for line in lines
    )
