"""Owning against renting over the same hours.

An owned machine is paid for every calendar hour, busy or not, and so is a reservation (billing
``committed``): between the two only the price differs, so they are compared at equal hours, the
reservation's monthly bill against the owned machine's, and the break-even is a price ratio (owned cost
per GPU-hour over the reserved price). A pay-per-hour offer (on-demand, spot, a capacity block) can end
its hours with the load: it is compared at the hours the load needs, the cards it rents (whole
instances) at its price per GPU-hour in the paid hours a request is in flight (the busy share). Where
those are just the cards the load needs, that is what the break-even utilization says; an offer sold in
larger instances costs more at those hours, and owning wins before the break-even utilization.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from gpu_advisor.engine.calc.fleets import MixedFleet
from gpu_advisor.engine.calc.listings import PricedListing
from gpu_advisor.engine.domain.results import Option

Billing = Literal["hourly", "committed"]


def option_billing(option: Option) -> Billing:
    """A reservation, and only it, bills every calendar hour (the knowledge base checks this)."""
    return "committed" if option.pricing == "reserved" else "hourly"


def at_same_hours(
    billing: Billing,
    usd_per_month: float,
    usd_per_gpu_hour: float,
    gpus: int,
    busy_share: float,
    paid_hours: float,
) -> float:
    """What a rental costs a month at the hours owning is compared with: a reservation its bill (every
    calendar hour, as owning); a pay-per-hour offer its ``gpus`` rented cards (whole instances) at its
    price in the busy share of the paid hours (the hours the load needs)."""
    if billing == "committed":
        return usd_per_month
    return usd_per_gpu_hour * gpus * busy_share * paid_hours


def option_at_same_hours(option: Option, busy_share: float, paid_hours: float) -> float:
    return at_same_hours(
        option_billing(option),
        option.usd_per_month,
        option.usd_per_gpu_hour,
        option.gpus_rented,
        busy_share,
        paid_hours,
    )


class SameHours(NamedTuple):
    """The admitted rental that costs least at the same hours as owning, and that cost."""

    name: str
    """provider/offer/gpu."""
    billing: Billing
    usd_per_month: float


def cheapest_at_same_hours(
    priced: Sequence[PricedListing], busy_share: Callable[[str], float | None], paid_hours: float
) -> SameHours | None:
    """Of every rental no rule excluded, the one that costs least at the same hours as owning; ``priced``
    is in a fixed order (cheapest billed first), so ties keep the first."""
    found: SameHours | None = None
    for candidate in priced:
        if candidate.excluded_by:
            continue
        offer = candidate.listing.offer
        busy = busy_share(offer.gpu)
        if busy is None:
            continue
        cost = at_same_hours(
            offer.billing,
            candidate.rental.usd_per_month,
            candidate.listing.usd_per_gpu_hour,
            candidate.rental.gpus_rented,
            busy,
            paid_hours,
        )
        if found is None or cost < found.usd_per_month:
            found = SameHours(f"{offer.provider}/{offer.offer}/{offer.gpu}", offer.billing, cost)
    return found


def fleet_name(fleet: MixedFleet) -> str:
    base, peak = fleet.base.listing.offer, fleet.peak.listing.offer
    return f"{base.provider}/{base.offer} + {peak.provider}/{peak.offer} ({base.gpu})"
