"""Own-hardware cost defaults by the company's country: every line of a German company's server worked
out by hand from the knowledge figures, the documents' own (US) figures with the US staff line, the
depreciation period, and figures given in EUR. Bad input, refused with the field named, is in
``test_cost_defaults_refusals.py``."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
import yaml
from helpers import NEGOTIATED_AWS, PUBLIC_CHAT, invoke, knowledge_with, merged, run

from gpu_advisor.engine.apps.overrides import apply_overrides
from gpu_advisor.engine.apps.tco import tco
from gpu_advisor.engine.calc.costs import ServerAssumptions, own_hardware_cost
from gpu_advisor.engine.calc.server_costs import server_costs
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.overrides import Overrides
from gpu_advisor.engine.domain.requests import TcoRequest
from gpu_advisor.engine.i18n.environment import say

HOURS = 730
GPUS = 8
WORKLOAD = {
    "name": "cost-defaults",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 1_000_000,
    "company_country": "DE",
}


def line(costs, name: str):
    return next(entry for entry in costs.lines if entry.line == name)


# --- a German company, every line by hand -------------------------------------------------------------


def test_the_knowledge_holds_the_cited_german_figures() -> None:
    knowledge = load_knowledge()
    de = knowledge.country_costs("DE")
    assert [(p.value, p.currency) for p in de.electricity_per_kwh] == [(0.1833, "EUR"), (0.0205, "EUR")]
    assert (de.colocation_per_kw_month.value, de.colocation_per_kw_month.currency) == (217.30, "USD")
    assert (de.staff_salary_per_year.value, de.staff_salary_per_year.currency) == (52_200, "EUR")
    assert de.rack_per_month is None
    assert knowledge.cost_defaults.staff_share.value == 0.05
    assert knowledge.eur_to_usd().rate == 1.16


def test_a_german_companys_server_month_line_by_line() -> None:
    knowledge = load_knowledge()
    de = knowledge.country_costs("DE")
    usd_per_eur = knowledge.eur_to_usd().rate
    share = knowledge.cost_defaults.staff_share.value
    # By hand from the knowledge figures: 285,000 USD over 36 months; a node of 8 x 700 W x 1.3 = 7.28 kW;
    # power (0.1833 + 0.0205) EUR x 1.16 = 0.236408 USD per kWh over 730 hours; colocation 217.30 USD per kW;
    # staff 5 % of 52,200 EUR a year.
    node_kw = 8 * 700 * 1.3 / 1000
    usd_per_kwh = sum(p.value for p in de.electricity_per_kwh) * usd_per_eur
    capital = 285_000 / 36
    power = node_kw * HOURS * usd_per_kwh
    colocation = node_kw * de.colocation_per_kw_month.value
    staff = de.staff_salary_per_year.value * share / 12 * usd_per_eur
    assert node_kw == pytest.approx(7.28)
    assert usd_per_kwh == pytest.approx(0.236408)
    assert (round(capital, 2), round(power, 2), round(colocation, 2), round(staff, 2)) == (
        7916.67,
        1256.37,
        1581.94,
        252.30,
    )
    total = capital + power + colocation + staff
    assert round(total, 2) == 11007.28

    priced = server_costs(knowledge, knowledge.own_server(), "DE")
    cost = own_hardware_cost(priced.assumptions)
    assert cost.capital_usd_per_month == pytest.approx(capital)
    assert cost.power_usd_per_month == pytest.approx(power)
    assert cost.rack == 0
    assert cost.colocation_usd_per_month == pytest.approx(colocation)
    assert cost.staff * GPUS * HOURS == pytest.approx(staff)
    assert cost.server_usd_per_month == pytest.approx(total)
    per_gpu_hour = [round(v, 2) for v in (cost.capital, cost.power, cost.rack, cost.colocation, cost.staff)]
    assert per_gpu_hour == [1.36, 0.22, 0.0, 0.27, 0.04]
    assert round(cost.total, 2) == 1.88
    assert [(entry.line, entry.origin) for entry in priced.costs.lines] == [
        ("power", "country"),
        ("rack", "none"),
        ("colocation", "country"),
        ("staff", "country"),
    ]


def test_the_default_company_country_is_costed_at_german_defaults_in_tco_and_the_memo() -> None:
    result = tco()
    assert result.costs.country == "DE"
    assert round(result.server_usd_per_month, 2) == 11007.28
    assert round(result.usd_per_gpu_hour.total, 2) == 1.88
    memo = invoke("recommend", PUBLIC_CHAT, "--as-of", "2026-11-30").output
    assert (
        "Per GPU-hour: $1.36 capital + $0.22 power + $0.00 rack + $0.27 colocation + $0.04 staff = "
        "**$1.88**, $11,007 per month whether busy or not; spares and InfiniBand are not included." in memo
    )
    assert "| Power | $0.22 | $1,256 | 7.28 kW × 730 h × $0.2364/kWh (default for DE) |" in memo
    assert "| Colocation | $0.27 | $1,582 | 7.28 kW × $217.30 per kW and month (default for DE) |" in memo
    assert "| Staff | $0.04 | $252 | 5 % of an engineer's salary of $60,552 a year (default for DE) |" in memo
    assert "| Rack | $0.00 | $0 | none: housed in colocation |" in memo
    assert "- Own-hardware cost defaults for DE (Germany, the company's country):" in memo
    assert "Tax in DE: computer hardware may be written off in 1 year since 2021" in memo


def test_a_server_whose_data_stays_in_the_building_is_in_an_own_rack_not_in_colocation() -> None:
    result = run(merged(WORKLOAD, {"on_premises_required": True}))
    costs = result.own_hardware.costs
    assert costs.housing == "in_house"
    rack, colocation = line(costs, "rack"), line(costs, "colocation")
    # Germany has no sourced rack price: the documents' 1,000 USD stands in, marked as theirs.
    assert (rack.origin, rack.country, rack.usd_per_month) == ("documents", "US", 1000)
    assert (colocation.origin, colocation.usd_per_month) == ("none", 0)


def test_on_premises_the_advice_to_replace_the_defaults_goes_once_every_figure_is_yours() -> None:
    """TCO005 tells a team whose data stays in the building to replace the default server line with its
    own prices: silent once an overrides file gives the price, the power price, the rack and the staff
    line; a figure still the country's or the documents' (here the staff line) keeps it."""
    workload = merged(WORKLOAD, {"on_premises_required": True})
    assert "TCO005" in run(workload).fired_rules
    figures = {"price_eur": 250_000, "eur_per_kwh": 0.21, "rack_eur_per_month": 900}

    def fired(own_server: dict) -> tuple[str, ...]:
        overrides = Overrides.model_validate({"own_server": own_server})
        knowledge, _ = apply_overrides(load_knowledge(), overrides, "own.yaml", dt.date(2026, 11, 30))
        result = run(workload, knowledge=knowledge)
        assert result.decision.deployment == "own_hardware"
        assert result.own_hardware.server == "hgx-h100-8"
        return result.fired_rules

    assert "TCO005" in fired(figures)
    assert "TCO005" not in fired({**figures, "staff_eur_per_month": 450})
    # Every line but the server's price: the catalog's price is still a default.
    lines = {"eur_per_kwh": 0.21, "rack_eur_per_month": 900, "staff_eur_per_month": 450}
    assert "TCO005" in fired(lines)


def test_tco007_quotes_no_price_range_once_the_price_is_yours() -> None:
    """TCO007 gives the break-even at the catalog's midpoint price and at the ends of its range; an
    overrides file's price replaces the range (the buy-versus-rent table drops its rows), so the finding
    gives the one figure at that price."""
    busy = merged(WORKLOAD, {"requests_per_day": 3_000_000})

    def tco007(knowledge=None) -> str:
        result = run(busy, knowledge=knowledge)
        (message,) = [f.message for f in result.findings if f.rule_id == "TCO007"]
        return " ".join(message.split())

    assert "at the midpoint price; " in tco007() and "at the high end of the price range" in tco007()
    overrides = Overrides.model_validate({"own_server": {"price_usd": 240_000}})
    knowledge, _ = apply_overrides(load_knowledge(), overrides, "own.yaml", dt.date(2026, 11, 30))
    yours = tco007(knowledge)
    assert "at the server's price (one price, yours or the catalog's, no range), and " in yours
    assert "midpoint" not in yours and "price range" not in yours


# --- the documents' own figures, and the US staff line ---------------------------------------------------


@pytest.mark.parametrize("country", ["GB", "JP"])
def test_the_documents_figures_for_a_country_without_defaults(country: str) -> None:
    """A country the cost defaults do not list takes the documents' three lines; its staff is not costed
    (no sourced salary), which says an unknown, unlike colocation's none beside the rack (not needed)."""
    knowledge = load_knowledge()
    server = knowledge.own_server()
    priced = server_costs(knowledge, server, country)
    assert priced.assumptions == ServerAssumptions.from_server(server)
    cost = own_hardware_cost(priced.assumptions)
    assert [round(v, 2) for v in (cost.capital, cost.power, cost.rack, cost.total)] == [
        1.36,
        0.11,
        0.17,
        1.64,
    ]
    assert (cost.colocation, cost.staff) == (0, 0)
    assert {entry.origin for entry in priced.costs.lines} == {"documents", "none", "not_costed"}
    assert (line(priced.costs, "staff").origin, priced.costs.country_name) == ("not_costed", None)
    assert line(priced.costs, "colocation").origin == "none"
    assert priced.costs.staff_uncosted is True


