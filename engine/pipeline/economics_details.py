"""The details the economics rules' messages show beside their fact (``EconomicsDetails``): names, prices
and counts, placeholders where a figure has no subject, and the fleet the autoscaled one is set against."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from gpu_advisor.engine.calc.commitments import fleet_name
from gpu_advisor.engine.calc.fleet_billing import undercuts
from gpu_advisor.engine.calc.instances import place
from gpu_advisor.engine.calc.replicas import ReplicaPlan, latency_at_peak
from gpu_advisor.engine.common.wording import Words, listed
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import CapacityNotReserved, Offer
from gpu_advisor.engine.domain.results import Decision, Option
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.alternatives import Alternatives
from gpu_advisor.engine.pipeline.hours_with_requests import rent_at_hours_with_requests
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.pipeline.routes import option_name
from gpu_advisor.engine.rulebook.details import EconomicsDetails, OtherPrice
from gpu_advisor.engine.rulebook.schema import family_of


def cards_per_replica(option: Option) -> int:
    return option.gpus // option.replicas


def other_prices(knowledge: Knowledge, best: Option | None) -> tuple[OtherPrice, ...]:
    """The best option's provider's other catalog prices for the GPU, not those its newer list replaces."""
    if best is None:
        return ()
    return tuple(
        OtherPrice(offer=o.offer, usd_per_gpu_hour=o.usd_per_gpu_hour, pricing=o.pricing, as_of=o.as_of)
        for o in knowledge.current_offers(best.provider, best.gpu)
        if o.offer != best.offer
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


def capacity_not_reserved(market: Market) -> CapacityNotReserved | None:
    """What the best option's offer says of a commitment that reserves no instances (None: it does not)."""
    best = market.alternatives.best_listing
    return best.listing.offer.capacity_not_reserved if best is not None else None


def _capacity_details(market: Market) -> dict[str, str | int]:
    """How the provider reserves what a commitment leaves unreserved, and its sources (PRC026, PRC028)."""
    best, mixed = market.alternatives.best_listing, market.mixed_fleet
    return {
        **(_reserve_beside(best.listing.offer, "best_option") if best is not None else {}),
        **(_reserve_beside(mixed.base.listing.offer, "mixed_fleet_base") if mixed is not None else {}),
    }


def _reserve_beside(offer: Offer, prefix: str) -> dict[str, str | int]:
    terms = offer.capacity_not_reserved
    if terms is None:
        return {}
    return {
        f"{prefix}_commitment_months": offer.commitment_months or 0,
        f"{prefix}_reserve_with": terms.reserve_with,
        f"{prefix}_capacity_sources": terms.sources(),
    }


def economics_details(
    knowledge: Knowledge,
    market: Market,
    resolved: ResolvedWorkload,
    unknown_sla: Sequence[str],
    fixed: FixedFleet | None,
) -> EconomicsDetails:
    alternatives, own, server = market.alternatives, market.own, market.server
    best = alternatives.best
    non_eu, with_sla = alternatives.without_residency, alternatives.with_enterprise_sla
    best_monthly = best.usd_per_month if best else 0.0
    rent_price = alternatives.rent_against.usd_per_gpu_hour if alternatives.rent_against else None
    costs = own.costs
    plan = market.plans.get(server.gpu)
    return EconomicsDetails(
        own_cards_per_replica=plan.cards_per_replica if plan is not None else 0,
        own_replicas=plan.replicas if plan is not None else 0,
        own_server_gpu=server.gpu,
        own_staff_uncosted_country=costs.country if costs is not None and costs.staff_uncosted else "",
        own_financing_usd_per_month=own.financing_usd_per_month or 0.0,
        own_borrowing_rate_per_year=(costs.borrowing_rate_per_year or 0.0) if costs is not None else 0.0,
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
        reserving_name=option_name(alternatives.reserving) if alternatives.reserving else "",
        reserving_usd_per_month=alternatives.reserving.usd_per_month if alternatives.reserving else 0.0,
        cheapest_same_hours_billing=own.cheapest_same_hours_billing or "",
        cheapest_billed_hours_per_month=own.cheapest_billed_hours_per_month or 0.0,
        **rent_at_hours_with_requests(knowledge, resolved, own),
        **_mixed_fleet_details(market),
        **autoscaled_details(market, fixed),
        **_cluster_network_details(market),
        **_capacity_details(market),
        **_best_option_details(knowledge, alternatives),
        best_option_spread_cards=_spread_cards(market),
        best_option_window_replicas=window_replicas(best, market) if best else 0,
        best_option_replicas_on_fullest_instance=best.replicas_on_fullest_instance if best else 0,
        best_option_instance_count=sum(i.count for i in best.instances) if best else 0,
        sla_unknown_providers=listed(list(unknown_sla)),
        sla_unknown_provider_count=len(unknown_sla),
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
        non_eu_best_usd_per_month=non_eu.usd_per_month if non_eu else 0.0,
        non_eu_best_name=option_name(non_eu) if non_eu else "",
        eu_premium=best_monthly / non_eu.usd_per_month - 1 if best and non_eu else 0.0,
        reference_gpu=knowledge.sizing.reference_gpu.gpu,
        **_reference_details(market),
        **_quantized_details(market, knowledge),
    )


