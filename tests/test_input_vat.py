"""A company that cannot deduct the VAT it pays (``input_vat_recoverable: false``: a public authority
acting in its sovereign capacity, a bank or insurer for its VAT-exempt business) pays it on every
purchase. Each is priced with the company country's standard rate (knowledge/vat_rates.yaml: DE 19 %,
AT 20 %, CH 8.1 %), staff costs are not: a rental or an API bill costs 19 % more in Germany, an owned
server less than that, so the comparison between the routes moves, not only the total. Every figure is
worked out by hand here. Before, every figure was net of VAT whatever the buyer."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import DE_AUTHORITY_OWN, EXAMPLES_DIR, GERMAN_PURCHASES_VAT, flat, invoke, read_example, run

from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
from gpu_advisor.engine.domain.results import Option, Recommendation

READ_ON = dt.date(2026, 12, 7)
"""The VAT rates' date: evaluated on it, the memo has no line on sources newer than the evaluation."""

OFFICE_ASSISTANT: dict[str, Any] = {
    **read_example(EXAMPLES_DIR / "internal-assistant.yaml"),
    "company_country": "DE",
    "input_vat_recoverable": False,
}
"""A German public authority's 8B assistant in office hours (the example is Austrian): the managed API
is decided, RunPod's two RTX 5090 are the cheapest rental."""
PUBLIC_CHAT: dict[str, Any] = {
    **read_example(EXAMPLES_DIR / "public-chat.yaml"),
    "input_vat_recoverable": False,
}
"""A German bank's 70B chat around the clock (company_country DE): one owned HGX server is costed."""

DE = 1.19
USD_PER_EUR = 1.16

# Germany's cost defaults for an owned 8 x H100 server (knowledge/cost_defaults.yaml, own_hardware.yaml):
# 8 cards x 700 W x 1.3 = 7.28 kW, 730 hours a month.
CAPITAL = 285_000 / 36
POWER = 7.28 * 730 * (0.1833 + 0.0205) * USD_PER_EUR  # VEA's price and the electricity tax, in EUR
COLOCATION = 7.28 * 217.30  # CBRE's average, USD per kW and month
STAFF = 0.05 * 52_200 / 12 * USD_PER_EUR  # 5 % of a DevOps engineer's salary in EUR


def option(result: Recommendation, provider: str, offer: str, gpu: str) -> Option:
    (found,) = [
        o
        for o in result.options
        if (o.provider, o.offer, o.gpu) == (provider, offer, gpu) and not o.serverless
    ]
    return found


def test_an_api_bill_carries_germanys_19_percent() -> None:
    """DeepInfra's Llama 3.1 8B Turbo at 0.02 USD per million input and 0.04 per million output tokens:
    20,000 requests on 22 working days of 300 input and 150 output tokens, $5.28 a month net."""
    net = 20_000 * 22 * (300 * 0.02 + 150 * 0.04) / 1e6
    assert net == pytest.approx(5.28)
    recovered = run({**OFFICE_ASSISTANT, "input_vat_recoverable": True}, READ_ON)
    paid = run(OFFICE_ASSISTANT, READ_ON)
    assert (recovered.decision.deployment, paid.decision.deployment) == ("api", "api")
    assert recovered.decision.usd_per_month == pytest.approx(net)
    assert paid.decision.usd_per_month == pytest.approx(net * DE)  # $6.2832
    (api,) = [a for a in paid.api_costs if a.api == "llama-3.1-8b-deepinfra" and not a.batch]
    assert (api.input_per_million_tokens, api.output_per_million_tokens) == pytest.approx(
        (0.02 * DE, 0.04 * DE)
    )


def test_a_rental_carries_it_and_its_eur_list_price_stays_as_listed() -> None:
    """RunPod's RTX 5090 at $0.69 a card-hour, two cards for the 176 paid hours; OVHcloud's L40S at
    1.40 EUR (net, HT) converted at 1.16 USD per EUR."""
    recovered = run({**OFFICE_ASSISTANT, "input_vat_recoverable": True}, READ_ON)
    paid = run(OFFICE_ASSISTANT, READ_ON)
    runpod = option(paid, "runpod", "community", "rtx-5090")
    assert option(recovered, "runpod", "community", "rtx-5090").usd_per_month == pytest.approx(2 * 0.69 * 176)
    assert (runpod.usd_per_gpu_hour, runpod.usd_per_month) == pytest.approx((0.69 * DE, 2 * 0.69 * 176 * DE))
    ovh = option(paid, "ovhcloud", "l40s", "l40s")
    # The EUR figure stays the one OVHcloud lists; the USD price carries the VAT.
    assert (ovh.list_price_per_gpu_hour, ovh.usd_per_gpu_hour, ovh.usd_per_month) == pytest.approx(
        (1.40, 1.40 * USD_PER_EUR * DE, 2 * 1.40 * USD_PER_EUR * 176 * DE)
    )


