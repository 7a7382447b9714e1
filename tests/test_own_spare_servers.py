"""Own hardware bought for a spare replica: an Austrian authority's 405B tool (FP8, 8 H100 a replica, on
premises, latency-sensitive) needs one replica for its load and gets a spare (SIZ011), so two HGX H100
servers are bought where one would carry the load. The summary says what the second one costs and how to
leave it out; with min_replicas: 1 one server is bought and nothing is said."""

from __future__ import annotations

from typing import Any

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

AUTHORITY: dict[str, Any] = {
    "name": "behoerde-405b",
    "model": {"name": "llama-3.1-405b", "precision": "fp8"},
    "requests_per_day": 1_000,
    "avg_input_tokens": 2_000,
    "avg_output_tokens": 500,
    "schedule": "office_hours",
    "latency_sensitive": True,
    "personal_data": True,
    "on_premises_required": True,
    "company_country": "AT",
}


def test_the_server_bought_for_the_spare_is_named_with_its_cost() -> None:
    result = run(AUTHORITY)
    own = result.own_hardware
    assert result.decision.deployment == "own_hardware"
    assert (own.nodes, own.replicas, own.spare_replicas, own.spare_servers) == (2, 2, 1, 1)
    # Each server: $285,000 over 36 months, Austrian power at 0.158 EUR/kWh for 7.28 kW, the documents'
    # $1,000 rack, 5 % of 62,673 EUR a year; 1.16 USD per EUR.
    per_server = 285_000 / 36 + 7.28 * 730 * 0.158 * 1.16 + 1_000 + 62_673 * 1.16 * 0.05 / 12
    assert round(own.usd_per_month / 2, 2) == round(per_server, 2)
    memo = render_memo(result)
    assert (
        f"One of the 2 servers is bought for the spare replica the rules add (SIZ011): ${per_server:,.0f} a "
        "month and $285,000 of the purchase. min_replicas: 1 leaves it out; a failed server or an update "
        "then stops the service.\n" in memo
    )


def test_min_replicas_one_buys_one_server_and_says_nothing() -> None:
    result = run({**AUTHORITY, "min_replicas": 1})
    own = result.own_hardware
    assert (own.nodes, own.spare_replicas, own.spare_servers) == (1, 0, 0)
    assert "bought for the spare replica" not in render_memo(result)
