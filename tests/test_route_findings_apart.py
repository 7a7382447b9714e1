"""Findings that speak of one route are named apart from the workload's constraints where the decision
takes another (``Rule.about_route``): SIZ013 counts the cheapest rental's replicas, SIZ030 the owned
servers', KNB013 the serverless product weighed. A Swiss hospital's owned servers keep a spare by its
min_replicas while the memo warned, as a constraint on the workload, that its plan had none."""

from __future__ import annotations

from typing import Any

from helpers import run
from test_min_replicas_spare import CLAIMS as CRITICAL_CLAIMS

from gpu_advisor.engine.present.memo import render_memo

HOSPITAL: dict[str, Any] = {
    "name": "ch-hospital-rag",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 12_000,
    "avg_input_tokens": 30_000,
    "avg_output_tokens": 500,
    "context_tokens": 65_536,
    "schedule": "always",
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 5000,
    "personal_data": True,
    "on_premises_required": True,
    "business_critical": True,
    "min_replicas": 2,
    "company_country": "CH",
}
# The business-critical claims assistant of the min_replicas tests, on premises with no spare.
CLAIMS: dict[str, Any] = {**CRITICAL_CLAIMS, "min_replicas": 1, "on_premises_required": True}


def summary_counts(workload: dict[str, Any]) -> tuple[str, str]:
    memo = render_memo(run(workload))
    lines = memo.split("## Summary\n\n")[1].split("\n## ")[0].splitlines()
    applies = next(line for line in lines if "to this workload" in line)
    apart = next((line for line in lines if "routes the decision does not take" in line), "")
    return applies, apart


def test_owned_servers_with_a_spare_by_min_replicas_get_no_warning_of_their_own() -> None:
    result = run(HOSPITAL)
    assert result.decision.deployment == "own_hardware" and result.own_hardware.spare_replicas >= 1
    assert "SIZ013" in result.fired_rules and "SIZ030" not in result.fired_rules
    applies, apart = summary_counts(HOSPITAL)
    assert applies == "One constraint or warning applies to this workload; it is listed under Why."
    # No mixed fleet is priced beside them: its hourly cards would not be promised (PRC034). Where the
    # provider confirms them, SIZ031 speaks of the mix, a route not taken either.
    assert (
        apart == "2 more concern routes the decision does not take (SIZ013, PRV003, see Risks and caveats)."
    )
    confirmed = {**HOSPITAL, "capacity_confirmed": True}
    assert summary_counts(confirmed)[1].startswith(
        "3 more concern routes the decision does not take (SIZ013, SIZ031, "
    )


def test_owned_servers_without_a_spare_are_warned_of_as_a_constraint() -> None:
    result = run(CLAIMS)
    assert result.decision.deployment == "own_hardware" and result.own_hardware.spare_replicas == 0
    assert {"SIZ013", "SIZ030"} <= set(result.fired_rules)
    applies, apart = summary_counts(CLAIMS)
    assert applies == "One constraint or warning applies to this workload; it is listed under Why."
    memo = render_memo(result)
    why = memo.split("## Why")[1].split("### How the rules decided")[0]
    assert (
        "- **SIZ030** Business-critical, but min_replicas leaves the owned servers no spare replica:" in why
    )
    assert "(SIZ013, " in apart
    # Three replicas on the two servers cover a failed card; the loss of the server with two leaves one.
    assert (
        "Remove min_replicas so that the plan gets its spare, and servers enough to keep the peak through "
        "the loss of one (SIZ015); a min_replicas of 3 covers a failed card, not a lost server that carries "
        "several replicas."
    ) in " ".join(memo.split())
    assert (
        "The replicas are spread over at least two servers (SIZ015), but none is a spare (min_replicas): a "
        "failed server leaves the peak unserved (SIZ030)."
    ) in memo


def test_a_stale_serverless_price_is_apart_where_the_api_is_decided_on_volume() -> None:
    """Below 10,000 requests a day the API is the route whatever the comparison (DEP001)."""
    prototype = {
        "name": "de-hr-prototype",
        "model": {"name": "llama-3.1-70b", "precision": "bf16"},
        "requests_per_day": 2000,
        "personal_data": True,
        "company_country": "DE",
    }
    result = run(prototype)
    assert result.decision.deployment == "api" and "KNB013" in result.fired_rules
    _, apart = summary_counts(prototype)
    assert "KNB013" in apart
