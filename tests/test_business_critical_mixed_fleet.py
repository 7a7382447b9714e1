"""A business-critical service around the clock prices no fleet whose hourly cards follow the day's load
(PRC034), as PRC033 keeps a business-critical service's hourly cards through the hours outside fewer paid
hours: a citizens' service chat was recommended 2 reserved L40S and up to 7 more by the hour in the busier
hours, $6,839 a month, while DEP051 warned that 7 of its 9 replicas started each day from on-demand
capacity no provider promises; the single-kind fleet costs $12,147.52. Where the provider confirms the
cards each time they start (capacity_confirmed), the mix is priced and DEP051 says what it rests on."""

from __future__ import annotations

import pytest
from helpers import flat, run
from test_message_wording import message

from gpu_advisor.engine.present.memo import render_memo

CHAT = {
    "name": "buergerservice-chat",
    "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 1_000_000,
    "avg_input_tokens": 900,
    "avg_output_tokens": 250,
    "load_pattern": "variable",
    "schedule": "always",
    "latency_sensitive": True,
    "personal_data": True,
    "personal_data_region": "eu",
    "business_critical": True,
    "company_country": "DE",
    "input_vat_recoverable": False,
    "devops_capacity": True,
    "on_premises_required": False,
    "model_stable": True,
}


def test_no_mixed_fleet_is_priced_for_a_business_critical_service_and_the_memo_says_why() -> None:
    result = run(CHAT)
    assert "PRC034" in result.fired_rules and "PRC033" not in result.fired_rules
    assert not {"DEP025", "DEP051", "TCO016"} & set(result.fired_rules)
    assert result.mixed_fleet is None and result.autoscaled_fleet is None
    assert result.owned_base_usd_per_month is None
    decision, best = result.decision, result.best_option
    assert decision.deployment == "dedicated_cloud" and best is not None
    assert (best.provider, best.offer, best.gpus_rented) == ("ovhcloud", "a100-monthly", 8)
    assert decision.usd_per_month == pytest.approx(12_147.52, abs=0.005)
    (said,) = [f.message for f in result.findings if f.rule_id == "PRC034"]
    assert flat(said) == (
        "The service is business-critical and served around the clock. A fleet that follows the day's load "
        "rents cards by the hour for its busier hours and releases them as the load falls: capacity paid "
        "by the hour is not reserved, so they may not be free when the busier hours start again, and the "
        "service would not carry its peak. So every rental paid by the hour is priced with the busiest "
        "hour's cards kept all 730 hours of the month, and no fleet of hourly cards that follows the day's "
        "load is priced: neither a reserved base with hourly instances for the busier hours (DEP025), nor "
        "a rental scaled hour by hour (DEP032), nor owned servers with hourly cards for the busier hours "
        "(TCO022). Where the provider confirms in writing that the cards are free each time the busier "
        "hours start, capacity_confirmed: true prices such fleets (DEP051 then says what that assumes)."
    )
    summary = flat(render_memo(result).split("## Why")[0])
    assert (
        "No fleet that rents cards by the hour for its busier hours and releases them as the load falls is "
        "priced, a reserved base with hourly instances for the busier hours among them: a business-critical "
        "service cannot count on getting those cards back when the busier hours start (PRC034)."
    ) in summary
    assert "Hybrid" not in summary
    assert (
        "| Rented cards confirmed at each start (capacity_confirmed) | no (default; no hourly cards released "
        "as the load falls, PRC034) |"
    ) in render_memo(result)


