"""The base of a mixed fleet (a reservation) is the size that costs least with its hourly peak: every
size from one replica to one short of the busiest hour's, in whole instances (``fleets.base_placements``).
Worked out by hand on AWS's 8-card P5 reserved for 3 years at a negotiated 1.90 USD a card-hour
(``helpers.NEGOTIATED_AWS``; AWS's own list gives 2.97) and Lambda's hourly H100 (2.99 USD), two cards a
replica."""

from __future__ import annotations

import pytest
from helpers import EVALUATED_ON, NO_API_POLICY, negotiated_aws, run

from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.calc.fleet_split import base_placements
from gpu_advisor.engine.calc.fleets import price_mixed_fleet
from gpu_advisor.engine.calc.listings import PricedListing
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo

SERVICE = {
    "name": "us-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 600_000,
    "load_pattern": "steady",
    "latency_sensitive": True,
    "company_country": "US",
}


def listing(priced: tuple[PricedListing, ...], provider: str, offer: str) -> PricedListing:
    (found,) = [
        p
        for p in priced
        if (p.listing.offer.provider, p.listing.offer.offer, p.listing.offer.gpu, p.listing.jurisdiction)
        == (provider, offer, "h100-sxm", "US")
    ]
    return found


def test_the_cheapest_base_may_hold_fewer_replicas_than_the_quietest_hour() -> None:
    evaluation = evaluate_workload(
        validate_workload(SERVICE, "test"), EVALUATED_ON, knowledge=negotiated_aws()
    )
    priced, traffic = evaluation.market.priced, evaluation.capacity.traffic
    base, peak = listing(priced, "aws", "p5-reserved-3y"), listing(priced, "lambda", "on-demand")
    assert (base.plan.cards_per_replica, base.plan.spread) == (2, False)
    assert (base.listing.usd_per_gpu_hour, peak.listing.usd_per_gpu_hour) == (1.90, 2.99)
    assert traffic.served == (1.0,) * 24
    # 14 hours need 5 replicas, 10 hours 9. A P5 holds 4: a base of 5 already rents two instances.
    hours = (5,) * 14 + (9,) * 10
    sizes = base_placements(2, hours, base.listing.offer.instance_gpus, base.listing.linked, False)
    assert [(p.replicas_hosted, p.gpus_rented) for p in sizes] == [(4, 8), (8, 16)]
    one = 8 * 1.90 * 730 + (1 * 14 + 5 * 10) * 2 * 30.42 * 2.99
    two = 16 * 1.90 * 730 + (0 * 14 + 1 * 10) * 2 * 30.42 * 2.99
    assert (round(one), round(two)) == (22738, 24011)
    fleet = price_mixed_fleet(base, peak, hours, traffic, 30.42, 730)
    assert fleet is not None
    assert (fleet.base_replicas, fleet.base_replicas_hosted, fleet.base_gpus_rented) == (5, 4, 8)
    assert fleet.usd_per_month == pytest.approx(one)
    # Where the busier hours are 8, two instances hold them all: only the one-instance base is a mix.
    assert [p.replicas_hosted for p in base_placements(2, (5,) * 14 + (8,) * 10, (8,), (8,), False)] == [4]
    # A schedule that leaves hours unserved gets no base.
    assert base_placements(2, (0,) * 4 + (5,) * 20, (8,), (8,), False) == []


