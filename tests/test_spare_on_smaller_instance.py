"""What a spare replica costs on a rental is set against the provider's cheapest bill without it: where
the chosen instance holds two 2-card replicas, the provider's 2-card instance would hold the one the
peak needs, and the difference is the spare's cost (the 4-card instance bills its cards either way)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from helpers import run

from gpu_advisor.engine.present.memo import render_memo

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_the_spare_costs_the_difference_to_the_provider_s_two_card_instance() -> None:
    """hr-assistant: 2 replicas of 2 H100 SXM on Scaleway's 4-card instance (EUR 12.771 an hour), one
    of them the spare SIZ011 adds; the 2-card instance (EUR 6.6198 an hour) holds the peak's replica
    alone. 264 paid hours at 1.16 USD per EUR: (12.771 - 6.6198) x 264 x 1.16."""
    workload = yaml.safe_load((EXAMPLES / "hr-assistant.yaml").read_text(encoding="utf-8"))
    result = run(workload)
    best = result.best_option
    assert best is not None and best.chosen
    assert (best.provider, best.offer, best.replicas, best.spare_replicas) == (
        "scaleway",
        "h100-sxm-4-80g",
        2,
        1,
    )
    assert "SIZ011" in result.fired_rules
    expected = (12.771 - 6.6198) * 264 * 1.16
    assert best.spare_usd_per_month == pytest.approx(expected, rel=1e-6)
    memo = " ".join(render_memo(result).split())
    assert (
        "**$3,911 per month** for 264 billed hours. Of that, $1,884 a month pays for the spare replica "
        "the rules add for failures and updates (SIZ011)."
    ) in memo
    assert (
        "The spare replica the rules add (SIZ011) costs $1,884 of the $3,911 a month at scaleway "
        "h100-sxm-4-80g, set against scaleway's cheapest bill without it;"
    ) in memo


def test_a_decision_without_a_spare_rule_says_nothing_of_a_spare_in_the_summary() -> None:
    """internal-assistant is an API decision: its Summary names no spare's share."""
    workload = yaml.safe_load((EXAMPLES / "internal-assistant.yaml").read_text(encoding="utf-8"))
    memo = render_memo(run(workload))
    summary = memo.split("## Summary", 1)[1].split("## Why", 1)[0]
    assert "pays for the spare replica" not in summary


def test_only_the_same_provider_gpu_pricing_and_replica_size_are_set_against() -> None:
    """The spare's cost is set against the provider's own cheaper way to hold the plan without it: not a
    spot offer of the same GPU (another pricing, interruptible) nor an offer whose replicas have another
    size. Both are made here from Scaleway's 2-card instance at a tenth of its price: the spare's cost
    stays (12.771 - 6.6198) x 264 x 1.16."""
    from dataclasses import replace

    from helpers import EVALUATED_ON

    from gpu_advisor.engine.apps.recommend import evaluate_workload
    from gpu_advisor.engine.domain.workload import validate_workload
    from gpu_advisor.engine.pipeline.alternatives import with_spare_cost

    workload = yaml.safe_load((EXAMPLES / "hr-assistant.yaml").read_text(encoding="utf-8"))
    evaluation = evaluate_workload(validate_workload(workload, "hr"), EVALUATED_ON)
    market, knowledge = evaluation.market, evaluation.knowledge
    hours, days = evaluation.workload.hours_per_month, evaluation.workload.days_per_month
    two_card = next(
        p
        for p in market.priced
        if (p.listing.offer.provider, p.listing.offer.offer) == ("scaleway", "h100-sxm-2-80g")
    )
    cheap = replace(two_card.listing, usd_per_gpu_hour=two_card.listing.usd_per_gpu_hour / 10)
    spot = two_card._replace(listing=replace(cheap, offer=cheap.offer.model_copy(update={"pricing": "spot"})))
    other_size = two_card._replace(listing=cheap, plan=two_card.plan._replace(cards_per_replica=1))
    base = replace(
        market.alternatives, best=market.alternatives.best.model_copy(update={"spare_usd_per_month": None})
    )
    expected = (12.771 - 6.6198) * 264 * 1.16
    for decoy in (spot, other_size):
        priced = [*market.priced, decoy]
        found = with_spare_cost(base, priced, market.replicas.plans, hours, days, knowledge).best
        assert found is not None and found.spare_usd_per_month == pytest.approx(expected, rel=1e-6)
    # The same decoy with the same terms is the provider's cheaper way: the spare then costs more.
    same = two_card._replace(listing=cheap)
    found = with_spare_cost(base, [*market.priced, same], market.replicas.plans, hours, days, knowledge).best
    assert found is not None and found.spare_usd_per_month > expected