def test_the_us_takes_the_documents_figures_and_a_sourced_staff_salary() -> None:
    """The documents' power and rack lines, which are US figures, and the staff line at 5 % of the BLS
    median wage of network and computer systems administrators ($90,520 a year, May 2022): $377.17 a
    month, $0.0646 a GPU-hour. The salary is not the documents': its line is the country's default."""
    knowledge = load_knowledge()
    server = knowledge.own_server()
    priced = server_costs(knowledge, server, "US")
    staff_per_month = 90_520 * 0.05 / 12
    assert priced.assumptions == ServerAssumptions.from_server(server).model_copy(
        update={"staff_usd_per_month": staff_per_month}
    )
    cost = own_hardware_cost(priced.assumptions)
    assert cost.staff == pytest.approx(staff_per_month / (GPUS * HOURS))
    assert [round(v, 2) for v in (cost.capital, cost.power, cost.rack, cost.staff, cost.total)] == [
        1.36,
        0.11,
        0.17,
        0.06,
        1.70,
    ]
    assert cost.colocation == 0
    origins = {entry.line: (entry.origin, entry.country) for entry in priced.costs.lines}
    assert origins == {
        "power": ("documents", "US"),
        "rack": ("documents", "US"),
        "colocation": ("none", ""),
        "staff": ("country", "US"),
    }
    staff = line(priced.costs, "staff")
    assert (staff.usd, staff.usd_per_month, staff.share) == (90_520, pytest.approx(staff_per_month), 0.05)
    (part,) = staff.parts
    assert (part.amount, part.currency, part.as_of) == (90_520, "USD", dt.date(2022, 5, 31))
    assert part.source.startswith("U.S. Bureau of Labor Statistics, Occupational Outlook Handbook")
    # Its power and rack are the documents' (their lines say so), its salary the BLS's: the entry is
    # named for the country, not for the documents.
    assert priced.costs.country_name == "United States"
    assert priced.costs.staff_uncosted is False


