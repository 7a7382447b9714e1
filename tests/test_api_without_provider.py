"""A compared API price that names no provider (a document's figure for any host of a model class) is
said to be one: there is no provider to ask where it processes requests or what it charges today."""

from __future__ import annotations

import datetime as dt

from helpers import run

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo

QWEN_72B = {
    "name": "stated-utilization",
    "model": {"name": "qwen2.5-72b", "precision": "fp8"},
    "requests_per_day": 80000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "always",
    "company_country": "DE",
}


def test_a_class_price_with_no_provider_says_so() -> None:
    """No dated listing stands in for 72B: the document's hosted Llama 3 70B (EUR 0.60 / 0.80 per million
    tokens, counted up to 72B) is compared, and it names no host."""
    result = run(QWEN_72B)
    compared = next(api for api in result.api_costs if api.compared)
    assert (compared.api, compared.provider) == ("llama-3-70b-hosted", None)
    assert result.decision.deployment == "api"
    memo = render_memo(result)
    summary = memo.split("## Summary")[1].split("## Why")[0]
    assert (
        "The price names no provider: it is a published class price for hosted models of its size. Ask a "
        "provider that hosts the model you would use for its price, and where it processes the requests, "
        "before deciding." in summary
    )
    assert "Where its provider processes the requests" not in summary
    stale = next(f for f in result.findings if f.rule_id == "KNB007")
    assert stale.message.endswith(
        "Per-token prices of hosted models move within months; the price names no provider, so ask one that "
        "hosts the model you would use for its current price before deciding for or against the API."
    )


def test_a_price_with_a_provider_is_checked_with_it() -> None:
    """The 70B itself: DeepInfra's listing of 2026-11-05 is compared; evaluated on 2027-06-01 it is 208
    days old, and KNB007 sends the reader to its provider."""
    workload = validate_workload({**QWEN_72B, "model": {"name": "llama-3.1-70b", "precision": "fp8"}}, "t")
    result = recommend(workload, dt.date(2027, 6, 1))
    compared = next(api for api in result.api_costs if api.compared)
    assert (compared.provider, compared.as_of) == ("deepinfra", dt.date(2026, 11, 5))
    assert (dt.date(2027, 6, 1) - compared.as_of).days == 208
    stale = next(f for f in result.findings if f.rule_id == "KNB007")
    assert stale.message.endswith(
        "Per-token prices of hosted models move within months; check the provider's current price before "
        "deciding for or against the API."
    )
    assert "The price names no provider" not in render_memo(result)
