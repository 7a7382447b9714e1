"""Options: every catalog offer whose GPU holds the model, priced for the workload, with the IDs of the
rules that exclude it; and the choice of the cheapest option no rule excluded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from gpu_advisor.engine.calc.batch_run import replica_share
from gpu_advisor.engine.calc.costs import BatchRun, Rental, billed_hours, rent
from gpu_advisor.engine.calc.instances import fullest_instance, place, spread_at_no_cost
from gpu_advisor.engine.calc.listing_frames import listing_frames, regional_price
from gpu_advisor.engine.calc.plan_variants import batch_on_instances, with_rework_replicas
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Offer
from gpu_advisor.engine.domain.results import InstanceCount, Option, PriceOrigin


@dataclass(frozen=True)
class Listing:
    """One offer in one jurisdiction of its regions: everything about it no workload changes."""

    offer: Offer
    jurisdiction: str
    regions: tuple[str, ...]
    countries: tuple[str, ...]
    """Where the regions' data centres are (ISO codes); empty where the catalog does not say."""
    usd_per_gpu_hour: float
    price_basis: str
    attributes: Mapping[str, Any]
    """Read-only: one listing serves every workload."""
    source: str
    linked: tuple[int, ...]
    """The offer's instance sizes whose cards share a fast link (``instances.linked_sizes``)."""
    price_origin: PriceOrigin
    """Where the offer's price came from (catalog, overrides file or import)."""


@per_object
def listings(knowledge: Knowledge) -> tuple[Listing, ...]:
    """Every offer in every jurisdiction of its regions, in catalog order, worked out once per
    knowledge base; all but the prices once per offer (``listing_frames``), so that a scenario's
    re-priced copy of the knowledge base only prices them."""
    found = []
    for offer in knowledge.offers.offers:
        for frame in listing_frames(offer, knowledge):
            jurisdiction = frame.jurisdiction
            found.append(
                Listing(
                    offer=offer,
                    jurisdiction=jurisdiction,
                    regions=frame.regions,
                    countries=frame.countries,
                    usd_per_gpu_hour=regional_price(offer, jurisdiction, knowledge)[0],
                    price_basis=frame.price_basis,
                    attributes=frame.attributes,
                    source=frame.source,
                    linked=frame.linked,
                    price_origin=frame.price_origin,
                )
            )
    return tuple(found)


def offer_hours(
    knowledge: Knowledge, offer: Offer, plan: ReplicaPlan, hours_per_month: float, days_per_month: float
) -> float:
    """The hours a month ``offer`` bills for ``plan`` (a batch's plan runs some hours a day on
    ``days_per_month`` days)."""
    calendar = knowledge.calendar_hours_per_month()
    overhead = knowledge.pricing_assumptions.spot_interruption.overhead
    return plan_hours(offer, plan, hours_per_month, days_per_month, calendar, overhead)


def plan_hours(
    offer: Offer,
    plan: ReplicaPlan,
    hours_per_month: float,
    days_per_month: float,
    calendar_hours: float,
    spot_overhead: float,
) -> float:
    run = (
        BatchRun(plan.hours_per_day_running + plan.start_hours, days_per_month)
        if plan.hours_per_day_running is not None
        else None
    )
    overhead = replica_spot_overhead(offer, plan.cards_per_replica, spot_overhead)
    return billed_hours(offer, hours_per_month, calendar_hours, run, overhead)


def replica_spot_overhead(offer: Offer, cards_per_replica: int, per_instance: float) -> float:
    """The share of a spot run's hours redone after interruptions, for a replica on ``offer``: the
    overhead of one instance (``pricing_assumptions.spot_interruption``) for each instance the replica
    spans. A replica on two linked instances (``stages_over_cluster_network``) loses its work when either
    is taken back, twice as often as one on a single instance."""
    if offer.pricing != "spot":
        return 0.0
    largest = offer.instance_gpus[-1]
    return per_instance * max(1, math.ceil(cards_per_replica / largest))


