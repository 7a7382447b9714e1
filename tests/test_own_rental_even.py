"""Owning and renting within the noise of price dates and discounts (TCO029): a purchase chosen on a gap of
1.8 % says the two are even, what buying binds and what financing it would add, with no verdict (a resale
value would take some off); a rental chosen on a gap of 0.02 % says they are even; where a rule rules owning
out, the Summary says nothing of it."""

from __future__ import annotations

from typing import Any

from helpers import run
from test_message_wording import message

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

CRITICAL: dict[str, Any] = {
    "name": "critical-contracts",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 300_000,
    "avg_input_tokens": 2000,
    "avg_output_tokens": 400,
    "load_pattern": "steady",
    "schedule": "always",
    "latency_sensitive": True,
    "business_critical": True,
    "personal_data": False,
    "company_country": "DE",
}
"""Bought on two 8-GPU H100 servers at $22,014.55 a month against Scaleway's 8 x H100 at $22,422.59."""

DETAILS: dict[str, Any] = {
    "cheapest_same_hours_name": "scaleway/h100-sxm-2-80g/h100-sxm",
    "cheapest_same_hours_billing": "hourly",
    "server_price_usd": 285_000.0,
    "own_nodes": 2,
    "server_write_off_months": 36,
    "own_borrowing_rate_per_year": 0.0351,
    "own_staff_uncosted_country": "",
}


def annuity_extra(price: float, rate_per_year: float, months: int) -> float:
    """A loan repaid in equal monthly payments, less the straight-line write-off."""
    r = rate_per_year / 12
    return price * r / (1 - (1 + r) ** -months) - price / months


def test_a_purchase_within_the_noise_of_the_rental_is_called_even_and_its_financing_named() -> None:
    result = run(CRITICAL)
    own = result.own_hardware
    assert result.decision.deployment == "own_hardware" and result.decision.deciding_rule_id == "TCO001"
    assert "TCO029" in result.fired_rules
    rental = own.cheapest_same_hours_usd_per_month
    assert rental is not None and (rental - own.usd_per_month) / own.usd_per_month < 0.05
    # 2 x $285,000 at 3.51 % a year over 36 months: $16,704.71 a month against $15,833.33 written off.
    assert round(annuity_extra(570_000, 0.0351, 36), 2) == 871.38
    assert own.financing_usd_per_month is not None
    assert round(own.financing_usd_per_month, 2) == 871.38
    memo = render_memo(result)
    assert (
        "Owning ($22,015 a month) and the cheapest rental for the same work ($22,423 a month) lie within 5 % "
        "of each other: on price alone they are even (TCO029).\n"
        "Buying binds $570,000 for 36 months where renting binds no capital; borrowing it would add about "
        "$871 a month, and a resale value at the end would take some off (see Assumptions).\n"
    ) in memo
    german = render_memo(result, Format.named("de"))
    assert (
        "Der Eigenbetrieb (22.015 $ pro Monat) und die günstigste Miete für dieselbe Arbeit (22.423 $ pro "
        "Monat) liegen weniger als 5 % auseinander: Allein nach dem Preis sind beide gleichauf (TCO029).\n"
        "Der Kauf bindet 570.000 $ für 36 Monate, wo eine Miete kein Kapital bindet; ein Kredit darüber "
        "würde etwa 871 $ pro Monat mehr kosten, und ein Restwert am Ende nähme etwas davon ab (siehe "
        "Annahmen).\n"
    ) in german


def test_a_rental_chosen_on_a_hair_says_the_two_are_even() -> None:
    # A Swiss company: owning costs $22,428 (Swiss power, housing and staff), the rental $22,423.
    result = run({**CRITICAL, "company_country": "CH"})
    assert result.decision.deployment == "dedicated_cloud"
    assert "TCO029" in result.fired_rules
    summary = render_memo(result).split("## Why")[0]
    assert (
        "Owning ($22,428 a month) and the cheapest rental for the same work ($22,423 a month) lie within 5 % "
        "of each other: on price alone they are even (TCO029).\n"
    ) in summary
    assert "Buying binds" not in summary


def test_owning_ruled_out_is_not_called_even_in_the_summary() -> None:
    # No DevOps capacity: TCO015 rules owning out; TCO029's finding stays, the Summary says nothing of it.
    result = run({**CRITICAL, "devops_capacity": False})
    assert result.decision.deployment == "dedicated_cloud"
    assert "TCO029" in result.fired_rules
    assert "(TCO029)" not in render_memo(result).split("## Why")[0]


def test_tco029_s_message_names_the_capital_and_the_interest() -> None:
    said = message(
        "TCO029",
        "economics",
        "en",
        **DETAILS,
        own_usd_per_month=22_014.55,
        cheapest_rental_usd_per_month_same_hours=22_422.59,
        own_financing_usd_per_month=871.38,
    )
    assert said == (
        "Owning at $22,015/month and the cheapest admitted rental for the same work, "
        "scaleway/h100-sxm-2-80g/h100-sxm at $22,423/month, lie within 5 % of each other, a gap smaller than "
        "price dates and discounts move prices by: on price alone they are even. Buying binds $570,000 up "
        "front for the 36 months of the write-off, where renting binds no capital; borrowed at 3.51 % a "
        "year, the servers would cost about $871 a month on top of that figure, and a resale value at the "
        "end would take some off it."
    )


def test_tco029_in_german() -> None:
    said = message(
        "TCO029",
        "economics",
        "de",
        **DETAILS,
        own_usd_per_month=22_014.55,
        cheapest_rental_usd_per_month_same_hours=22_422.59,
        own_financing_usd_per_month=100.0,
    )
    assert said.endswith(
        "Der Kauf bindet 570.000 $ im Voraus für die 36 Monate der Abschreibung, wo eine Miete kein Kapital "
        "bindet; zu 3,51 % im Jahr finanziert, kämen zu diesem Betrag etwa 100 $ im Monat hinzu, und ein "
        "Restwert am Ende nähme etwas davon ab."
    )


def owning_above_renting(**details: Any) -> str:
    """TCO029's message where owning ($22,500) costs a little more than the rental ($22,000)."""
    return message(
        "TCO029",
        "economics",
        "en",
        **{**DETAILS, **details},
        own_usd_per_month=22_500.0,
        cheapest_rental_usd_per_month_same_hours=22_000.0,
    )


def test_tco029_says_where_owning_s_figure_leaves_staff_uncosted() -> None:
    assert owning_above_renting(own_staff_uncosted_country="US").endswith(
        "on price alone they are even. Owning's figure leaves staff out, not costed (the catalog has no "
        "sourced salary for US): with staff it costs more."
    )


def test_a_rental_just_below_owning_says_only_that_the_two_are_even() -> None:
    assert owning_above_renting(own_financing_usd_per_month=871.38).endswith("on price alone they are even.")


def test_a_purchase_well_below_the_rental_is_not_called_even() -> None:
    # The Qwen3-235B service of the same size: owning $22,015 against $32,443 rented, 47 % apart.
    workload = {
        **CRITICAL,
        "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
        "requests_per_day": 60_000,
        "avg_input_tokens": 3000,
        "avg_output_tokens": 800,
        "load_pattern": "variable",
        "business_critical": False,
        "personal_data": True,
    }
    result = run(workload)
    own = result.own_hardware
    assert result.decision.deployment == "own_hardware"
    assert own.cheapest_same_hours_usd_per_month is not None
    assert own.cheapest_same_hours_usd_per_month / own.usd_per_month - 1 > 0.4
    assert "TCO029" not in result.fired_rules
    assert "on price alone they are even" not in render_memo(result)
