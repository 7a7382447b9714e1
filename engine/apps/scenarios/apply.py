"""One scenario's knowledge base and workload, its replicas' throughput and its rule thresholds: the drawn
values put in place of the point values. The copies change prices and the volume only, so the capacity and
GPU-fit stages can share the base's work (``evaluate(..., sizing_knowledge=base)``); the throughput and the
thresholds enter the evaluation apart from them (``throughput_factor``, ``drawn_thresholds``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpu_advisor.engine.apps.scenarios.inputs import GROWTH, REQUESTS, Drawn
from gpu_advisor.engine.domain.knowledge.base import LIST_PRICE_CLEARED, Knowledge, server_priced_at
from gpu_advisor.engine.domain.knowledge.entries import Offer
from gpu_advisor.engine.domain.knowledge.uncertain_ranges import selected_offers
from gpu_advisor.engine.domain.workload import WorkloadInput
from gpu_advisor.engine.domain.workload_ranges import MAX_REQUESTS_PER_DAY


def scenario_knowledge(
    base: Knowledge, inputs: Sequence[Drawn], values: Mapping[str, float], fixed_offers: frozenset[str]
) -> Knowledge:
    """``base`` with every knowledge input at its drawn value; offers in ``fixed_offers`` (your own
    rates, from an overrides file) keep their price."""
    update: dict[str, Any] = {}
    factors: dict[str, float] = {}
    ceilings: dict[str, float] = {}
    max_share = base.uncertainty.analysis.max_drawn_share.value  # a log-normal draw may pass one
    for drawn in inputs:
        entry, value = drawn.entry, values[drawn.summary.id]
        if entry is None or entry.applies_to in ("throughput_error", "rule_threshold"):
            continue
        if entry.applies_to == "own_server_price":
            servers = tuple(
                server_priced_at(s, value) if s.id == entry.figure else s for s in base.own_hardware.servers
            )
            update["own_hardware"] = base.own_hardware.model_copy(update={"servers": servers})
        elif entry.applies_to == "eu_region_premium":
            premium = base.pricing_assumptions.eu_region_premium.model_copy(
                update={"value": min(max(value, 0.0), max_share)}
            )
            update["pricing_assumptions"] = base.pricing_assumptions.model_copy(
                update={"eu_region_premium": premium}
            )
        elif entry.applies_to == "spot_discount":
            factor = (1 - min(value, max_share)) / (1 - drawn.summary.point)
            for offer in selected_offers(entry, base.offers.offers):
                ceiling = spot_ceiling(offer, base.offers.offers, drawn.range.low)
                if ceiling is None:
                    continue  # a market quote with no list price to be a discount off
                factors[offer.key] = factors.get(offer.key, 1.0) * factor
                ceilings[offer.key] = min(ceiling, ceilings.get(offer.key, ceiling))
        else:
            factor = max(value, 0.0) / drawn.summary.point
            for offer in selected_offers(entry, base.offers.offers):
                factors[offer.key] = factors.get(offer.key, 1.0) * factor
    if factors:
        offers = tuple(
            _scaled_offer(o, factors[o.key], ceilings.get(o.key))
            if o.key in factors and o.key not in fixed_offers
            else o
            for o in base.offers.offers
        )
        update["offers"] = base.offers.model_copy(update={"offers": offers})
    return base.model_copy(update=update) if update else base


def scenario_workload(workload: WorkloadInput, values: Mapping[str, float]) -> WorkloadInput:
    """The workload at the drawn volume times one plus the drawn growth."""
    if REQUESTS not in values and GROWTH not in values:
        return workload
    volume = values.get(REQUESTS, float(getattr(workload, REQUESTS))) * (1 + values.get(GROWTH, 0.0))
    requests = min(max(1, round(volume)), MAX_REQUESTS_PER_DAY)
    return workload.model_copy(update={"requests_per_day": requests})


def throughput_factor(inputs: Sequence[Drawn], values: Mapping[str, float], max_share: float) -> float:
    """What a replica carries against the estimate: 1 / (1 + the drawn error of the estimate), the error
    kept above minus ``max_share`` (an error of -100 % would be a replica of infinite throughput)."""
    factor = 1.0
    for drawn in inputs:
        if drawn.entry is not None and drawn.entry.applies_to == "throughput_error":
            factor /= 1 + max(values[drawn.summary.id], -max_share)
    return factor


def drawn_thresholds(inputs: Sequence[Drawn], values: Mapping[str, float]) -> dict[str, float]:
    """Rule threshold key -> its drawn value, for the rules engine (``RulesEngine.with_thresholds``)."""
    return {
        drawn.entry.figure: values[drawn.summary.id]
        for drawn in inputs
        if drawn.entry is not None and drawn.entry.applies_to == "rule_threshold"
    }


def spot_ceiling(spot: Offer, offers: Sequence[Offer], smallest_discount: float) -> float | None:
    """The most a drawn spot discount may move ``spot``'s price to: the range's smallest discount off the
    same provider's on-demand price for the GPU in a region the spot offer is sold in (its newest
    listing, the cheapest of those as new), or the spot offer's own listed price where that is higher
    already. None where the provider lists no such on-demand price (a marketplace's spot quote): the
    documents' discount is off a list price, and that quote is a market price of its own, so a drawn
    discount does not move it."""
    regions = set(spot.regions)
    on_demand = [
        o
        for o in offers
        if o.provider == spot.provider
        and o.gpu == spot.gpu
        and o.pricing == "on_demand"
        and regions.intersection(o.regions)
    ]
    if not on_demand:
        return None
    newest = max(o.as_of for o in on_demand)
    reference = min(o.usd_per_gpu_hour for o in on_demand if o.as_of == newest)
    return max(reference * (1 - smallest_discount), spot.usd_per_gpu_hour)


def _scaled_offer(offer: Offer, factor: float, ceiling: float | None = None) -> Offer:
    """``offer`` with its prices times ``factor``; with ``ceiling``, its price per GPU-hour at most that
    (and its other prices by the same ratio)."""
    price = offer.usd_per_gpu_hour * factor
    if ceiling is not None and price > ceiling:
        factor, price = ceiling / offer.usd_per_gpu_hour, ceiling
    update: dict[str, Any] = {"usd_per_gpu_hour": price, **LIST_PRICE_CLEARED}
    for name in ("usd_per_gpu_hour_low", "usd_per_gpu_hour_high", "instance_usd_per_hour"):
        figure = getattr(offer, name)
        if figure is not None:
            update[name] = figure * factor
    return offer.model_copy(update=update)
