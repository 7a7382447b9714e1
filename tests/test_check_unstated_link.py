"""A proposal on an offer whose instances' link its sources do not state: the replicas share the
instances they fit in, billed as one host's cards, and NET004 says the link is what is unknown."""

from __future__ import annotations

import datetime as dt

import pytest

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument

AS_OF = dt.date(2026, 12, 3)

WORKLOAD = {
    "name": "research-405b",
    "model": {"name": "llama-3.1-405b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 250_000,
    "avg_input_tokens": 2_500,
    "avg_output_tokens": 500,
    "load_pattern": "steady",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "FR",
    "business_critical": True,
}
"""A French 405B research assistant (a walkthrough's workload): 4 H200 a replica."""

ONE_OVH_NODE = {
    "name": "one OVH H200 node",
    "deployment": "dedicated_cloud",
    "provider": "ovhcloud",
    "offer": "h200-1920",
    "gpu": "h200",
    "gpus": 8,
    "pricing": "on_demand",
    "region": "par",
}


def test_eight_cards_on_one_eight_card_instance_bill_one_instance() -> None:
    """OVHcloud's h200-1920 is 8 × H200 at €42.00 an instance-hour, and states no NVLink. The 8 proposed
    cards are one instance: €42.00 × 730 h = €30,660, at 1.16 USD per EUR $35,565.60, not two instances
    (one for each 4-card replica, $71,131 before). NET004 fails the run on the unstated link, not on a
    replica spread over instances."""
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": ONE_OVH_NODE})
    result = check_document(document, "p.yaml", 1, AS_OF)
    assert result.usd_per_month == pytest.approx(42.00 * 730 * 1.16)
    assert round(result.usd_per_month, 2) == 35565.6
    found = {item.rule_id: item for item in result.results}
    assert "PRC013" not in found or found["PRC013"].status == "pass"
    assert found["NET004"].status == "fail"
    assert found["NET004"].message == (
        "One replica of this model needs 4 h200 cards that share NVLink, but the proposed offer sells no "
        "instance of 4 cards or more whose cards are known to share it (its instances of up to 8 cards: "
        "their link its sources do not state): the replica might run over PCIe. Have the provider confirm "
        "NVLink, or choose an offer sold in instances of at least 4 linked cards, or a GPU with enough "
        "memory for fewer cards per replica."
    )
