"""Serverless: every serverless product priced for the workload (part of the market); the stage that
weighs the cheapest against the other routes is ``serverless_weighing``."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.serverless import (
    Demand,
    ProductMonth,
    ServerlessBill,
    ServerlessListing,
    ServerlessWorkload,
    product_month,
    serverless_bill,
    serverless_listings,
    serves_within_window,
)
from gpu_advisor.engine.common.caching import cleared_with_the_others
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.serving import MAX_START_SECONDS, ServerlessProduct
from gpu_advisor.engine.pipeline.capacity import Capacity, ReplicaPlans
from gpu_advisor.engine.pipeline.constraints import Constraints


class PricedServerless(NamedTuple):
    listing: ServerlessListing
    plan: ReplicaPlan
    """The replica plan on the listing's GPU."""
    bill: ServerlessBill
    excluded_by: tuple[str, ...]


class Candidate(NamedTuple):
    """A serverless listing whose instance holds a replica, before its month is priced."""

    listing: ServerlessListing
    plan: ReplicaPlan
    size: int
    excluded_by: tuple[str, ...]
    lower_bound: float
    """No month of it costs less: its work at the lower of its prices, or its kept-warm instances."""


class Pricer:
    """Prices candidates' months, each product's month on a GPU once (the same in every region)."""

    def __init__(self, workload: ServerlessWorkload, knowledge: Knowledge) -> None:
        self.workload, self.knowledge = workload, knowledge
        self._demand: Demand = {}
        self._months: dict[int, ProductMonth] = {}

    def price(self, candidate: Candidate) -> PricedServerless:
        listing = candidate.listing
        month = self._months.get(id(listing.gpu))
        if month is None:
            # An always-on price below the scaling one (RunPod's active workers) keeps the instances the
            # load keeps busy long enough running at it.
            always_on_ratio = listing.warm_usd_per_gpu_hour / listing.usd_per_gpu_hour
            month = self._months[id(listing.gpu)] = self._month(candidate, listing.product, always_on_ratio)
        bill = serverless_bill(listing, month)
        return PricedServerless(listing, candidate.plan, bill, candidate.excluded_by)

    def bill_starting_later(self, candidate: Candidate, extra_seconds: float) -> float:
        """The month of ``candidate``, scaling to zero, where each start takes ``extra_seconds`` longer:
        more requests meet a start, so there are fewer of them, each billed longer (not cached: asked of
        one candidate). No instance is kept at an always-on price: the endpoint stays as recommended. A
        batch's instances that would finish no request in its window after such a start do none of its
        work: no bill reaches it."""
        product = candidate.listing.product
        later = product.model_copy(update={"start_seconds": product.start_seconds + extra_seconds})
        if not serves_within_window(self.knowledge, later, candidate.plan, self.workload):
            return math.inf
        month = product_month(
            later, candidate.plan, candidate.size, self.workload, self.knowledge, self._demand
        )
        return serverless_bill(candidate.listing, month).usd_per_month

    def _month(
        self, candidate: Candidate, product: ServerlessProduct, always_on_ratio: float
    ) -> ProductMonth:
        """``product``'s month for ``candidate``; ``always_on_ratio``: its price for an instance that runs
        always over its scaling price (1: none is kept for price)."""
        plan, size = candidate.plan, candidate.size
        return kept_month(product, plan, size, self.workload, self.knowledge, self._demand, always_on_ratio)


MONTHS_KEPT = 1024
"""Product months kept (``kept_month``): a recommendation prices about a dozen."""
_MONTHS: dict[tuple[object, ...], tuple[tuple[object, ...], ProductMonth]] = {}
cleared_with_the_others(_MONTHS.clear)


def kept_month(
    product: ServerlessProduct,
    plan: ReplicaPlan,
    size: int,
    workload: ServerlessWorkload,
    knowledge: Knowledge,
    demand: Demand,
    always_on_ratio: float,
) -> ProductMonth:
    """``product_month``, once per product, plan, knowledge base (by identity: never changed once made,
    each kept with its month so its id stays its own) and workload (frozen, by value). ``demand`` only
    saves work within one pricer: the month does not depend on it."""
    key = (id(product), id(plan), size, workload, id(knowledge), always_on_ratio)
    kept = _MONTHS.get(key)
    if kept is not None:
        return kept[1]
    month = product_month(product, plan, size, workload, knowledge, demand, always_on_ratio)
    if len(_MONTHS) >= MONTHS_KEPT:
        _MONTHS.clear()
    _MONTHS[key] = ((product, plan, knowledge), month)
    return month