def test_an_owned_server_has_its_purchases_raised_and_its_staff_line_not() -> None:
    recovered = run({**PUBLIC_CHAT, "input_vat_recoverable": True}, READ_ON).own_hardware
    paid = run(PUBLIC_CHAT, READ_ON).own_hardware
    assert (recovered.nodes, paid.nodes, recovered.costs.vat_rate, paid.costs.vat_rate) == (1, 1, None, 0.19)
    lines = {line.line: line.usd_per_month for line in paid.costs.lines}
    assert lines == pytest.approx(
        {"power": POWER * DE, "rack": 0.0, "colocation": COLOCATION * DE, "staff": STAFF}
    )
    assert paid.capital_usd_per_month == pytest.approx(CAPITAL * DE)  # $9,420.83
    assert recovered.usd_per_month == pytest.approx(CAPITAL + POWER + COLOCATION + STAFF)  # $11,007.28
    assert paid.usd_per_month == pytest.approx((CAPITAL + POWER + COLOCATION) * DE + STAFF)  # $13,050.72
    # 18.56 % more, not 19 %: the $252.30 of staff carries none.
    assert round(paid.usd_per_month / recovered.usd_per_month - 1, 4) == 0.1856


def test_the_staff_line_left_as_it_is_turns_the_decision_to_owning() -> None:
    """At 2,005,000 requests a day the hosted 70B API (0.40 USD per million tokens either way, 30.42 days)
    costs a company that recovers VAT $28.70 less than one owned server; raised by 19 %, the API's bill
    passes the server's, whose staff line is not raised."""
    volume = {**PUBLIC_CHAT, "requests_per_day": 2_005_000}
    api = 2_005_000 * 30.42 * (300 + 150) * 0.40 / 1e6
    own = CAPITAL + POWER + COLOCATION + STAFF
    assert (round(api, 2), round(own, 2)) == (10_978.58, 11_007.28)
    recovered = run({**volume, "input_vat_recoverable": True}, READ_ON).decision
    assert (recovered.deployment, recovered.deciding_rule_id) == ("api", "DEP011")
    assert recovered.usd_per_month == pytest.approx(api)
    paid = run(volume, READ_ON)
    assert (paid.decision.deployment, paid.decision.deciding_rule_id) == ("own_hardware", "TCO001")
    assert paid.decision.usd_per_month == pytest.approx((CAPITAL + POWER + COLOCATION) * DE + STAFF)
    (message,) = [flat(f.message) for f in paid.findings if f.rule_id == "DEP002"]
    assert message == (
        "2,005,000 requests/day is above the 100,000 line, where self-hosting is to be evaluated: the "
        "cheapest eligible self-hosted option at $13,050.72/month (own hardware: 1 × HGX H100 8-GPU (8 × "
        "h100-sxm)) undercuts the hosted API at $13,064.51/month."
    )
    assert round(api * DE, 2) == 13_064.51


def test_your_own_figures_are_taken_as_net_your_staff_figure_as_it_is(tmp_path: Path) -> None:
    """An overrides file's rack of 800 EUR a month replaces the colocation; its staff figure of 400 EUR is
    a salary's share."""
    path = tmp_path / "own.yaml"
    path.write_text("own_server:\n  rack_eur_per_month: 800\n  staff_eur_per_month: 400\n", encoding="utf-8")
    knowledge = knowledge_with_overrides(str(path), READ_ON)
    lines = {
        line.line: line.usd_per_month
        for line in run(PUBLIC_CHAT, READ_ON, knowledge=knowledge).own_hardware.costs.lines
    }
    assert lines == pytest.approx(
        {"power": POWER * DE, "rack": 800 * USD_PER_EUR * DE, "colocation": 0.0, "staff": 400 * USD_PER_EUR}
    )