def test_the_load_section_says_when_the_chosen_mixed_fleet_runs_on_another_gpu() -> None:
    """A steady Qwen2.5-72B coding agent: the cheapest single rental is H200 at RunPod, which "Load and
    capacity" works through, and the decision a mixed fleet of 2-card H100 replicas (a reserved P5 base,
    Lambda's hourly H100): the section says which GPU the recommendation runs on. The company's policy rules
    managed APIs out (``NO_API_POLICY``): DeepInfra's Llama 3.3 70B, whose price stands in for the 72B Qwen,
    would cost less than any fleet. (Qwen3-235B showed this
    until its 8-card H100 replicas were known to keep its 4 KV heads twice: owning them now wins; so did
    300,000 requests a day until the 2-card H100 replicas were no longer capped at the full context.)"""
    agent = {
        "name": "us-coding-agent",
        "model": {"name": "qwen2.5-72b", "precision": "fp8"},
        "requests_per_day": 150_000,
        "avg_input_tokens": 4000,
        "avg_output_tokens": 600,
        "context_tokens": 32768,
        "load_pattern": "steady",
        "company_country": "US",
    }
    result = run(agent, knowledge=negotiated_aws(), policy_dir=NO_API_POLICY)
    assert result.decision.deployment == "hybrid" and result.mixed_fleet.gpu == "h100-sxm"
    assert result.best_option.gpu == "h200"
    assert (
        "The recommended mixed fleet runs on h100-sxm instead, 2 cards a replica (its replicas by hour are"
        ' under "Mixed fleet" below, its latency in the table under "Sizing"); the figures here are those of'
        " the h200 replicas."
    ) in " ".join(render_memo(result).split())
    # Where the single rental and the fleet share the GPU (the volume chart's 24/7 RAG API: reserved P5
    # alone, or a reserved P5 base with Lambda's hourly H100), the section needs no such sentence.
    rag = {
        "name": "rag-api",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 3_200_000,
        "avg_input_tokens": 3500,
        "avg_output_tokens": 300,
        "load_pattern": "steady",
        # Business-critical, every hour would run the three replicas a lost P5 instance takes beyond its
        # spare, and owned servers would be decided.
        "business_critical": False,
        "company_country": "US",
    }
    same = run(rag, knowledge=negotiated_aws())
    assert same.decision.deployment == "hybrid" and same.mixed_fleet.gpu == same.best_option.gpu
    assert "The recommended mixed fleet runs on" not in render_memo(same)


def test_a_spread_base_on_one_instance_leaves_every_hour_of_two_replicas_a_second_machine() -> None:
    """Spread (SIZ015), a base on one instance may not run all of an hour's two or more replicas: that
    machine's failure would take them all. An hour of one replica has no second to spread it to, so a
    base that carries the quiet hours' single replica stands (a shop's chat with min_replicas 1: one
    reserved L40S and hourly ones at the evening peak, $1,466, below the fleets it was refused for).
    Instances of two cards, one card a replica: the smallest base is one instance holding two."""
    two_cards = (2,)
    # Hours of one replica and of three: the base's two run beside an hourly third; it stands.
    quiet_and_busy = base_placements(1, (1,) * 12 + (3,) * 12, two_cards, two_cards, True)
    assert [(p.replicas_hosted, p.instance_count) for p in quiet_and_busy] == [(2, 1)]
    # Hours of two and of four: the hours of two would run both on the base's one machine; none stands.
    assert base_placements(1, (2,) * 12 + (4,) * 12, two_cards, two_cards, True) == []
    # Not spread, the same base stands.
    unspread = base_placements(1, (2,) * 12 + (4,) * 12, two_cards, two_cards, False)
    assert [(p.replicas_hosted, p.instance_count) for p in unspread] == [(2, 1)]


def test_a_mixed_fleet_without_a_spare_is_warned_as_the_decision() -> None:
    """A business-critical 8B chat with min_replicas 1: one reserved L40S and an hourly one in the busier
    hours are decided, no hour keeping a spare. SIZ031 warns of the decision itself; SIZ013 (the cheapest
    single rental) and SIZ030 (owned servers) speak of routes it does not take."""
    shop = {
        "name": "shop-chat",
        "model": {"name": "llama-3.1-8b", "precision": "fp16", "custom_weights": True},
        "requests_per_day": 250_000,
        "avg_input_tokens": 600,
        "avg_output_tokens": 200,
        "load_pattern": "variable",
        "business_critical": True,
        # Its provider confirms the busier hours' cards: else no mixed fleet is priced (PRC034).
        "capacity_confirmed": True,
        "min_replicas": 1,
        "company_country": "DE",
    }
    result = run(shop)
    assert (result.decision.deployment, result.decision.provider) == ("hybrid", "ovhcloud")
    warned = next(f for f in result.findings if f.rule_id == "SIZ031")
    assert warned.route == "hybrid"
    assert warned.message == (
        "The workload sets min_replicas: 1, which turns off the spare replica a business-critical service "
        "gets (SIZ010): the mixed fleet (ovhcloud/l40s-monthly + ovhcloud/l40s (l40s)) runs in each hour "
        "only "
        "the replicas that hour's load needs, 1 in the quietest and 2 in the busiest: a failed card or a "
        "rolling update leaves that hour's load unserved. Remove min_replicas so that every hour gets its "
        "spare."
    )
    summary = render_memo(result).split("## Why")[0]
    assert "concern routes the decision does not take (SIZ013, SIZ030," in summary
    assert "(hour 0 to 23, no spare)" in render_memo(result)
    # Without min_replicas the mixed fleet keeps its spare: nothing to warn of.
    spared = run({k: v for k, v in shop.items() if k != "min_replicas"})
    assert "SIZ031" not in spared.fired_rules
