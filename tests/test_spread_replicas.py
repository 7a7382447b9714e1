"""SIZ015: a business-critical service's replicas run on at least two instances, so that a failed host
(or a GPU fault that stops its instance) leaves the spare serving. A 70B claims assistant with its spare
sat in one 4-card Scaleway instance with the replica it was to stand in for."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import EVALUATED_ON, negotiated_aws, run

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument

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
    # A replica and its spare, each 2 × H100 in its own 2-card instance, for the 264 workday hours.
    assert [(i.gpus, i.count) for i in best.instances] == [(2, 2)]
    assert best.usd_per_month == pytest.approx(4 * best.usd_per_gpu_hour * 264)
    # The 4-card instance that held both is priced with the second instance it then needs: 8 cards.
    (four,) = [o for o in result.options if o.offer == "h100-sxm-4-80g"]
    assert (four.gpus, four.gpus_rented) == (4, 8)
    assert [(i.gpus, i.count) for i in four.instances] == [(4, 2)]


def test_without_business_criticality_the_replicas_may_share_an_instance() -> None:
    result = run({**CLAIMS, "business_critical": False})
    assert "SIZ015" not in result.fired_rules
    best = result.best_option
    assert best is not None and (best.offer, best.gpus_rented) == ("h100-sxm-4-80g", 4)
    assert [(i.gpus, i.count) for i in best.instances] == [(4, 1)]


def test_a_mixed_fleet_spreads_its_reserved_base_too() -> None:
    """A steady 70B service at 2 million requests a day, business-critical: the quietest hour's 4
    replicas were the reserved base, all on one 8-card P5, and that mixed fleet ($16,371) was the
    decision. Spread, the base takes two P5 instances, 16 cards, which hold every hour's replicas: no
    mixed fleet is left. The reservation of two P5 at a negotiated rate (``helpers.NEGOTIATED_AWS``: 16 ×
    $1.90 × 730 = $22,192) loses to two owned nodes at the documents' cost lines (2 × $9,554.39), the spare
    on the second (TCO012)."""
    service = {
        "name": "chat-70b",
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 2_000_000,
        "avg_input_tokens": 600,
        "avg_output_tokens": 250,
        "load_pattern": "steady",
        "company_country": "US",
        "business_critical": True,
    }
    result = run(service, knowledge=negotiated_aws())
    assert "SIZ015" in result.fired_rules and "DEP025" not in result.fired_rules
    assert result.mixed_fleet is None
    best = result.best_option
    assert best is not None and (best.offer, best.gpus, best.gpus_rented) == ("p5-reserved-3y", 12, 16)
    assert best.usd_per_month == pytest.approx(16 * 1.90 * 730)
    own = result.own_hardware
    assert (result.decision.deployment, result.decision.deciding_rule_id) == ("own_hardware", "TCO012")
    assert (own.nodes, own.gpus_needed) == (2, 12)
    assert own.usd_per_month == pytest.approx(2 * 9554.39, abs=0.01)


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
