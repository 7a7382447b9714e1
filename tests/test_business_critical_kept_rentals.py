"""A business-critical service's hourly rentals are priced with their cards kept every calendar hour
(PRC033): a Zurich bank's summariser on workdays was recommended 18 x H100 at Scaleway for $18,245 a
month, its cards released every night, though kept every hour they cost $50,451, above the managed API
the memo named beside it; a start that finds no cards free stops such a service."""

from __future__ import annotations

import pytest
from helpers import run

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


def test_paid_hours_the_service_states_are_priced_and_warned() -> None:
    result = run({**BANK, "hours_per_month": 264})
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