@pytest.mark.parametrize(
    ("country", "eur_per_mwh", "euro_area"),
    [("FR", 153.4, True), ("GR", 173.8, True), ("PL", 193.5, False), ("FI", 74.8, True)],
)
def test_the_eus_other_members_get_eurostats_business_power_price(
    country: str, eur_per_mwh: float, euro_area: bool
) -> None:
    """Eurostat's non-household price of band IC, 2025-S2, VAT and recoverable taxes excluded (Greece is
    EL in Eurostat's tables, GR here); the documents' rack stands in, staff is not costed, and the euro
    area's borrowing rate is said for its members only."""
    knowledge = load_knowledge()
    priced = server_costs(knowledge, knowledge.own_server(), country)
    power = line(priced.costs, "power")
    assert (power.origin, power.usd) == ("country", pytest.approx(eur_per_mwh / 1000 * 1.16))
    # 7.28 kW in every one of the month's 730 hours.
    assert power.usd_per_month == pytest.approx(7.28 * HOURS * eur_per_mwh / 1000 * 1.16)
    (part,) = power.parts
    assert (part.currency, part.as_of) == ("EUR", dt.date(2025, 12, 31))
    assert part.source.startswith("Eurostat, Electricity prices for non-household consumers")
    assert line(priced.costs, "rack").origin == "documents"
    assert (line(priced.costs, "staff").origin, priced.costs.staff_uncosted) == ("not_costed", True)
    assert (priced.costs.borrowing_rate_per_year == 0.0351) is euro_area


