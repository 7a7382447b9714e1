"""The Summary names owned servers for the base with hourly cards for the busier hours (TCO022) as cheaper
than the routes the rules leave standing; where the best rental scaled hour by hour (DEP032) bills less
still, it says so with the mix's figure, rather than read as the cheapest way."""

from __future__ import annotations

import re

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

# A German team's fine-tuned 70B at 1.5 million requests a day, growing, steady around the clock.
GROWING = {
    "name": "buy-on-cost",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 1_500_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "always",
    "model_stable": True,
    "volume_growing": True,
    "company_country": "DE",
}


def test_a_scaled_rental_below_the_owned_mix_is_said_to_bill_less_still() -> None:
    result = run(GROWING)
    assert {"TCO022", "DEP032"} <= set(result.fired_rules)
    owned, scaled = result.owned_base_usd_per_month, result.autoscaled_fleet
    assert owned is not None and scaled is not None and scaled.usd_per_month < owned
    tco022 = next(f.message for f in result.findings if f.rule_id == "TCO022")
    # The Summary's figure is TCO022's: the owned base plus the busier hours' cards.
    said = re.search(r"would cost \$([\d,]+)/month", tco022)
    assert said is not None and said.group(1) == f"{round(owned):,}"
    memo = " ".join(render_memo(result).split())
    assert (
        f"Owned servers for the base with hourly cards for the busier hours would cost about "
        f"${round(owned):,} a month, less than every fleet of fixed size the rules leave standing, though "
        "the rental scaled hour by hour (below) bills less still; the rules do not decide on that mix "
        "(TCO022, below)." in memo
    )
    assert "would cost less than every route the rules leave standing" not in memo


def test_where_the_scaled_rental_costs_more_the_owned_mix_is_the_cheapest_way() -> None:
    """The US 405B service of test_owned_base_fleet: the mix ($50,685) undercuts the rental scaled by the
    hour ($64,761)."""
    from test_owned_base_fleet import result

    r = result()
    assert r.owned_base_usd_per_month is not None and r.autoscaled_fleet is not None
    assert (round(r.owned_base_usd_per_month), round(r.autoscaled_fleet.usd_per_month)) == (50_685, 64_761)
    memo = " ".join(render_memo(r).split())
    assert (
        "Owned servers for the base with hourly cards for the busier hours would cost less than every route "
        "the rules leave standing; the rules do not decide on that mix (TCO022, below)." in memo
    )
