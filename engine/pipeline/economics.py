"""The economics stage: the market condensed into the ``economics`` fact the deployment, pricing,
provider and buy-versus-rent rules read, and the details their messages show."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from gpu_advisor.engine.calc.commitments import option_billing
from gpu_advisor.engine.calc.listing_frames import stages_over_cluster_network
from gpu_advisor.engine.calc.own_hardware import idle_cards_keep_the_peak
from gpu_advisor.engine.common.wording import listed
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import commitment_term
from gpu_advisor.engine.domain.own_costs import OwnHardware
from gpu_advisor.engine.domain.results import Option
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.economics_details import (
    FixedFleet,
    capacity_not_reserved,
    cards_per_replica,
    economics_details,
    fixed_fleet,
    other_prices,
    window_replicas,
)
from gpu_advisor.engine.pipeline.foreign_reach import ForeignReach, foreign_reach
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.rulebook.details import EconomicsDetails
from gpu_advisor.engine.rulebook.durable import FactSession, Firing
from gpu_advisor.engine.rulebook.facts import EconomicsFact, Fact


def replica_usd_per_hour(option: Option) -> float:
    """One replica's cards at the option's price per GPU-hour: what fitting the model costs, before whole
    instances and replica counts."""
    return cards_per_replica(option) * option.usd_per_gpu_hour


def runs_beyond_need(option: Option, market: Market) -> bool:
    """``option`` runs more replicas than its peak needs; a batch's, more than its window needs with the
    spot rework, on whichever of its instances is lost (the replicas its whole instances hold beyond them
    stand in for a failed card as well, but not where they share the instance that fails: SIZ038)."""
    if option.hours_per_day_running is None:
        return bool(option.spare_replicas)
    return option.replicas - option.replicas_on_fullest_instance >= window_replicas(option, market)


def sla_unknown_providers(knowledge: Knowledge, market: Market) -> list[str]:
    """The names of the providers of admitted rentals and serverless products whose SLA is not established
    for what is admitted (a listing's verdict is its provider's for the capacity at that price: a spot
    offer's is the spot one): the rules decide what that means for the workload (PRV011), as they decide
    the exclusions (PRV003)."""
    verdicts = [p.listing.attributes for p in market.priced if not p.excluded_by]
    verdicts += [c.listing.attributes for c in market.serverless.candidates if not c.excluded_by]
    providers = {attributes["provider"] for attributes in verdicts if attributes["enterprise_sla"] is None}
    return sorted(knowledge.provider(p).name for p in providers)


def economics_fact(
    knowledge: Knowledge,
    resolved: ResolvedWorkload,
    market: Market,
    evaluated_on: dt.date,
    unknown_sla: Sequence[str],
    fixed: FixedFleet | None,
    reach: ForeignReach,
) -> EconomicsFact:
    """``unknown_sla``: ``sla_unknown_providers``; ``fixed``: ``fixed_fleet``; ``reach``:
    ``foreign_reach`` (the details read all three)."""
    alternatives = market.alternatives
    best, reference, quantized = alternatives.best, alternatives.reference, alternatives.quantized
    hyperscaler, non_eu = alternatives.hyperscaler, alternatives.without_residency
    best_monthly = best.usd_per_month if best else 0.0
    given = resolved.utilization_source == "input"
    busy = market.busy.of(best.gpu) if best else None
    fleet, mixed = market.mixed_option, market.mixed_fleet
    return EconomicsFact(
        utilization=float(market.time_utilization),
        hourly_share_of_calendar=market.rented_hours / knowledge.calendar_hours_per_month(),
        has_eligible_option=best is not None,
        best_option_usd_per_month=float(best_monthly),
        best_option_price_age_days=(evaluated_on - best.as_of).days if best else 0,
        best_option_provider=best.provider if best else "",
        best_option_provider_kind=best.provider_kind if best else "",
        best_option_pricing=best.pricing if best else "",
        best_option_tdp_watts=float(knowledge.gpu(best.gpu).tdp_watts) if best else 0.0,
        best_option_cards_needed=best.gpus if best else 0,
        best_option_cards_rented=best.gpus_rented if best else 0,
        best_option_has_other_prices=bool(other_prices(knowledge, best)),
        best_option_has_spare=bool(best and runs_beyond_need(best, market)),
        best_option_capacity_not_reserved=capacity_not_reserved(market) is not None,
        best_option_commitment=commitment_term(best.pricing, best.commitment_months) if best else "none",
        sla_unknown_admitted=bool(unknown_sla),
        foreign_reach_admitted=bool(reach.providers),
        spot_option_admitted=any(
            p.listing.offer.pricing == "spot" for p in market.priced if not p.excluded_by
        ),
        best_option_stages_over_cluster_network=_stages_over_cluster_network(market, knowledge),
        **_own_hardware_fact_fields(market, evaluated_on),
        rental_to_beat_billing=option_billing(best) if best else "none",
        mixed_fleet_priced=fleet is not None,
        mixed_fleet_usd_per_month=float(fleet.usd_per_month) if fleet else 0.0,
        mixed_fleet_price_age_days=(evaluated_on - mixed.as_of).days if mixed else 0,
        mixed_fleet_saving=1 - fleet.usd_per_month / best_monthly if fleet and best else 0.0,
        mixed_fleet_base_capacity_not_reserved=bool(mixed and mixed.base.listing.offer.capacity_not_reserved),
        mixed_fleet_has_spare=bool(fleet and fleet.spare_replicas),
        **autoscaled_fact_fields(market, fixed),
        utilization_given=given,
        utilization_gap=abs(float(resolved.utilization or 0.0) - busy) if busy is not None and given else 0.0,
        hyperscaler_option_available=hyperscaler is not None,
        saving_vs_hyperscaler=1 - best_monthly / hyperscaler.usd_per_month if hyperscaler and best else 0.0,
        non_eu_cheaper=bool(
            resolved.personal_data and best and non_eu and non_eu.usd_per_month < best_monthly
        ),
        reference_option_available=reference is not None,
        # Per replica, as the documents compare (one H200 holds the 70B replica that takes two H100): the
        # fleets differ in replica counts too, since the faster card needs fewer replicas.
        best_fewer_cards_than_reference=bool(
            best and reference and cards_per_replica(best) < cards_per_replica(reference)
        ),
        best_replica_usd_per_hour=replica_usd_per_hour(best) if best else 0.0,
        reference_replica_usd_per_hour=replica_usd_per_hour(reference) if reference else 0.0,
        quantization_available=alternatives.quantized_precision is not None,
        quantized_has_option=quantized is not None,
        quantized_best_usd_per_month=float(quantized.usd_per_month) if quantized else 0.0,
        quantized_saving=1 - quantized.usd_per_month / best.usd_per_month if quantized and best else 0.0,
    )


def _own_hardware_fact_fields(market: Market, evaluated_on: dt.date) -> dict[str, Any]:
    """The own server against renting: where it stands, how busy its cards are, what it is compared with."""
    own, server, plan = market.own, market.server, market.plans.get(market.server.gpu)
    cards = own.nodes * server.gpus_per_server
    return {
        "server_gpu_watts": float(server.gpu_watts),
        "own_hardware_applicable": own.applicable,
        "own_usd_per_month": float(own.usd_per_month),
        "own_usd_per_month_at_busy_share": float(own.usd_per_month_at_busy_share),
        "own_at_busy_share_saving": 1
        - own.usd_per_month_at_busy_share / own.cheapest_same_hours_usd_per_month
        if own.cheapest_same_hours_usd_per_month
        else 0.0,
        "own_in_an_office": own.applicable and server.housing == "office",
        "own_price_age_days": (evaluated_on - server.as_of).days if own.applicable else 0,
        # A line the server does not need (origin none) is no default; one no figure costs is a gap.
        "own_defaults_left": not server.price_yours
        or any(line.origin in ("country", "documents", "not_costed") for line in own.costs.lines),
        "own_replica_spans_servers": own.applicable
        and plan is not None
        and plan.cards_per_replica > server.gpus_per_server,
        "own_spare_in_the_same_node": own.applicable
        and own.nodes == 1
        and bool(plan and plan.spare_replicas),
        "own_has_spare": own.applicable and bool(plan and plan.spare_replicas),
        "node_utilization": float(own.node_utilization),
        "node_has_idle_gpus": own.gpus_needed < cards,
        # The busy share of the cards the load needs, not of every card bought.
        "needed_cards_utilization": float(own.node_utilization)
        * own.nodes
        * server.gpus_per_server
        / own.gpus_needed
        if own.gpus_needed
        else 0.0,
        "rent_comparison_available": market.alternatives.rent_against is not None,
        "break_even_utilization": float(own.break_even_utilization or 0.0),
        "rent_against_billing": own.compared_billing or "none",
        "rent_against_commitment_months": own.compared_commitment_months or 0,
        "server_write_off_months": own.write_off_months,
        "cheapest_rental_usd_per_month_same_hours": float(own.cheapest_same_hours_usd_per_month or 0.0),
        **_gap_fields(own),
        **_loss_fields(own),
    }


def _gap_fields(own: OwnHardware) -> dict[str, Any]:
    """How far apart owning and the cheapest rental for the same work lie, over the cheaper of the two."""
    rental = own.cheapest_same_hours_usd_per_month
    if not (own.applicable and rental and own.usd_per_month):
        return {"own_rental_compared": False}
    gap = abs(own.usd_per_month - rental) / min(own.usd_per_month, rental)
    return {"own_rental_compared": True, "own_rental_gap_share": float(gap)}


def _loss_fields(own: OwnHardware) -> dict[str, Any]:
    """Whether the replicas the owned servers' idle cards hold keep the peak through a lost server."""
    loss = own.server_loss if own.applicable else None
    return {"own_loss_needs_idle_replicas": idle_cards_keep_the_peak(loss, own.nodes)}


def _stages_over_cluster_network(market: Market, knowledge: Knowledge) -> bool:
    """The best option's replicas run as pipeline stages over its offer's cluster network (NET006)."""
    best = market.alternatives.best_listing
    return best is not None and stages_over_cluster_network(
        best.listing.offer, best.plan.cards_per_replica, knowledge
    )


def weigh_economics(
    session: FactSession,
    facts: Fact,
    resolved: ResolvedWorkload,
    market: Market,
    knowledge: Knowledge,
    evaluated_on: dt.date,
    own_ruled_out_by: Sequence[str] = (),
) -> tuple[list[Firing], EconomicsDetails]:
    """Assert the economics fact; its firings and the details their messages show. ``own_ruled_out_by``:
    the rules fired so far that ruled own hardware out."""
    unknown_sla, fixed = sla_unknown_providers(knowledge, market), fixed_fleet(market)
    reach = foreign_reach(knowledge, market, resolved.company_country)
    fact = economics_fact(knowledge, resolved, market, evaluated_on, unknown_sla, fixed, reach)
    firings = session.assert_fact(fact, facts)
    details = economics_details(knowledge, market, resolved, unknown_sla, fixed)
    return firings, details.model_copy(
        update={
            "own_hardware_ruled_out_by": ", ".join(own_ruled_out_by),
            "foreign_reach_providers": listed(list(reach.providers)),
            "foreign_reach_provider_count": len(reach.providers),
            "foreign_reach_laws": listed(list(reach.laws)),
            "european_providers_admitted": listed(list(reach.european)),
            "best_option_foreign_reach": reach.best_option,
            **_loss_details(market.own),
        }
    )


def _loss_details(own: OwnHardware) -> dict[str, int]:
    """The owned servers' replicas left by the loss of the fullest one, as planned and with the idle
    cards' replicas running too, against the peak's (SIZ032's message)."""
    loss = own.server_loss
    if loss is None:
        return {}
    return {
        "own_loss_replicas_left": loss.replicas_left,
        "own_loss_left_with_idle": loss.replicas_left_with_idle,
        "own_loss_peak_replicas": loss.peak_replicas,
        "own_idle_card_replicas": loss.idle_card_replicas,
    }


def autoscaled_fact_fields(market: Market, fixed: FixedFleet | None) -> dict[str, Any]:
    """Whether the hours' replicas vary, and the share the scaled bill saves on the fixed fleet."""
    scaled = market.autoscaled
    served = scaled.served_replicas if scaled else ()
    return {
        "autoscaled_priced": scaled is not None,
        "autoscaled_varies": bool(served) and min(served) < max(served),
        "autoscaled_saving": 1 - scaled.usd_per_month / fixed.usd_per_month
        if scaled and fixed and fixed.usd_per_month
        else 0.0,
    }
