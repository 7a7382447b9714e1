"""The replicas a lost instance takes beyond the spares (SIZ015, ``listings.with_loss_spares``) are counted
once: a mixed fleet's spare line sets its bill against the same fleet without any spare, loss replicas
included; a fleet scaled hour by hour adds them hour by hour to the GPU's plan, not to a plan that
already carries those of the fixed fleet."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import negotiated_aws, run

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo

CHAT: dict[str, Any] = {
    "name": "chat-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "schedule": "always",
    "latency_sensitive": True,
    "business_critical": True,
    # Its provider confirms the busier hours' cards: else no mixed or scaled fleet is priced (PRC034).
    "capacity_confirmed": True,
    "company_country": "DE",
}


def lambda_8_card_at(usd_per_gpu_hour: float) -> Knowledge:
    """The catalog with Lambda's 8-card H100 plan at a team's rate."""
    knowledge = load_knowledge()
    offers = tuple(
        o.model_copy(update={"usd_per_gpu_hour": usd_per_gpu_hour})
        if (o.provider, o.offer, o.gpu) == ("lambda", "8-gpu-plan", "h100-sxm")
        else o
        for o in knowledge.offers.offers
    )
    return knowledge.model_copy(update={"offers": knowledge.offers.model_copy(update={"offers": offers})})


def test_a_mixed_fleets_spares_cost_what_the_fleet_without_any_spare_saves() -> None:
    """5 million requests a day on reserved P5 (four replicas an instance) and Lambda's hourly 2-GPU H100
    instances: the spare and the three replicas a lost P5 takes beyond it run every hour, $61,343 a
    month; without them the same pair bills $50,247, one P5 less (8 x $1.90 x 730 h), so the four cost
    $11,096. The line said $2,364: its lean fleet still ran the three."""
    result = run(
        {**CHAT, "requests_per_day": 5_000_000, "load_pattern": "steady"}, knowledge=negotiated_aws()
    )
    fleet = result.mixed_fleet
    assert fleet is not None and round(fleet.usd_per_month) == 61_343
    assert fleet.spare_usd_per_month == pytest.approx(11_096, abs=1)
    assert (
        "The 4 spare replicas the rules add (SIZ010, SIZ011, SIZ015) cost $11,096 of the $61,343 a month at "
        "aws p5-reserved-3y + lambda 2-gpu-plan, as it bills them;"
    ) in " ".join(render_memo(result).split())


def test_a_fleet_scaled_by_the_hour_places_each_hours_loss_replicas_once() -> None:
    """2 million requests a day, variable, with Lambda's 8-card H100 at $1.50: the fixed fleet runs 19
    replicas on five instances (40 cards, $43,800). Scaled by the hour, each hour's replicas (2 to 16,
    the spare among them) take the loss replicas of their own placement, at most those 40 cards: $27,378,
    600 card-hours a day at $1.50 for 30.42 days (with the FP8 checkpoint's 72.65 GB and the refit
    steps, hours 11, 13, 15 and 17 each run one 2-card replica more than with 70.55 GB: 8 card-hours a
    day more than the 592 of $27,013; hour 9 runs ten replicas where it ran nine when every output token
    took a decode step, 8 more than the 584 of $26,648). It read the
    fixed fleet's plan, whose spares already held them, and added them again (48 cards, $32,854 when it
    was found)."""
    result = run(
        {**CHAT, "requests_per_day": 2_000_000, "load_pattern": "variable"}, knowledge=lambda_8_card_at(1.50)
    )
    best, scaled = result.best_option, result.autoscaled_fleet
    assert best is not None and (best.gpus_rented, round(best.usd_per_month)) == (40, 43_800)
    assert scaled is not None
    assert (min(scaled.replicas_by_hour), max(scaled.replicas_by_hour)) == (2, 16)
    assert scaled.gpu_hours_per_month == pytest.approx(600 * 30.42)
    assert (
        (scaled.gpus_rented_max, round(scaled.usd_per_month))
        == (40, round(600 * 1.50 * 30.42))
        == (40, 27_378)
    )


def test_a_mixed_fleet_option_counts_its_own_instances_and_spares() -> None:
    """The same 5 million a day: the busiest hour runs 25 two-card replicas, 20 on five reserved P5 and 5
    on Lambda's hourly 2-GPU H100 instances, a replica each, 50 cards, none idle; 21 replicas carry its
    load, so 4 are spares (the spare and the three a lost P5 takes beyond it). The option copied the
    single-kind P5 fleet's instances, room and spares."""
    result = run(
        {**CHAT, "requests_per_day": 5_000_000, "load_pattern": "steady"}, knowledge=negotiated_aws()
    )
    option = result.mixed_fleet
    assert option is not None and option.fleet is not None
    assert [(i.gpus, i.count) for i in option.fleet.base_instances] == [(8, 5)]
    assert [(i.gpus, i.count) for i in option.fleet.peak_instances_max] == [(2, 5)]
    assert [(i.gpus, i.count) for i in option.instances] == [(8, 5), (2, 5)]
    # The sizes both offers sell: the P5's 8, Lambda's 2-GPU instance.
    assert option.instance_gpus == (2, 8)
    # The decision is the mix: the result's replicas are its busiest hour's, not the single-kind fleet's.
    assert option.chosen and result.replicas == 25
    assert (option.replicas, option.gpus, option.gpus_rented) == (25, 50, 50)
    assert (option.replica_room, option.spare_replicas) == (0, 4)
