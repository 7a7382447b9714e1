"""Where the decision and the managed API compared lie within saving_worth_mentioning of each other, the
Summary says that on price alone the two are even: a shop chat's mixed fleet at $2,635 a month beat the
API's $2,647 by 0.45 %, and the memo read as if the price had decided."""

from __future__ import annotations

from typing import Any

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

SHOP: dict[str, Any] = {
    "name": "de-shop-chat",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 300_000,
    "avg_input_tokens": 1200,
    "avg_output_tokens": 200,
    "load_pattern": "variable",
    "schedule": "always",
    "max_time_to_first_token_ms": 300,
    "max_time_per_output_token_ms": 40,
    "load_profile": [
        *(0.3, 0.2, 0.15, 0.1, 0.1, 0.15, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0),
        *(1.0, 0.9, 0.9, 0.9, 1.0, 1.2, 1.6, 2.2, 2.6, 2.4, 1.5, 0.7),
    ],
    "personal_data": True,
    "company_country": "DE",
    "business_critical": True,
    # Its provider confirms the busier hours' cards: else no mixed fleet is priced (PRC034).
    "capacity_confirmed": True,
}
EVEN = (
    "The recommendation ($2,635 a month) and that API price lie within 5 % of each other, a gap smaller "
    "than price dates and discounts move prices by: on price alone the two are even."
)


def summary(result: Any) -> str:
    return " ".join(render_memo(result).split("## Summary")[1].split("## Why")[0].split())


def test_a_decision_within_the_noise_of_the_api_is_said_to_be_even_on_price() -> None:
    result = run(SHOP)
    assert result.decision.deployment == "hybrid"
    assert result.decision.usd_per_month is not None and round(result.decision.usd_per_month) == 2635
    assert result.saving_worth_mentioning == 0.05
    # $2,646.54 against $2,634.97: 0.44 % apart.
    assert "would cost $2,647 per month" in summary(result)
    assert EVEN in summary(result)


def test_a_wider_gap_is_not_called_even() -> None:
    result = run({**SHOP, "requests_per_day": 400_000})
    assert result.decision.deployment == "hybrid"
    assert "on price alone the two are even" not in summary(result)
