"""The economics stage: the market condensed into the ``economics`` fact the deployment, pricing,
provider and buy-versus-rent rules read, and the details their messages show."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, NamedTuple

from gpu_advisor.engine.calc.commitments import fleet_name, option_billing
from gpu_advisor.engine.calc.fleet_billing import undercuts
from gpu_advisor.engine.calc.listing_frames import stages_over_cluster_network
from gpu_advisor.engine.common.wording import Words, listed
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import Decision, Option
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.pipeline.serverless import option_name
from gpu_advisor.engine.rulebook.details import EconomicsDetails, OtherPrice
from gpu_advisor.engine.rulebook.durable import FactSession, Firing
from gpu_advisor.engine.rulebook.facts import EconomicsFact, Fact
from gpu_advisor.engine.rulebook.schema import family_of


def cards_per_replica(option: Option) -> int:
    return option.gpus // option.replicas


def replica_usd_per_hour(option: Option) -> float:
    """One replica's cards at the option's price per GPU-hour: what fitting the model costs, before whole
    instances and replica counts."""
    return cards_per_replica(option) * option.usd_per_gpu_hour


def other_prices(knowledge: Knowledge, best: Option | None) -> tuple[OtherPrice, ...]:
    """The best option's provider's other catalog prices for the same GPU: those it lists, not the older
    figures its own newer list replaces (KNB010 names those)."""
    if best is None:
        return ()
    return tuple(
        OtherPrice(offer=o.offer, usd_per_gpu_hour=o.usd_per_gpu_hour, pricing=o.pricing, as_of=o.as_of)
        for o in knowledge.current_offers(best.provider, best.gpu)
        if o.offer != best.offer
    )


def sla_unknown_providers(knowledge: Knowledge, market: Market) -> list[str]:
    """The names of the admitted rentals' providers whose SLA is not established: the rules decide what
    that means for the workload (PRV011), as they decide the exclusions (PRV003)."""
    providers = {p.listing.offer.provider for p in market.priced if not p.excluded_by}
    providers.update(c.listing.product.provider for c in market.serverless.candidates if not c.excluded_by)
    return sorted(
        knowledge.provider(p).name for p in providers if knowledge.provider(p).enterprise_sla is None
    )


def economics_fact(
    knowledge: Knowledge,
    resolved: ResolvedWorkload,
    market: Market,
    evaluated_on: dt.date,
    unknown_sla: Sequence[str],
    fixed: FixedFleet | None,
) -> EconomicsFact:
    """``unknown_sla``: ``sla_unknown_providers``; ``fixed``: ``fixed_fleet`` (the details read both)."""
    alternatives, own, server = market.alternatives, market.own, market.server
    best, reference, quantized = alternatives.best, alternatives.reference, alternatives.quantized
    hyperscaler, non_eu = alternatives.hyperscaler, alternatives.without_residency
    best_monthly = best.usd_per_month if best else 0.0
    given = resolved.utilization_source == "input"
    busy = market.busy.of(best.gpu) if best else None
    fleet, mixed = market.mixed_option, market.mixed_fleet
    return EconomicsFact(
        utilization=float(market.time_utilization),
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
        best_option_has_spare=bool(best and best.spare_replicas),
        sla_unknown_admitted=bool(unknown_sla),
        spot_option_admitted=any(
            p.listing.offer.pricing == "spot" for p in market.priced if not p.excluded_by
        ),
        server_gpu_watts=float(server.gpu_watts),
        own_hardware_applicable=own.applicable,
        own_usd_per_month=float(own.usd_per_month),
        own_in_an_office=own.applicable and server.housing == "office",
        best_option_stages_over_cluster_network=_stages_over_cluster_network(market, knowledge),
        own_replica_spans_servers=own.applicable
        and server.gpu in market.plans
        and market.plans[server.gpu].cards_per_replica > server.gpus_per_server,
        own_spare_in_the_same_node=own.applicable
        and own.nodes == 1
        and bool(server.gpu in market.plans and market.plans[server.gpu].spare_replicas),
        node_utilization=float(own.node_utilization),
        node_has_idle_gpus=own.gpus_needed < own.nodes * server.gpus_per_server,
        needed_cards_utilization=float(own.node_utilization)
        * own.nodes
        * server.gpus_per_server
        / own.gpus_needed
        if own.gpus_needed
        else 0.0,
        rent_comparison_available=alternatives.rent_against is not None,
        break_even_utilization=float(own.break_even_utilization or 0.0),
        rent_against_billing=own.compared_billing or "none",
        rent_against_commitment_months=own.compared_commitment_months or 0,
        server_write_off_months=own.write_off_months,
        cheapest_rental_usd_per_month_same_hours=float(own.cheapest_same_hours_usd_per_month or 0.0),
        rental_to_beat_billing=option_billing(best) if best else "none",
        mixed_fleet_priced=fleet is not None,
        mixed_fleet_usd_per_month=float(fleet.usd_per_month) if fleet else 0.0,
        mixed_fleet_price_age_days=(evaluated_on - mixed.as_of).days if mixed else 0,
        mixed_fleet_saving=1 - fleet.usd_per_month / best_monthly if fleet and best else 0.0,
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


def _stages_over_cluster_network(market: Market, knowledge: Knowledge) -> bool:
    """The best option's replicas run as pipeline stages over its offer's cluster network (NET006)."""
    best = market.alternatives.best_listing
    return best is not None and stages_over_cluster_network(
        best.listing.offer, best.plan.cards_per_replica, knowledge
    )


def _cluster_network_details(market: Market) -> dict[str, str | float]:
    """The network NET006 names: the one the best option's provider documents between its instances."""
    best = market.alternatives.best_listing
    network = best.listing.offer.cluster_network if best is not None else None
    if network is None:
        return {}
    return {
        "best_option_cluster_network": network.kind,
        "best_option_cluster_gbps": network.gbps_per_instance,
        "best_option_cluster_condition": network.condition,
    }


