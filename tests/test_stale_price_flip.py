"""Where a stale list price decides (KNB001), the Summary says up to which price the decision holds: where
the next best offer would cost as much, and the provider's newer list price of the same GPU."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from helpers import EVALUATED_ON, knowledge_with, provider_policy

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge_from
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo

QWEN = {
    "name": "qwen3-moe-internal",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 20000,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 400,
    "load_pattern": "steady",
    "schedule": "workdays",
    # Confirmed cards: the rentals are priced for the paid hours (PRC033 keeps the cards otherwise).
    "capacity_confirmed": True,
    "latency_sensitive": True,
    "business_critical": True,
    "company_country": "AT",
}


L70 = {
    "name": "l70",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 300000,
    "avg_input_tokens": 2000,
    "avg_output_tokens": 500,
    "load_pattern": "steady",
    "schedule": "always",
    "latency_sensitive": True,
    "business_critical": True,
    "company_country": "US",
}
"""A US 70B service around the clock, business-critical: two owned HGX H100 servers."""
US_32B = {
    "name": "us-32b",
    "model": {"name": "qwen2.5-32b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 1_100_000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "always",
    "latency_sensitive": True,
    "company_country": "US",
}
"""A US 32B service on its own weights around the clock: six single H100 at GMI's $2.10 of 2026-03-27."""
NO_SCALEWAY = provider_policy(
    "no-scaleway",
    "{field: provider, equals: scaleway}",
    "Company policy: not Scaleway",
    "Procurement has no contract with Scaleway.",
)
LATER = dt.date(2027, 4, 1)
"""Scaleway's list of 2026-09-26 is 187 days old then, Lambda's of 2026-09-20 193: both past
stale_price_days (180)."""


def summary(
    workload: dict[str, object], evaluated_on: dt.date = EVALUATED_ON, policy: str | None = None
) -> str:
    result = recommend(validate_workload(workload, "test"), evaluated_on, policy_dir=policy)
    return render_memo(result).split("## Summary")[1].split("## Why")[0]


def test_a_stale_price_says_where_the_next_offer_would_cost_as_much() -> None:
    """Scaleway's 4-card instance bills EUR 12.771 an hour, $14.814 at 1.16, $3.70 a card: two of them for
    264 hours cost $7,822 a month. Lambda's 4-card instance at $4.09 bills 8 x 264 h x $4.09 = $8,638, as
    much as Scaleway's at 3.70 x 8,638 / 7,822 = $4.09 per GPU-hour."""
    text = summary(QWEN, LATER)
    assert round(2 * 264 * 12.771 * 1.16) == 7822 and round(8 * 264 * 4.09) == 8638
    assert f"{12.771 * 1.16 / 4 * 8638.08 / (2 * 264 * 12.771 * 1.16):.2f}" == "4.09"
    assert (
        "Its list price of $3.70 per GPU-hour is 187 days old (KNB001): it stays the cheapest route standing "
        "while the price is below $4.09, at which lambda 4-gpu-plan (8 × h100-sxm) would cost as much, "
        "$8,638 a month.\n" in text
    )
    assert "newer list" not in text


