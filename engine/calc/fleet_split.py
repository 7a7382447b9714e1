"""A fleet split into a base of replicas in whole instances (reserved, or owned servers) that serves in
every hour, and an hourly offer for the replicas beyond it in the hours they are needed: the bases tried,
the hourly part's bill, and the cheapest split (``fleets`` prices mixed fleets and owned bases with it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from gpu_advisor.engine.calc.costs import SECONDS_PER_HOUR
from gpu_advisor.engine.calc.instances import EXACT_REPLICAS, Placement, fleet_place, place
from gpu_advisor.engine.calc.listings import PricedListing
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.traffic import HOURS_PER_DAY, DailyTraffic

ROUNDING_SLACK = 1e-9


def peak_bill(
    peak: PricedListing,
    extra: Sequence[int],
    served: Sequence[float],
    days_per_month: float,
    spread: bool = False,
    spare: int = 0,
    most: int = 0,
) -> tuple[float, Placement]:
    """Card-hours a month the hourly ``peak`` offer bills for ``extra`` replicas in each hour of the day,
    and the placement of the hour that rents the most cards (the first of equals). ``spread``: each
    hour's replicas, where they are the whole fleet, placed as ``instances.place`` spreads a fleet of
    ``spare`` spares; beside a base, no instance carrying more than ``most`` (``instances.fleet_place``),
    as the base's do."""
    offer, plan = peak.listing.offer, peak.plan
    placed = [
        fleet_place(plan.cards_per_replica, count, offer.instance_gpus, peak.listing.linked, spread, most)
        if most
        else place(plan.cards_per_replica, count, offer.instance_gpus, peak.listing.linked, spread, spare)
        for count in extra
    ]
    busiest = max(placed, key=lambda placement: placement.gpus_rented)
    increment = (offer.billing_increment_seconds or SECONDS_PER_HOUR) / SECONDS_PER_HOUR
    if increment >= HOURS_PER_DAY:
        # Billed in whole days: every card that runs at all on a day is paid for the day.
        return busiest.gpus_rented * HOURS_PER_DAY * days_per_month, busiest
    per_day = sum(
        placement.gpus_rented * math.ceil(share / increment - ROUNDING_SLACK) * increment
        for placement, share in zip(placed, served, strict=True)
        if placement.gpus_rented
    )
    return per_day * days_per_month, busiest


def _base_sizes(hours: tuple[int, ...]) -> Iterable[int]:
    """The base replica counts tried: every one below the busiest hour's; beyond ``EXACT_REPLICAS``
    (a fleet of thousands of replicas) those at each hour's count and one either side. Between two hours'
    counts the peak's bill falls linearly with the base and the base's bill rises with its cards, so the
    cheapest lies at an end, up to whole-instance rounding; trying every count made a billion requests a
    day run for minutes."""
    busiest = max(hours)
    if busiest <= EXACT_REPLICAS:
        return range(1, busiest)
    return sorted({c + d for c in hours for d in (-1, 0, 1) if 1 <= c + d < busiest})


def base_placements(
    cards_per_replica: int,
    hours: tuple[int, ...],
    instance_gpus: tuple[int, ...],
    linked: tuple[int, ...],
    spread: bool,
    most: int = 0,
) -> list[Placement]:
    """Every base a committed (or owned) part of a fleet may hold, in whole instances spread as the plan
    asks (SIZ015): from one replica to one short of the busiest hour's, as each size places (a base that
    holds the busiest hour's replicas leaves nothing to rent by the hour). A replica pays in the base where
    it is needed in more of the month's hours than the base's price is of the hourly one's, and whole
    instances round a base up: so the cheapest base is not always the quietest hour's replicas, which may
    fill an instance and a little of the next. Spread, a base on one instance must leave a replica of every
    hour that runs two or more to the hourly offer, so that one machine's failure leaves one serving;
    ``most``: no instance carries more replicas than that (``instances.fleet_place``). None where some hour
    needs no replica (the schedule leaves hours unserved): such a fleet is not priced."""
    quietest, busiest = min(hours), max(hours)
    if quietest <= 0:
        return []
    placements: list[Placement] = []
    for replicas in _base_sizes(hours):
        placement = fleet_place(cards_per_replica, replicas, instance_gpus, linked, spread, most)
        if placement.replicas_hosted >= busiest:
            break
        # Spread (SIZ015, two replicas or more): one instance may carry the base only where no hour that
        # runs two replicas or more runs all of them on it. An hour of one replica has no other to spread.
        if (
            spread
            and placement.instance_count < 2
            and any(2 <= replicas <= placement.replicas_hosted for replicas in hours)
        ):
            continue
        if not placements or placement.replicas_hosted > placements[-1].replicas_hosted:
            placements.append(placement)
    return placements