# The placeholders of a figure that has no subject; the facts' guards keep rules from reading them.
_NO_MIXED_FLEET: dict[str, Any] = {
    "mixed_fleet_name": "",
    "mixed_fleet_base_usd_per_month": 0.0,
    "mixed_fleet_quietest_replicas": 0,
    "mixed_fleet_busiest_replicas": 0,
    "mixed_fleet_loss_replicas": 0,
    "mixed_fleet_base_replicas": 0,
    "mixed_fleet_peak_usd_per_month": 0.0,
    "mixed_fleet_peak_gpu_hours": 0.0,
}


_NO_REFERENCE: dict[str, Any] = {
    "reference_gpus": 0,
    "reference_usd_per_hour": 0.0,
    "reference_provider": "",
    "reference_offer": "",
    "reference_pricing": "",
    "reference_cards_per_replica": 0,
}


_NO_QUANTIZED: dict[str, Any] = {
    "quantized_best_gpu": "",
    "quantized_best_cards_rented": 0,
    "quantized_best_name": "",
    "quantized_gpu_latency_rules": "",
    "quantized_latency_ms": None,
    "best_option_latency_ms": None,
}


_NO_BEST_OPTION: dict[str, Any] = {
    "best_option_offer": "",
    "best_option_gpu": "",
    "best_option_gpus": 0,
    "best_option_gpus_rented": 0,
    "best_option_usd_per_hour": 0.0,
    "best_option_usd_per_gpu_hour": 0.0,
    "best_option_billed_hours_per_month": 0.0,
    "best_option_idle_usd_per_month": 0.0,
    "best_option_replica_room": 0,
    "best_option_replicas": 0,
    "best_option_cards_per_replica": 0,
    "best_option_instance_sizes": (),
    "best_option_other_prices": (),
    "best_option_sla_unknown": False,
    "best_option_name": "",
}


def _best_option_details(knowledge: Knowledge, alternatives: Alternatives) -> dict[str, Any]:
    """The cheapest eligible rental as the messages name and count it, and the cheapest bound by no term."""
    best, unbound = alternatives.best, alternatives.unbound
    if best is None:
        return _NO_BEST_OPTION
    return {
        "best_option_offer": best.offer,
        "best_option_gpu": best.gpu,
        "best_option_gpus": best.gpus,
        "best_option_gpus_rented": best.gpus_rented,
        "best_option_usd_per_hour": best.usd_per_hour,
        "best_option_usd_per_gpu_hour": best.usd_per_gpu_hour,
        "best_option_billed_hours_per_month": best.billed_hours_per_month,
        # The cards rented beyond those the replicas use (whole instances).
        "best_option_idle_usd_per_month": (best.gpus_rented - best.gpus)
        * best.usd_per_gpu_hour
        * best.billed_hours_per_month,
        "best_option_replica_room": best.replica_room,
        "best_option_replicas": best.replicas,
        "best_option_cards_per_replica": cards_per_replica(best),
        "best_option_instance_sizes": best.instance_gpus,
        "best_option_other_prices": other_prices(knowledge, best),
        "best_option_sla_unknown": knowledge.provider(best.provider).sla_for(best.pricing) is None,
        "best_option_name": option_name(best),
        "best_option_term_months": best.commitment_months or 0,
        "unbound_option_name": option_name(unbound) if unbound else "",
        "unbound_option_usd_per_month": unbound.usd_per_month if unbound else 0.0,
    }


