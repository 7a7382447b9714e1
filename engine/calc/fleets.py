"""Mixed fleets: a committed base of replicas in every hour and pay-per-hour instances for the further
replicas of the busier hours.

A dedicated fleet is sized for its peak and paid for every paid hour. The load over the day
(``traffic.DailyTraffic``) says how many replicas each hour needs, sized as the peak is (the hour's rate
times the burst within an hour at the headroom target, plus the spares, at least ``min_replicas``). A
base of them goes on a reservation (paid every calendar hour, in whole instances, and every replica they
hold serves): a replica pays in the base where it runs in more of the hours than the base's price is of
the hourly one's, so the cheapest base is priced size by size (``base_placements``). The replicas beyond
what the base holds run on an hourly offer of the same GPU in the hours they are needed, billed as the
offer bills: whole instances, the hour's served share rounded up to the billing increment, and an offer
billed in whole days (a capacity block) for every day an instance runs at all. A mix that costs no less
than its base, or another reservation of the GPU, holding the busiest hour's replicas is none.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import NamedTuple

from gpu_advisor.engine.calc.fleet_split import ROUNDING_SLACK, cheapest_split, peak_bill
from gpu_advisor.engine.calc.instances import Placement
from gpu_advisor.engine.calc.listings import PricedListing
from gpu_advisor.engine.calc.plan_variants import without_spares
from gpu_advisor.engine.calc.policy import Sizing, usable_rate
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.traffic import DailyTraffic
from gpu_advisor.engine.domain.load import Load


def replicas_by_hour(plan: ReplicaPlan, traffic: DailyTraffic, load: Load, sizing: Sizing) -> tuple[int, ...]:
    """The replicas each hour of a served day needs (0 in the hours the schedule does not serve): its
    busiest minutes at what a replica is sized to carry (within the latency targets and the headroom),
    at least one, plus the plan's spares, at least ``min_replicas``; at the busiest hour that is the
    plan's own count."""
    capacity = usable_rate(
        plan.requests_per_second_per_replica, plan.rate_within_targets_per_replica, sizing, plan.rate_kv_holds
    )
    burst, average = load.peak_within_hour, load.average_requests_per_second
    counts = []
    for served, relative in zip(traffic.served, traffic.relative_rate, strict=True):
        if served <= 0:
            counts.append(0)
            continue
        for_hour = max(1, math.ceil(average * relative * burst / capacity - ROUNDING_SLACK))
        counts.append(max(for_hour + plan.spare_replicas, sizing.min_replicas))
    return tuple(counts)


class MixedFleet(NamedTuple):
    """A committed base and the hourly instances for the busier hours, priced for a month."""

    base: PricedListing
    peak: PricedListing
    replicas_by_hour: tuple[int, ...]
    base_replicas: int
    """The replicas every hour needs (the fewest of any hour)."""
    base_gpus_rented: int
    base_replicas_hosted: int
    """The replicas the base's whole instances hold in every hour: the size that costs least with its
    peak (``base_placements``), more or fewer than ``base_replicas``."""
    base_usd_per_month: float
    peak_gpu_hours_per_month: float
    """Card-hours the hourly instances bill a month."""
    peak_gpus_rented_max: int
    peak_usd_per_month: float
    base_instances: tuple[tuple[int, int], ...] = ()
    """The base's instances (size in cards, how many), largest first."""
    loss_replicas: int = 0
    """Of ``replicas_by_hour``, those every served hour runs beyond its need and spares so that the loss
    of an instance carrying several leaves that need (SIZ015, ``cheapest_split``'s ``survive_loss``)."""
    peak_busiest: Placement | None = None
    """The hourly instances of the hour that rents the most of them."""

    @property
    def usd_per_month(self) -> float:
        return self.base_usd_per_month + self.peak_usd_per_month

    @property
    def as_of(self) -> dt.date:
        """The date of the older of its two offers' prices."""
        return min(self.base.listing.offer.as_of, self.peak.listing.offer.as_of)


