"""A serverless product runs only so many workers by default (PRV019): a law firm's nightly batch was
recommended seven B200 workers on RunPod Serverless, whose endpoints run 3 by default (a setting) and
whose accounts run 5 across their endpoints until their balance grows, without a word."""

from __future__ import annotations

import datetime as dt

from gpu_advisor import api

EVALUATED_ON = dt.date(2026, 12, 4)
NIGHTLY = {
    "name": "nightly-contract-extraction",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 120_000,
    "avg_input_tokens": 6000,
    "avg_output_tokens": 800,
    "load_pattern": "batch",
    "schedule": "workdays",
    "batch_window_hours": 5,
    "latency_sensitive": False,
    "personal_data": True,
    "company_country": "DE",
}


def prv019(result) -> list[str]:
    return [f.message for f in result.findings if f.rule_id == "PRV019"]


def test_workers_past_the_endpoints_and_the_accounts_defaults_are_warned() -> None:
    result = api.recommend(NIGHTLY, EVALUATED_ON)
    option = result.serverless_option
    assert result.decision.deployment == "serverless" and option is not None
    assert (option.provider, option.offer, option.gpu, option.regions) == (
        "runpod",
        "serverless",
        "b200",
        ("eu-datacenters",),
    )
    # Seven one-card workers finish the run within its window: past 3 per endpoint and 5 per account.
    assert option.replicas == 7
    assert prv019(result) == [
        "The cheapest self-hosted route, RunPod Serverless (eu-datacenters, 1 × b200), runs 7 workers during "
        "a run, more than the 3 an endpoint runs by default: raise its maximum workers in the endpoint's "
        "settings, and have RunPod raise the account's worker quota (5 across its endpoints by default; it "
        "grows with the account's balance, and support raises it on request). Until then the workers "
        "beyond them do not start, and the run takes longer than its window."
    ]


def test_workers_within_the_accounts_quota_are_told_the_endpoint_setting_only() -> None:
    # A third of the work: fewer workers, past the endpoint's 3 but within the account's 5.
    result = api.recommend({**NIGHTLY, "requests_per_day": 70_000}, EVALUATED_ON)
    option = result.serverless_option
    assert option is not None and option.provider == "runpod"
    assert 3 < option.replicas <= 5
    (message,) = prv019(result)
    assert f"runs {option.replicas} workers during a run, more than the 3 an endpoint runs" in message
    assert "worker quota" not in message


def test_workers_within_the_endpoints_default_are_not_warned() -> None:
    result = api.recommend({**NIGHTLY, "requests_per_day": 30_000}, EVALUATED_ON)
    option = result.serverless_option
    assert option is not None and option.provider == "runpod" and option.replicas <= 3
    assert prv019(result) == []
