"""PRC019: a business-critical service's cheapest rental, paid by the hour and priced for the paid hours
where the workload says its provider confirms the cards (capacity_confirmed), is released each evening
and rented again each morning; the memo said nothing of the capacity that may not be free again, though
DEP032 says so of scaling within the day. Without that confirmation the cards are priced kept every hour
instead (PRC033)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run

# A Swiss insurer's claims assistant on its own 70B weights, on workdays (264 paid hours a month).
INSURER: dict[str, Any] = {
    "name": "ch-claims-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 120_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 400,
    "load_pattern": "steady",
    "schedule": "workdays",
    "capacity_confirmed": True,
    "latency_sensitive": True,
    "personal_data": True,
    "business_critical": True,
    "company_country": "CH",
}


def test_a_business_critical_workday_rental_is_told_its_cards_are_not_reserved() -> None:
    result = run(INSURER)
    best = result.best_option
    assert best is not None and best.pricing == "on_demand" and best.billed_hours_per_month == 264
    # Kept every calendar hour: 730 hours at the same price per hour.
    assert best.usd_per_month == pytest.approx(best.gpus_rented * best.usd_per_gpu_hour * 264)
    every_hour = round(best.usd_per_month * 730 / 264)
    (message,) = [f.message for f in result.findings if f.rule_id == "PRC019"]
    assert message == (
        f"The cheapest rental, {best.provider} {best.offer}, is priced for the 264 paid hours a month, "
        f"its {best.gpus_rented} cards released when the paid hours end and rented again when they start, "
        "as the workload says its provider confirms they are free then (capacity_confirmed). Capacity paid "
        "by the hour is not reserved: hold that confirmation in writing, for as many cards as the service "
        f"starts with. Kept every calendar hour, the cards would cost about ${every_hour:,} a month at this "
        "price; a reservation binds them."
    )


def test_around_the_clock_or_not_business_critical_says_nothing() -> None:
    assert "PRC019" not in run({**INSURER, "schedule": "always"}).fired_rules
    plain = {key: value for key, value in INSURER.items() if key != "capacity_confirmed"}
    assert "PRC019" not in run({**plain, "business_critical": False}).fired_rules
