"""Where a stale list price decides (KNB001), the Summary says up to which price the decision holds: where
the next best offer would cost as much, and the provider's newer list price of the same GPU."""

from __future__ import annotations

from helpers import EVALUATED_ON

from gpu_advisor.engine.apps.recommend import recommend
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
"""A US 70B service around the clock, business-critical: 8 Lambda H100 at the stale $2.99."""


def summary(workload: dict[str, object]) -> str:
    memo = render_memo(recommend(validate_workload(workload, "test"), EVALUATED_ON))
    return memo.split("## Summary")[1].split("## Why")[0]


def test_a_stale_lambda_price_says_where_scaleway_would_cost_as_much() -> None:
    """Lambda's 8 × H100 at $2.99 of 2026-03-27 (248 days before 2026-11-30): 8 × 264 h × $2.99 = $6,315.
    Scaleway's 4-card instance bills EUR 12.771 an hour, $14.814 at 1.16: its two cost $7,822 a month, as
    much as Lambda's eight at 14.814 / 4 = $3.70 per GPU-hour."""
    text = summary(QWEN)
    assert round(8 * 264 * 2.99) == 6315
    assert round(2 * 264 * 12.771 * 1.16) == 7822
    assert f"{12.771 * 1.16 / 4:.2f}" == "3.70"
    assert (
        "Its list price of $2.99 per GPU-hour is 248 days old (KNB001): it stays the cheapest route standing "
        "while the price is below $3.70, at which scaleway h100-sxm-4-80g (8 × h100-sxm) would cost as much, "
        "$7,822 a month.\nlambda's newer list prices its 8-gpu-plan (8 cards an instance) at $3.99 per "
        "GPU-hour (2026-10-10), above that price.\n" in text
    )


def test_the_route_that_would_win_first_is_named_whatever_its_kind() -> None:
    """A US 70B service on 8 Lambda H100 around the clock: 8 × 730 h × $2.99 = $17,462. Two owned HGX
    H100 cost $19,109 a month and stand (the next rental costs more): buying costs as much at
    2.99 × 19,109 / 17,462 = $3.27, before any other rental does."""
    service = L70
    result = recommend(validate_workload(service, "test"), EVALUATED_ON)
    assert round(result.decision.usd_per_month) == round(8 * 730 * 2.99) == 17462
    assert round(result.own_hardware.usd_per_month) == 19109
    assert f"{2.99 * result.own_hardware.usd_per_month / result.decision.usd_per_month:.2f}" == "3.27"
    assert (
        "it stays the cheapest route standing while the price is below $3.27, at which own hardware, 2 × HGX "
        "H100 8-GPU would cost as much, $19,109 a month." in summary(service)
    )


def test_a_current_price_says_nothing_of_it() -> None:
    """Personal data of an Austrian company: Lambda's US offer is excluded (RES001), and Scaleway's price
    of 2026-09-26 (65 days old) decides: KNB001 does not fire, and no price is said to hold."""
    text = summary({**QWEN, "personal_data": True})
    assert "8 × h100-sxm at scaleway (h100-sxm-4-80g, on-demand), **$7,822 per month**" in text
    assert "KNB001" not in text
    assert "the decision holds while" not in text
