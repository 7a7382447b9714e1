"""DEP035: where no self-hosted route has a price, a managed API the workload may use is the route. A
long-prompt contract RAG service (30,000 tokens in) for a German company misses the one-second
first-token target on every GPU the EU offers (LAT001), so no rental, serverless product or own server
is admitted; the memo recommended "own hardware ... which the catalog cannot price" although IONOS's
EU-hosted Llama 3.3 70B, which the workload may use, was in its own API table."""

from __future__ import annotations

import datetime as dt
from typing import Any

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

AS_OF = dt.date(2026, 11, 30)
RAG: dict[str, Any] = {
    "name": "vertrags-rag",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 150_000,
    "avg_input_tokens": 30_000,
    "avg_output_tokens": 400,
    "context_tokens": 32_768,
    "load_pattern": "variable",
    "schedule": "workdays",
    "personal_data": True,
    "company_country": "DE",
}


def test_the_api_the_workload_may_use_is_the_route_with_a_price() -> None:
    # 150,000 requests x 22 workdays x 30,400 tokens at 0.65 EUR per million, 1.16 USD per EUR.
    usd = 150_000 * 22 * 30_400 * 0.65 / 1e6 * 1.16
    assert round(usd, 2) == 75641.28
    result = run(RAG, AS_OF)
    decision = result.decision
    assert (decision.deployment, decision.offer, decision.deciding_rule_id) == (
        "api",
        "llama-3.3-70b-ionos",
        "DEP035",
    )
    assert round(decision.usd_per_month or 0, 2) == 75641.28
    assert {"DEP009", "LAT001", "DEP035"} <= set(result.fired_rules)
    memo = render_memo(result)
    assert (
        "No rental, serverless product or own server in the catalog can serve this workload under its "
        "constraints (see the findings), while a managed API it may use serves a model at least its size at "
        "$75,641.28/month: the API is the one route with a price. Its latency is not in the catalog: "
        "measure it against the workload's targets before relying on it." in memo
    )
    # DEP009 no longer says the server cannot hold the model: it holds it, and misses the target.
    assert (
        "the catalog's own server is not one either (it cannot hold the model or meet the workload's "
        "targets: see the findings): it needs hardware sized for it." in memo
    )


def test_own_weights_leave_the_api_out_and_hardware_sized_for_the_model() -> None:
    result = run({**RAG, "model": {**RAG["model"], "custom_weights": True}}, AS_OF)
    assert (result.decision.deployment, result.decision.deciding_rule_id) == ("own_hardware", "DEP009")
    assert "DEP035" not in result.fired_rules
