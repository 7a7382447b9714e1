"""Stage 3, the market: every offer priced for the workload with the rules' exclusions, the cheapest
admitted option of each kind the economics rules compare, the own server carrying the load, the managed
APIs, and the utilization the load gives the best option. Python arithmetic only: the rules read the
result in the economics stage."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpu_advisor.engine.calc.api_costs import api_costs
from gpu_advisor.engine.calc.listings import (
    PricedListing,
    cheapest_option,
    cheapest_priced,
    priced_listings,
    to_option,
)
from gpu_advisor.engine.calc.own_hardware import own_hardware_position, select_own_server
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.results import ApiCost, Option, OwnHardware
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.capacity import Capacity
from gpu_advisor.engine.pipeline.constraints import Constraints
from gpu_advisor.engine.pipeline.fit import GpuVerdicts
from gpu_advisor.engine.rulebook.schema import Rulebook


@dataclass(frozen=True)
class Alternatives:
    """The options the economics rules compare the best one with."""

    best: Option | None
    best_listing: PricedListing | None
    """The priced listing ``best`` was made of."""
    rent_against: Option | None
    """Cheapest admitted rental of the own server's GPU: the price buying must beat."""
    hyperscaler: Option | None
    without_residency: Option | None
    """Cheapest option that only residency rules exclude (for the EU premium)."""
    reference: Option | None
    quantized: Option | None
    quantized_precision: str | None
    quantized_weights_gb: float


@dataclass(frozen=True)
class Market:
    priced: tuple[PricedListing, ...]
    """Every priced listing, cheapest first: the result's options are built from these."""
    alternatives: Alternatives
    server: OwnServer
    own: OwnHardware
    apis: tuple[ApiCost, ...]
    compared_api: ApiCost | None
    """The like-for-like API: a hosted open-weights model of the workload's size class."""


@per_object
def residency_rule_ids(rulebook: Rulebook) -> frozenset[str]:
    return frozenset(rule.id for rule in rulebook.rules if rule.topic == "residency")


def choose_alternatives(
    knowledge: Knowledge,
    server: OwnServer,
    priced: Sequence[PricedListing],
    preferred_pricing: str | None,
    residency_rule_ids: frozenset[str],
    quantized_best: Option | None,
    quantized_precision: str | None,
    quantized_weights_gb: float,
) -> Alternatives:
    """The cheapest admitted option of each kind the economics rules compare; ``priced`` cheapest first."""
    server_gpu = server.gpu
    reference_gpu = knowledge.sizing.reference_gpu.gpu

    def admitted_on(gpu: str) -> Callable[[PricedListing], bool]:
        return lambda p: not p.excluded_by and p.listing.offer.gpu == gpu

    best_listing = cheapest_priced(priced, preferred_pricing)
    return Alternatives(
        best=to_option(best_listing) if best_listing is not None else None,
        best_listing=best_listing,
        rent_against=cheapest_option(priced, preferred_pricing, admitted_on(server_gpu)),
        hyperscaler=cheapest_option(
            priced,
            preferred_pricing,
            lambda p: not p.excluded_by and p.listing.attributes["provider_kind"] == "hyperscaler",
        ),
        without_residency=cheapest_option(
            priced,
            preferred_pricing,
            lambda p: bool(p.excluded_by) and set(p.excluded_by) <= residency_rule_ids,
        ),
        reference=cheapest_option(priced, preferred_pricing, admitted_on(reference_gpu)),
        quantized=quantized_best,
        quantized_precision=quantized_precision,
        quantized_weights_gb=quantized_weights_gb,
    )


def derived_utilization(
    resolved: ResolvedWorkload, best: Option | None, plans: dict[str, ReplicaPlan], knowledge: Knowledge
) -> ResolvedWorkload:
    """The workload with the utilization the rules read: the input's, else the load on the cheapest
    admitted option's replicas, else (no option) on the reference GPU's, else the load pattern's
    assumption."""
    if resolved.utilization is not None:
        return resolved
    reference = plans.get(knowledge.sizing.reference_gpu.gpu)
    if best is not None:
        utilization, source = best.utilization, "derived"
    elif reference is not None:
        utilization, source = reference.utilization, "derived"
    else:
        utilization, source = resolved.fallback_utilization(knowledge), "load_pattern_default"
    return resolved.model_copy(update={"utilization": utilization, "utilization_source": source})


def survey_market(
    resolved: ResolvedWorkload,
    capacity: Capacity,
    verdicts: GpuVerdicts,
    constraints: Constraints,
    knowledge: Knowledge,
    rulebook: Rulebook,
) -> tuple[Market, ResolvedWorkload]:
    """The market for the workload, and the workload with its utilization settled."""
    hours = resolved.hours_per_month
    preferred = constraints.preferred_pricing
    priced = priced_listings(knowledge, verdicts.unsuitable, constraints.exclusions, capacity.plans, hours)
    quantized_priced = priced_listings(
        knowledge, verdicts.quantized_unsuitable, constraints.exclusions, capacity.quantized_plans, hours
    )
    server = select_own_server(knowledge, capacity.plans, verdicts.unsuitable)
    quantized = capacity.quantized_figures
    alternatives = choose_alternatives(
        knowledge,
        server,
        priced,
        preferred,
        residency_rule_ids(rulebook),
        cheapest_option(quantized_priced, preferred),
        capacity.quantized_precision,
        quantized.weights_gb if quantized else 0.0,
    )
    resolved = derived_utilization(resolved, alternatives.best, capacity.plans, knowledge)
    own = own_hardware_position(
        server, capacity.plans, verdicts.unsuitable, resolved, alternatives.rent_against
    )
    apis = api_costs(knowledge, resolved)
    market = Market(
        priced=tuple(priced),
        alternatives=alternatives,
        server=server,
        own=own,
        apis=apis,
        compared_api=next((a for a in apis if a.compared), None),
    )
    return market, resolved