def price_plan(
    listing: Listing,
    plan: ReplicaPlan,
    hours_per_month: float,
    days_per_month: float,
    calendar_hours: float,
    spot_overhead: float,
) -> tuple[ReplicaPlan, Rental]:
    """``plan`` on ``listing`` as the offer bills it: a batch runs on every replica the whole instances
    hold (``batch_on_instances``), each day's run billed in the offer's increments; a service for the
    workload's paid hours. The plan as run, and the rental. Every option is priced here, and the
    volume chart prices its points here too."""
    offer = listing.offer
    placed = None
    if plan.hours_per_day_running is not None:
        plan = with_rework_replicas(plan, replica_spot_overhead(offer, plan.cards_per_replica, spot_overhead))
        # Spread (SIZ038): placed as a service's are, the loss of any one instance leaving the replicas
        # the window needs; the run uses every replica the instances hold, which leaves at least as many.
        hosted = place(
            plan.cards_per_replica,
            plan.replicas,
            offer.instance_gpus,
            listing.linked,
            plan.spread_runs,
            plan.spare_replicas,
        )
        plan = batch_on_instances(plan, hosted.replicas_hosted)
        placed = hosted if plan.spread_runs else None
    elif plan.spread:
        spread = place(
            plan.cards_per_replica,
            plan.replicas,
            offer.instance_gpus,
            listing.linked,
            True,
            plan.spare_replicas,
        )
        plan = with_loss_spares(plan, spread.replicas_run)
    hours = plan_hours(offer, plan, hours_per_month, days_per_month, calendar_hours, spot_overhead)
    rental = rent(
        offer,
        plan.cards_per_replica,
        plan.replicas,
        hours,
        listing.linked,
        listing.usd_per_gpu_hour,
        plan.spread,
        # A service's spares keep the peak served through the loss of an instance; a batch run is late by
        # what a lost instance held, and finishes on the others.
        plan.spare_replicas if plan.hours_per_day_running is None else 0,
        placed,
    )
    return plan, rental


def with_loss_spares(plan: ReplicaPlan, replicas: int) -> ReplicaPlan:
    """A service ``plan`` run with ``replicas`` where its instances carry several replicas each: the loss
    of the fullest leaves the peak's replicas serving only with the added spares (SIZ015,
    ``instances.place``). With every replica up they share the load, each carrying less of it."""
    if replicas <= plan.replicas:
        return plan
    share = plan.replicas / replicas
    # The peak each replica carries after a loss stays the one the replicas for the peak share.
    return plan._replace(
        replicas=replicas,
        spare_replicas=replicas - plan.replicas_for_peak,
        gpus=replicas * plan.cards_per_replica,
        utilization=plan.utilization * share,
        capacity_utilization_at_peak=plan.capacity_utilization_at_peak * share,
        service=plan.service._replace(replicas=replicas),
    )


class PricedListing(NamedTuple):
    """A listing priced for the workload. Options are built from these only for the result: the
    decision needs just the few cheapest."""

    listing: Listing
    plan: ReplicaPlan
    """The replica plan on the listing's GPU."""
    rental: Rental
    excluded_by: tuple[str, ...]
    """IDs of the rules that exclude it: the GPU's, then the option rules'."""
    utilization: float
    """The load's throughput share of what the rental delivers in its billed hours."""
    spot_overhead: float = 0.0
    """The share of a spot run's hours added for work redone after interruptions
    (``replica_spot_overhead``)."""


def priced_order(priced: PricedListing) -> tuple[Any, ...]:
    """Cheapest first; provider, offer, GPU and jurisdiction break ties, so the order never depends on
    the catalog's."""
    offer = priced.listing.offer
    return (priced.rental.usd_per_month, offer.provider, offer.offer, offer.gpu, priced.listing.jurisdiction)