def test_cards_the_provider_confirms_price_the_mix_and_dep051_says_what_it_rests_on() -> None:
    result = run({**CHAT, "capacity_confirmed": True})
    assert "PRC034" not in result.fired_rules
    assert {"DEP025", "DEP051"} <= set(result.fired_rules)
    fleet = result.mixed_fleet
    assert result.decision.deployment == "hybrid" and fleet is not None and fleet.fleet is not None
    # The busiest hours need 9 replicas of one L40S (the 8B's refit 16-bit steps carry more a replica than
    # the 10 before): 2 reserved for the 730 hours at 1.906087 USD, $2,782.89, and the hours' replicas
    # beyond them, 1+1+4+6+6+2+3+6+7+7+5+3+4+4+4+3+3 = 69 a day, x 30.42 days = 2,098.98 card-hours at
    # 1.93256 USD, $4,056.40: $6,839.29.
    assert fleet.fleet.replicas_by_hour == (
        3,
        3,
        2,
        2,
        2,
        2,
        2,
        2,
        2,
        6,
        8,
        8,
        4,
        5,
        8,
        9,
        9,
        7,
        5,
        6,
        6,
        6,
        5,
        5,
    )
    assert (fleet.fleet.base_gpus_rented, fleet.fleet.peak_gpus_rented_max) == (2, 7)
    assert fleet.fleet.peak_gpu_hours_per_month == pytest.approx(69 * 30.42)
    assert (
        result.decision.usd_per_month
        == pytest.approx(2 * 730 * 1.9060866888 + 69 * 30.42 * 1.93256, abs=0.005)
        and round(result.decision.usd_per_month, 2) == 6_839.29
    )
    (said,) = [f.message for f in result.findings if f.rule_id == "DEP051"]
    assert flat(said) == (
        "The mixed fleet (ovhcloud/l40s-monthly + ovhcloud/l40s (l40s)) runs up to 7 of its 9 replicas by "
        "the hour, started each day from on-demand capacity, as the workload says its provider confirms "
        "the cards free each time they start (capacity_confirmed). Capacity paid by the hour is not "
        "reserved: hold that confirmation in writing, for as many cards as the busiest hour starts, before "
        "relying on the mix, or keep the busier hours' replicas on the reservation too: the cheapest "
        "single-kind fleet costs $12,147.52/month. Without the confirmation a business-critical service is "
        "priced with its cards kept every hour, and no mix is priced (PRC034)."
    )


def test_a_service_that_is_not_business_critical_keeps_its_mix() -> None:
    result = run({**CHAT, "business_critical": False})
    assert "PRC034" not in result.fired_rules and "DEP051" not in result.fired_rules
    assert result.decision.deployment == "hybrid" and result.mixed_fleet is not None


@pytest.mark.parametrize(
    ("hours", "said"),
    [
        (
            264.0,
            "(the provider's confirmation covers the cards the service starts with, not those added later).",
        ),
        (
            730.0,
            "(around the clock, the provider's confirmation covers the cards each time the busier hours "
            "start: hold it in writing for as many as the busiest hour runs).",
        ),
    ],
)
def test_dep032_says_what_a_confirmation_covers_on_the_service_s_hours(hours: float, said: str) -> None:
    """On a schedule the confirmation is of the cards the paid hours start with (PRC019); around the clock
    no paid hours start, and it is of the busier hours' cards (PRC034, silent once they are confirmed, is not
    cited)."""
    text = message(
        "DEP032",
        "economics",
        "en",
        business_critical=True,
        capacity_confirmed=True,
        schedule_hours_per_month=hours,
        hours_per_month=hours,
        autoscaled_fewest_replicas=2,
        autoscaled_most_replicas=10,
        fixed_fleet_is_mixed=False,
        fixed_fleet_name="ovhcloud l40s (10 × l40s)",
        fixed_fleet_usd_per_month=14_000.0,
        autoscaled_gpu_hours=3_000.0,
        autoscaled_usd_per_month=6_000.0,
        autoscaled_undercuts_recommendation=False,
        recommended_deployment="dedicated_cloud",
        recommended_usd_per_month=14_000.0,
        best_option_gpu="l40s",
        best_option_provider="ovhcloud",
        best_option_offer="l40s",
    )
    peak = "an on-demand card released as the load falls is not promised back at the next peak"
    assert f"{peak} {said}" in text


def test_servers_on_premises_keep_prc034_to_the_rentals_compared_and_out_of_the_summary() -> None:
    """Where the servers must stand on premises, no rental is open (DEP006): PRC034 still prices the rentals
    the memo compares the servers with as the service would run on them, but the Summary gives no reason
    a mix of hourly cards is not priced beside the one it names (a reader took PRC034 for the reason)."""
    result = run({**CHAT, "on_premises_required": True})
    assert "PRC034" in result.fired_rules and "DEP006" in result.fired_rules
    assert result.decision.deployment == "own_hardware"
    summary = flat(render_memo(result).split("## Why")[0])
    assert "Renting cloud GPUs is ruled out for this workload (DEP006)." in summary
    assert "(PRC034)" not in summary
