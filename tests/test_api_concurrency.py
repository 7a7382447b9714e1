"""A managed API takes only so many requests at once by default: DeepInfra 200 per model and account
(knowledge/api_prices.yaml, concurrent_requests). PRV015 warns where the load keeps more in flight at its
peak than the compared API takes, and stays silent below it or for a batch API, which queues its work."""

from __future__ import annotations

import datetime as dt
from typing import Any

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 12, 4)

CHAT: dict[str, Any] = {
    "name": "public-70b-chat",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 350,
    "load_pattern": "variable",
    "schedule": "always",
    "latency_sensitive": True,
    "company_country": "DE",
}


def message(result: Any, rule_id: str) -> str:
    return next(f.message for f in result.findings if f.rule_id == rule_id)


def test_a_peak_beyond_the_apis_default_concurrency_is_warned_of() -> None:
    result = recommend(validate_workload(CHAT, "test"), EVALUATED_ON)
    [api] = [a for a in result.api_costs if a.compared]
    assert (api.provider, api.concurrent_requests, api.batch) == ("deepinfra", 200, False)
    peak = result.load.requests_in_flight_peak
    assert peak is not None and peak > 200
    assert "PRV015" in result.fired_rules
    assert message(result, "PRV015") == (
        f"At the peak about {round(peak)} requests are in flight (the load's estimate, from a request's "
        f"time on a replica of {result.load.busy_share_gpu} at that load; an API that answers faster keeps "
        f"fewer), more than the 200 concurrent requests {api.name} allows per account and model by default: "
        "beyond them it answers HTTP 429 until the provider raises the limit, which it does on request. Ask "
        "for the higher limit before relying on the API at the peak."
    )


def test_a_peak_within_the_apis_default_concurrency_is_not() -> None:
    result = recommend(validate_workload({**CHAT, "requests_per_day": 200_000}, "test"), EVALUATED_ON)
    [api] = [a for a in result.api_costs if a.compared]
    assert api.concurrent_requests == 200
    peak = result.load.requests_in_flight_peak
    assert peak is not None and peak < 200
    assert "PRV015" not in result.fired_rules


def test_a_batch_api_queues_its_work_and_is_not_held_to_the_limit() -> None:
    batch = {**CHAT, "load_pattern": "batch", "batch_window_hours": 24, "latency_sensitive": False}
    result = recommend(validate_workload(batch, "test"), EVALUATED_ON)
    [api] = [a for a in result.api_costs if a.compared]
    assert api.batch and api.concurrent_requests == 200
    assert "PRV015" not in result.fired_rules and "PRV016" not in result.fired_rules


def test_an_api_the_rules_rule_out_is_not_held_to_its_limit() -> None:
    """Data that must stay in the building rules every cloud out (DEP006): no word about raising an API's
    limit, although the peak is the same."""
    result = recommend(validate_workload({**CHAT, "on_premises_required": True}, "test"), EVALUATED_ON)
    assert "api" in result.resolution.ruled_out
    peak = result.load.requests_in_flight_peak
    assert peak is not None and peak > 200
    assert "PRV015" not in result.fired_rules


def test_a_batch_sent_to_the_real_time_api_needs_its_windows_rate_in_flight() -> None:
    """Two million requests within a 6-hour window: 2,000,000 / 21,600 = 92.6 requests/s. DeepInfra's
    batch API takes 24 hours, longer than the window (DEP030), so its real-time API is compared; at one
    request's time alone on the fastest GPU planned (time to first token, whose prompt's pass yields the
    first of the 350 tokens, plus the other 349 at the time per output token, the sizing rows' figures)
    the run keeps over 500 in flight, past DeepInfra's 200: PRV016. Paid GPU hours that cut the rental's
    window do not cut the API's."""
    batch = {**CHAT, "load_pattern": "batch", "batch_window_hours": 6, "latency_sensitive": False}
    result = recommend(validate_workload(batch, "test"), EVALUATED_ON)
    [api] = [a for a in result.api_costs if a.compared]
    assert (api.batch, api.concurrent_requests) == (False, 200)
    alone = {
        g.gpu: (g.time_to_first_token_alone_ms + 349 * g.time_per_output_token_alone_ms) / 1000
        for g in result.sizing.gpus
        if g.time_to_first_token_alone_ms is not None and g.time_per_output_token_alone_ms is not None
    }
    fastest = min(alone, key=lambda gpu: alone[gpu])
    rate = 2_000_000 / (6 * 3600)
    assert rate * alone[fastest] > 500
    message = next(f.message for f in result.findings if f.rule_id == "PRV016")
    assert message.startswith(
        f"To finish within its window the batch must send 92.6 requests/s; at {alone[fastest]:.2f} s a "
        f"request (one request alone on a replica of {fastest}, the fastest the estimate plans:"
    )
    assert f"that is at least about {round(rate * alone[fastest])} requests in flight" in message
    assert "PRV015" not in result.fired_rules
    short_paid = recommend(validate_workload({**batch, "hours_per_month": 60}, "test"), EVALUATED_ON)
    message = next(f.message for f in short_paid.findings if f.rule_id == "PRV016")
    assert message.startswith("To finish within its window the batch must send 92.6 requests/s")


def test_a_batch_whose_window_rate_stays_under_the_limit_is_not_warned_of() -> None:
    small = {**CHAT, "load_pattern": "batch", "batch_window_hours": 6, "requests_per_day": 200_000}
    result = recommend(validate_workload({**small, "latency_sensitive": False}, "test"), EVALUATED_ON)
    [api] = [a for a in result.api_costs if a.compared]
    assert (api.batch, api.concurrent_requests) == (False, 200)
    assert "PRV016" not in result.fired_rules