@dataclass(frozen=True)
class ServerlessMarket:
    candidates: tuple[Candidate, ...]
    """Every product GPU whose instances hold a replica and that no rule calls unsuitable for the model."""
    best: PricedServerless | None
    """The cheapest one no rule excluded."""
    kept_warm: bool
    pricer: Pricer

    def scale_to_zero_under(self, usd_per_month: float) -> PricedServerless | None:
        """Where a rule keeps instances warm: the cheapest admitted product priced scaling to zero
        instead, what the workload would pay if its users could wait for a cold start (DEP031, DEP048);
        None where none could bill less than ``usd_per_month`` (the cheapest route standing), so the
        products whose lower bound is no less are not priced: it doubles the serverless pricing."""
        if not self.kept_warm:
            return None
        return scale_to_zero(
            list(self.candidates), self.pricer.workload, self.pricer.knowledge, usd_per_month
        )

    @functools.cached_property
    def best_spare_usd_per_month(self) -> float | None:
        """What the spare replicas the rules add cost on the best product: its bill less that of the same
        product priced without them (its instances at the peak, and those kept warm); None where there
        are none (a stated min_replicas sets the replicas instead), or they add nothing to its bill."""
        best, workload = self.best, self.pricer.workload
        if best is None or workload.sizing.spare_replicas == 0:
            return None
        candidate = self.candidate_of(best)
        lean = dataclasses.replace(workload, sizing=workload.sizing._replace(spare_replicas=0))
        without = Pricer(lean, self.pricer.knowledge).price(candidate)
        cost = best.bill.usd_per_month - without.bill.usd_per_month
        return cost if cost > 0 else None

    def candidate_of(self, priced: PricedServerless) -> Candidate:
        """The candidate ``priced`` was priced from, to price it again otherwise."""
        return next(c for c in self.candidates if c.listing is priced.listing)

    def start_break_even(self, usd_per_month: float) -> tuple[float, bool] | None:
        """How many seconds longer each start of ``best``, scaling to zero, may take before its month
        reaches ``usd_per_month``, to the second, and False; where it stays below even at the longest
        start a product may state, those seconds and True. None where instances are kept warm or it
        costs no less already."""
        best = self.best
        if best is None or best.bill.priced.kept or best.bill.usd_per_month >= usd_per_month:
            return None
        candidate = self.candidate_of(best)
        low, high = 0.0, float(MAX_START_SECONDS - best.listing.product.start_seconds)
        if self.pricer.bill_starting_later(candidate, high) < usd_per_month:
            return high, True
        # Longer starts bill more but are met by more requests each: the month rises, not in proportion.
        while high - low > 1:
            middle = (low + high) / 2
            if self.pricer.bill_starting_later(candidate, middle) < usd_per_month:
                low = middle
            else:
                high = middle
        return high, False

    @functools.cached_property
    def priced(self) -> tuple[PricedServerless, ...]:
        """Every candidate priced, cheapest first: for the result's options (the decision needs only
        ``best``, found without pricing every one)."""
        best = self.best
        priced = (
            best if best is not None and c.listing is best.listing else self.pricer.price(c)
            for c in self.candidates
        )
        return tuple(sorted(priced, key=priced_order))


def priced_order(priced: PricedServerless) -> tuple[object, ...]:
    """Cheapest first; at the same price, a product's whole pool before its region pinned to a few data
    centres that may not have the GPU in stock (``stock_varies``), where no rule asks for the pin."""
    listing = priced.listing
    order = (listing.stock_varies, listing.product.id, listing.gpu.gpu, listing.region)
    return (priced.bill.usd_per_month, *order)


def lower_bound(
    listing: ServerlessListing, plan: ReplicaPlan, size: int, workload: ServerlessWorkload
) -> float:
    load, sizing = workload.load, workload.sizing
    instance_rps = size // plan.cards_per_replica * plan.requests_per_second_per_replica
    work_hours = (
        load.average_requests_per_second * load.hours_per_day / instance_rps * workload.days_per_month
    )
    price, kept_price = listing.usd_per_gpu_hour * size, listing.warm_usd_per_gpu_hour * size
    bound = work_hours * min(price, kept_price)
    if workload.keep_warm and not load.served_in_paid_hours:
        kept = max(1 + sizing.spare_replicas, sizing.min_replicas)
        bound = max(bound, kept * workload.warm_hours_per_month * kept_price)
    return bound


