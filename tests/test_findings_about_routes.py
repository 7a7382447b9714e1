"""A finding about one route (the compared API, the cheapest rental or self-hosted route) is named apart
from the decision's constraints where the decision takes another route: a manager reading "2 constraints
and warnings apply" should not count an API's rate limit under a rental decision, nor a marketplace's
missing SLA under an API decision. Where the decision takes that route, it is one of its constraints."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from test_api_stopgap import R1 as STOPGAP_R1

from gpu_advisor.engine.apps.recommend import decide_workload, recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import elsewhere, render_memo
from gpu_advisor.engine.rulebook.loading import load_rulebook
from gpu_advisor.engine.rulebook.schema import Rule

AS_OF = dt.date(2026, 11, 30)
CHAT: dict[str, Any] = {
    "name": "chat70",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "company_country": "DE",
}


def decided(workload: dict[str, Any]) -> Any:
    return recommend(validate_workload(workload, "test"), AS_OF)


def test_findings_about_routes_not_taken_are_named_apart() -> None:
    result = decided(CHAT)
    assert result.decision.deployment == "serverless"
    routes = {f.rule_id: f.route for f in result.findings if f.route is not None}
    # PRV004 speaks of the cheapest rental (RunPod, a marketplace), PRV015 of the compared API's limit on
    # requests in flight: neither is the serverless decision's; PRV013 (Modal publishes no SLA) is. The
    # rules that only exclude options speak of the route they excluded from where it is not the
    # decision's: spot, reservations, capacity blocks and replaced list prices of rentals, batch APIs.
    assert routes == {
        "PRV004": "dedicated_cloud",
        "PRV013": "serverless",
        "PRV015": "api",
        "PRC002": "dedicated_cloud",
        "PRC004": "dedicated_cloud",
        "PRC016": "dedicated_cloud",
        "KNB010": "dedicated_cloud",
        "DEP028": "api",
        # Owning and the cheapest rental within 5 % of each other: a comparison of two routes not taken.
        "TCO029": "own_hardware",
    }
    memo = render_memo(result)
    assert (
        "3 more concern routes the decision does not take (PRC002, PRV004, PRV015, see Risks and caveats).\n"
        in memo
    )
    assert "- **PRV004**: " in memo.split("## Risks and caveats")[1]
    why = memo.split("## Why")[1].split("### How the rules decided")[0]
    assert "- **PRV013** " in why and "PRV004" not in why and "PRV015" not in why


def test_a_finding_about_the_route_taken_is_one_of_its_constraints() -> None:
    """Own weights and a model that still changes: the API is barred (DEP005), buying is ruled out, and
    the decision rents RunPod's B200s, where PRV004's missing SLA is the decision's own concern."""
    result = decided(
        {
            **CHAT,
            "model": {**CHAT["model"], "custom_weights": True},
            "load_pattern": "steady",
            "model_stable": False,
        }
    )
    assert (result.decision.deployment, result.decision.provider) == ("dedicated_cloud", "runpod")
    (prv004,) = [f for f in result.findings if f.rule_id == "PRV004"]
    assert prv004.route == "dedicated_cloud"
    memo = render_memo(result)
    assert "2 constraints and warnings apply to this workload; they are listed under Why." in memo
    assert "concern routes the decision does not take" not in memo
    assert "- **PRV004** " in memo.split("## Why")[1].split("### How the rules decided")[0]


@pytest.mark.parametrize("fact", ["workload", "economics", "serverless"])
def test_the_self_hosted_route_is_read_from_the_api_fact_only(fact: str) -> None:
    rule = load_rulebook().rule("PRV014").model_dump()
    with pytest.raises(ValueError, match="about_route self_hosted reads the api fact"):
        Rule.model_validate({**rule, "fact": fact, "when": []})


R1: dict[str, Any] = {**STOPGAP_R1, "schedule": "office_hours"}


def test_the_owned_servers_network_is_apart_from_an_api_decision() -> None:
    """DeepSeek-R1 needs 16 H100, two owned HGX servers per replica: NET005 says their InfiniBand is not
    costed. The decision is an API (DEP001), which runs on no owned server."""
    result = decided(R1)
    assert result.decision.deployment == "api"
    (net005,) = [f for f in result.findings if f.rule_id == "NET005"]
    assert net005.route == "own_hardware"
    memo = render_memo(result)
    # PRC002 too (the spot offers it excluded are rentals), and RES004 (serverless endpoints' regions).
    assert (
        "3 more concern routes the decision does not take (RES004, PRC002, NET005, see Risks and caveats).\n"
        in memo
    )
    assert "NET005" not in memo.split("## Why")[1].split("### How the rules decided")[0]


def test_the_owned_servers_network_constrains_an_own_hardware_decision() -> None:
    result = decided({**R1, "on_premises_required": True})
    assert result.decision.deployment == "own_hardware"
    memo = render_memo(result)
    assert "- **NET005** " in memo.split("## Why")[1].split("### How the rules decided")[0]
    assert "a route the decision does not take" not in memo