class Split(NamedTuple):
    """A base placed in whole instances (reserved or owned) and an hourly offer's bill for the replicas
    beyond it: what a mixed fleet and an owned base with hourly peaks share."""

    placement: Placement
    base_usd_per_month: float
    peak: PricedListing
    peak_gpu_hours_per_month: float
    peak_busiest: Placement
    """The hourly instances of the hour that rents the most of them."""
    replicas_by_hour: tuple[int, ...]
    """The replicas each hour runs: the hours' as given, or more where the loss of an instance that
    carries several needs them (``cheapest_split``'s ``survive_loss``)."""

    @property
    def peak_gpus_rented_max(self) -> int:
        return self.peak_busiest.gpus_rented

    @property
    def peak_usd_per_month(self) -> float:
        return self.peak_gpu_hours_per_month * self.peak.listing.usd_per_gpu_hour

    @property
    def usd_per_month(self) -> float:
        return self.base_usd_per_month + self.peak_usd_per_month


def cheapest_split(
    plan: ReplicaPlan,
    hours: tuple[int, ...],
    instance_gpus: tuple[int, ...],
    linked: tuple[int, ...],
    base_usd: Callable[[Placement], float],
    peaks: Sequence[PricedListing],
    traffic: DailyTraffic,
    days_per_month: float,
    max_gpus: int | None = None,
    as_proposed: bool = False,
    base_replicas: int | None = None,
    survive_loss: bool = False,
) -> Split | None:
    """Every base ``base_placements`` gives (at most ``max_gpus`` cards) with each of the ``peaks`` for
    the replicas beyond it, the cheapest kept (the first of equals); ``base_usd``: a placement's monthly
    cost. None where no base leaves replicas to the peaks, or where the cheapest costs no less than a base
    holding the busiest hour's replicas in every hour (no mix), unless ``as_proposed``: a pair someone
    names is priced even then (``check`` then says it costs more). ``base_replicas``: the base someone
    proposes, in whole instances, priced as proposed whatever it leaves to the peaks.
    ``survive_loss``: rented instances of a plan spread over machines (SIZ015) with spares: the loss of
    any one instance must leave every hour's need, so no instance carries more replicas than the spares,
    or every hour runs one more replica for each an instance carries beyond them, whichever costs less."""
    found: Split | None = None
    spare = plan.spares_asked if survive_loss and plan.spread else 0
    caps = _caps(plan.cards_per_replica, instance_gpus, spare)
    # A proposed base is placed as it bills least, its instances full; the hours run the replicas a lost
    # one takes beyond the spares.
    for most in caps[-1:] if base_replicas is not None else caps:
        added = max(0, most - spare)
        run = tuple(count + added if count else count for count in hours)
        placements = (
            [fleet_place(plan.cards_per_replica, base_replicas, instance_gpus, linked, plan.spread, most)]
            if base_replicas is not None
            else base_placements(plan.cards_per_replica, run, instance_gpus, linked, plan.spread, most)
        )
        for placement in placements:
            if max_gpus is not None and placement.gpus_rented > max_gpus:
                break
            # The bases come smallest first: one whose own bill reaches the cheapest split found cannot
            # make a cheaper one, nor can a larger one (a strictly cheaper split replaces the found one).
            if found is not None and base_usd(placement) >= found.usd_per_month:
                break
            extra = [max(0, count - placement.replicas_hosted) for count in run]
            for peak in peaks:
                # The peak's instances run beside the base, on machines of their own.
                gpu_hours, rented = peak_bill(
                    peak, extra, traffic.served, days_per_month, plan.spread, most=most
                )
                split = Split(placement, base_usd(placement), peak, gpu_hours, rented, run)
                if found is None or split.usd_per_month < found.usd_per_month:
                    found = split
    if found is None or as_proposed or base_replicas is not None:
        return found
    whole = place(plan.cards_per_replica, max(hours), instance_gpus, linked, plan.spread, spare)
    within = max_gpus is None or whole.gpus_rented <= max_gpus
    return None if within and found.usd_per_month >= base_usd(whole) else found


def _caps(cards_per_replica: int, instance_gpus: tuple[int, ...], spare: int) -> Sequence[int]:
    """The most replicas one instance of a fleet may carry, each cap tried (0: no cap): without spares to
    survive a loss with, none; else from one replica an instance to as many as the largest size holds."""
    if not spare:
        return (0,)
    return range(1, max(1, instance_gpus[-1] // cards_per_replica) + 1)
