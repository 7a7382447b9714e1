"""The power tariffs' notes say what their figures include in both cases: net of VAT for a company that
recovers it, with the rate added for one that cannot. The amounts a note quotes besides its figure (the
former East German states' tariff, EKZ's low tariff and its CHF 8 a month) carry the VAT as the figure
does. Before, a German authority's memo gave 0.2181 EUR per kWh (0.1833 with 19 %) 'without electricity
tax and VAT' beside the East German 0.1764 net, and CH's low tariff and monthly fee stayed net. Austria's
source does not say which taxes its figure includes: the note says so, and that the figure is taken as
net."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import DE_AUTHORITY_OWN, invoke, knowledge_with

from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge_from

OWN: dict[str, Any] = {**DE_AUTHORITY_OWN, "name": "authority-own"}
"""An authority's 70B service whose data stays in the building: owned servers, costed on the country's
power tariff."""


def power_line(tmp_path: Path, workload: dict[str, Any], *options: str) -> str:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    result = invoke("recommend", str(path), "--as-of", "2026-12-07", *options)
    assert result.exit_code == 0, result.output
    (line,) = [
        line for line in result.output.splitlines() if line.startswith(("  - Power: 0", "  - Strom: 0"))
    ]
    return line


def test_germany_with_vat(tmp_path: Path) -> None:
    line = power_line(tmp_path, OWN)
    # 0.1833 and 0.1764 EUR, each x 1.19; the electricity tax 0.0205 x 1.19.
    assert line.startswith(
        "  - Power: 0.2181 EUR per kWh: VEA industry price comparison, medium voltage, contracts starting 1 "
        "July 2025, former West German states (former East German states: 0.2099), without electricity tax, "
        "with 19 % VAT added (Energie & Management, "
    )
    assert "0.0244 EUR per kWh: electricity tax (Stromsteuer)" in line
    assert "gives its rate in an overrides file; with 19 % VAT added (biddingground, " in line
    assert "VAT excluded" not in line and "VAT is left out" not in line


def test_germany_net(tmp_path: Path) -> None:
    line = power_line(tmp_path, {**OWN, "input_vat_recoverable": True})
    assert line.startswith(
        "  - Power: 0.1833 EUR per kWh: VEA industry price comparison, medium voltage, contracts starting 1 "
        "July 2025, former West German states (former East German states: 0.1764), without electricity tax, "
        "VAT excluded (Energie & Management, "
    )
    assert "gives its rate in an overrides file; VAT excluded (biddingground, " in line


def test_germany_in_german(tmp_path: Path) -> None:
    line = power_line(tmp_path, OWN, "--lang", "de")
    assert line.startswith(
        "  - Strom: 0,2181 EUR pro kWh: VEA-Industriestrompreisvergleich, Mittelspannung, Verträge ab 1. "
        "Juli 2025, alte Bundesländer (neue Bundesländer: 0,2099), ohne Stromsteuer, zuzüglich 19 % "
        "Umsatzsteuer (Energie & Management, "
    )


def test_switzerland_raises_its_low_tariff_and_monthly_fee_too(tmp_path: Path) -> None:
    swiss = {**OWN, "company_country": "CH"}
    # 0.2604, 0.2484 and CHF 8, each x 1.081.
    assert power_line(tmp_path, swiss).startswith(
        "  - Power: 0.2815 CHF per kWh: EKZ's (canton of Zurich) 2025 tariff for business customers using "
        "under 100,000 kWh a year at low voltage without power metering, high tariff (low tariff at night "
        "and on weekends: 0.2685), energy, grid use, system services, the electricity reserve, the "
        "energy-efficiency charge and the federal grid surcharge included, with 8.1 % VAT added, plus CHF "
        "8.65 a month (not in the power line); one utility's price, "
    )
    assert power_line(tmp_path, {**swiss, "input_vat_recoverable": True}).startswith(
        "  - Power: 0.2604 CHF per kWh: EKZ's (canton of Zurich) 2025 tariff for business customers using "
        "under 100,000 kWh a year at low voltage without power metering, high tariff (low tariff at night "
        "and on weekends: 0.2484), energy, grid use, system services, the electricity reserve, the "
        "energy-efficiency charge and the federal grid surcharge included, VAT excluded, plus CHF 8 a month "
        "(not in the power line); one utility's price, "
    )
    assert (
        "eingeschlossen, zuzüglich 8,1 % Umsatzsteuer, dazu CHF 8,65 im Monat (nicht in der Stromzeile);"
        in (power_line(tmp_path, swiss, "--lang", "de"))
    )


def test_austria_says_its_source_does_not_state_the_vat(tmp_path: Path) -> None:
    austrian = {**OWN, "company_country": "AT"}
    # 0.158 x 1.20.
    assert power_line(tmp_path, austrian).startswith(
        "  - Power: 0.1896 EUR per kWh: average price for Austrian industrial companies in the first half of "
        "2025, from Eurostat data; the article does not state which taxes are included, nor whether VAT is: "
        "taken as net of VAT and 20 % VAT added, so counted twice if the figure includes it (oe24, "
    )
    assert power_line(tmp_path, {**austrian, "input_vat_recoverable": True}).startswith(
        "  - Power: 0.158 EUR per kWh: average price for Austrian industrial companies in the first half of "
        "2025, from Eurostat data; the article does not state which taxes are included, nor whether VAT is: "
        "taken as net of VAT (oe24, "
    )


def test_the_json_gives_the_quoted_amounts_with_the_figure(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump({**OWN, "company_country": "CH"}), encoding="utf-8")
    data = json.loads(invoke("recommend", str(path), "--as-of", "2026-12-07", "--format", "json").output)
    (power,) = [line for line in data["own_hardware"]["costs"]["lines"] if line["line"] == "power"]
    (part,) = power["parts"]
    assert (part["amount"], part["vat"]) == (pytest.approx(0.2604 * 1.081), "excluded")
    assert part["quoted"] == pytest.approx({"low_tariff": 0.2484 * 1.081, "monthly_fee": 8 * 1.081})
    assert "(low tariff at night and on weekends: {low_tariff})" in part["note"]


def test_tco_stays_net_and_says_so(tmp_path: Path) -> None:
    output = invoke("tco", "--country", "DE").output
    assert (
        "(former East German states: 0.1764), without electricity tax, VAT excluded (Energie & Management, "
    ) in output


def test_a_note_must_name_its_places(tmp_path: Path) -> None:
    directory = knowledge_with(tmp_path, "cost_defaults.yaml", "        quoted: {east: 0.1764}\n", "")
    with pytest.raises(KnowledgeError) as refused:
        load_knowledge_from(directory)
    assert (
        "note: its places {name} (east, vat) must be the quoted amounts and {vat} where vat is given (vat)"
    ) in str(refused.value)


def test_a_power_price_of_a_country_with_a_vat_rate_says_what_its_source_says_of_vat(tmp_path: Path) -> None:
    # The electricity tax's part, without its {vat} place and its vat.
    directory = knowledge_with(
        tmp_path,
        "cost_defaults.yaml",
        'Overrides-Datei an; {vat}"}}\n        vat: excluded\n',
        'Overrides-Datei an"}}\n',
    )
    path = directory / "cost_defaults.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count('in an overrides file; {vat}"') == 1
    path.write_text(text.replace('in an overrides file; {vat}"', 'in an overrides file"'), encoding="utf-8")
    with pytest.raises(KnowledgeError) as refused:
        load_knowledge_from(directory)
    assert str(refused.value) == (
        f"{path}: entry 'DE': electricity_per_kwh 1: give vat (excluded or not_stated): the country has a "
        "VAT rate in vat_rates.yaml"
    )
