"""The range behind each uncertain input: its low, high and point value, read from the knowledge value it
names, with that value's source and date; and the load-time checks of ``uncertainty.yaml``."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Citation, Offer
from gpu_advisor.engine.domain.knowledge.uncertainty import UncertainInput


@dataclass(frozen=True)
class KnownRange:
    low: float
    high: float
    point: float
    """The value a run without scenarios uses."""
    unit: str
    source: Citation
    as_of: dt.date


def known_range(entry: UncertainInput, knowledge: Knowledge) -> KnownRange:
    """The range of ``entry``'s figure (KeyError where the figure is missing)."""
    if entry.applies_to == "own_server_price":
        server = knowledge.own_server(entry.figure)
        return KnownRange(
            server.price_usd_low, server.price_usd_high, server.price_usd, "USD", server.source, server.as_of
        )
    if entry.applies_to == "eu_region_premium":
        if entry.figure != "eu_region_premium":
            raise KeyError(entry.figure)
        premium = knowledge.pricing_assumptions.eu_region_premium
        return KnownRange(
            premium.value_low, premium.value_high, premium.value, "share", premium.source, premium.as_of
        )
    figure = knowledge.figure(entry.figure)
    midpoint = (figure.value_low + figure.value_high) / 2
    return KnownRange(figure.value_low, figure.value_high, midpoint, figure.unit, figure.source, figure.as_of)


def selected_offers(entry: UncertainInput, offers: tuple[Offer, ...]) -> tuple[Offer, ...]:
    """The offers a drawn value of ``entry`` re-prices."""
    if entry.applies_to == "spot_discount":
        return tuple(o for o in offers if o.pricing == "spot")
    selector = entry.offers
    if entry.applies_to != "offer_price" or selector is None:
        return ()
    return tuple(
        o
        for o in offers
        if o.provider == selector.provider
        and selector.gpu in (None, o.gpu)
        and selector.pricing in (None, o.pricing)
    )


def uncertainty_problems(knowledge: Knowledge, directory: Path) -> list[str]:
    """Each input names a figure that exists and is a range (low below high), once; an offer price
    selects at least one offer."""
    problems = []
    seen: set[str] = set()
    for entry in knowledge.uncertainty.inputs:
        where = f"{directory / 'uncertainty.yaml'}: entry {entry.id!r}"
        if entry.id in seen:
            problems.append(f"{where}: field id: given twice")
        seen.add(entry.id)
        try:
            found = known_range(entry, knowledge)
        except KeyError:
            problems.append(
                f"{where}: field figure: no knowledge value {entry.figure!r} for {entry.applies_to}"
            )
            continue
        if not found.low < found.high:
            problems.append(f"{where}: field figure: {entry.figure!r} is a single value, not a range")
        if entry.shape == "lognormal" and found.low <= 0:
            problems.append(f"{where}: field shape: a lognormal range needs a low above 0")
        if (entry.applies_to == "offer_price") != (entry.offers is not None):
            problems.append(f"{where}: field offers: given for offer_price, and only for it")
        elif entry.applies_to == "offer_price" and not selected_offers(entry, knowledge.offers.offers):
            problems.append(f"{where}: field offers: selects no offer of the catalog")
    return problems