def economics_details(
    knowledge: Knowledge,
    market: Market,
    resolved: ResolvedWorkload,
    unknown_sla: Sequence[str],
    fixed: FixedFleet | None,
) -> EconomicsDetails:
    alternatives, own, server = market.alternatives, market.own, market.server
    best, reference, quantized = alternatives.best, alternatives.reference, alternatives.quantized
    non_eu, with_sla = alternatives.without_residency, alternatives.with_enterprise_sla
    best_monthly = best.usd_per_month if best else 0.0
    rent_price = alternatives.rent_against.usd_per_gpu_hour if alternatives.rent_against else None
    costs = own.costs
    plan = market.plans.get(server.gpu)
    return EconomicsDetails(
        own_cards_per_replica=plan.cards_per_replica if plan is not None else 0,
        own_server_gpu=server.gpu,
        own_staff_uncosted_country=costs.country if costs is not None and costs.staff_uncosted else "",
        stated_utilization=float(resolved.utilization or 0.0)
        if resolved.utilization_source == "input"
        else 0.0,
        own_usd_per_gpu_hour=own.usd_per_gpu_hour.total,
        rent_usd_per_gpu_hour=rent_price or 0.0,
        replica_gpus_on_server_gpu=own.gpus_needed,
        server_gpus=server.gpus_per_server,
        server_name=own.server_name,
        load_utilization=(market.busy.of(best.gpu) or 0.0) if best else 0.0,
        break_even_low_price=own.break_even_low_price or 0.0,
        break_even_high_price=own.break_even_high_price or 0.0,
        break_even_residual=own.break_even_residual or 0.0,
        compared_with=own.compared_with or "",
        rent_usd_per_month=own.rent_usd_per_month or 0.0,
        rent_usd_per_month_same_hours=own.rent_usd_per_month_same_hours or 0.0,
        rent_gpus_rented=own.rent_gpus_rented or 0,
        own_nodes=own.nodes,
        own_gpus=own.nodes * own.gpus_per_server,
        server_price_usd=own.server_price_usd,
        cheapest_same_hours_name=own.cheapest_same_hours or "",
        cheapest_same_hours_billing=own.cheapest_same_hours_billing or "",
        cheapest_billed_hours_per_month=own.cheapest_billed_hours_per_month or 0.0,
        mixed_fleet_name=fleet_name(market.mixed_fleet) if market.mixed_fleet else "",
        mixed_fleet_two_providers=market.mixed_fleet is not None
        and market.mixed_fleet.base.listing.offer.provider != market.mixed_fleet.peak.listing.offer.provider,
        mixed_fleet_base_usd_per_month=market.mixed_fleet.base_usd_per_month if market.mixed_fleet else 0.0,
        mixed_fleet_quietest_replicas=market.mixed_fleet.base_replicas if market.mixed_fleet else 0,
        mixed_fleet_busiest_replicas=max(market.mixed_fleet.replicas_by_hour) if market.mixed_fleet else 0,
        mixed_fleet_base_replicas=market.mixed_fleet.base_replicas_hosted if market.mixed_fleet else 0,
        mixed_fleet_peak_usd_per_month=market.mixed_fleet.peak_usd_per_month if market.mixed_fleet else 0.0,
        mixed_fleet_peak_gpu_hours=market.mixed_fleet.peak_gpu_hours_per_month if market.mixed_fleet else 0.0,
        **autoscaled_details(market, fixed),
        best_option_offer=best.offer if best else "",
        **_cluster_network_details(market),
        best_option_gpu=best.gpu if best else "",
        best_option_gpus=best.gpus if best else 0,
        best_option_gpus_rented=best.gpus_rented if best else 0,
        best_option_usd_per_hour=best.usd_per_hour if best else 0.0,
        best_option_idle_usd_per_month=(best.gpus_rented - best.gpus)
        * best.usd_per_gpu_hour
        * best.billed_hours_per_month
        if best
        else 0.0,
        best_option_replica_room=best.replica_room if best else 0,
        best_option_replicas=best.replicas if best else 0,
        best_option_cards_per_replica=cards_per_replica(best) if best else 0,
        best_option_instance_sizes=best.instance_gpus if best else (),
        best_option_other_prices=other_prices(knowledge, best),
        sla_unknown_providers=listed(list(unknown_sla)),
        sla_unknown_provider_count=len(unknown_sla),
        best_option_sla_unknown=best is not None and knowledge.provider(best.provider).enterprise_sla is None,
        sla_established_best_name=option_name(with_sla) if with_sla else "",
        sla_established_best_usd_per_month=with_sla.usd_per_month if with_sla else 0.0,
        sla_established_best_as_of=with_sla.as_of.isoformat() if with_sla else "",
        **mixed_fleet_sla_unknown(knowledge, market),
        hyperscaler_best_usd_per_month=alternatives.hyperscaler.usd_per_month
        if alternatives.hyperscaler
        else 0.0,
        hyperscaler_best_name=option_name(alternatives.hyperscaler) if alternatives.hyperscaler else "",
        hyperscaler_best_gpu=alternatives.hyperscaler.gpu if alternatives.hyperscaler else "",
        hyperscaler_best_usd_per_gpu_hour=(
            alternatives.hyperscaler.usd_per_gpu_hour if alternatives.hyperscaler else 0.0
        ),
        best_option_usd_per_gpu_hour=best.usd_per_gpu_hour if best else 0.0,
        non_eu_best_usd_per_month=non_eu.usd_per_month if non_eu else 0.0,
        non_eu_best_name=option_name(non_eu) if non_eu else "",
        best_option_name=option_name(best) if best else "",
        eu_premium=best_monthly / non_eu.usd_per_month - 1 if best and non_eu else 0.0,
        reference_gpu=knowledge.sizing.reference_gpu.gpu,
        reference_gpus=reference.gpus if reference else 0,
        reference_usd_per_hour=reference.usd_per_hour if reference else 0.0,
        reference_provider=reference.provider if reference else "",
        reference_offer=reference.offer if reference else "",
        reference_pricing=reference.pricing if reference else "",
        reference_cards_per_replica=cards_per_replica(reference) if reference else 0,
        quantized_precision=alternatives.quantized_precision or "",
        quantized_best_gpu=quantized.gpu if quantized else "",
        quantized_best_gpus=quantized.gpus if quantized else 0,
        quantized_best_name=option_name(quantized) if quantized else "",
        quantized_same_offer=quantized is not None
        and best is not None
        and (quantized.provider, quantized.offer, quantized.gpu) == (best.provider, best.offer, best.gpu),
        quantized_weights_gb=alternatives.quantized_weights_gb,
        quantized_gpu_latency_rules=latency_rules_against(market, quantized.gpu) if quantized else "",
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
    fact = economics_fact(knowledge, resolved, market, evaluated_on, unknown_sla, fixed)
    firings = session.assert_fact(fact, facts)
    details = economics_details(knowledge, market, resolved, unknown_sla, fixed)
    return firings, details.model_copy(update={"own_hardware_ruled_out_by": ", ".join(own_ruled_out_by)})


class FixedFleet(NamedTuple):
    """The cheapest fixed rented fleet priced, which the scaled one is compared with."""

    name: str | Words
    usd_per_month: float
    mixed: bool
    """It is the mixed fleet (a reserved base, hourly instances for the busier hours)."""


def fixed_fleet(market: Market) -> FixedFleet | None:
    """The best option, or the mixed fleet where it costs less."""
    best, fleet = market.alternatives.best, market.mixed_fleet
    if best is None:
        return None
    if fleet is not None and fleet.usd_per_month < best.usd_per_month:
        return FixedFleet(fleet_name(fleet), fleet.usd_per_month, True)
    return FixedFleet(option_name(best), best.usd_per_month, False)


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


def autoscaled_details(market: Market, fixed: FixedFleet | None) -> dict[str, Any]:
    scaled = market.autoscaled
    served = scaled.served_replicas if scaled else ()
    return {
        "autoscaled_usd_per_month": scaled.usd_per_month if scaled else 0.0,
        "autoscaled_gpu_hours": scaled.gpu_hours_per_month if scaled else 0.0,
        "autoscaled_fewest_replicas": min(served, default=0),
        "autoscaled_most_replicas": max(served, default=0),
        "fixed_fleet_is_mixed": bool(fixed and fixed.mixed),
        "fixed_fleet_name": fixed.name if fixed else "",
        "fixed_fleet_usd_per_month": fixed.usd_per_month if fixed else 0.0,
        # Set once the decision is settled (``with_the_decision``).
        "recommended_deployment": "",
        "recommended_usd_per_month": 0.0,
    }


def mixed_fleet_sla_unknown(knowledge: Knowledge, market: Market) -> dict[str, Any]:
    """Which parts of the mixed fleet a provider whose SLA is not established runs (PRV011 names them)."""
    fleet = market.mixed_fleet
    parts: dict[str, str] = {}
    if fleet is not None:
        for part, listing in (("base", fleet.base), ("peak", fleet.peak)):
            provider = knowledge.provider(listing.listing.offer.provider)
            if provider.enterprise_sla is None:
                parts[part] = provider.name
    return {
        "mixed_fleet_sla_unknown_parts": "both" if len(parts) == 2 else next(iter(parts), ""),
        "mixed_fleet_sla_unknown_names": tuple(dict.fromkeys(parts.values())),
    }


def with_the_decision(details: EconomicsDetails, decision: Decision, noise_share: float) -> EconomicsDetails:
    """The economics details once the decision is settled: DEP032's message sets the fleet scaled by the
    hour against what was recommended (an API, serverless endpoints, owned servers), which the economics
    stage, run before the later stages, cannot know; ``noise_share``: ``saving_worth_mentioning``."""
    return details.model_copy(
        update={
            "recommended_deployment": decision.deployment,
            "recommended_usd_per_month": decision.usd_per_month or 0.0,
            "autoscaled_undercuts_recommendation": undercuts(
                details.autoscaled_usd_per_month, decision.usd_per_month, noise_share
            ),
        }
    )


def latency_rules_against(market: Market, gpu: str) -> str:
    """The latency rules that rule ``gpu`` out for the model as given, as its rentals' exclusions say."""
    found = {
        rule
        for priced in market.priced
        if priced.listing.offer.gpu == gpu
        for rule in priced.excluded_by
        if family_of(rule) == "LAT"
    }
    return ", ".join(sorted(found))
