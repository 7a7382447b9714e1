"""A drawn spot discount moves a spot price as a discount off its provider's on-demand price: never above
the range's smallest discount off that price (or the spot offer's own listed price, where that is higher
already), and not at all for a marketplace's spot quote, which has no list price to be a discount off
(Vast's $1.49 ranged from $0.60 to $2.38, above other providers' on-demand prices)."""

from __future__ import annotations

import pytest

from gpu_advisor.engine.apps.scenarios.apply import scenario_knowledge, spot_ceiling
from gpu_advisor.engine.apps.scenarios.inputs import scenario_inputs
from gpu_advisor.engine.domain.knowledge.entries import Offer
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload_ranges import WorkloadRanges

KNOWLEDGE = load_knowledge()


def offer(key: str) -> Offer:
    return next(o for o in KNOWLEDGE.offers.offers if o.key == key)


def drawn_at(discount: float) -> dict[str, float]:
    """Every input at its point value, the spot discount at ``discount``."""
    inputs = scenario_inputs(KNOWLEDGE, WorkloadRanges(), None)
    values = {d.summary.id: d.summary.point for d in inputs}
    return {**values, "spot_discount": discount}


def price_at(discount: float, key: str) -> float:
    inputs = scenario_inputs(KNOWLEDGE, WorkloadRanges(), None)
    knowledge = scenario_knowledge(KNOWLEDGE, inputs, drawn_at(discount), frozenset())
    return next(o.usd_per_gpu_hour for o in knowledge.offers.offers if o.key == key)


def test_the_ceiling_is_the_smallest_discount_off_the_providers_newest_on_demand_price() -> None:
    offers = KNOWLEDGE.offers.offers
    # AWS lists two on-demand H100 prices in us-east-1: $3.90 (the documents, 2026-03-27) and $6.88
    # (2026-09-19). The newer one, 60 % off (the range's smallest discount): $2.752.
    assert spot_ceiling(offer("aws/p5-spot/h100-sxm"), offers, 0.60) == pytest.approx(6.88 * 0.40)
    assert spot_ceiling(offer("azure/nd-h100-v5-spot/h100-sxm"), offers, 0.60) == pytest.approx(6.98 * 0.40)
    # GCP's listed spot price ($6.62) is above its listed on-demand one ($3.00): the spot price stays the cap.
    assert spot_ceiling(offer("gcp/a3-high-spot/h100-sxm"), offers, 0.60) == 6.62
    assert spot_ceiling(offer("vast/spot/h100-pcie"), offers, 0.60) is None


def test_a_small_drawn_discount_raises_a_spot_price_up_to_that_ceiling_only() -> None:
    # At a 60 % discount the listed price (at the 75 % midpoint) is times 0.40 / 0.25 = 1.6: Azure's
    # $2.373 would be $3.797 and AWS's $2.598 $4.157, both above 40 % of their on-demand prices.
    assert price_at(0.60, "azure/nd-h100-v5-spot/h100-sxm") == pytest.approx(6.98 * 0.40)
    assert price_at(0.60, "aws/p5-spot/h100-sxm") == pytest.approx(6.88 * 0.40)
    assert price_at(0.80, "azure/nd-h100-v5-spot/h100-sxm") == pytest.approx(2.373 * 0.20 / 0.25)
    assert price_at(0.90, "aws/p5-spot/h100-sxm") == pytest.approx(2.598 * 0.10 / 0.25)


def test_a_marketplace_quote_is_not_moved_by_the_discount() -> None:
    assert price_at(0.60, "vast/spot/h100-pcie") == 1.49
    assert price_at(0.90, "vast/spot/h100-pcie") == 1.49
