"""A serverless product runs only so many workers by default (PRV019): a law firm's nightly batch was
recommended seven B200 workers on RunPod Serverless, whose endpoints run 3 by default (a setting) and
whose accounts run 5 across their endpoints until their balance grows, without a word. And it scales an
endpoint idle for days down (PRV023 to PRV025): RunPod cuts an endpoint's maximum workers to 2 after 3 days
without a request and to none after 7, until the team raises them, so a weekly or monthly batch finds
its endpoint short of workers or without any."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from helpers import knowledge_with

from gpu_advisor import api
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge_from

EVALUATED_ON = dt.date(2026, 12, 4)
NIGHTLY = {
    "name": "nightly-contract-extraction",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    # 125,000: at 120,000 a 2-card replica of B200 finishes the run on 3 replicas, 6 cards, against 7 of one
    # card, and RunPod Serverless, which prices one-card workers only, drops out.
    "requests_per_day": 125_000,
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


def idle_findings(result) -> list[tuple[str, str]]:
    return [(f.rule_id, f.message) for f in result.findings if f.rule_id in ("PRV023", "PRV024", "PRV025")]


def test_a_nightly_workdays_batch_is_told_of_long_weekends() -> None:
    """22 runs a month on workdays: about 30.42 / 22 - 5 / 24 = 1.17 days between runs, under 3, but the
    cut stays once made, and a long weekend with a public holiday is 3 days or more."""
    assert idle_findings(api.recommend(NIGHTLY, EVALUATED_ON)) == [
        (
            "PRV025",
            "The schedule leaves whole days without a request, and a long weekend with a public holiday "
            "leaves 3 or more: after 3 days without a request RunPod lowers the endpoint's maximum workers "
            "to 2 (after 7 days to none) and keeps them there until they are raised by hand, while the "
            "cheapest self-hosted route, RunPod Serverless (eu-datacenters, 1 × b200), runs 7 workers during "
            "a run. "
            "Send the endpoint a request at least every 3 days, days off included, or raise its maximum "
            "workers after every long break.",
        )
    ]


def test_a_nightly_batch_every_day_keeps_its_endpoint_awake() -> None:
    result = api.recommend({**NIGHTLY, "schedule": "always"}, EVALUATED_ON)
    option = result.serverless_option
    assert option is not None and option.provider == "runpod" and option.replicas > 2
    assert idle_findings(result) == []


def test_a_weekly_batch_finds_its_endpoint_lowered_to_two_workers() -> None:
    result = api.recommend({**NIGHTLY, "batch_runs_per_month": 4.35}, EVALUATED_ON)
    option = result.serverless_option
    assert option is not None and (option.provider, option.replicas) == ("runpod", 7)
    # 730 / 24 / 4.35 - 5 / 24 = 6.78 days between runs: past the cut at 3, short of the stop at 7.
    assert idle_findings(result) == [
        (
            "PRV024",
            "Between two runs the batch sends no request for about 6.78 days. After 3 days without a request "
            "RunPod lowers the endpoint's maximum workers to 2, after 7 days to none, and keeps them there "
            "until they are raised by hand, while a run on the cheapest self-hosted route, RunPod Serverless "
            "(eu-datacenters, 1 × b200), needs 7: with 2 it takes longer than its window, and a run that "
            "comes 7 days or more after the last request finds none. Raise the endpoint's maximum workers "
            "before every run (an API call can do it), or send it a request at least every 3 days, which "
            "resets the timer.",
        )
    ]


def test_a_weekly_batch_of_two_workers_is_not_warned() -> None:
    result = api.recommend(
        {**NIGHTLY, "batch_runs_per_month": 4.35, "requests_per_day": 30_000}, EVALUATED_ON
    )
    option = result.serverless_option
    assert option is not None and (option.provider, option.replicas) == ("runpod", 2)
    assert idle_findings(result) == []


def test_a_monthly_batch_finds_its_endpoint_without_workers() -> None:
    result = api.recommend({**NIGHTLY, "batch_runs_per_month": 1}, EVALUATED_ON)
    # 730 / 24 - 5 / 24 = 30.21 days between runs, past the 7 that leave the endpoint without workers.
    ((rule_id, message),) = idle_findings(result)
    assert rule_id == "PRV023"
    assert message.startswith(
        "Between two runs the batch sends no request for about 30.2 days. After 3 days without a request "
        "RunPod lowers the endpoint's maximum workers to 2, after 7 days to none, and keeps them there "
        "until they are raised by hand: without that, the next run does not start (the cheapest "
        "self-hosted route, RunPod Serverless (eu-datacenters, 1 × b200), runs it on 7 workers)."
    )


def test_an_endpoint_is_not_stopped_before_it_is_lowered(tmp_path: Path) -> None:
    directory = knowledge_with(
        tmp_path, "serverless.yaml", "      stopped_after_days: 7\n", "      stopped_after_days: 3\n"
    )
    with pytest.raises(KnowledgeError, match="stopped_after_days must come after lowered_after_days"):
        load_knowledge_from(directory)