def test_the_documents_figures_stand_in_for_what_a_country_lacks() -> None:
    knowledge = load_knowledge()
    austria = server_costs(knowledge, knowledge.own_server(), "AT").costs
    assert (line(austria, "power").origin, line(austria, "power").usd) == (
        "country",
        pytest.approx(0.158 * 1.16),
    )
    assert (line(austria, "rack").origin, line(austria, "rack").usd_per_month) == ("documents", 1000)
    # kununu's 2025 IT-sector mean, 62,673 EUR a year at 1.16 USD per EUR, 5 % of it a month.
    assert (line(austria, "staff").origin, line(austria, "staff").usd) == (
        "country",
        pytest.approx(62_673 * 1.16),
    )
    assert line(austria, "staff").usd_per_month == pytest.approx(62_673 * 1.16 * 0.05 / 12)
    switzerland = server_costs(knowledge, knowledge.own_server(), "CH").costs
    # EKZ's 2025 business tariff, 26.04 Rp./kWh, at the ECB's 0.9197 CHF per EUR and 1.16 USD per EUR.
    assert (line(switzerland, "power").origin, line(switzerland, "power").usd) == (
        "country",
        pytest.approx(0.2604 / 0.9197 * 1.16),
    )
    assert line(switzerland, "rack").origin == "documents"
    # 105,000 CHF a year at the ECB's 0.9197 CHF per EUR and 1.16 USD per EUR, 5 % of it a month.
    staff = line(switzerland, "staff")
    assert staff.usd == pytest.approx(105_000 / 0.9197 * 1.16)
    assert staff.usd_per_month == pytest.approx(105_000 / 0.9197 * 1.16 * 0.05 / 12)
    memo = invoke(
        "recommend",
        "-",
        "--as-of",
        "2026-11-30",
        stdin=json.dumps(merged(WORKLOAD, {"company_country": "CH"})),
    )
    # 7.28 kW x 730 h x 0.32844 USD per kWh = 1,745 USD a month, 0.30 USD per GPU-hour of 8 cards.
    assert round(7.28 * 730 * 0.2604 / 0.9197 * 1.16) == 1745
    assert "| Power | $0.30 | $1,745 | 7.28 kW × 730 h × $0.3284/kWh (default for CH) |" in memo.output
    assert "| Rack | $0.17 | $1,000 | the documents' US figure; none for CH |" in memo.output


def test_an_office_machine_has_no_housing_or_staff_line_but_the_countrys_power() -> None:
    knowledge = load_knowledge()
    workstation = knowledge.own_server("workstation-rtx-5090")
    cost = own_hardware_cost(server_costs(knowledge, workstation, "DE").assumptions)
    # 1,999 USD over 36 months; 575 W x 730 h at 0.236408 USD per kWh.
    assert cost.server_usd_per_month == pytest.approx(1999 / 36 + 0.575 * 730 * (0.1833 + 0.0205) * 1.16)
    assert (cost.rack, cost.colocation, cost.staff) == (0, 0, 0)


# --- depreciation -------------------------------------------------------------------------------------


@pytest.mark.parametrize("years", [3, 4, 5])
def test_the_depreciation_period_changes_capital_per_month_exactly(years: int) -> None:
    result = tco(TcoRequest(depreciation_years=years))
    assert result.months == 12 * years
    assert result.capital_usd_per_month == pytest.approx(285_000 / (12 * years))
    assert result.usd_per_gpu_hour.capital == pytest.approx(285_000 / GPUS / (12 * years * HOURS))
    # Only the capital line moves.
    three = tco(TcoRequest(depreciation_years=3)).usd_per_gpu_hour
    lines = result.usd_per_gpu_hour
    assert (lines.power, lines.rack, lines.colocation, lines.staff) == (
        three.power,
        three.rack,
        three.colocation,
        three.staff,
    )