@pytest.mark.parametrize(("country", "rate"), [("AT", 0.20), ("CH", 0.081)])
def test_austria_and_switzerland_have_their_own_rates(country: str, rate: float) -> None:
    recovered = run({**OFFICE_ASSISTANT, "company_country": country, "input_vat_recoverable": True}, READ_ON)
    paid = run({**OFFICE_ASSISTANT, "company_country": country}, READ_ON)
    assert paid.decision.usd_per_month == pytest.approx(recovered.decision.usd_per_month * (1 + rate))
    assert paid.purchases_vat is not None
    assert (paid.purchases_vat.country, paid.purchases_vat.rate) == (country, rate)


def test_a_country_without_a_rate_stays_net_and_kNB023_says_so() -> None:
    french = {**PUBLIC_CHAT, "company_country": "FR"}
    recovered = run({**french, "input_vat_recoverable": True}, READ_ON)
    paid = run(french, READ_ON)
    assert paid.purchases_vat is None and paid.own_hardware.costs.vat_rate is None
    assert paid.decision == recovered.decision
    assert [o.usd_per_month for o in paid.options] == [o.usd_per_month for o in recovered.options]
    assert paid.own_hardware.usd_per_month == recovered.own_hardware.usd_per_month
    assert "KNB023" not in recovered.fired_rules
    (message,) = [flat(f.message) for f in paid.findings if f.rule_id == "KNB023"]
    assert message == (
        "The workload says its company cannot recover the VAT it pays (input_vat_recoverable: false), but "
        "the catalog has no VAT rate for FR (knowledge/vat_rates.yaml holds those of DE, AT, CH), so every "
        "figure here is net of VAT. Each purchase (API bills, GPU rentals, serverless products, the "
        "servers, their power and housing) costs that rate more than shown, while staff costs carry none: "
        "owned servers, whose staff line carries no VAT, compare better with the bought routes than they "
        "do here. Add the rate to the purchases before comparing the routes."
    )


def test_the_default_and_a_stated_true_are_the_net_figures() -> None:
    plain = {key: value for key, value in PUBLIC_CHAT.items() if key != "input_vat_recoverable"}
    default, stated = run(plain, READ_ON), run({**plain, "input_vat_recoverable": True}, READ_ON)
    assert default.workload.input_vat_recoverable is True
    assert "input_vat_recoverable" in default.workload.defaults_used
    assert default.purchases_vat is None and stated.purchases_vat is None
    assert default.decision == stated.decision
    assert [o.usd_per_month for o in default.options] == [o.usd_per_month for o in stated.options]
    assert default.own_hardware.usd_per_month == pytest.approx(CAPITAL + POWER + COLOCATION + STAFF)


def memo(workload: dict[str, Any], tmp_path: Path, *options: str) -> list[str]:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    result = invoke("recommend", str(path), "--as-of", READ_ON.isoformat(), *options)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_the_memo_says_what_the_figures_include(tmp_path: Path) -> None:
    lines = memo(OFFICE_ASSISTANT, tmp_path)
    for line in (
        "Every amount here includes 19 % VAT (DE) on what is bought, as the company cannot recover it "
        "(input_vat_recoverable: false); staff costs carry none.",
        "| Input VAT recoverable (input_vat_recoverable) | no (purchases priced with 19 % VAT, "
        "§ 12(1) UStG) |",
        "Every price here includes 19 % VAT (DE), added to the net price the catalog lists, as the company "
        "cannot recover it.",
        "(€…): the price as the provider lists it in EUR (net of VAT where the provider says so); the "
        "dollar figure beside it is that price converted at 1.16 USD per EUR (2025-12-31) with 19 % VAT "
        "added. An EU price, so no EU premium is added.",
        # $1.93 is OVHcloud's listed 1.40 EUR x 1.16 x 1.19.
        "|  | ovhcloud | l40s | l40s | 2 | on-demand | EU (FR) | $1.93 (€1.40) | $680 | 2026-09-26 | +$391 |",
        "20,000 requests/day × 22 days × (300 input + 150 output tokens) at each price per million tokens "
        "with 19 % VAT, which the company cannot recover; prices listed in one currency are converted to "
        "the other at 1.16 USD per EUR (2025-12-31).",
        "- Purchases include VAT at 19 % (DE: Umsatzsteuergesetz (UStG) in der Fassung der Bekanntmachung "
        "vom 21. Februar 2005 (BGBl. I S. 386) (2026-12-07), § 12(1) "
        "<https://www.gesetze-im-internet.de/ustg_1980/>): API bills, GPU rentals, serverless products, the "
        "servers, their power and their housing, as the company cannot recover input VAT "
        "(input_vat_recoverable: false). A service bought from a provider abroad carries the same rate, "
        "which the company pays by reverse charge. Staff costs carry no VAT and are not raised.",
        "  - The capital, power and housing figures include 19 % VAT, added to the net figures their sources "
        "give, as the company cannot recover it; the salary carries none.",
        "| Umsatzsteuergesetz (UStG) in der Fassung der Bekanntmachung vom 21. Februar 2005 (BGBl. I S. 386) "
        "| 2026-12-07 | VAT rate |",
        "- GPU prices are list prices per GPU-hour on the dates shown, in the currency each provider lists "
        "them in (USD or EUR), converted at the exchange rate the memo states where that is not the memo's "
        "currency; EU regions of US-priced offers carry the documents' EU premium as an estimate. The "
        "memo's figures are these prices with the VAT above added.",
    ):
        assert line in lines, line
    # The workstation's price with VAT: $1,999 x 1.19.
    assert "| Capital | $0.09 | $66 | $2,379 over 36 months (3 years) |" in lines
    assert not any("net of VAT;" in line for line in lines)


