"""The inputs a scenario run draws: the knowledge base's uncertain figures (``knowledge/uncertainty.yaml``),
the workload's ranges, and the ranges an overrides file replaces."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from gpu_advisor.engine.calc.calibration import estimate_error_range
from gpu_advisor.engine.common.errors import InputError, close_match
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.distributions import Range
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite
from gpu_advisor.engine.domain.knowledge.uncertain_ranges import KnownRange, known_range
from gpu_advisor.engine.domain.knowledge.uncertainty import UncertainInput
from gpu_advisor.engine.domain.overrides import Overrides
from gpu_advisor.engine.domain.robustness import ScenarioInput
from gpu_advisor.engine.domain.workload_ranges import MAX_REQUESTS_PER_DAY, WorkloadRanges

REQUESTS = "requests_per_day"
GROWTH = "volume_growth"


@dataclass(frozen=True)
class Drawn:
    """One input as drawn: its summary for the result, its range, and the knowledge entry it moves."""

    summary: ScenarioInput
    range: Range
    group: str
    entry: UncertainInput | None
    """None for the workload's own ranges."""

    @property
    def held_at(self) -> float:
        """The value this input keeps while another moves alone (``run.one_at_a_time``): its point value,
        but volume growth at its range's point value (``ScenarioInput.held_at``), as every scenario grows
        the volume (a memo's point values are today's volume, the scenarios' next year's)."""
        held = self.summary.held_at
        return held if held is not None else self.summary.point

    @property
    def moves(self) -> bool:
        """The range has a width: a growth the workload file gives as one number does not move."""
        return self.summary.high > self.summary.low


def scenario_inputs(
    knowledge: Knowledge, ranges: WorkloadRanges, overrides: Overrides | None
) -> tuple[Drawn, ...]:
    """Every input in a fixed order: the knowledge base's, then the workload's. An input whose point value
    an overrides file replaced (your server price, your rate for an offer it re-prices) is left out unless
    the file gives its range too."""
    replaced = dict(overrides.ranges) if overrides is not None else {}
    known_ids = [entry.id for entry in knowledge.uncertainty.inputs] + [REQUESTS, GROWTH]
    for name in replaced:
        if name not in known_ids:
            suggestion = close_match(name, known_ids)
            hint = f" (did you mean {suggestion!r}?)" if suggestion else ""
            raise InputError(
                f"ranges.{name}: no uncertain input of that name; allowed: {', '.join(known_ids)}{hint}",
                field=f"ranges.{name}",
            )
    drawn = [
        d
        for entry in knowledge.uncertainty.inputs
        if (d := _knowledge_input(entry, knowledge, replaced, overrides))
    ]
    for name in (REQUESTS, GROWTH):
        if name in replaced:
            within_bounds(name, replaced[name], FIGURE_BOUNDS[name])
    requests = replaced.get(REQUESTS) or ranges.requests_per_day
    if requests is not None:
        drawn.append(
            _workload_input(REQUESTS, "requests a day", "requests per day", requests, REQUESTS in replaced)
        )
    growth = replaced.get(GROWTH) or ranges.volume_growth
    if growth is not None:
        drawn.append(
            _workload_input(GROWTH, "volume growth within a year", "share", growth, GROWTH in replaced)
        )
    return tuple(drawn)


class Bounds(NamedTuple):
    """Where a figure may lie: above (or from) ``floor``, below (or up to) ``ceiling``."""

    floor: float
    floor_allowed: bool
    ceiling: float | None
    ceiling_allowed: bool
    said: Words


_SHARE = Bounds(0.0, True, 1.0, False, Words("a share from 0 to below 1"))
FIGURE_BOUNDS: dict[str, Bounds] = {
    "own_server_price": Bounds(0.0, False, None, False, Words("above 0")),
    "offer_price": Bounds(0.0, False, None, False, Words("above 0")),
    "eu_region_premium": _SHARE,
    "spot_discount": _SHARE,
    "rule_threshold": _SHARE,
    # Each replica carries 1 / (1 + error) of its estimated rate: -1 (-100 %) would be no limit at all.
    "throughput_error": Bounds(-1.0, False, 1.0, True, Words("above -1 and at most 1 (-100 %% to +100 %%)")),
    REQUESTS: Bounds(0.0, False, MAX_REQUESTS_PER_DAY, True, Words("above 0, at most the workload's limit")),
    GROWTH: Bounds(-1.0, False, 100.0, True, Words("above -1 (-100 %%) and at most 100")),
}
"""Where a range of your own may lie, by what it replaces (``UncertainInput.applies_to``, or the
workload's two ranges): the bounds of the figure itself (a price above 0, a discount or premium a share
below 1), as ``Overrides`` holds an offer's rate to an offer's. Ranges outside them drew spot discounts
above 100 %, a throughput error of -100 % and negative requests."""


