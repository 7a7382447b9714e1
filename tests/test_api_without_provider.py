"""A compared API price that names no provider (a document's figure for any host of a model class) is
said to be one: there is no provider to ask where it processes requests or what it charges today."""

from __future__ import annotations

import datetime as dt

from helpers import run

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
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


def without_dated_70b_listings() -> Knowledge:
    """The catalog with the documents' Llama 3 70B as the only price of its class: the shipped one's dated
    70B listings (DeepInfra's and the others') stand in for 72B too, and DeepInfra's cost less, so the
    class price is compared there only where they are excluded and it is not."""
    knowledge = load_knowledge()
    apis = tuple(
        a for a in knowledge.api_prices.apis if a.model_params_b != 70 or a.id == "llama-3-70b-hosted"
    )
    return knowledge.model_copy(update={"api_prices": knowledge.api_prices.model_copy(update={"apis": apis})})


def test_a_class_price_with_no_provider_says_so() -> None:
    """Where the document's hosted Llama 3 70B (EUR 0.60 / 0.80 per million tokens, counted up to 72B) is
    the 70B class's only price, it is compared for the 72B Qwen, and it names no host."""
    result = run(QWEN_72B, knowledge=without_dated_70b_listings())
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


def test_the_class_price_is_not_named_where_a_dated_listing_of_its_class_is_compared() -> None:
    """The shipped catalog: every dated 70B listing stands in for the 72B Qwen as the class price does, and
    DeepInfra's Llama 3.3 70B costs least, (1,000 x $0.10 + 300 x $0.32) per million tokens against the
    class price's (1,000 x €0.60 + 300 x €0.80) x 1.16: it is compared, with its provider, and no sentence
    or finding speaks of a price without one."""
    result = run(QWEN_72B)
    compared = next(api for api in result.api_costs if api.compared)
    assert (compared.api, compared.provider) == ("llama-3.3-70b-deepinfra", "deepinfra")
    memo = render_memo(result)
    assert "The price names no provider" not in memo
    assert "the price names no provider" not in memo
    assert "Llama 3 70B (hosted)" not in memo.split("## Why")[0]
