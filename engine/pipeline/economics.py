"""Stage 3: the economics fact: what the API, the cheapest rentals and an owned server cost."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpu_advisor.engine.calc.listings import PricedListing, cheapest_option, cheapest_priced, to_option
from gpu_advisor.engine.calc.own_hardware import break_even_at
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.results import ApiCost, Option, OwnHardware
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.rulebook.facts import EconomicsFact
from gpu_advisor.engine.rulebook.schema import Rulebook


@dataclass(frozen=True)
class Alternatives:
    """The options the economics rules compare the best one with."""

    best: Option | None
    best_listing: PricedListing | None
    """The priced listing ``best`` was made of."""
    rent_against: Option | None
    """Cheapest admitted rental of the own server's GPU: the price buying must beat."""
    hyperscaler: Option | None
    without_residency: Option | None
    """Cheapest option that only residency rules exclude (for the EU premium)."""
    reference: Option | None
    quantized: Option | None
    quantized_precision: str | None
    quantized_weights_gb: float


def other_prices(knowledge: Knowledge, best: Option | None) -> str:
    if best is None:
        return ""
    labels = [
        f"{o.offer} ${o.usd_per_gpu_hour:.2f} ({o.pricing.replace('_', '-')}, {o.as_of.isoformat()})"
        for o in knowledge.offers.offers
        if o.provider == best.provider and o.gpu == best.gpu and o.offer != best.offer
    ]
    return "; ".join(labels)


def serverless_estimate(knowledge: Knowledge, dedicated_usd_per_month: float, utilization: float) -> float:
    """Serverless bills the hours used; at the break-even utilization it costs as much as a dedicated
    GPU. The documents give that break-even (30 to 50 %), not a price: the estimate scales the dedicated
    cost by utilization over the band's top, where the rules still recommend serverless for variable load."""
    break_even = knowledge.threshold("serverless_break_even_utilization").value
    return dedicated_usd_per_month * utilization / break_even


def economics_fact(
    knowledge: Knowledge,
    server: OwnServer,
    resolved: ResolvedWorkload,
    alternatives: Alternatives,
    compared_api: ApiCost | None,
    own: OwnHardware,
    evaluated_on: dt.date,
    *,
    serverless_ruled_out: bool = False,
) -> EconomicsFact:
    best, reference, quantized = alternatives.best, alternatives.reference, alternatives.quantized
    hyperscaler, non_eu = alternatives.hyperscaler, alternatives.without_residency
    rent_price = alternatives.rent_against.usd_per_gpu_hour if alternatives.rent_against else None
    best_monthly = best.usd_per_month if best else 0.0
    utilization = resolved.utilization or 0.0
    serverless = serverless_estimate(knowledge, best_monthly, utilization)
    # The API is compared with the self-hosted route the rules can propose: serverless only inside the
    # bands where DEP007 (any load) and DEP008 (variable load) propose it. This mirrors their conditions
    # on the same thresholds; tests/test_serverless_estimate.py holds the two together.
    band_low = knowledge.threshold("serverless_utilization_low").value
    band_high = knowledge.threshold("serverless_utilization_high").value
    serverless_in_band = utilization < band_low or (
        resolved.load_pattern == "variable" and utilization < band_high
    )
    serverless_counts = best is not None and serverless_in_band and not serverless_ruled_out
    self_hosted = min(best_monthly, serverless) if serverless_counts else best_monthly
    return EconomicsFact(
        requests_per_day=resolved.requests_per_day,
        load_pattern=resolved.load_pattern,
        utilization=float(utilization),
        model_stable=resolved.model_stable,
        on_premises_required=resolved.on_premises_required,
        custom_weights=resolved.custom_weights,
        has_eligible_option=best is not None,
        best_option_usd_per_month=float(best_monthly),
        best_option_price_age_days=(evaluated_on - best.as_of).days if best else 0,
        api_priced=compared_api is not None,
        api_name=compared_api.name if compared_api else "",
        api_model_params_b=float(compared_api.model_params_b or 0.0) if compared_api else 0.0,
        params_b=float(resolved.params_b),
        api_usd_per_month=float(compared_api.usd_per_month) if compared_api else 0.0,
        serverless_usd_per_month=float(serverless),
        self_hosted_usd_per_month=float(self_hosted),
        self_hosted_is_estimate=self_hosted < best_monthly,  # only the serverless estimate undercuts it
        own_hardware_applicable=own.applicable,
        own_usd_per_month=float(own.usd_per_month),
        own_usd_per_gpu_hour=float(own.usd_per_gpu_hour.total),
        rent_usd_per_gpu_hour=float(rent_price or 0.0),
        break_even_utilization=float(own.break_even_utilization or 0.0),
        node_utilization=float(own.node_utilization),
        node_has_idle_gpus=own.gpus_needed < own.nodes * server.gpus_per_server,
        replica_gpus_on_server_gpu=own.gpus_needed,
        server_gpus=server.gpus_per_server,
        utilization_given=resolved.utilization_source == "input",
        load_utilization=float(best.utilization) if best else 0.0,
        utilization_gap=(
            abs(float(resolved.utilization or 0.0) - best.utilization)
            if best and resolved.utilization_source == "input"
            else 0.0
        ),
        rent_comparison_available=rent_price is not None,
        break_even_low_price=break_even_at(server, rent_price, "server_price_usd", server.price_usd_low),
        break_even_high_price=break_even_at(server, rent_price, "server_price_usd", server.price_usd_high),
        break_even_residual=break_even_at(server, rent_price, "residual", server.residual_share_scenario),
        latency_sensitive=resolved.latency_sensitive,
        personal_data=resolved.personal_data,
        best_option_provider=best.provider if best else "",
        best_option_provider_kind=best.provider_kind if best else "",
        best_option_offer=best.offer if best else "",
        best_option_gpu=best.gpu if best else "",
        best_option_gpus=best.gpus if best else 0,
        best_option_pricing=best.pricing if best else "",
        best_option_usd_per_hour=float(best.usd_per_hour) if best else 0.0,
        best_option_tdp_watts=float(knowledge.gpu(best.gpu).tdp_watts) if best else 0.0,
        server_gpu_watts=float(server.gpu_watts),
        best_option_has_other_prices=bool(other_prices(knowledge, best)),
        best_option_other_prices=other_prices(knowledge, best),
        hyperscaler_option_available=hyperscaler is not None,
        hyperscaler_best_usd_per_month=float(hyperscaler.usd_per_month) if hyperscaler else 0.0,
        saving_vs_hyperscaler=1 - best_monthly / hyperscaler.usd_per_month if hyperscaler and best else 0.0,
        non_eu_cheaper=bool(
            resolved.personal_data and best and non_eu and non_eu.usd_per_month < best_monthly
        ),
        non_eu_best_usd_per_month=float(non_eu.usd_per_month) if non_eu else 0.0,
        eu_premium=best_monthly / non_eu.usd_per_month - 1 if best and non_eu else 0.0,
        reference_gpu=knowledge.sizing.reference_gpu.gpu,
        reference_option_available=reference is not None,
        reference_gpus=reference.gpus if reference else 0,
        reference_usd_per_hour=float(reference.usd_per_hour) if reference else 0.0,
        best_fewer_cards_than_reference=bool(best and reference and best.gpus < reference.gpus),
        quantization_available=alternatives.quantized_precision is not None,
        quantized_precision=alternatives.quantized_precision or "",
        quantized_has_option=quantized is not None,
        quantized_best_usd_per_month=float(quantized.usd_per_month) if quantized else 0.0,
        quantized_best_gpu=quantized.gpu if quantized else "",
        quantized_best_gpus=quantized.gpus if quantized else 0,
        quantized_weights_gb=float(alternatives.quantized_weights_gb),
    )