@pytest.mark.parametrize(
    ("years", "per_gpu_hour", "per_month"),
    # 285,000 / (8 x 12N x 730) and 285,000 / 12N.
    [(3, "$1.36", "$7,917"), (4, "$1.02", "$5,938"), (5, "$0.81", "$4,750")],
)
def test_depreciation_years_in_an_overrides_file(
    tmp_path: Path, years: int, per_gpu_hour: str, per_month: str
) -> None:
    path = tmp_path / "own.yaml"
    path.write_text(yaml.safe_dump({"own_server": {"depreciation_years": years}}), encoding="utf-8")
    args = ("recommend", PUBLIC_CHAT, "--as-of", "2026-11-30", "--overrides", str(path))
    own = json.loads(invoke(*args, "--format", "json").output)["own_hardware"]
    assert own["costs"]["months"] == 12 * years
    assert own["capital_usd_per_month"] == pytest.approx(285_000 / (12 * years))
    memo = invoke(*args).output
    months = 12 * years
    assert (
        f"| Capital | {per_gpu_hour} | {per_month} | $285,000 over {months} months ({years} years) |" in memo
    )
    assert (
        f"- Depreciation: the capital is written off over {months} months ({years} years), its economic "
        "life" in memo
    )
    assert f"hgx-h100-8.depreciation_years = {years}" in memo
    # The assumptions say the user's figures replace some defaults, rather than ask for them.
    assert "staff defaults, except the figures replaced with your own below.\n" in memo
    assert "replace any of them with your own figures" not in memo
    assert "replace any of them with your own figures" in invoke("recommend", PUBLIC_CHAT).output
    # An overrides file of offer rates alone replaces no server figure.
    rates = invoke("recommend", PUBLIC_CHAT, "--overrides", NEGOTIATED_AWS).output
    assert "replace any of them with your own figures" in rates and "except the figures" not in rates


def test_months_still_work_in_tco_and_overrides(tmp_path: Path) -> None:
    assert tco(TcoRequest(months=48)).capital_usd_per_month == pytest.approx(285_000 / 48)
    knowledge = load_knowledge()
    changed, lines = apply_overrides(
        knowledge, Overrides(own_server={"months": 48}), "own.yaml", dt.date(2026, 11, 30)
    )
    assert changed.own_server().months == 48
    assert lines == ("hgx-h100-8.months = 48",)


# --- figures in EUR -----------------------------------------------------------------------------------


def test_eur_figures_are_converted_at_the_catalogs_rate() -> None:
    knowledge = load_knowledge()
    overrides = Overrides.model_validate(
        {
            "own_server": {
                "price_eur": 240_000,
                "eur_per_kwh": 0.25,
                "rack_eur_per_month": 800,
                "staff_eur_per_month": 400,
            }
        },
        strict=False,
    )
    changed, lines = apply_overrides(knowledge, overrides, "own.yaml", dt.date(2026, 11, 30))
    server = changed.own_server()
    assert (server.price_usd, server.price_usd_low, server.price_usd_high) == (pytest.approx(278_400),) * 3
    assumptions = server_costs(changed, server, "DE").assumptions
    assert assumptions.usd_per_kwh == pytest.approx(0.29)
    # Your rack replaces the country's housing: no colocation line.
    assert assumptions.rack_usd_per_month == pytest.approx(928)
    assert (assumptions.colocation_usd_per_kw_month, assumptions.colocation_usd_per_month) == (0, 0)
    assert assumptions.staff_usd_per_month == pytest.approx(464)
    assert tuple(say("en", line) for line in lines) == (
        "hgx-h100-8.price_eur = 240000 (= 278,400 USD at 1.16 USD per EUR)",
        "own_server.eur_per_kwh = 0.25 (= 0.29 USD at 1.16 USD per EUR)",
        "own_server.rack_eur_per_month = 800 (= 928 USD at 1.16 USD per EUR)",
        "own_server.staff_eur_per_month = 400 (= 464 USD at 1.16 USD per EUR)",
    )


def test_eur_figures_take_the_overrides_own_exchange_rate(tmp_path: Path) -> None:
    path = tmp_path / "own.yaml"
    path.write_text(
        yaml.safe_dump(
            {"own_server": {"colocation_eur_per_month": 1000}, "exchange_rate": {"usd_per_eur": 1.05}}
        ),
        encoding="utf-8",
    )
    result = invoke(
        "recommend", PUBLIC_CHAT, "--as-of", "2026-11-30", "--overrides", str(path), "--format", "json"
    )
    assert result.exit_code == 0, result.output
    costs = json.loads(result.output)["own_hardware"]["costs"]
    colocation = line_of(costs, "colocation")
    assert (colocation["origin"], colocation["usd_per_month"]) == ("yours", pytest.approx(1050))
    assert line_of(costs, "rack")["origin"] == "none"