def price_mixed_fleet(
    base: PricedListing,
    peak: PricedListing,
    hours: tuple[int, ...],
    traffic: DailyTraffic,
    days_per_month: float,
    calendar_hours: float,
    as_proposed: bool = False,
    base_replicas: int | None = None,
) -> MixedFleet | None:
    """``base`` (a reservation) for the replicas it holds in every hour and ``peak`` (an hourly offer of the
    same GPU) for the rest, at the base size that costs least (``cheapest_split``) or the one proposed."""
    listing = base.listing
    split = cheapest_split(
        base.plan,
        hours,
        listing.offer.instance_gpus,
        listing.linked,
        lambda placement: placement.gpus_rented * listing.usd_per_gpu_hour * calendar_hours,
        (peak,),
        traffic,
        days_per_month,
        as_proposed=as_proposed,
        base_replicas=base_replicas,
        survive_loss=True,
    )
    if split is None:
        return None
    return MixedFleet(
        base=base,
        peak=peak,
        replicas_by_hour=split.replicas_by_hour,
        base_replicas=min(split.replicas_by_hour),
        base_gpus_rented=split.placement.gpus_rented,
        base_replicas_hosted=split.placement.replicas_hosted,
        base_usd_per_month=split.base_usd_per_month,
        peak_gpu_hours_per_month=split.peak_gpu_hours_per_month,
        peak_gpus_rented_max=split.peak_gpus_rented_max,
        peak_usd_per_month=split.peak_usd_per_month,
        base_instances=split.placement.instances,
        peak_busiest=split.peak_busiest,
        loss_replicas=max(run - need for run, need in zip(split.replicas_by_hour, hours, strict=True)),
    )


def spare_cost(
    fleet: MixedFleet, traffic: DailyTraffic, load: Load, sizing: Sizing, days: float, calendar: float
) -> float | None:
    """What the spare replicas of ``fleet``'s plan cost: its bill less that of the same reservation and
    hourly offer carrying every hour without them (its base sized anew); None where they add nothing."""
    plan = without_spares(fleet.base.plan)
    hours = replicas_by_hour(plan, traffic, load, sizing)
    # Without spares, no hour runs the replicas a lost instance takes beyond them either.
    lean = price_mixed_fleet(fleet.base._replace(plan=plan), fleet.peak, hours, traffic, days, calendar)
    if lean is None or lean.usd_per_month >= fleet.usd_per_month:
        return None
    return fleet.usd_per_month - lean.usd_per_month


def cheapest_mixed_fleet(
    bases: Sequence[PricedListing],
    peaks: Sequence[PricedListing],
    hours_of: dict[str, tuple[int, ...]],
    traffic: DailyTraffic,
    days_per_month: float,
    calendar_hours: float,
    as_proposed: bool = False,
    base_replicas: int | None = None,
) -> MixedFleet | None:
    """The cheapest mixed fleet of one of the ``bases`` that is a reservation and one of the ``peaks`` that
    is an hourly offer of the same GPU and jurisdiction; ``hours_of``: each service GPU's replicas by hour
    (a batch has none). The listings come in a fixed order, so ties keep the first pair.
    ``base_replicas``: the base a proposal states (``price_mixed_fleet``)."""
    found: MixedFleet | None = None
    for base in bases:
        gpu = base.listing.offer.gpu
        if base.listing.offer.billing != "committed" or gpu not in hours_of:
            continue
        for peak in peaks:
            same_place = (peak.listing.offer.gpu, peak.listing.jurisdiction) == (
                gpu,
                base.listing.jurisdiction,
            )
            if peak.listing.offer.billing == "committed" or not same_place:
                continue
            fleet = price_mixed_fleet(
                base, peak, hours_of[gpu], traffic, days_per_month, calendar_hours, as_proposed, base_replicas
            )
            if fleet is not None and (found is None or fleet.usd_per_month < found.usd_per_month):
                found = fleet
    if found is None or as_proposed or base_replicas is not None:
        return found
    # As a base's mix is none where that base holding every hour costs no more (``cheapest_split``), so
    # is the mix of a dearer base where another reservation of the GPU holds every hour for no more.
    whole = (
        b.rental.usd_per_month
        for b in bases
        if b.listing.offer.billing == "committed" and b.listing.offer.gpu == found.base.listing.offer.gpu
    )
    return None if min(whole) <= found.usd_per_month else found