def test_the_eu_premium_speaks_of_rentals() -> None:
    """RES003 compares the cheapest admitted rental with the cheapest excluded one: a serverless decision
    takes neither, so its finding names the rental route."""
    result = decided({**CHAT, "personal_data": True})
    assert result.decision.deployment == "serverless"
    (res003,) = [f for f in result.findings if f.rule_id == "RES003"]
    assert res003.route == "dedicated_cloud"
    assert elsewhere(result, res003)


WORKDAYS_ASSISTANT: dict[str, Any] = {
    "name": "assistant",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 300,
    "avg_output_tokens": 150,
    "schedule": "workdays",
    # Confirmed cards: the rental is priced for the paid hours and PRC019 warns (PRC033 keeps them otherwise).
    "capacity_confirmed": True,
    "business_critical": True,
    "company_country": "DE",
}
"""A business-critical 8B assistant on workdays: the API decides (DEP001)."""


def test_the_rentals_release_is_apart_from_an_api_decision() -> None:
    """PRC019's warning about the cheapest rental's hours concerns cards an API decision does not rent."""
    result = decided(WORKDAYS_ASSISTANT)
    assert result.decision.deployment == "api"
    (prc019,) = [f for f in result.findings if f.rule_id == "PRC019"]
    assert prc019.route == "dedicated_cloud" and elsewhere(result, prc019)
    assert "PRC019" not in render_memo(result).split("## Why")[1].split("### How the rules decided")[0]


def test_a_batch_table_leaves_a_route_not_taken_to_the_memo() -> None:
    """The decision alone (batch tables, sweeps) lists the rules that need attention: PRC019's warning
    about the rentals' release concerns cards an API decision does not rent, as the memo says."""
    summary = decide_workload(validate_workload(WORKDAYS_ASSISTANT, "test"), AS_OF)
    assert summary.decision.deployment == "api"
    assert "PRC019" in summary.fired_rules and "PRC019" not in summary.attention


def test_a_batch_table_leaves_a_gpu_not_used_to_the_memo() -> None:
    """Qwen3-235B FP8 with own weights on own H100 servers: SIZ020 (the FP8 blocks split over too many
    cards) speaks of the small GPUs only, which the decision does not use; the memo names it apart, and so
    does the decision alone."""
    workload = validate_workload(
        {
            "name": "qwen",
            "model": {"name": "qwen3-235b-a22b", "precision": "fp8", "custom_weights": True},
            "requests_per_day": 1_000_000,
            "avg_input_tokens": 300,
            "avg_output_tokens": 150,
            "load_pattern": "steady",
            "latency_sensitive": True,
        },
        "test",
    )
    result = recommend(workload, AS_OF)
    # (Two 2-card H200 replicas at RunPod were the decision under the estimate before its routed experts'
    # factor and link shares; the H200 now takes three replicas, and own H100 servers are the decision.)
    assert (result.decision.deployment, result.decision.gpu) == ("own_hardware", "h100-sxm")
    subjects = {f.subject for f in result.findings if f.rule_id == "SIZ020"}
    assert subjects and "h100-sxm" not in subjects
    summary = decide_workload(workload, AS_OF)
    assert "SIZ020" in summary.fired_rules and "SIZ020" not in summary.attention


def test_an_exclusion_of_another_route_s_options_needs_no_attention() -> None:
    """A latency-sensitive chat on serverless endpoints: PRC002 excluded spot rentals, none of which the
    decision could take, so a portfolio's attention list leaves it out (it flagged every API and
    serverless workload); where the decision rents, the same exclusion is the decision's."""
    from gpu_advisor.engine.apps.recommend import attention_rule_ids, evaluate_workload

    api = evaluate_workload(validate_workload(CHAT, "t"), AS_OF)
    assert api.decision.deployment == "serverless"
    assert "PRC002" in {rule.id for rule in api.rules} and "PRC002" not in attention_rule_ids(api)
    rented = {**CHAT, "model": {**CHAT["model"], "custom_weights": True}, "load_pattern": "steady"}
    rented |= {"model_stable": False}
    rental = evaluate_workload(validate_workload(rented, "t"), AS_OF)
    assert rental.decision.deployment == "dedicated_cloud"
    assert "PRC002" in attention_rule_ids(rental)


def test_the_note_on_serverless_residency_is_apart_from_an_api_decision() -> None:
    """Patient letters with personal data, decided for the API: RES004 explains which serverless
    endpoints the residency rules excluded, so it concerns that route; RES001, the law itself, stays the
    decision's constraint."""
    letters = {
        "name": "patient-letter-summaries",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 20_000,
        "avg_input_tokens": 2500,
        "avg_output_tokens": 400,
        "load_pattern": "steady",
        "schedule": "workdays",
        "latency_sensitive": True,
        "personal_data": True,
        "company_country": "DE",
    }
    result = decided(letters)
    assert result.decision.deployment == "api"
    routes = {f.rule_id: f.route for f in result.findings if f.rule_id in ("RES001", "RES004")}
    assert routes == {"RES001": None, "RES004": "serverless"}
    memo = render_memo(result)
    assert "One constraint or warning applies to this workload; it is listed under Why.\n" in memo
    assert (
        "2 more concern routes the decision does not take (RES004, PRC002, see Risks and caveats).\n" in memo
    )
