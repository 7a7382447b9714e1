"""TCO022: owned servers for the replicas every hour needs and an hourly offer of their GPU for the
busier hours' extra replicas, priced beside the fleets the rules decide between and named where it costs
less. The bill is worked out by hand from the replicas each hour needs."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import EVALUATED_ON

from gpu_advisor.engine.apps.recommend import evaluate_workload, recommend
from gpu_advisor.engine.calc.fleets import OwnedBaseFleet, cheapest_owned_base_fleet
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload

# A US team's fine-tuned 405B FP8 service, steady around the clock: one replica is a whole 8 × H100 node.
SERVICE_405B: dict[str, Any] = {
    "name": "us-405b",
    "model": {"name": "llama-3.1-405b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 1_900_000,
    "avg_input_tokens": 300,
    "avg_output_tokens": 150,
    "load_pattern": "steady",
    "schedule": "always",
    "utilization": 0.9,
    "latency_sensitive": True,
    "company_country": "US",
}


def result(**changes: Any) -> Recommendation:
    return recommend(validate_workload({**SERVICE_405B, **changes}, "test"), EVALUATED_ON)


def finding(r: Recommendation, rule_id: str) -> str | None:
    return next((f.message for f in r.findings if f.rule_id == rule_id), None)


def test_an_owned_base_with_hourly_peaks_below_owning_for_the_busiest_hour_is_named() -> None:
    r = result()
    assert r.decision.deployment == "own_hardware"
    hours = r.mixed_fleet.fleet.replicas_by_hour
    assert hours == (4, 5, 5, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4)
    # Every hour needs 4 replicas of 8 cards: 4 owned nodes at the US cost per card-hour, every hour.
    per_card_hour = r.own_hardware.usd_per_gpu_hour.total
    base = 4 * 8 * per_card_hour * 730
    # The 19 replica-hours a day above 4 run on Lambda's hourly H100 (2.99 USD), 8 cards each.
    extra_replica_hours = sum(count - 4 for count in hours if count > 4)
    assert extra_replica_hours == 19
    card_hours = extra_replica_hours * 8 * 30.42
    peak = card_hours * 2.99
    total = base + peak
    owning = r.own_hardware.usd_per_month
    assert owning == pytest.approx(6 * 8 * per_card_hour * 730)
    assert (round(base), round(card_hours, 2), round(peak), round(total)) == (38218, 4623.84, 13825, 52043)
    assert round((1 - total / owning) * 100) == 9
    assert finding(r, "TCO022") == (
        "4 owned HGX H100 8-GPU for the 4 replicas every hour needs ($38,218/month; they hold 4), and"
        " lambda/on-demand by the hour for the busier hours' further replicas (up to 16 cards, 4,624"
        " card-hours, $13,825/month) would cost $52,043/month, 9 % less than the cheapest route the rules"
        " leave standing, 6 × HGX H100 8-GPU (48 × h100-sxm) at $57,326/month. This mix is not among the"
        " routes the"
        " rules decide between: it needs the owned and the rented servers behind one endpoint and the rented"
        " ones where the data may go; weigh it with the provider's and the network's terms before buying"
        " for the busiest hour."
    )


def test_no_owned_base_note_where_it_saves_too_little_without_devops_or_on_premises() -> None:
    # German cost lines make the owned node dearer than the US one: the mix saves less than 5 %.
    assert "TCO022" not in result(company_country="DE").fired_rules
    # A variable 70B chat: Modal's serverless B200 ($25,332 a month) stands, and an owned node with
    # hourly H100 for the busier hours ($25,199) saves under 1 % on it.
    chat = result(
        model={"name": "llama-3.3-70b", "precision": "fp8", "custom_weights": True},
        requests_per_day=3_000_000,
        avg_input_tokens=600,
        avg_output_tokens=250,
        load_pattern="variable",
        utilization=None,
    )
    assert chat.decision.deployment == "serverless"
    assert "TCO022" not in chat.fired_rules
    assert "TCO022" not in result(devops_capacity=False).fired_rules
    assert "TCO022" not in result(on_premises_required=True).fired_rules


def test_no_owned_base_where_the_servers_hold_every_hour_or_too_many_would_be_needed() -> None:
    """On the 405B service's own market: its Lambda H100 listing the only hourly offer, owned nodes at
    1,000 USD a month, and hours chosen by hand."""
    evaluation = evaluate_workload(validate_workload(SERVICE_405B, "test"), EVALUATED_ON)
    market, traffic = evaluation.market, evaluation.capacity.traffic
    (listing,) = [
        p
        for p in market.priced
        if (p.listing.offer.provider, p.listing.offer.offer, p.listing.offer.gpu, p.listing.jurisdiction)
        == ("lambda", "on-demand", "h100-sxm", "US")
    ]
    plan = market.plans["h100-sxm"]
    assert (plan.cards_per_replica, listing.listing.usd_per_gpu_hour) == (8, 2.99)

    def fleet(hours: tuple[int, ...], max_servers: int | None) -> OwnedBaseFleet | None:
        return cheapest_owned_base_fleet(1000.0, 8, max_servers, plan, hours, [listing], traffic, 30.42)

    # Every hour at 4 replicas: the servers hold them all, nothing to rent by the hour.
    assert fleet((4,) * 24, None) is None
    # One hour at 5: four owned nodes, and one 8-card node rented in that hour on each of 30.42 days.
    one_more = (4,) * 23 + (5,)
    found = fleet(one_more, None)
    assert found is not None
    assert (found.nodes, found.base_replicas_hosted, found.peak_gpus_rented_max) == (4, 4, 8)
    served = traffic.served[23]
    assert found.peak_gpu_hours_per_month == pytest.approx(8 * served * 30.42)
    assert found.usd_per_month == pytest.approx(4 * 1000.0 + 8 * served * 30.42 * 2.99)
    # The catalog admits at most 3 such servers: the base of 4 cannot be owned.
    assert fleet(one_more, 3) is None
    # No hourly offer admitted: no fleet.
    assert cheapest_owned_base_fleet(1000.0, 8, None, plan, one_more, [], traffic, 30.42) is None
