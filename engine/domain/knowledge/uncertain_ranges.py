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
    """The range of ``entry``'s figure (KeyError where the figure is missing). The throughput estimate's
    error is the calibration's, worked out by ``calc.calibration.estimate_error_range``."""
    if entry.applies_to == "throughput_error":
        raise ValueError("the throughput estimate's error is worked out by the calibration")
    if entry.applies_to == "rule_threshold":
        high = knowledge.threshold(entry.figure)
        low = knowledge.threshold(entry.low_figure or "")
        return KnownRange(low.value, high.value, high.value, high.unit, high.source, high.as_of)
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
        and selector.document in (None, o.source.document)
    )


def uncertainty_problems(knowledge: Knowledge, directory: Path) -> list[str]:
    """Each input names a figure that exists and is a range (low below high), once; an offer price
    selects at least one offer; a rule threshold's band is two thresholds in one unit; the throughput
    estimate's error names a calibration set with throughput measurements and cites its source."""
    problems = []
    seen: set[str] = set()
    for entry in knowledge.uncertainty.inputs:
        where = f"{directory / 'uncertainty.yaml'}: entry {entry.id!r}"
        if entry.id in seen:
            problems.append(f"{where}: field id: given twice")
        seen.add(entry.id)
        kind = _kind_problems(entry, knowledge)
        problems.extend(f"{where}: {problem}" for problem in kind)
        if kind or entry.applies_to == "throughput_error":
            continue
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


def _kind_problems(entry: UncertainInput, knowledge: Knowledge) -> list[str]:
    """What only some kinds of input give: a calibration set with throughput measurements and a source
    for the throughput estimate's error; a lower threshold in the same unit for a rule threshold."""
    problems = []
    if (entry.applies_to == "rule_threshold") != (entry.low_figure is not None):
        problems.append("field low_figure: given for rule_threshold, and only for it")
    if (entry.applies_to == "throughput_error") != (entry.source is not None):
        problems.append(
            "field source: given for throughput_error, and only for it (the others cite their figure)"
        )
    if entry.applies_to == "throughput_error":
        measured = [
            m
            for m in knowledge.calibration.measurements
            if m.split == entry.figure and (m.output_tokens_per_second or m.total_tokens_per_second)
        ]
        if not measured:
            problems.append(f"field figure: no calibration set {entry.figure!r} with throughput measurements")
        if entry.shape == "lognormal":
            problems.append("field shape: an error from minus to plus its size cannot be lognormal")
    if entry.applies_to == "rule_threshold" and entry.low_figure is not None:
        known = knowledge.threshold_values()
        for name in (entry.figure, entry.low_figure):
            if name not in known:
                problems.append(
                    f"field {'figure' if name == entry.figure else 'low_figure'}: no threshold {name!r}"
                )
        if entry.figure in known and entry.low_figure in known:
            high, low = knowledge.threshold(entry.figure), knowledge.threshold(entry.low_figure)
            if high.unit != low.unit:
                problems.append(
                    f"field low_figure: {low.unit!r} is not the unit of {entry.figure!r} ({high.unit!r})"
                )
    return problems