def serverless_workload(
    capacity: Capacity,
    plans: ReplicaPlans,
    constraints: Constraints,
    knowledge: Knowledge,
    paid_hours_per_month: float,
) -> ServerlessWorkload:
    """``paid_hours_per_month``: the schedule's hours, in which a kept-warm instance is kept as a rented
    card would be; every calendar hour where a rule keeps the endpoint's minimum unchanged (PRC035)."""
    calendar = knowledge.calendar_hours_per_month()
    every_hour = constraints.keep_serverless_minimum_every_hour and paid_hours_per_month < calendar
    return ServerlessWorkload(
        load=capacity.load,
        traffic=capacity.traffic,
        sizing=plans.sizing,
        weights_gb=capacity.figures.weights_gb,
        sixteen_bit_checkpoint_gb=capacity.figures.sixteen_bit_checkpoint_gb,
        engine_start_seconds=knowledge.throughput.engine_start_seconds(capacity.figures.serving_engine),
        days_per_month=capacity.days_per_month,
        warm_hours_per_month=calendar if every_hour else min(paid_hours_per_month, calendar),
        keep_warm=constraints.keep_serverless_warm,
        kept_every_hour=every_hour,
    )


def candidate_for(
    listing: ServerlessListing,
    excluded: tuple[str, ...],
    plans: ReplicaPlans,
    unsuitable: dict[str, list[str]],
    workload: ServerlessWorkload,
    knowledge: Knowledge,
) -> Candidate | None:
    """``listing`` as a candidate; None where its GPU has no plan, the rules call the GPU unsuitable for
    the model (not priced serverless either), no instance of it holds a replica, or a batch's instance
    would finish no request in the batch's window after its cold start (``calc.batch_window``)."""
    gpu = listing.gpu.gpu
    plan = plans.plans.get(gpu)
    if plan is None or gpu in unsuitable:
        return None
    size = listing.smallest_instance(plan.cards_per_replica)
    if size is None:
        return None
    if not serves_within_window(knowledge, listing.product, plan, workload):
        return None
    return Candidate(listing, plan, size, excluded, lower_bound(listing, plan, size, workload))


def price_serverless(
    capacity: Capacity,
    plans: ReplicaPlans,
    unsuitable: dict[str, list[str]],
    constraints: Constraints,
    knowledge: Knowledge,
    paid_hours_per_month: float,
) -> ServerlessMarket:
    """Every candidate, and the cheapest admitted one priced (``serverless_workload`` for the hours)."""
    workload = serverless_workload(capacity, plans, constraints, knowledge, paid_hours_per_month)
    listed = zip(serverless_listings(knowledge), constraints.serverless_exclusions, strict=True)
    found = (
        candidate_for(listing, excluded, plans, unsuitable, workload, knowledge)
        for listing, excluded in listed
    )
    candidates = [candidate for candidate in found if candidate is not None]
    pricer = Pricer(workload, knowledge)
    return ServerlessMarket(tuple(candidates), cheapest(candidates, pricer), workload.keep_warm, pricer)


def price_listing(
    listing: ServerlessListing,
    capacity: Capacity,
    plans: ReplicaPlans,
    unsuitable: dict[str, list[str]],
    constraints: Constraints,
    knowledge: Knowledge,
    paid_hours_per_month: float,
) -> PricedServerless | None:
    """``listing`` priced as ``price_serverless`` prices it, without looking for the cheapest (the
    volume chart follows one product); None where it is no candidate."""
    workload = serverless_workload(capacity, plans, constraints, knowledge, paid_hours_per_month)
    listed = zip(serverless_listings(knowledge), constraints.serverless_exclusions, strict=True)
    excluded = next(excluded for other, excluded in listed if other is listing)
    candidate = candidate_for(listing, excluded, plans, unsuitable, workload, knowledge)
    return None if candidate is None else Pricer(workload, knowledge).price(candidate)


def scale_to_zero(
    candidates: list[Candidate], workload: ServerlessWorkload, knowledge: Knowledge, below: float
) -> PricedServerless | None:
    """The cheapest admitted candidate priced without a kept-warm instance (its lower bound too), of
    those whose lower bound is below ``below``; None where none is, or the cheapest costs no less."""
    cold = dataclasses.replace(workload, keep_warm=False)
    rebound = [
        c._replace(lower_bound=bound)
        for c in candidates
        if not c.excluded_by and (bound := lower_bound(c.listing, c.plan, c.size, cold)) < below
    ]
    found = cheapest(rebound, Pricer(cold, knowledge))
    return found if found is not None and found.bill.usd_per_month < below else None


def cheapest(
    candidates: list[Candidate], pricer: Pricer, among: Callable[[Candidate], bool] | None = None
) -> PricedServerless | None:
    """The cheapest admitted candidate (``among``: the cheapest of those it takes instead), pricing them in
    the order of their lower bounds until none left can cost less (ties broken as ``priced_order`` breaks
    them)."""
    best: PricedServerless | None = None
    taken = (c for c in candidates if (among(c) if among is not None else not c.excluded_by))
    for candidate in sorted(taken, key=lambda c: c.lower_bound):
        if best is not None and candidate.lower_bound > best.bill.usd_per_month:
            break
        priced = pricer.price(candidate)
        if best is None or priced_order(priced) < priced_order(best):
            best = priced
    return best