def test_the_german_memo_says_it_in_german(tmp_path: Path) -> None:
    lines = memo(OFFICE_ASSISTANT, tmp_path, "--lang", "de", "--currency", "EUR")
    for line in (
        "Jeder Betrag hier enthält 19 % Umsatzsteuer (DE) auf das Eingekaufte, da das Unternehmen sie nicht "
        "als Vorsteuer abziehen kann (input_vat_recoverable: false); Personalkosten tragen keine.",
        "| Vorsteuer abziehbar (input_vat_recoverable) | nein (Einkäufe mit 19 % Umsatzsteuer bepreist, "
        "§ 12 Abs. 1 UStG) |",
        "  - Die Zahlen für Kapital, Strom und Unterbringung enthalten 19 % Umsatzsteuer, aufgeschlagen auf "
        "die Nettozahlen ihrer Quellen, da das Unternehmen sie nicht als Vorsteuer abziehen kann; das Gehalt "
        "trägt keine.",
    ):
        assert line in lines, line


def test_without_a_rate_the_memo_says_the_prices_are_net(tmp_path: Path) -> None:
    lines = memo({**OFFICE_ASSISTANT, "company_country": "FR"}, tmp_path)
    assert (
        "| Input VAT recoverable (input_vat_recoverable) | no (no VAT rate for FR in the catalog: priced "
        "net, KNB023) |" in lines
    )
    assert (
        "- Prices are net of VAT: the company cannot recover input VAT (input_vat_recoverable: false), but "
        "the catalog has no VAT rate for FR (KNB023)."
    ) in lines


def test_the_json_carries_the_field_and_the_rate(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(OFFICE_ASSISTANT), encoding="utf-8")
    result = invoke("recommend", str(path), "--as-of", READ_ON.isoformat(), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["workload"]["input_vat_recoverable"] is False
    assert data["purchases_vat"] == GERMAN_PURCHASES_VAT
    assert data["own_hardware"]["costs"]["vat_rate"] == 0.19


def test_a_scenario_run_taxes_the_purchases_once(tmp_path: Path) -> None:
    """The scenarios evaluate the workload again on the copy its recommendation was priced on: a copy that
    carries a rate is not taxed twice (a German authority's two servers, $24,716 a month, came out at
    $27,296 to $31,211 across its scenarios, the purchases times 1.19 twice)."""
    from gpu_advisor.engine.domain.knowledge.gross_prices import with_vat
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    gross = with_vat(load_knowledge(), "DE")
    assert gross.vat_rates.applied is not None and with_vat(gross, "DE") is gross
    authority = {**DE_AUTHORITY_OWN, "name": "de-authority"}
    path = tmp_path / "authority.yaml"
    path.write_text(yaml.safe_dump(authority), encoding="utf-8")
    args = ["recommend", str(path), "--as-of", "2026-12-07", "--format", "json"]
    base = json.loads(invoke(*args).output)["decision"]["usd_per_month"]
    cost = json.loads(invoke(*args, "--scenarios", "20").output)["robustness"]["cost_usd_per_month"]
    # The point values lie within the scenarios' spread (drawn prices around the same gross figures).
    assert cost["p10"] <= base <= cost["p90"]