def priced_listings(
    knowledge: Knowledge,
    unsuitable: dict[str, list[str]],
    unsuitable_offers: dict[str, list[str]],
    exclusions: tuple[tuple[str, ...], ...],
    plans: dict[str, ReplicaPlan],
    hours_per_month: float,
    days_per_month: float,
    admitted_only: bool = False,
) -> list[PricedListing]:
    """Every listing whose GPU can hold the model, cheapest first (``priced_order``); with
    ``admitted_only``, only those no rule excludes. ``unsuitable`` names the rules against a GPU,
    ``unsuitable_offers`` those against an offer as it is sold (by ``Offer.key``). A batch's plan says
    how many hours a day it runs on ``days_per_month`` days."""
    priced = []
    calendar = knowledge.calendar_hours_per_month()
    overhead = knowledge.pricing_assumptions.spot_interruption.overhead
    for listing, excluded in zip(listings(knowledge), exclusions, strict=True):
        offer = listing.offer
        plan = plans.get(offer.gpu)
        if plan is None:
            continue
        blocked = unsuitable.get(offer.gpu)
        unfit = unsuitable_offers.get(offer.key) if unsuitable_offers else None
        if unfit:
            blocked = [*(blocked or ()), *unfit]
        if admitted_only and (blocked or excluded):
            continue
        plan, rental = price_plan(listing, plan, hours_per_month, days_per_month, calendar, overhead)
        excluded_by = (*blocked, *excluded) if blocked else excluded
        utilization = rental_utilization(plan, rental, days_per_month)
        spot = replica_spot_overhead(offer, plan.cards_per_replica, overhead)
        priced.append(PricedListing(listing, plan, rental, excluded_by, utilization, spot))
    priced.sort(key=priced_order)
    return priced


def to_option(priced: PricedListing, busy_share: float | None = None) -> Option:
    listing, plan, rental, excluded, utilization, _spot = priced
    offer, attributes = listing.offer, listing.attributes
    # A reservation bills every hour of its term: no run's start is billed apart.
    billed_per_run = plan.hours_per_day_running is not None and offer.billing != "committed"
    # Built from validated knowledge: no re-validation (see engine/trusted.py).
    return trusted(
        Option,
        provider=offer.provider,
        offer=offer.offer,
        gpu=offer.gpu,
        jurisdiction=listing.jurisdiction,
        regions=listing.regions,
        countries=listing.countries,
        gpus=plan.gpus,
        gpus_rented=rental.gpus_rented,
        replicas=plan.replicas,
        utilization=utilization,
        usd_per_gpu_hour=listing.usd_per_gpu_hour,
        currency=offer.currency,
        list_price_per_gpu_hour=offer.list_price_per_gpu_hour,
        price_basis=listing.price_basis,
        usd_per_hour=rental.usd_per_hour,
        billed_hours_per_month=rental.billed_hours_per_month,
        usd_per_month=rental.usd_per_month,
        eu=attributes["eu"],
        pricing=offer.pricing,
        commitment_months=offer.commitment_months,
        interconnect=attributes["interconnect"],
        provider_kind=attributes["provider_kind"],
        enterprise_sla=attributes["enterprise_sla"],
        chosen=False,
        excluded_by=excluded,
        as_of=offer.as_of,
        source=listing.source,
        note=offer.note,
        gpu_note=None,
        capacity_utilization_at_peak=plan.capacity_utilization_at_peak,
        spare_replicas=plan.spare_replicas,
        hours_per_day_running=plan.hours_per_day_running,
        run_start_hours=plan.start_hours if plan.hours_per_day_running is not None else None,
        run_requests_per_replica=replica_share(plan.run_requests, plan.replicas)
        if plan.run_requests
        else None,
        weights_load_hours=plan.weights_load_hours if billed_per_run else None,
        engine_start_hours=plan.engine_start_hours if billed_per_run else None,
        busy_share=busy_share,
        serverless=None,
        fleet=None,
        instance_gpus=offer.instance_gpus,
        instances=instance_counts(rental.placement.instances),
        replica_room=rental.placement.replicas_hosted - plan.replicas,
        replicas_on_fullest_instance=fullest_instance(
            rental.placement, plan.cards_per_replica, plan.replicas
        ),
        instances_covering_a_loss_at_no_cost=covering_instances(offer, plan, listing.linked),
        latency_targets_usd_per_month=None,
        throughput_alone=None,
        spare_usd_per_month=None,
        price_origin=listing.price_origin,
        spot_overhead=priced.spot_overhead,
        rework_replicas=plan.rework_replicas,
    )