def choose_alternatives(
    knowledge: Knowledge,
    server: OwnServer,
    priced: Sequence[PricedListing],
    preferred_pricing: str | None,
    residency_rule_ids: frozenset[str],
    quantized_best: Option | None,
    quantized_precision: str | None,
    quantized_weights_gb: float,
) -> Alternatives:
    """The cheapest admitted option of each kind the economics rules compare; ``priced`` cheapest first."""
    server_gpu = server.gpu
    reference_gpu = knowledge.sizing.reference_gpu.gpu

    def admitted_on(gpu: str) -> Callable[[PricedListing], bool]:
        return lambda p: not p.excluded_by and p.listing.offer.gpu == gpu

    best_listing = cheapest_priced(priced, preferred_pricing)
    return Alternatives(
        best=to_option(best_listing) if best_listing is not None else None,
        best_listing=best_listing,
        rent_against=cheapest_option(priced, preferred_pricing, admitted_on(server_gpu)),
        hyperscaler=cheapest_option(
            priced,
            preferred_pricing,
            lambda p: not p.excluded_by and p.listing.attributes["provider_kind"] == "hyperscaler",
        ),
        without_residency=cheapest_option(
            priced,
            preferred_pricing,
            lambda p: bool(p.excluded_by) and set(p.excluded_by) <= residency_rule_ids,
        ),
        reference=cheapest_option(priced, preferred_pricing, admitted_on(reference_gpu)),
        quantized=quantized_best,
        quantized_precision=quantized_precision,
        quantized_weights_gb=quantized_weights_gb,
    )


@per_object
def residency_rule_ids(rulebook: Rulebook) -> frozenset[str]:
    return frozenset(rule.id for rule in rulebook.rules if rule.topic == "residency")


def derived_utilization(
    resolved: ResolvedWorkload, best: Option | None, plans: dict[str, ReplicaPlan], knowledge: Knowledge
) -> tuple[float, str]:
    """The utilization the rules read: the input's, else the load on the cheapest admitted option's
    replicas, else (no option) on the reference GPU's, else the load pattern's assumption."""
    if resolved.utilization is not None:
        return resolved.utilization, "input"
    if best is not None:
        return best.utilization, "derived"
    reference = plans.get(knowledge.sizing.reference_gpu.gpu)
    if reference is not None:
        return reference.utilization, "derived"
    return resolved.fallback_utilization(knowledge), "load_pattern_default"