def within_bounds(name: str, span: Range, bounds: Bounds) -> None:
    """Refuse a range of your own outside its figure's bounds, naming the field (``ranges.NAME.low``)."""
    for side, value in (("low", span.low), ("high", span.high)):
        below = value < bounds.floor or (value == bounds.floor and not bounds.floor_allowed)
        above = bounds.ceiling is not None and (
            value > bounds.ceiling or (value == bounds.ceiling and not bounds.ceiling_allowed)
        )
        if below or above:
            raise InputError(
                Words(
                    "ranges.%(name)s.%(side)s: %(value)s is outside the figure's bounds: %(allowed)s",
                    name=name,
                    side=side,
                    value=f"{value:g}",
                    allowed=bounds.said,
                ),
                field=f"ranges.{name}.{side}",
            )


def _fixed_by_overrides(entry: UncertainInput, overrides: Overrides | None) -> bool:
    if overrides is None:
        return False
    if entry.applies_to == "own_server_price":
        server = overrides.own_server
        return server is not None and (server.price_usd is not None or server.price_eur is not None)
    return False


def _knowledge_input(
    entry: UncertainInput, knowledge: Knowledge, replaced: dict[str, Range], overrides: Overrides | None
) -> Drawn | None:
    found = _known(entry, knowledge)
    # The server's price is a purchase: where the knowledge base's copy carries the VAT a company cannot
    # recover, its range does too, the documents' raised with the catalog's price (``gross_prices``) and
    # yours here, taken as net as your price is.
    vat = knowledge.vat_rates.applied if entry.applies_to == "own_server_price" else None
    if entry.id in replaced:
        mine = replaced[entry.id]
        within_bounds(entry.id, mine, FIGURE_BOUNDS[entry.applies_to])
        if vat is not None:
            mine = _with_vat(mine, 1 + vat.rate)
        summary = ScenarioInput(
            id=entry.id,
            description=entry.description,
            origin="overrides",
            shape=mine.shape,
            low=mine.low,
            high=mine.high,
            point=found.point,
            unit=found.unit,
            source="your overrides file",
            as_of=None,
            vat_rate=vat.rate if vat is not None else None,
        )
        return Drawn(summary, mine, entry.group or entry.id, entry)
    if _fixed_by_overrides(entry, overrides):
        return None
    mode = found.point if entry.shape == "triangular" else None
    summary = ScenarioInput(
        id=entry.id,
        description=entry.description,
        origin="knowledge",
        shape=entry.shape,
        low=found.low,
        high=found.high,
        point=found.point,
        unit=found.unit,
        source=cite(found.source, knowledge),
        as_of=found.as_of,
        vat_rate=vat.rate if vat is not None else None,
    )
    span = Range(low=found.low, high=found.high, shape=entry.shape, mode=mode)
    return Drawn(summary, span, entry.group or entry.id, entry)


def _with_vat(span: Range, factor: float) -> Range:
    """``span`` with its ends (and mode) times ``factor``."""
    return span.model_copy(
        update={
            "low": span.low * factor,
            "high": span.high * factor,
            "mode": span.mode * factor if span.mode is not None else None,
        }
    )


def _known(entry: UncertainInput, knowledge: Knowledge) -> KnownRange:
    if entry.applies_to == "throughput_error":
        return estimate_error_range(knowledge, entry)
    return known_range(entry, knowledge)


def _workload_input(name: str, description: str, unit: str, span: Range, overridden: bool) -> Drawn:
    summary = ScenarioInput(
        id=name,
        description=description,
        origin="overrides" if overridden else "workload",
        shape=span.shape,
        low=span.low,
        high=span.high,
        point=span.point if name == REQUESTS else 0.0,
        held_at=span.point if name == GROWTH else None,
        unit=unit,
        source="your overrides file" if overridden else "the workload file",
        as_of=None,
    )
    return Drawn(summary, span, name, None)


def groups(inputs: Sequence[Drawn]) -> tuple[str, ...]:
    """The groups in order of first appearance: one draw each per scenario."""
    return tuple(dict.fromkeys(d.group for d in inputs))