def line_of(costs: dict, name: str) -> dict:
    return next(entry for entry in costs["lines"] if entry["line"] == name)


def test_a_self_hosted_figure_without_its_staff_line_says_so_where_it_is_compared() -> None:
    """A Norwegian company's MoE service: the catalog has no sourced salary for NO, so the own servers'
    figure lacks its staff line; DEP011, which sets the API against it, says so beside the figure."""
    result = run(
        {
            "name": "moe-coder",
            "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
            # 170,000 a day: 3 servers (six 4-card replicas, the spare among them); at 180,000 (4 servers,
            # SGLang keeping 14.5 GiB of each H100 of a 4-card replica) Modal's serverless H200 is cheaper
            # and DEP011 names that instead.
            "requests_per_day": 170_000,
            "avg_input_tokens": 2_500,
            "avg_output_tokens": 700,
            "load_pattern": "variable",
            "latency_sensitive": True,
            "serving_engine": "sglang",
            "company_country": "NO",
        }
    )
    own = result.own_hardware
    assert own.costs is not None and own.costs.staff_uncosted and own.nodes == 3
    (dep011,) = [f.message for f in result.findings if f.rule_id == "DEP011"]
    assert (
        "(own hardware: 3 × HGX H100 8-GPU (24 × h100-sxm); staff not costed: no sourced salary for NO)"
        in " ".join(dep011.split())
    )


UK_CHAT = {
    "name": "uk-public-chat",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 500,
    "avg_output_tokens": 250,
    "load_pattern": "variable",
    "latency_sensitive": True,
    "personal_data": True,
    "volume_growing": True,
    "company_country": "GB",
}


def test_serverless_set_against_own_servers_without_their_staff_says_so() -> None:
    """A UK chat: serverless (DEP018, DEP020) undercuts three owned HGX H100 whose figure leaves staff out
    (no sourced salary for GB); both messages say so beside the figure, as the API rules do."""
    result = run(UK_CHAT)
    assert result.decision.deciding_rule_id == "DEP018"
    assert result.own_hardware.costs is not None and result.own_hardware.costs.staff_uncosted
    messages = {f.rule_id: " ".join(f.message.split()) for f in result.findings}
    for rule in ("DEP018", "DEP020"):
        assert (
            "the cheapest other self-hosted route the rules weigh (3 × HGX H100 8-GPU (24 × h100-sxm); staff "
            "not costed: no sourced salary for GB) at $28,663.18/month" in messages[rule]
        )


def test_serverless_set_against_a_rental_names_no_staff() -> None:
    """A model still changing sets buying aside (TCO003): the alternative is Scaleway's rental, whose
    price includes the provider's staff: nothing to say."""
    result = run({**UK_CHAT, "model_stable": False})
    messages = {f.rule_id: " ".join(f.message.split()) for f in result.findings}
    for rule in ("DEP018", "DEP020"):
        assert "weigh (scaleway h100-sxm-2-80g (18 × h100-sxm)) at $50,450.82/month" in messages[rule]


def test_a_card_for_an_office_computer_gets_the_letters_reading_of_workstations() -> None:
    """The BMF letter lists workstations but only small-scale servers: an 8-GPU server's tax note says
    that is not established for it, while a card bought for an office computer gets the reading for
    one (its own source), and the cost lines are said to write the card off, not a server."""
    card = invoke("tco", "--gpu", "rtx-5090", "--country", "DE").output
    assert (
        "- Tax in DE: computer hardware may be written off in 1 year since 2021, while the cost lines here "
        "write the card off over its economic life." in card
    )
    assert "Its list of computer hardware (Rz. 3) names desktop computers and workstations;" in card
    assert "8-GPU data-centre server" not in card
    server = invoke("tco", "--country", "DE").output
    assert "write the server off over its economic life." in server
    assert "whether an 8-GPU data-centre server counts as computer hardware" in server
    assert "Rz. 3" not in server


def test_an_office_tax_note_without_its_source_is_refused(tmp_path: Path) -> None:
    directory = knowledge_with(tmp_path, "cost_defaults.yaml", "      office_as_of: 2026-12-06\n", "")
    with pytest.raises(
        KnowledgeError, match="office_note, office_source and office_as_of: all three or none"
    ):
        load_knowledge_from(directory)
