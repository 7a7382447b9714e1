"""An API's default limits a minute (PRV017, PRV018): a managed API was recommended to a Swiss voice
assistant at three times the requests a minute OVHcloud's AI Endpoints take per project and model
(400, HTTP 429 beyond them), and the memo said the catalog held no rate limit of the API."""

from __future__ import annotations

import datetime as dt

import pytest

from gpu_advisor import api

EVALUATED_ON = dt.date(2026, 12, 4)
VOICE = {
    "name": "voice-assistant",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 600_000,
    "avg_input_tokens": 500,
    "avg_output_tokens": 120,
    "load_pattern": "variable",
    "latency_sensitive": True,
    "personal_data": True,
    "personal_data_region": "ch",
    "company_country": "CH",
    "max_time_to_first_token_ms": 250,
    "max_time_per_output_token_ms": 15,
}
# Business-critical: OVHcloud publishes no SLA for its AI Endpoints (PRV003), Scaleway does.
CLAIMS = {
    "name": "de-insurer-claims",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 2000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "office_hours",
    "personal_data": True,
    "business_critical": True,
    "company_country": "DE",
}


def findings(result, rule_id: str) -> list[str]:
    return [f.message for f in result.findings if f.rule_id == rule_id]


def test_the_busiest_minutes_past_the_apis_requests_a_minute_are_warned() -> None:
    result = api.recommend(VOICE, EVALUATED_ON)
    assert result.decision.deployment == "api"
    (compared,) = [a for a in result.api_costs if a.compared]
    # OVHcloud's Qwen3.5 9B (400 a minute) thinks by default where Llama 3.1 8B does not (KNB022).
    assert (compared.api, compared.requests_per_minute, compared.tokens_per_minute) == (
        "mistral-small-24b-ionos",
        300,
        None,
    )
    per_minute = result.load.peak_requests_per_second * 60
    assert round(per_minute) == 1_223  # 20.39 requests/s in the busiest minutes
    assert findings(result, "PRV017") == [
        f"In its busiest minutes the workload sends about {per_minute:,.0f} requests a minute, more than the "
        "300 Mistral Small 24B Instruct (IONOS AI Model Hub) takes per contract, across its models by "
        "default: beyond them it answers HTTP 429 until the provider raises the limit: ask it for a higher "
        "one before relying on the API at the peak."
    ]
    # IONOS states no limit on tokens.
    assert findings(result, "PRV018") == []


def test_the_busiest_minutes_past_the_apis_tokens_a_minute_are_warned() -> None:
    result = api.recommend(CLAIMS, EVALUATED_ON)
    (compared,) = [a for a in result.api_costs if a.compared]
    assert (compared.api, compared.requests_per_minute, compared.tokens_per_minute) == (
        "llama-3.3-70b-scaleway",
        300,
        200_000,
    )
    per_second = result.load.peak_requests_per_second
    # 3.05 requests/s: 183 a minute, within Scaleway's 300; each with 2,000 + 300 tokens.
    assert round(per_second * 60) == 183
    assert findings(result, "PRV017") == []
    tokens = per_second * 60 * 2300
    assert round(tokens) == 420_902
    assert findings(result, "PRV018") == [
        f"In its busiest minutes the workload sends about {tokens:,.0f} tokens a minute, input and output, "
        "more than the 200,000 Llama 3.3 70B Instruct (Scaleway Generative APIs) takes per organization "
        "and model by default: beyond them it answers HTTP 429 until the provider raises the limit, which "
        "it does on request. Ask for the higher limit before relying on the API at the peak."
    ]


def test_a_volume_within_the_limits_is_not_warned() -> None:
    result = api.recommend({**CLAIMS, "requests_per_day": 20_000}, EVALUATED_ON)
    (compared,) = [a for a in result.api_costs if a.compared]
    assert compared.api == "llama-3.3-70b-scaleway"
    # About 140,000 tokens a minute at the peak, within the 200,000.
    assert result.load.peak_requests_per_second * 60 * 2300 < 200_000
    assert findings(result, "PRV017") == findings(result, "PRV018") == []


def test_a_batch_sent_to_the_api_is_held_to_its_windows_rate() -> None:
    batch = {**VOICE, "load_pattern": "batch", "batch_window_hours": 4, "latency_sensitive": False}
    for target in ("max_time_to_first_token_ms", "max_time_per_output_token_ms"):
        batch.pop(target)
    result = api.recommend(batch, EVALUATED_ON)
    (compared,) = [a for a in result.api_costs if a.compared]
    assert compared.api == "mistral-small-24b-ionos" and not compared.batch
    # 600,000 requests within 4 hours: 2,500 a minute.
    assert findings(result, "PRV017") == [
        "To finish within its window the batch must send about 2,500 requests a minute, more than the 300 "
        "Mistral Small 24B Instruct (IONOS AI Model Hub) takes per contract, across its models by default: "
        "beyond them it answers HTTP 429 until the provider raises the limit: ask it for a higher one before "
        "relying on the API for the batch, or the run takes longer than its window."
    ]


def test_a_limit_per_contract_is_said_across_the_contracts_models() -> None:
    # IONOS counts every request of a contract together, 5 a second at its base: 300 a minute.
    saas = {
        "name": "de-saas-support-summaries",
        "model": {"name": "llama-3.3-70b", "precision": "fp8"},
        "requests_per_day": 400_000,
        "avg_input_tokens": 800,
        "avg_output_tokens": 200,
        "load_pattern": "variable",
        "personal_data": True,
        "company_country": "DE",
        "devops_capacity": False,
        "latency_sensitive": True,
    }
    result = api.recommend(saas, EVALUATED_ON)
    (compared,) = [a for a in result.api_costs if a.compared]
    assert (compared.api, compared.requests_per_minute, compared.rate_limit_scope) == (
        "llama-3.3-70b-ionos",
        300,
        "contract",
    )
    # 400,000 a day over 24 hours, times the variable profile's busiest hour (2.31) and minutes (1.27).
    per_minute = result.load.peak_requests_per_second * 60
    # (The profile's factors as the memo rounds them.)
    assert per_minute == pytest.approx(400_000 / 86_400 * 2.31 * 1.27 * 60, rel=0.001)
    assert findings(result, "PRV017") == [
        f"In its busiest minutes the workload sends about {per_minute:,.0f} requests a minute, more than the "
        "300 Llama 3.3 70B Instruct (IONOS AI Model Hub) takes per contract, across its models by default: "
        "beyond them it answers HTTP 429 until the provider raises the limit: ask it for a higher one before "
        "relying on the API at the peak."
    ]


def test_the_summary_says_an_api_decided_on_answers_429_beyond_its_default_limits() -> None:
    """The voice assistant is recommended OVHcloud's API, past its 400 requests a minute (PRV017): the
    Summary says so beside the price, not only the Why section; a volume within the limits says nothing."""
    from gpu_advisor.engine.present.memo import render_memo

    result = api.recommend(VOICE, EVALUATED_ON)
    memo = render_memo(result)
    summary = memo.split("## Why")[0]
    assert (
        "The workload sends more than this API takes by default (PRV017): beyond its limits it answers "
        "HTTP 429 until the provider raises them. Ask for the higher limits before relying on it.\n"
    ) in summary
    within = api.recommend({**CLAIMS, "requests_per_day": 20_000}, EVALUATED_ON)
    assert within.decision.deployment == "api"
    assert "HTTP 429 until the provider raises them" not in render_memo(within)
