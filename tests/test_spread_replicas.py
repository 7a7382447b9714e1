"""SIZ015: a business-critical service's replicas run on at least two instances, so that a failed host
(or a GPU fault that stops its instance) leaves the spare serving. A 70B claims assistant with its spare
sat in one 4-card Scaleway instance with the replica it was to stand in for."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import EVALUATED_ON, negotiated_aws, run

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.present.memo import render_memo

CLAIMS: dict[str, Any] = {
    "name": "claims-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 40_000,
    "avg_input_tokens": 1200,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "workdays",
    "personal_data": True,
    "company_country": "DE",
    "business_critical": True,
}


def test_a_business_critical_service_spreads_its_replicas_over_two_instances() -> None:
    result = run(CLAIMS)
    assert {"SIZ010", "SIZ015"} <= set(result.fired_rules)
    best = result.best_option
    assert best is not None and (best.provider, best.offer, best.gpus, best.gpus_rented) == (
        "scaleway",
        "h100-sxm-2-80g",
        4,
        4,
    )
    # A replica and its spare, each 2 × H100 in its own 2-card instance, kept all 730 hours of the month
    # (PRC033: a business-critical service on its schedule's hours keeps its rented cards).
    assert [(i.gpus, i.count) for i in best.instances] == [(2, 2)]
    assert best.usd_per_month == pytest.approx(4 * best.usd_per_gpu_hour * 730)
    # The 4-card instance that held both is priced with the second instance it then needs: 8 cards.
    (four,) = [o for o in result.options if o.offer == "h100-sxm-4-80g"]
    assert (four.gpus, four.gpus_rented) == (4, 8)
    assert [(i.gpus, i.count) for i in four.instances] == [(4, 2)]
    # The spare is put down to the rules that add it, SIZ015 among them for a business-critical service:
    # two of the four cards, 2 × €3.3099 × 1.16 × 730 = $5,606 (the EUR list price at the catalog's rate).
    assert round(2 * 3.3099 * 1.16 * 730) == 5_606
    assert (
        "Of that, $5,606 a month pays for the spare replica the rules add for failures and updates "
        "(SIZ010, SIZ011, SIZ015).\n"
    ) in render_memo(result)


def test_without_business_criticality_the_replicas_may_share_an_instance() -> None:
    result = run({**CLAIMS, "business_critical": False})
    assert "SIZ015" not in result.fired_rules
    best = result.best_option
    assert best is not None and (best.offer, best.gpus_rented) == ("h100-sxm-4-80g", 4)
    assert [(i.gpus, i.count) for i in best.instances] == [(4, 1)]


def test_a_mixed_fleet_spreads_its_reserved_base_too() -> None:
    """A steady 70B service at 2 million requests a day, business-critical: the quietest hour's 4
    replicas were the reserved base, all on one 8-card P5, and that mixed fleet ($16,371) was the
    decision. A lost base instance must leave every hour's need: with four 2-card replicas an instance
    and one spare an hour, every hour runs three more replicas (7 to 9), and the base is two P5 instances
    of four (16 cards, 16 × $1.90 × 730 = $22,192 at the negotiated rate, ``helpers.NEGOTIATED_AWS``)
    with Lambda's hourly 2-GPU H100 instance for the ninth replica's 10 hours a day (2 cards x 10 h x 30.42
    days x $4.19 = $2,549.20), $24,741 in all. It undercuts the three owned
    nodes that keep the peak through the loss of one (3 × $9,931.56: $9,554.39 at the documents' cost
    lines and $377.17 of US staff, 5 % of $90,520 a year), and is decided (DEP025)."""
    service = {
        "name": "chat-70b",
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 2_000_000,
        "avg_input_tokens": 600,
        "avg_output_tokens": 250,
        "load_pattern": "steady",
        "company_country": "US",
        "business_critical": True,
        # Its provider confirms the busier hours' cards: else no mix is priced (PRC034).
        "capacity_confirmed": True,
    }
    result = run(service, knowledge=negotiated_aws())
    # The fleet undercuts every single kind of rental (DEP025) and owning (TCO016).
    assert {"SIZ015", "DEP025", "TCO016"} <= set(result.fired_rules)
    fleet = result.mixed_fleet.fleet if result.mixed_fleet is not None else None
    assert fleet is not None and (fleet.base_gpus_rented, fleet.base_replicas_hosted) == (16, 8)
    assert (min(fleet.replicas_by_hour), max(fleet.replicas_by_hour)) == (7, 9)
    assert fleet.base_usd_per_month == pytest.approx(16 * 1.90 * 730)
    relaxed = run(
        {**service, "business_critical": False, "capacity_confirmed": False}, knowledge=negotiated_aws()
    )
    lean = relaxed.mixed_fleet
    assert lean is not None and fleet.replicas_by_hour == tuple(n + 3 for n in lean.fleet.replicas_by_hour)
    own = result.own_hardware
    assert (result.decision.deployment, result.decision.deciding_rule_id) == ("hybrid", "DEP025")
    # Ten hours at nine replicas: a 2-card replica's pass of 932 tokens (274 decoding and the prompts
    # replacing the finished ones), 7.6 million elements, reaches 0.37 of the link, below the one share of
    # 0.41, and a replica serves 11.9 requests/s (12.2 before).
    assert fleet.replicas_by_hour.count(9) == 10
    assert round(result.decision.usd_per_month or 0) == 24_741
    assert result.decision.usd_per_month == pytest.approx(16 * 1.90 * 730 + 2 * 10 * 30.42 * 4.19)
    # Its ninth replica starts each day on the provider's confirmation (DEP051); not for a service that is
    # not business-critical, which is decided on a mix too.
    (said,) = [f.message for f in result.findings if f.rule_id == "DEP051"]
    assert said.startswith(
        "The mixed fleet (aws/p5-reserved-3y + lambda/2-gpu-plan (h100-sxm)) runs up to 1 of its 9 replicas "
        "by the hour, started each day from on-demand capacity, as the workload says its provider confirms"
    )
    assert "the cheapest single-kind fleet costs $33,288.00/month." in said
    assert relaxed.decision.deployment == "hybrid" and "DEP051" not in relaxed.fired_rules
    assert (own.nodes, own.gpus_needed) == (3, 12)
    assert own.usd_per_month == pytest.approx(3 * (9554.39 + 90_520 * 0.05 / 12), abs=0.02)


def test_check_warns_a_business_critical_proposal_on_one_machine() -> None:
    """SIZ016: the claims assistant's two replicas on one 4-card instance, or on one bought server, fail
    together; on two 2-card instances or two servers they do not."""
    scaleway = {
        "deployment": "dedicated_cloud",
        "provider": "scaleway",
        "gpu": "h100-sxm",
        "gpus": 4,
        "pricing": "on_demand",
    }
    owned = {"deployment": "own_hardware", "gpu": "h100-sxm", "gpus": 4}
    cases = [
        ({**scaleway, "offer": "h100-sxm-4-80g"}, "warn", "instance"),
        ({**scaleway, "offer": "h100-sxm-2-80g"}, "pass", None),
        ({**owned, "servers": 1}, "warn", "server"),
        ({**owned, "servers": 2}, "pass", None),
    ]
    for proposal, status, machine in cases:
        document = ProposalDocument.model_validate(
            {"workload": CLAIMS, "proposal": {"name": "p", **proposal}}
        )
        (item,) = [
            i for i in check_document(document, "p.yaml", 1, EVALUATED_ON).results if i.rule_id == "SIZ016"
        ]
        assert item.status == status, proposal
        if machine:
            assert item.message is not None and item.message.startswith(
                f"The proposal runs all its replicas on one {machine}: a failure of that machine"
            )


def test_check_places_a_business_critical_proposal_as_recommend_does_where_spreading_costs_nothing() -> None:
    """A business-critical shop chat on two H100 PCIe at OVHcloud's monthly offer, one card a replica: the
    offer sells one-card instances, so the two replicas go on two of them at no extra card, as recommend
    priced them; check priced one 2-card instance and warned that the service ran on one machine (SIZ016),
    which the proposal format could not contradict."""
    shop = {
        "name": "shop",
        "model": {"name": "llama-3.1-8b", "precision": "fp8"},
        "requests_per_day": 300_000,
        "avg_input_tokens": 1200,
        "avg_output_tokens": 200,
        "load_pattern": "variable",
        "personal_data": True,
        "company_country": "DE",
        "business_critical": True,
    }
    proposal = {
        "name": "ovh",
        "deployment": "dedicated_cloud",
        "provider": "ovhcloud",
        "offer": "h100-monthly",
        "gpu": "h100-pcie",
        "gpus": 2,
        "pricing": "reserved",
    }
    document = ProposalDocument.model_validate({"workload": shop, "proposal": proposal})
    results = {i.rule_id: i for i in check_document(document, "p.yaml", 1, EVALUATED_ON).results}
    assert results["SIZ016"].status == "pass"


def test_check_warns_a_rental_whose_lost_instance_takes_more_replicas_than_the_spare_covers() -> None:
    """SIZ034: a business-critical 70B at 500,000 a day (three replicas of 2 × H100 at the peak and a
    spare) proposed on two of Scaleway's 4-card instances, two replicas each: a lost instance leaves two.
    On that offer five replicas on three instances keep three through a loss: 10 cards of replicas, 12
    billed, 12 × €3.19275 × 1.16 × 730 = $32,443 a month (the EUR list price at the catalog's rate)."""
    workload = {
        "name": "core-banking-assistant",
        "model": {"name": "llama-3.3-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 500_000,
        "avg_input_tokens": 1200,
        "avg_output_tokens": 250,
        "load_pattern": "steady",
        "business_critical": True,
        "personal_data": True,
        "company_country": "DE",
    }
    proposal = {
        "name": "p",
        "deployment": "dedicated_cloud",
        "provider": "scaleway",
        "offer": "h100-sxm-4-80g",
        "gpu": "h100-sxm",
        "gpus": 8,
        "pricing": "on_demand",
        "region": "fr-par-2",
    }
    document = ProposalDocument.model_validate({"workload": workload, "proposal": proposal})
    items = {i.rule_id: i for i in check_document(document, "p.yaml", 1, EVALUATED_ON).results}
    assert items["SIZ016"].status == "pass" and items["SIZ034"].status == "warn"
    assert items["SIZ034"].message == (
        "The proposal runs 4 replicas on h100-sxm-4-80g, up to 2 on one instance: its loss leaves 2 where "
        "the peak needs 3. A business-critical service keeps the peak through the loss of any one instance "
        "(SIZ015): on this offer that takes 10 cards of replicas, billed as 12, about $32,443 a month, as "
        "recommend prices it; or accept the peak short until the instance is replaced."
    )
    # A stated min_replicas opts out of the spares the rules add (SIZ030): no instance's loss is held
    # against the proposal then.
    document = ProposalDocument.model_validate(
        {"workload": {**workload, "min_replicas": 1}, "proposal": proposal}
    )
    items = {i.rule_id: i for i in check_document(document, "p.yaml", 1, EVALUATED_ON).results}
    assert items["SIZ034"].status == "pass"
