"""Owning against renting, each as it bills.

An owned machine is paid for every calendar hour, busy or not, and so is a reservation (billing
``committed``). A pay-per-hour offer (on-demand, spot, a capacity block) is paid for the hours its plan
runs: a service every paid hour of its schedule (a dedicated instance cannot stop between requests: a
rental whose hours end with each request is a serverless product, priced apart), a batch the hours its
run takes, rounded to the offer's billing increment. Owning is compared with each rental's monthly bill
for the same work, the figure the options table shows, never with the rental's price in the busy share of
its hours: no dedicated instance bills that way.

The documents' break-even utilization (owned cost per GPU-hour ÷ rented price) reads the rental as billed
only for the hours its cards emit tokens; it is shown as their rule of thumb, and the monthly bills
decide where the two disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from gpu_advisor.engine.calc.fleets import MixedFleet
from gpu_advisor.engine.calc.listings import PricedListing, cheapest_priced
from gpu_advisor.engine.domain.results import Option

Billing = Literal["hourly", "committed"]


def option_billing(option: Option) -> Billing:
    """A reservation, and only it, bills every calendar hour (the knowledge base checks this)."""
    return "committed" if option.pricing == "reserved" else "hourly"


class AsBilled(NamedTuple):
    """The admitted rental whose monthly bill for the workload is the least, and that bill."""

    name: str
    """provider/offer/gpu."""
    billing: Billing
    usd_per_month: float
    billed_hours_per_month: float


def cheapest_as_billed(priced: Sequence[PricedListing]) -> AsBilled | None:
    """Of every rental no rule excluded, the one whose monthly bill is the least (``priced`` is cheapest
    first, ties in a fixed order: ``cheapest_priced`` with no preferred pricing)."""
    found = cheapest_priced(priced, None)
    if found is None:
        return None
    offer, rental = found.listing.offer, found.rental
    return AsBilled(
        f"{offer.provider}/{offer.offer}/{offer.gpu}",
        offer.billing,
        rental.usd_per_month,
        rental.billed_hours_per_month,
    )


def fleet_name(fleet: MixedFleet) -> str:
    base, peak = fleet.base.listing.offer, fleet.peak.listing.offer
    return f"{base.provider}/{base.offer} + {peak.provider}/{peak.offer} ({base.gpu})"
