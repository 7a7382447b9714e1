"""The cheapest admitted option of each kind the economics rules compare the best one with (the own
server's GPU, a hyperscaler, an enterprise SLA, no residency rule, the reference GPU, the model quantized),
and what the latency targets add to the best one's bill."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from gpu_advisor.engine.calc.costs import Rental
from gpu_advisor.engine.calc.listings import (
    PricedListing,
    cheapest_option,
    cheapest_priced,
    price_plan,
    to_option,
)
from gpu_advisor.engine.calc.plan_variants import same_shape, throughput_alone, without_spares
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.results import Option
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
    with_enterprise_sla: Option | None
    """Cheapest admitted option of a provider that publishes an enterprise SLA (PRV011 names it)."""
    without_residency: Option | None
    """Cheapest option that only residency rules exclude (for the EU premium)."""
    reference: Option | None
    unbound: Option | None
    """Cheapest admitted option sold without a term (by the hour or second, or spot): what a workload
    waiting for an API it may use runs on (``routes.stopgap_route``)."""
    quantized: Option | None
    quantized_precision: str | None
    quantized_weights_gb: float
    reserving: Option | None = None
    """Cheapest admitted option whose price holds its capacity for a term (a reservation or a capacity
    block, not a savings plan, which binds the bill only): what a business-critical batch's runs can be
    promised on (PRC032 names it)."""


UNBOUND = ("on_demand", "spot")
"""Pricings that bind no term (a reservation and a capacity block are bought for one)."""


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
    best_pricing = best_listing.listing.offer.pricing if best_listing is not None else None
    on_reference_gpu = admitted_on(reference_gpu)

    def reference_for_best(p: PricedListing) -> bool:
        # SIZ006 sets a replica's cards on the best offer against those on the reference GPU at the price
        # per GPU-hour: only within one pricing kind (an on-demand hour against a reserved one is no
        # comparison).
        return on_reference_gpu(p) and p.listing.offer.pricing == best_pricing

    return Alternatives(
        best=to_option(best_listing) if best_listing is not None else None,
        best_listing=best_listing,
        rent_against=cheapest_option(priced, preferred_pricing, admitted_on(server_gpu)),
        hyperscaler=cheapest_option(
            priced,
            preferred_pricing,
            lambda p: not p.excluded_by and p.listing.attributes["provider_kind"] == "hyperscaler",
        ),
        with_enterprise_sla=cheapest_option(
            priced,
            preferred_pricing,
            lambda p: not p.excluded_by and p.listing.attributes["enterprise_sla"] is True,
        ),
        without_residency=cheapest_option(
            priced,
            preferred_pricing,
            lambda p: bool(p.excluded_by) and set(p.excluded_by) <= residency_rule_ids,
        ),
        reference=cheapest_option(priced, preferred_pricing, reference_for_best),
        unbound=cheapest_option(
            priced,
            preferred_pricing,
            lambda p: (
                not p.excluded_by
                and p.listing.offer.pricing in UNBOUND
                and p.listing.offer.commitment == "none"
            ),
        ),
        quantized=quantized_best,
        quantized_precision=quantized_precision,
        quantized_weights_gb=quantized_weights_gb,
        reserving=cheapest_option(
            priced,
            preferred_pricing,
            lambda p: (
                not p.excluded_by
                and p.listing.offer.pricing in ("reserved", "capacity_block")
                and p.listing.offer.capacity_not_reserved is None
            ),
        ),
    )


def with_latency_targets_cost(
    alternatives: Alternatives,
    lean: Callable[[str], ReplicaPlan | None],
    hours: float,
    days: float,
    knowledge: Knowledge,
) -> Alternatives:
    """The best option with what its latency targets cost at least: its bill less that of the plan
    throughput alone chooses on its GPU (``lean``: ``capacity.plan_for_throughput_alone``), both as its
    offer bills them (another offer, or a GPU the targets rule out, may bill the smaller plan for less);
    unchanged where the targets change neither the cards per replica nor the replicas, or the bill."""
    best, listing = alternatives.best, alternatives.best_listing
    if best is None or listing is None:
        return alternatives
    plan = lean(listing.plan.gpu)
    if plan is None or same_shape(plan, listing.plan):
        return alternatives
    rental = bill_on(listing, plan, hours, days, knowledge)
    cost = listing.rental.usd_per_month - rental.usd_per_month
    if cost <= 0:
        return alternatives
    alone = throughput_alone(plan, rental.usd_per_month)
    update = {"throughput_alone": alone, "latency_targets_usd_per_month": cost}
    return replace(alternatives, best=best.model_copy(update=update))


def with_spare_cost(
    alternatives: Alternatives,
    priced: Sequence[PricedListing],
    plans: Mapping[str, ReplicaPlan],
    hours: float,
    days: float,
    knowledge: Knowledge,
) -> Alternatives:
    """The best option with what the spare replicas a rule adds cost (called only where one does: SIZ010,
    SIZ011 for a service, SIZ035 for a batch; ``plans``: each GPU's plan as sized): its bill less the
    cheapest bill of its plan without them at the same provider, GPU and pricing, as each offer bills it
    (whole instances may bill a spare's cards anyway, where a smaller instance of the provider would not:
    Scaleway's 4-card H100 instance against its 2-card one); unchanged where it has none, or they add
    nothing to the bill."""
    best, listing = alternatives.best, alternatives.best_listing
    if best is None or listing is None or listing.plan.spare_replicas == 0:
        return alternatives
    offer = listing.listing.offer

    def same_terms(other: PricedListing) -> bool:
        theirs = other.listing.offer
        return (
            not other.excluded_by
            and theirs.provider == offer.provider
            and theirs.gpu == offer.gpu
            and theirs.pricing == offer.pricing
            and theirs.commitment == offer.commitment
            and other.plan.cards_per_replica == listing.plan.cards_per_replica
        )

    def lean(other: PricedListing) -> ReplicaPlan:
        # A batch's priced plan already runs on every replica its whole instances hold: the plan its GPU
        # was sized with (``plans``), spares taken off, is placed and billed afresh.
        plan = other.plan
        if plan.hours_per_day_running is not None:
            plan = plans.get(other.listing.offer.gpu, plan)
        return without_spares(plan)

    bills = [
        bill_on(other, lean(other), hours, days, knowledge).usd_per_month
        for other in priced
        if other is listing or same_terms(other)
    ]
    cost = listing.rental.usd_per_month - min(bills)
    if cost <= 0:
        return alternatives
    return replace(alternatives, best=best.model_copy(update={"spare_usd_per_month": cost}))


def bill_on(
    listing: PricedListing, plan: ReplicaPlan, hours: float, days: float, knowledge: Knowledge
) -> Rental:
    """Another plan on the same listing, billed as its offer bills (``price_plan``): what the best
    option's bill is set against."""
    _, rental = price_plan(
        listing.listing,
        plan,
        hours,
        days,
        knowledge.calendar_hours_per_month(),
        knowledge.pricing_assumptions.spot_interruption.overhead,
    )
    return rental