def test_the_providers_newer_list_of_the_same_size_is_set_against_that_price(tmp_path: Path) -> None:
    """Without Scaleway (a company's policy) Lambda's 4-card instances decide ($8,638); the next route is
    its 8-card ones, two for the business-critical service's spread (SIZ015): 16 x 264 h x $3.99 =
    $16,854, as much as the decision at 4.09 x 16,854 / 8,638 = $7.98. The 8-card price, dated
    2026-10-10, is another size's, not a newer list of this one: nothing is said of it. A newer list of
    the 4-card instance (a catalog given one at $4.49 on 2026-11-20) is the next route itself, the same
    cards at $4.49, and is said beside that price."""
    policy = tmp_path / "policy"
    policy.mkdir()
    (policy / "no-scaleway.yaml").write_text(NO_SCALEWAY, encoding="utf-8")
    text = summary(QWEN, LATER, str(policy))
    assert round(16 * 264 * 3.99) == 16854
    assert (
        "Its list price of $4.09 per GPU-hour is 193 days old (KNB001): it stays the cheapest route standing "
        "while the price is below $7.98, at which lambda 8-gpu-plan (8 × h100-sxm) would cost as much, "
        "$16,854 a month.\n" in text
    )
    assert "newer list" not in text
    four_card = "  - provider: lambda\n    offer: 4-gpu-plan\n    gpu: h100-sxm\n"
    newer = (
        "  - provider: lambda\n    offer: 4-gpu-plan-2026-11\n    gpu: h100-sxm\n    usd_per_gpu_hour: 4.49\n"
        "    pricing: on_demand\n    instance_gpus: [4]\n    regions: [us]\n    price_jurisdiction: US\n"
        '    source: {url: "https://lambda.ai/instances", title: "a test\'s newer list"}\n'
        "    as_of: 2026-11-20\n"
    )
    knowledge = load_knowledge_from(knowledge_with(tmp_path, "offers.yaml", four_card, newer + four_card))
    result = recommend(validate_workload(QWEN, "test"), LATER, knowledge=knowledge, policy_dir=str(policy))
    assert (result.decision.provider, result.decision.offer) == ("lambda", "4-gpu-plan")
    assert (
        "it stays the cheapest route standing while the price is below $4.49, at which lambda "
        "4-gpu-plan-2026-11 (8 × h100-sxm) would cost as much, $9,483 a month.\nlambda's newer list prices "
        "its 4-gpu-plan-2026-11 (4 cards an instance) at $4.49 per GPU-hour (2026-11-20), above that price.\n"
        in render_memo(result)
    )


def test_the_route_that_would_win_first_is_named_whatever_its_kind() -> None:
    """GMI's single H100 at $2.10 of 2026-03-27 (248 days before 2026-11-30): 6 x 730 h x $2.10 = $9,198.
    One owned HGX H100 costs $9,932 a month (the documents' $9,554 and the US staff line, 5 % of $90,520 a
    year: $377.17) and stands (the next rental costs more): buying costs as much at 2.10 x 9,932 / 9,198 =
    $2.27, before any other rental does. (At 1,000,000 requests a day five cards, $7,665, are the
    decision, and RunPod's community H100 at $9,818 would win before the owned server.)"""
    result = recommend(validate_workload(US_32B, "test"), EVALUATED_ON)
    assert (result.decision.provider, result.decision.offer) == ("gmi", "on-demand")
    assert round(result.decision.usd_per_month or 0) == round(6 * 730 * 2.10) == 9198
    assert result.own_hardware.usd_per_month == pytest.approx(9_554.39 + 90_520 * 0.05 / 12, abs=0.01)
    assert [(r.kind, round(r.usd_per_month)) for r in result.other_routes[:2]] == [
        ("own_hardware", 9932),
        ("dedicated_cloud", 11622),
    ]
    assert f"{2.10 * result.own_hardware.usd_per_month / 9198:.2f}" == "2.27"
    assert (
        "Its list price of $2.10 per GPU-hour is 248 days old (KNB001): it stays the cheapest route standing "
        "while the price is below $2.27, at which own hardware, 1 × HGX H100 8-GPU would cost as much, "
        "$9,932 a month." in summary(US_32B)
    )


def test_a_current_price_says_nothing_of_it() -> None:
    """Personal data of an Austrian company, evaluated on 2026-11-30: Scaleway's price of 2026-09-26 (65
    days old) decides: KNB001 does not fire, and no price is said to hold."""
    text = summary({**QWEN, "personal_data": True})
    assert "8 × h100-sxm at scaleway (h100-sxm-4-80g, on-demand), **$7,822 per month**" in text
    assert "KNB001" not in text
    assert "the decision holds while" not in text


def test_a_rival_within_a_cent_gets_a_third_decimal() -> None:
    """The US service run by a Swiss company on its own weights, evaluated on 2027-04-15: Scaleway's
    2-card instances decide at EUR 3.3099 x 1.16 = $3.8395 a card ($22,423 a month, 201 days old), and two
    owned servers at the Swiss cost lines cost $22,428: they cost as much at $3.8403. Both round to $3.84,
    so the line read "price $3.84 ... below $3.84"; it gives a third decimal."""
    model = {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True}
    workload = {**L70, "company_country": "CH", "model": model}
    text = summary(workload, dt.date(2027, 4, 15))
    assert (
        "Its list price of $3.839 per GPU-hour is 201 days old (KNB001): it stays the cheapest route "
        "standing while the price is below $3.840, at which own hardware, 2 × HGX H100 8-GPU would cost as "
        "much, $22,428 a month." in text
    )
