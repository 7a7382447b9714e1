"""A business-critical service's hourly rentals are priced with their cards kept every calendar hour
(PRC033): a Zurich bank's summariser on workdays was recommended 18 x H100 at Scaleway for $18,245 a
month, its cards released every night, though kept every hour they cost $50,451, above the managed API
the memo named beside it; a start that finds no cards free stops such a service."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, run

from gpu_advisor.cli import main
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo

BANK = {
    "name": "zurich-bank-summariser",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 150_000,
    "avg_input_tokens": 6000,
    "avg_output_tokens": 500,
    "context_tokens": 16384,
    "load_pattern": "steady",
    "schedule": "workdays",
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 2000,
    "max_time_per_output_token_ms": 50,
    "personal_data": True,
    "personal_data_region": "ch",
    "company_country": "CH",
    "business_critical": True,
}


def scaleway_h100_usd_per_hour() -> float:
    knowledge = load_knowledge()
    (offer,) = [o for o in knowledge.offers.offers if (o.provider, o.offer) == ("scaleway", "h100-sxm-2-80g")]
    # EUR 3.31 list price, converted at load.
    return float(offer.usd_per_gpu_hour)


def test_the_rental_is_priced_kept_every_hour_and_the_api_is_the_decision() -> None:
    result = run(BANK)
    assert "PRC033" in result.fired_rules and "PRC019" not in result.fired_rules
    best = result.best_option
    assert best is not None and (best.provider, best.offer, best.gpus_rented) == (
        "scaleway",
        "h100-sxm-2-80g",
        18,
    )
    # 18 cards for all 730 hours of the month, not the workdays' 264.
    assert best.billed_hours_per_month == 730
    assert best.usd_per_month == pytest.approx(18 * 730 * scaleway_h100_usd_per_hour())
    assert round(best.usd_per_month) == 50_451
    assert result.decision.deployment == "api" and round(result.decision.usd_per_month) == 22_394
    # A fleet scaled with the day's load releases cards too: not priced.
    assert result.autoscaled_fleet is None
    summary = " ".join(render_memo(result).split("## Why")[0].split())
    assert (
        "Rentals paid by the hour are priced with their cards kept all 730 hours of the month, not released "
        "outside the 264 paid hours: a business-critical service cannot count on getting them back when the "
        "paid hours start (PRC033)."
    ) in summary


def test_cards_the_provider_confirms_are_priced_for_the_paid_hours_and_warned() -> None:
    result = run({**BANK, "capacity_confirmed": True})
    assert "PRC019" in result.fired_rules and "PRC033" not in result.fired_rules
    best = result.best_option
    assert best is not None and best.billed_hours_per_month == 264
    assert result.decision.deployment == "dedicated_cloud"
    assert round(result.decision.usd_per_month) == 18_245


def test_a_service_that_is_not_business_critical_is_priced_for_its_paid_hours() -> None:
    result = run({**BANK, "business_critical": False})
    assert "PRC033" not in result.fired_rules
    best = result.best_option
    assert best is not None and best.pricing == "on_demand" and best.billed_hours_per_month == 264


def test_the_volume_chart_prices_the_rental_kept_every_hour_too() -> None:
    """The chart of API against self-hosting prices each volume's rental as the options are priced: at
    the workload's own volume, the decision's rental kept all 730 hours."""
    from test_spread_replicas import CLAIMS

    result = run(CLAIMS)
    assert "PRC033" in result.fired_rules and result.decision.deployment == "dedicated_cloud"
    chart = result.charts.api_versus_self_hosted
    assert chart is not None
    at_own = chart.self_hosted_usd_per_month[chart.requests_per_day.index(CLAIMS["requests_per_day"])]
    assert at_own == pytest.approx(result.decision.usd_per_month)
    assert result.best_option is not None and result.best_option.billed_hours_per_month == 730


def test_check_prices_a_business_critical_proposal_as_the_recommendation_prices_its_rentals(
    tmp_path: Path,
) -> None:
    """A proposal of Scaleway's 4-card H100 instances for a German insurer's claims service on its own
    weights (no API): priced for the 730 hours its cards are kept, as the options table prices that offer,
    where it was priced for 264 hours and came out cheaper than the recommendation it costs more than."""
    from gpu_advisor.engine.apps.check.run import check_document
    from gpu_advisor.engine.domain.proposal import ProposalDocument

    workload = {
        **BANK,
        "name": "de-claims",
        "model": {"name": "llama-3.3-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 30_000,
        "avg_input_tokens": 2000,
        "avg_output_tokens": 300,
        "personal_data_region": "eu",
        "company_country": "DE",
    }
    proposal = {
        "name": "four-card",
        "deployment": "dedicated_cloud",
        "provider": "scaleway",
        "offer": "h100-sxm-4-80g",
        "gpu": "h100-sxm",
        "gpus": 8,
        "pricing": "on_demand",
    }
    checked = check_document(
        ProposalDocument.model_validate({"workload": workload, "proposal": proposal}),
        "p.yaml",
        1,
        EVALUATED_ON,
    )
    (listed,) = [o for o in run(workload).options if o.offer == "h100-sxm-4-80g"]
    assert listed.billed_hours_per_month == 730
    assert checked.usd_per_month == pytest.approx(round(listed.usd_per_month, 2))
    assert checked.usd_per_month > checked.recommendation.usd_per_month
    statuses = {r.rule_id: r.status for r in checked.results}
    assert statuses["PRC022"] == "pass" and statuses["DEP033"] == "warn"
    # The result says the hours it priced, and why there are so many.
    assert checked.billed_hours_per_month == 730
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": workload, "proposal": proposal}), encoding="utf-8")
    ran = CliRunner(env={"COLUMNS": "400"}).invoke(main, ["check", str(path), "--as-of", str(EVALUATED_ON)])
    text = " ".join(ran.output.split())
    more = checked.usd_per_month - checked.recommendation.usd_per_month
    assert (
        f"proposed: ${checked.usd_per_month:,.0f} per month (+${more:,.0f}), 730 billed hours (the cards "
        "kept every hour of the month, PRC033)"
    ) in text


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        (
            {"business_critical": False},
            "capacity_confirmed: applies to a business-critical workload only (no other's rented cards are "
            "kept every hour or asked for at each run's start); set business_critical: true or leave it out "
            "(got true)",
        ),
        (
            {
                "business_critical": False,
                "load_pattern": "batch",
                "max_time_to_first_token_ms": None,
                "max_time_per_output_token_ms": None,
            },
            "capacity_confirmed: applies to a business-critical workload only (no other's rented cards are "
            "kept every hour or asked for at each run's start); set business_critical: true or leave it out "
            "(got true)",
        ),
    ],
)
def test_capacity_confirmed_is_refused_where_it_would_be_ignored(
    fields: dict[str, object], problem: str
) -> None:
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.domain.workload import validate_workload

    workload = {**BANK, **fields, "capacity_confirmed": True}
    workload = {k: v for k, v in workload.items() if v is not None}
    with pytest.raises(InputError) as refused:
        validate_workload(workload, "w.yaml")
    assert problem in str(refused.value)


def test_on_premises_the_rental_compared_with_the_servers_is_kept_every_hour_too() -> None:
    """On premises, the rentals are the comparison the purchase is weighed against: priced as the service
    could run on them, cards kept, not for the 264 paid hours."""
    result = run({**BANK, "on_premises_required": True})
    assert "PRC033" in result.fired_rules and result.decision.deployment == "own_hardware"
    best = result.best_option
    assert best is not None and best.billed_hours_per_month == 730


def test_a_confirmed_services_scaled_fleet_says_what_the_confirmation_covers() -> None:
    """An Austrian insurer whose provider confirms its cards each morning: its rental is priced for the
    paid hours, and DEP032's scaled fleet adds cards later in the day, which the confirmation does not
    cover."""
    insurer = {
        "name": "insurer-at-claims",
        "model": {"name": "qwen2.5-72b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 60_000,
        "avg_input_tokens": 2500,
        "avg_output_tokens": 400,
        "load_pattern": "variable",
        "schedule": "workdays",
        "business_critical": True,
        "capacity_confirmed": True,
        "personal_data": True,
        "company_country": "AT",
    }
    result = run(insurer)
    assert {"PRC019", "DEP032"} <= set(result.fired_rules) and "PRC033" not in result.fired_rules
    (scaled,) = [f.message for f in result.findings if f.rule_id == "DEP032"]
    assert (
        "an on-demand card released as the load falls is not promised back at the next peak (the "
        "provider's confirmation covers the cards the service starts with, not those added later)."
    ) in " ".join(scaled.split())
    # The Summary says the same beside the scaled bill, not that a confirmation is still to be had.
    summary = [
        line for line in render_memo(result).splitlines() if line.startswith("The scaled fleet releases")
    ]
    assert summary == [
        "The scaled fleet releases cards as the load falls, and capacity paid by the hour is not promised "
        "back at the next peak: the provider's confirmation the workload records (capacity_confirmed) covers "
        "the cards the service starts with, so that bill holds only where it covers the busiest hour's cards "
        "too (reserving them bills the quiet hours as well)."
    ]


def test_an_around_the_clock_services_scaled_fleet_needs_the_busier_hours_confirmed() -> None:
    """A Swiss bank's 24/7 assistant, steady: no paid hours start, but a fleet scaled with the day's load
    releases cards in the quiet hours. Without a confirmation none is priced (PRC034); with one, DEP032 and
    the Summary say that it must cover the busiest hour's cards each time the busier hours start."""
    bank = {
        **BANK,
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 300_000,
        "avg_input_tokens": 1200,
        "avg_output_tokens": 300,
        "schedule": "always",
        "max_time_to_first_token_ms": 1000,
        "max_time_per_output_token_ms": 60,
    }
    bank.pop("context_tokens")
    unconfirmed = run(bank)
    assert "PRC034" in unconfirmed.fired_rules and "DEP032" not in unconfirmed.fired_rules
    assert unconfirmed.autoscaled_fleet is None
    scaled = [line for line in render_memo(unconfirmed).splitlines() if line.startswith("The scaled fleet")]
    assert scaled == []
    confirmed = run({**bank, "capacity_confirmed": True})
    assert "DEP032" in confirmed.fired_rules and "PRC034" not in confirmed.fired_rules
    (said,) = [f.message for f in confirmed.findings if f.rule_id == "DEP032"]
    assert (
        "not promised back at the next peak (around the clock, the provider's confirmation covers the cards "
        "each time the busier hours start: hold it in writing for as many as the busiest hour runs)."
    ) in " ".join(said.split())
    assert [
        line for line in render_memo(confirmed).splitlines() if line.startswith("The scaled fleet releases")
    ] == [
        "The scaled fleet releases cards as the load falls, and capacity paid by the hour is not promised "
        "back at the next peak: the provider's confirmation the workload records (capacity_confirmed) holds "
        "that bill only where it covers the busiest hour's cards each time the busier hours start (reserving "
        "them bills the quiet hours as well)."
    ]
