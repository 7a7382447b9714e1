"""Own servers are bought whole: the memo says how far the load may grow before one more is needed (the
volume chart's step, which its points alone draw as a slope between 550,000 and 1,000,000 requests)."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

CHAT = {
    "name": "kundenchat",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 550_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 250,
    "load_pattern": "variable",
    "schedule": "always",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "DE",
}


def nodes_at(requests_per_day: int) -> int:
    return run({**CHAT, "requests_per_day": requests_per_day}).own_hardware.nodes


def test_the_step_lies_where_a_recommendation_at_that_volume_buys_one_more_server() -> None:
    result = run(CHAT)
    assert (result.decision.deployment, result.own_hardware.nodes) == ("own_hardware", 1)
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and chart.self_hosted_next_step_requests_per_day == 571_000
    # Within the bisection's 2 %: one server 2 % below the step, two 2 % above it.
    assert (nodes_at(559_000), nodes_at(583_000)) == (1, 2)
    summary = render_memo(result).split("## Summary")[1].split("## Why")[0]
    assert (
        "It holds the load up to about 571,000 requests a day (4 % more than today's); beyond that one more "
        "server is needed: $11,007 a month more and $285,000 up front.\n"
    ) in summary


def test_a_rented_route_has_no_server_step() -> None:
    """The API decided, weighed against a rental: a rental's line has no server to buy."""
    result = run({**CHAT, "personal_data": False, "requests_per_day": 100_000})
    chart = result.charts.api_versus_self_hosted
    assert result.decision.deployment == "api"
    assert chart is not None and chart.self_hosted_kind == "dedicated_cloud"
    assert chart.self_hosted_next_step_requests_per_day is None
    assert "more server is needed" not in render_memo(result)
