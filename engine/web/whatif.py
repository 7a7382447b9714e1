"""What-if on the memo page: the utilization and the requests per day as sliders with the points where
the decision flips marked on them (found as ``gpu-advisor sweep`` finds them: the decision at each value,
neighbours that differ), and a price per GPU-hour or for the own server set in place (a copy of the
knowledge base, as ``sweep --vary price:...`` and ``server_price_usd`` make one)."""

from __future__ import annotations

import copy
import datetime as dt
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gpu_advisor.engine.apps.recommend import decide_workload
from gpu_advisor.engine.apps.sweep.model import SweepDecision, SweepFlip, Value
from gpu_advisor.engine.apps.sweep.run import Labels, flips_along, point
from gpu_advisor.engine.apps.sweep.variables import Variable, apply_knowledge, resolve_variable
from gpu_advisor.engine.common.errors import InputError, unknown_value
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.reading import number_text

UTILIZATION_VALUES: tuple[Value, ...] = tuple(round(0.05 * step, 2) for step in range(1, 21))
"""The utilization slider: 5 % to 100 % in steps of 5 %."""

R10 = (1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8)
REQUEST_VALUES: tuple[Value, ...] = (*(round(b * 10**p) for p in range(3, 7) for b in R10), 10_000_000)
"""The requests-per-day slider: 1,000 to 10,000,000 on a log scale, ten steps a decade (the R10 series)."""

OFFER_PRICE = "whatif.offer_price"
OFFER_KEY = "whatif.offer"
SERVER_PRICE = "whatif.server_price"
WHATIF_PARAMETERS = (OFFER_PRICE, OFFER_KEY, SERVER_PRICE)


@dataclass(frozen=True)
class Flip:
    below: Value
    above: Value
    position: float
    """Where between the slider's ends the flip lies, 0 to 1 (between its two values)."""
    before: SweepDecision
    after: SweepDecision


@dataclass(frozen=True)
class Slider:
    field: str
    values: tuple[Value, ...]
    index: int
    """The slider's position: the value of the answers, or the nearest one on the slider."""
    value: Value | None
    flips: tuple[Flip, ...]


@dataclass(frozen=True)
class PriceChange:
    """A price set on the page: per GPU-hour of one offer, or the own server's; in USD."""

    offer_key: str | None = None
    offer_usd_per_gpu_hour: float | None = None
    server_usd: float | None = None

    @property
    def empty(self) -> bool:
        return self.offer_usd_per_gpu_hour is None and self.server_usd is None


def read_price_change(params: Mapping[str, str], usd_per_unit: float, lang: str = "en") -> PriceChange:
    """The what-if prices of a query string, in the page's currency (worth ``usd_per_unit`` USD a unit),
    as USD, read as the page's language writes numbers ('300,000' in English and '300.000' in German are
    three hundred thousand, as the boxes' placeholders show them); an ``InputError`` names the field of a
    price that is no positive number."""
    scale = usd_per_unit

    def amount(name: str) -> float | None:
        text = params.get(name, "").strip()
        if not text:
            return None
        cleaned = number_text(text, lang)
        try:
            if cleaned is None:
                raise ValueError(text)
            value = float(cleaned)
        except ValueError:
            raise InputError(f"{name}: {text!r} is not a number", field=name) from None
        if not math.isfinite(value) or value <= 0:
            raise InputError(f"{name}: a price must be greater than 0", field=name)
        return value * scale

    key = params.get(OFFER_KEY, "").strip() or None
    offer_price = amount(OFFER_PRICE)
    return PriceChange(key if offer_price is not None else None, offer_price, amount(SERVER_PRICE))


def priced_knowledge(change: PriceChange, knowledge: Knowledge, server_id: str) -> Knowledge:
    """A copy of the knowledge base with the prices set; an ``InputError`` for an unknown offer or a
    price outside the bounds an overrides file has."""
    if change.offer_key and change.offer_usd_per_gpu_hour is not None:
        key = change.offer_key
        known = [o.key for o in knowledge.offers.offers]
        if key not in known:
            # Said as the page's offer box, not as the price (which may be fine) or as sweep's --vary.
            raise InputError(unknown_value(OFFER_KEY, key, known), field=OFFER_KEY)
        variable = resolve_variable(f"price:{key}", knowledge)
        knowledge = apply_knowledge(variable, change.offer_usd_per_gpu_hour, knowledge, server_id)
    if change.server_usd is not None:
        variable = Variable("server_price_usd", "knowledge", "server_price_usd", False)
        knowledge = apply_knowledge(variable, change.server_usd, knowledge, server_id)
    return knowledge


def sliders(
    document: dict[str, Any], result: Recommendation, evaluated_on: dt.date, change: PriceChange
) -> tuple[Slider, Slider]:
    """The utilization and requests-per-day sliders of a workload, each with its flip points (the other
    answers as they are)."""
    text = json.dumps(document, sort_keys=True)
    utilization = document.get("utilization", result.workload.utilization)
    return (
        slider("utilization", UTILIZATION_VALUES, utilization, text, evaluated_on, change),
        slider(
            "requests_per_day", REQUEST_VALUES, document.get("requests_per_day"), text, evaluated_on, change
        ),
    )


def slider(
    field: str,
    values: tuple[Value, ...],
    current: Value | None,
    document: str,
    evaluated_on: dt.date,
    change: PriceChange,
) -> Slider:
    index = nearest(values, current) if current is not None else len(values) - 1
    return Slider(field, values, index, current, flips(document, field, values, evaluated_on, change))


def nearest(values: tuple[Value, ...], value: Value) -> int:
    """The slider position of ``value`` (on a log scale for requests per day)."""
    measure = math.log10 if min(values) >= 1 else (lambda v: v)
    return min(range(len(values)), key=lambda i: abs(measure(values[i]) - measure(max(value, 1e-9))))


@lru_cache(maxsize=64)
def flips(
    document: str, field: str, values: tuple[Value, ...], evaluated_on: dt.date, change: PriceChange
) -> tuple[Flip, ...]:
    """Where the decision changes along the slider's values, the other answers fixed; a value the
    workload cannot take (a utilization with a load that needs more) is left out."""
    data = json.loads(document)
    knowledge = load_knowledge()
    if not change.empty:
        from gpu_advisor.engine.apps.recommend import recommend

        base = recommend(validate_workload(data, "form"), evaluated_on, knowledge=knowledge)
        knowledge = priced_knowledge(change, knowledge, base.own_hardware.server)
    labels = Labels()
    points = []
    for value in values:
        case = copy.deepcopy(data)
        case[field] = value
        try:
            summary = decide_workload(validate_workload(case, "what-if"), evaluated_on, knowledge=knowledge)
        except InputError:
            continue
        points.append(point((value,), summary, labels))
    decisions = {d.label: d for d in labels.decisions()}
    found: list[SweepFlip] = flips_along(points, 0, field, decisions, {})
    span = len(values) - 1
    return tuple(
        Flip(
            below=f.below,
            above=f.above,
            position=(values.index(f.below) + 0.5) / span,
            before=decisions[f.from_decision],
            after=decisions[f.to_decision],
        )
        for f in found
    )