class OwnedBaseFleet(NamedTuple):
    """Owned servers for a base of replicas in every hour and an hourly offer of the same GPU for the busier
    hours' further replicas, priced for a month (TCO022 sets it beside the routes the rules decide on)."""

    nodes: int
    base_replicas: int
    """The replicas every hour needs (the fewest of any hour)."""
    base_replicas_hosted: int
    """The replicas the owned servers hold in every hour (``base_placements``)."""
    base_usd_per_month: float
    """The owned servers' cost, every calendar hour as owning is paid."""
    peak: PricedListing
    peak_gpu_hours_per_month: float
    peak_gpus_rented_max: int
    peak_usd_per_month: float

    @property
    def usd_per_month(self) -> float:
        return self.base_usd_per_month + self.peak_usd_per_month


def cheapest_owned_base_fleet(
    node_usd_per_month: float,
    gpus_per_server: int,
    max_servers: int | None,
    plan: ReplicaPlan,
    hours: tuple[int, ...],
    hourly: Sequence[PricedListing],
    traffic: DailyTraffic,
    days_per_month: float,
) -> OwnedBaseFleet | None:
    """Owned servers of ``gpus_per_server`` linked cards for a base of replicas (``base_placements``, at
    most ``max_servers``), the replicas beyond what they hold on one of the ``hourly`` offers of the
    servers' GPU in the hours they are needed: the cheapest such fleet; None where no base leaves replicas
    to rent, or no hourly offer is admitted."""
    sizes = (gpus_per_server,)
    split = cheapest_split(
        plan,
        hours,
        sizes,
        sizes,
        lambda placement: placement.gpus_rented // gpus_per_server * node_usd_per_month,
        hourly,
        traffic,
        days_per_month,
        max_gpus=None if max_servers is None else max_servers * gpus_per_server,
        # Owned servers keep the peak through the loss of one, as the owned fleet does (``nodes_for``).
        survive_loss=True,
    )
    if split is None:
        return None
    return OwnedBaseFleet(
        nodes=split.placement.gpus_rented // gpus_per_server,
        base_replicas=min(hours),
        base_replicas_hosted=split.placement.replicas_hosted,
        base_usd_per_month=split.base_usd_per_month,
        peak=split.peak,
        peak_gpu_hours_per_month=split.peak_gpu_hours_per_month,
        peak_gpus_rented_max=split.peak_gpus_rented_max,
        peak_usd_per_month=split.peak_usd_per_month,
    )


class AutoscaledFleet(NamedTuple):
    """An hourly offer's replicas scaled hour by hour with the day's load instead of kept at the peak's
    count: what the rented fleet would bill if it followed ``replicas_by_hour``."""

    listing: PricedListing
    replicas_by_hour: tuple[int, ...]
    gpu_hours_per_month: float
    gpus_rented_max: int
    usd_per_month: float

    @property
    def served_replicas(self) -> tuple[int, ...]:
        """The replicas of the hours the schedule serves (the others need none)."""
        return tuple(count for count in self.replicas_by_hour if count)


def price_autoscaled(
    listing: PricedListing, hours: tuple[int, ...], traffic: DailyTraffic, days_per_month: float
) -> AutoscaledFleet:
    """Every hour's replicas on the hourly ``listing``, in whole instances, billed as it bills (the hour's
    served share rounded up to its increment; an offer billed by the day pays every card that runs)."""
    plan = listing.plan
    gpu_hours, busiest = peak_bill(
        listing, hours, traffic.served, days_per_month, plan.spread, plan.spares_asked
    )
    return AutoscaledFleet(
        listing, hours, gpu_hours, busiest.gpus_rented, gpu_hours * listing.listing.usd_per_gpu_hour
    )