def covering_instances(offer: Offer, plan: ReplicaPlan, linked: tuple[int, ...]) -> int:
    """The instances of ``offer`` that would carry ``plan``'s replicas so that its spares cover a lost
    instance, on the same cards (``instances.spread_at_no_cost``); 0 where none do so, or the plan is
    spread already (SIZ015, SIZ038)."""
    if plan.spread or plan.spread_runs:
        return 0
    free = spread_at_no_cost(
        plan.cards_per_replica, plan.replicas, offer.instance_gpus, linked, plan.spare_replicas
    )
    return free.instance_count if free is not None else 0


_INSTANCE_COUNTS: dict[tuple[tuple[int, int], ...], tuple[InstanceCount, ...]] = {}
"""The few instance mixes rentals come in, each built once: result models are never changed after
they are built, so options may share them."""


def instance_counts(instances: tuple[tuple[int, int], ...]) -> tuple[InstanceCount, ...]:
    """(GPUs per instance, instances) pairs as result models."""
    counts = _INSTANCE_COUNTS.get(instances)
    if counts is None:
        if len(_INSTANCE_COUNTS) >= INSTANCE_MIXES_KEPT:
            _INSTANCE_COUNTS.clear()
        counts = _INSTANCE_COUNTS[instances] = tuple(
            trusted(InstanceCount, gpus=size, count=count) for size, count in instances
        )
    return counts


INSTANCE_MIXES_KEPT = 1024


def rental_utilization(plan: ReplicaPlan, rental: Rental, days_per_month: float) -> float:
    """The plan's throughput share over the paid hours; a batch's work hours over the hours the rental
    bills (near 1 where it bills the hours run, lower for a reservation's calendar hours)."""
    if plan.hours_per_day_running is None:
        return plan.utilization
    return min(1.0, plan.hours_per_day_running * days_per_month / rental.billed_hours_per_month)


def build_options(
    priced: Sequence[PricedListing],
    best: tuple[PricedListing, Option] | None,
    busy_share: Callable[[ReplicaPlan], float | None],
) -> tuple[Option, ...]:
    """Every priced listing as an option, cheapest first, its busy share read on its own plan
    (``busy_share``); ``best`` (a listing of ``priced`` and the option made of it) in its place, as it
    is: the memo tells it apart by identity, and it carries whether it was chosen."""
    best_listing, best_option = best if best is not None else (None, None)
    return tuple(
        best_option if p is best_listing and best_option is not None else to_option(p, busy_share(p.plan))
        for p in priced
    )


def cheapest_priced(
    priced: Sequence[PricedListing],
    preferred_pricing: str | None,
    include: Callable[[PricedListing], bool] = lambda p: not p.excluded_by,
) -> PricedListing | None:
    """The cheapest listing ``include`` admits; of the preferred pricing kind where one of that kind costs
    no more (a rule prefers spot for a batch because spot is cheaper: a spot offer dearer than an
    on-demand one is not preferred). ``priced`` is cheapest first."""
    cheapest = None
    for candidate in priced:
        if not include(candidate):
            continue
        if cheapest is None:
            cheapest = candidate
        if candidate.rental.usd_per_month > cheapest.rental.usd_per_month:
            break
        if preferred_pricing is None or candidate.listing.offer.pricing == preferred_pricing:
            return candidate
    return cheapest


def cheapest_option(
    priced: Sequence[PricedListing],
    preferred_pricing: str | None,
    include: Callable[[PricedListing], bool] = lambda p: not p.excluded_by,
) -> Option | None:
    found = cheapest_priced(priced, preferred_pricing, include)
    return to_option(found) if found is not None else None