def window_replicas(option: Option, market: Market) -> int:
    """The replicas a batch ``option``'s window needs, with the spot rework; a service's peak need."""
    sized = market.replicas.plans.get(option.gpu)
    return (sized.replicas_for_peak if sized else option.replicas) + option.rework_replicas


def _spread_cards(market: Market) -> int:
    """The cards the best rental pays for only as its replicas go on two instances or more (SIZ015)."""
    priced = market.alternatives.best_listing
    if priced is None or not priced.plan.spread:
        return 0
    plan, listing = priced.plan, priced.listing
    together = place(plan.cards_per_replica, plan.replicas, listing.offer.instance_gpus, listing.linked)
    return max(0, priced.rental.placement.gpus_rented - together.gpus_rented)


def _mixed_fleet_details(market: Market) -> dict[str, Any]:
    """The mixed fleet's figures (TCO rules on the base and peak parts), zeros where there is none."""
    fleet = market.mixed_fleet
    if fleet is None:
        return _NO_MIXED_FLEET
    return {
        "mixed_fleet_name": fleet_name(fleet),
        "mixed_fleet_two_providers": fleet.base.listing.offer.provider != fleet.peak.listing.offer.provider,
        "mixed_fleet_base_usd_per_month": fleet.base_usd_per_month,
        "mixed_fleet_base_offer": f"{fleet.base.listing.offer.provider} {fleet.base.listing.offer.offer}",
        "mixed_fleet_base_gpu": fleet.base.listing.offer.gpu,
        "mixed_fleet_base_cards_rented": fleet.base_gpus_rented,
        "mixed_fleet_quietest_replicas": fleet.base_replicas,
        "mixed_fleet_busiest_replicas": max(fleet.replicas_by_hour),
        "mixed_fleet_loss_replicas": fleet.loss_replicas,
        "mixed_fleet_base_replicas": fleet.base_replicas_hosted,
        "mixed_fleet_peak_usd_per_month": fleet.peak_usd_per_month,
        "mixed_fleet_peak_gpu_hours": fleet.peak_gpu_hours_per_month,
    }


def _reference_details(market: Market) -> dict[str, Any]:
    """The cheapest offer of the reference GPU (the documents' H100 comparisons)."""
    reference = market.alternatives.reference
    if reference is None:
        return _NO_REFERENCE
    return {
        "reference_gpus": reference.gpus,
        "reference_usd_per_hour": reference.usd_per_hour,
        "reference_provider": reference.provider,
        "reference_offer": reference.offer,
        "reference_pricing": reference.pricing,
        "reference_cards_per_replica": cards_per_replica(reference),
    }


def _quantized_details(market: Market, knowledge: Knowledge) -> dict[str, Any]:
    """The quantized variant's cheapest option (OPT rules), and whether its provider's SLA is unknown."""
    alternatives = market.alternatives
    quantized, best = alternatives.quantized, alternatives.best
    details: dict[str, Any] = {
        "quantized_precision": alternatives.quantized_precision or "",
        "quantized_weights_gb": alternatives.quantized_weights_gb,
    }
    if quantized is None:
        return details | _NO_QUANTIZED
    return details | {
        "quantized_best_gpu": quantized.gpu,
        "quantized_best_cards_rented": quantized.gpus_rented,
        "quantized_best_name": option_name(quantized),
        "quantized_same_offer": best is not None
        and (quantized.provider, quantized.offer, quantized.gpu) == (best.provider, best.offer, best.gpu),
        "quantized_gpu_latency_rules": latency_rules_against(market, quantized.gpu),
        "quantized_best_sla_unknown": knowledge.provider(quantized.provider).sla_for(quantized.pricing)
        is None,
        "quantized_latency_ms": peak_latency(market.replicas.quantized_plans.get(quantized.gpu)),
        "best_option_latency_ms": peak_latency(market.plans.get(best.gpu) if best is not None else None),
    }


def peak_latency(plan: ReplicaPlan | None) -> tuple[float, float] | None:
    """A service plan's mean time to first token and time per output token at the peak (OPT001 sets the
    estimate beside the documents' latency saving); None for a batch or without a plan."""
    if plan is None or plan.peak_requests_per_second_per_replica is None:
        return None
    point = latency_at_peak(plan)
    return point.time_to_first_token_ms, point.time_per_output_token_ms


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
            if provider.sla_for(listing.listing.offer.pricing) is None:
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
