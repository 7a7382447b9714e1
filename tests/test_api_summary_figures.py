"""What the memo says beside the API comparison's figures: the nearest smaller class's price where a larger
model's price stands in for the workload's (Llama 3.1 405B for a 100B model, above the 70B class's 72B) and
it costs less, another model never compared; and the rental scaled hour by hour (DEP032) beside the fixed
figure the API beat."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run

from gpu_advisor.engine.present.memo import render_memo

AGENT: dict[str, Any] = {
    "name": "agent-247",
    "model": {"name": "qwen2.5-72b", "precision": "fp8"},
    "requests_per_day": 40_000,
    "avg_input_tokens": 8_000,
    "avg_output_tokens": 3_000,
    "context_tokens": 32_768,
    "load_pattern": "steady",
    "schedule": "always",
    "latency_sensitive": True,
    "max_time_per_output_token_ms": 40,
    "company_country": "US",
}
REQUESTS = 40_000 * 30.42


def test_a_cheaper_smaller_class_is_named_beside_a_larger_stand_in() -> None:
    """A 100B model with the agent's 32,768-token requests: the 405B stands in for it, and the 70B class
    below it (its prices stand in up to 72B) costs less: the APIs section names it, never compared; the
    summary names no smaller class."""
    result = run({**AGENT, "model": {"params_b": 100, "precision": "fp8"}})
    compared = next(a for a in result.api_costs if a.compared)
    smaller = next(a for a in result.api_costs if a.nearest_smaller)
    # DeepInfra's 405B at $0.80 per million tokens both ways; its Llama 3.3 70B at $0.10 in, $0.32 out.
    assert (compared.api, compared.usd_per_month) == (
        "llama-3.1-405b-deepinfra",
        REQUESTS * 11_000 * 0.80 / 1e6,
    )
    assert smaller.api == "llama-3.3-70b-deepinfra"
    assert smaller.usd_per_month == REQUESTS * (8_000 * 0.10 + 3_000 * 0.32) / 1e6  # $2,141.57
    memo = render_memo(result)
    # 1 - 2,141.57 / (1,216,800 x 11,000 x 0.80 / 1e6 = 10,707.84) = 80 %.
    assert (
        "The nearest smaller class the workload may use costs less than the larger model compared and is "
        "shown below: Llama 3.3 70B Instruct Turbo (DeepInfra), 70B against 100B parameters, at $2,142 per "
        "month (80 % less), another and smaller model, an option only if its answers serve this workload; "
        "the comparison keeps the larger model's price.\n"
    ) in memo
    assert "nearest smaller class" not in memo.split("## Why")[0]


def test_the_72b_model_is_compared_with_the_70b_class_that_takes_its_requests() -> None:
    """The shipped catalog: every 70B price stands in for the 72B Qwen; the documents' takes 8,192 tokens
    at most, DeepInfra's Llama 3.3 70B takes the 32,768 and costs least, so it is compared, not the 405B,
    and no smaller class is named beside it."""
    result = run(AGENT)
    compared = next(a for a in result.api_costs if a.compared)
    assert compared.api == "llama-3.3-70b-deepinfra"
    assert compared.usd_per_month == REQUESTS * (8_000 * 0.10 + 3_000 * 0.32) / 1e6  # $2,141.57
    assert not [a for a in result.api_costs if a.nearest_smaller]
    assert "nearest smaller class" not in render_memo(result)


def test_no_smaller_class_is_named_beside_the_models_own_price() -> None:
    result = run({**AGENT, "model": {"name": "llama-3.3-70b", "precision": "fp8"}})
    assert next(a for a in result.api_costs if a.compared).same_model
    assert not [a for a in result.api_costs if a.nearest_smaller]


RAG: dict[str, Any] = {
    "name": "legal-rag",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 15_000,
    "avg_input_tokens": 30_000,
    "avg_output_tokens": 400,
    "context_tokens": 65_536,
    "load_pattern": "variable",
    "schedule": "workdays",
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 2_500,
    "max_time_per_output_token_ms": 60,
    "company_country": "NL",
}


def test_the_scaled_rental_is_said_beside_the_fixed_figure_the_api_is_compared_with() -> None:
    """The API wins against a fixed fleet or a serverless bill; DEP032's rental scaled by the hour bills
    less than those and still more than the API: the summary says which figure is which."""
    result = run(RAG)
    fleet = result.autoscaled_fleet
    assert result.decision.deployment == "api" and "DEP032" in result.fired_rules and fleet is not None
    assert result.decision.usd_per_month is not None and fleet.usd_per_month > result.decision.usd_per_month
    assert (
        "The self-hosted figure the API is compared with is a fleet of fixed size or a serverless product's "
        "bill: renting runpod community (b200) and scaling it hour by hour with the day's load would bill "
        f"about ${fleet.usd_per_month:,.0f} a month, still more than the API (DEP032, below).\n"
    ) in render_memo(result)
    assert "fleet of fixed size or a serverless" not in render_memo(run(AGENT))


def test_a_mixture_of_experts_of_qwen3_235bs_size_is_compared_with_its_class() -> None:
    """A 235B mixture of experts with 22B active, given by its size (no word that it reasons): the class of
    Qwen3 235B A22B Instruct 2507 is its own, the cheapest admitted at Together's 0.20 / 0.60 USD, 200,000 x
    30.42 x (2,000 x 0.20 + 400 x 0.60) / 1e6; DeepSeek-R1's price (a larger class, and a reasoning model)
    stands in no more, and no smaller class is named beside its own."""
    workload = {
        "name": "q",
        "model": {"params_b": 235, "active_params_b": 22, "precision": "fp8"},
        "requests_per_day": 200_000,
        "avg_input_tokens": 2_000,
        "avg_output_tokens": 400,
    }
    result = run(workload)
    compared = next(a for a in result.api_costs if a.compared)
    assert compared.api == "qwen3-235b-a22b-2507-together"
    days = result.workload.days_per_month
    assert compared.usd_per_month == pytest.approx(200_000 * days * (2_000 * 0.20 + 400 * 0.60) / 1e6)
    assert not [a for a in result.api_costs if a.nearest_smaller]


def test_a_mixture_of_experts_is_not_told_of_a_dense_model_with_more_active_parameters() -> None:
    """A 200B mixture of experts with 20B active, given by its size, whose answers are long: the class of
    Qwen3 235B A22B above it stands in at Together's 0.20 / 0.60 USD, 1,220 USD per million requests of 100 in
    and 2,000 out, and a smaller class that costs less is named beside it. A dense 70B runs 70B parameters a
    token against its 20B, so it is no smaller class (smaller in all parameters), though its prices are the
    largest class below 200B; Mixtral 8x7B (46.7B, 12.9B active) is, at 0.54 / 0.54 USD (1,134 USD per million
    such requests), and is named in the APIs section only, as every smaller class is. The catalog's Qwen3, a
    reasoning model, is told only of a reasoning model's smaller class (KNB021)."""
    workload = {
        "name": "q",
        "model": {"params_b": 200, "active_params_b": 20, "precision": "fp8"},
        "requests_per_day": 200_000,
        "avg_input_tokens": 100,
        "avg_output_tokens": 2_000,
    }
    result = run(workload)
    assert next(a for a in result.api_costs if a.compared).api == "qwen3-235b-a22b-2507-together"
    (smaller,) = [a for a in result.api_costs if a.nearest_smaller]
    assert smaller.api == "mixtral-8x7b-deepinfra"
    summary = render_memo(result).split("## Why")[0]
    assert "nearest smaller class" not in summary
    qwen3 = run({**workload, "model": {"name": "qwen3-235b-a22b", "precision": "fp8"}})
    # Only a reasoning model's price: OVHcloud's Qwen3.5 9B, which thinks by its card's default.
    assert [a.api for a in qwen3.api_costs if a.nearest_smaller] == ["qwen3.5-9b-ovhcloud"]


def test_a_stated_min_replicas_is_said_to_size_self_hosted_routes_only() -> None:
    """A business-critical 70B service with min_replicas: 3 goes to an API: the three replicas are no part
    of that decision, and the summary says whose redundancy an API has."""
    workload = {
        "name": "leitstelle",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 20_000,
        "avg_input_tokens": 1_000,
        "avg_output_tokens": 300,
        "schedule": "always",
        "min_replicas": 3,
        "business_critical": True,
        "personal_data": True,
        "company_country": "AT",
    }
    result = run(workload)
    assert result.decision.deployment == "api"
    said = (
        "The workload's min_replicas (3) sizes self-hosted routes only: an API's redundancy is its "
        "provider's, which its terms (an SLA, where it publishes one) state.\n"
    )
    assert said in render_memo(result)
    del workload["min_replicas"]
    assert "min_replicas (" not in render_memo(run(workload)).split("## Why")[0]
