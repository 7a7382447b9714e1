"""Stage 4, economics: the market condensed into the ``economics`` fact the deployment, pricing, provider
and TCO rules read, and the details their messages show."""

from __future__ import annotations

import datetime as dt

from gpu_advisor.engine.calc.own_hardware import break_even_at
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import Option
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.constraints import Constraints
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.rulebook.details import EconomicsDetails, OtherPrice
from gpu_advisor.engine.rulebook.durable import FactSession, Firing
from gpu_advisor.engine.rulebook.facts import EconomicsFact, Fact


def other_prices(knowledge: Knowledge, best: Option | None) -> tuple[OtherPrice, ...]:
    """The best option's provider's other catalog prices for the same GPU."""
    if best is None:
        return ()
    return tuple(
        OtherPrice(offer=o.offer, usd_per_gpu_hour=o.usd_per_gpu_hour, pricing=o.pricing, as_of=o.as_of)
        for o in knowledge.offers.offers
        if o.provider == best.provider and o.gpu == best.gpu and o.offer != best.offer
    )


def serverless_estimate(knowledge: Knowledge, dedicated_usd_per_month: float, utilization: float) -> float:
    """Serverless bills the hours used; at the break-even utilization it costs as much as a dedicated
    GPU. The documents give that break-even (30 to 50 %), not a price: the estimate scales the dedicated
    cost by utilization over the band's top, where the rules still recommend serverless for variable load."""
    break_even = knowledge.threshold("serverless_break_even_utilization").value
    return dedicated_usd_per_month * utilization / break_even


def self_hosted_cost(
    knowledge: Knowledge, resolved: ResolvedWorkload, market: Market, serverless_ruled_out: bool
) -> tuple[float, float]:
    """The serverless estimate, and the self-hosted route the API is compared with: the best rental, or
    the serverless estimate inside the bands where DEP007 (any load) and DEP008 (variable load) propose
    it. This mirrors their conditions on the same thresholds; tests/test_serverless_estimate.py holds the
    two together."""
    best = market.alternatives.best
    best_monthly = best.usd_per_month if best else 0.0
    utilization = resolved.utilization or 0.0
    serverless = serverless_estimate(knowledge, best_monthly, utilization)
    band_low = knowledge.threshold("serverless_utilization_low").value
    band_high = knowledge.threshold("serverless_utilization_high").value
    in_band = utilization < band_low or (resolved.load_pattern == "variable" and utilization < band_high)
    counts = best is not None and in_band and not serverless_ruled_out
    return serverless, min(best_monthly, serverless) if counts else best_monthly


def economics_fact(
    knowledge: Knowledge,
    resolved: ResolvedWorkload,
    market: Market,
    self_hosted: float,
    evaluated_on: dt.date,
) -> EconomicsFact:
    alternatives, own, server, api = market.alternatives, market.own, market.server, market.compared_api
    best, reference, quantized = alternatives.best, alternatives.reference, alternatives.quantized
    hyperscaler, non_eu = alternatives.hyperscaler, alternatives.without_residency
    best_monthly = best.usd_per_month if best else 0.0
    given = resolved.utilization_source == "input"
    return EconomicsFact(
        utilization=float(resolved.utilization or 0.0),
        has_eligible_option=best is not None,
        best_option_usd_per_month=float(best_monthly),
        best_option_price_age_days=(evaluated_on - best.as_of).days if best else 0,
        best_option_provider=best.provider if best else "",
        best_option_provider_kind=best.provider_kind if best else "",
        best_option_pricing=best.pricing if best else "",
        best_option_tdp_watts=float(knowledge.gpu(best.gpu).tdp_watts) if best else 0.0,
        best_option_has_other_prices=bool(other_prices(knowledge, best)),
        server_gpu_watts=float(server.gpu_watts),
        api_priced=api is not None,
        api_usd_per_month=float(api.usd_per_month) if api else 0.0,
        api_model_params_b=float(api.model_params_b or 0.0) if api else 0.0,
        self_hosted_usd_per_month=float(self_hosted),
        own_hardware_applicable=own.applicable,
        own_usd_per_month=float(own.usd_per_month),
        node_utilization=float(own.node_utilization),
        node_has_idle_gpus=own.gpus_needed < own.nodes * server.gpus_per_server,
        rent_comparison_available=alternatives.rent_against is not None,
        break_even_utilization=float(own.break_even_utilization or 0.0),
        utilization_given=given,
        utilization_gap=abs(float(resolved.utilization or 0.0) - best.utilization) if best and given else 0.0,
        hyperscaler_option_available=hyperscaler is not None,
        saving_vs_hyperscaler=1 - best_monthly / hyperscaler.usd_per_month if hyperscaler and best else 0.0,
        non_eu_cheaper=bool(
            resolved.personal_data and best and non_eu and non_eu.usd_per_month < best_monthly
        ),
        reference_option_available=reference is not None,
        best_fewer_cards_than_reference=bool(best and reference and best.gpus < reference.gpus),
        quantization_available=alternatives.quantized_precision is not None,
        quantized_has_option=quantized is not None,
        quantized_best_usd_per_month=float(quantized.usd_per_month) if quantized else 0.0,
    )


def economics_details(
    knowledge: Knowledge, market: Market, serverless: float, self_hosted: float
) -> EconomicsDetails:
    alternatives, own, server, api = market.alternatives, market.own, market.server, market.compared_api
    best, reference, quantized = alternatives.best, alternatives.reference, alternatives.quantized
    non_eu = alternatives.without_residency
    best_monthly = best.usd_per_month if best else 0.0
    rent_price = alternatives.rent_against.usd_per_gpu_hour if alternatives.rent_against else None
    return EconomicsDetails(
        api_name=api.name if api else "",
        self_hosted_is_estimate=self_hosted < best_monthly,  # only the serverless estimate undercuts it
        serverless_usd_per_month=serverless,
        own_usd_per_gpu_hour=own.usd_per_gpu_hour.total,
        rent_usd_per_gpu_hour=rent_price or 0.0,
        replica_gpus_on_server_gpu=own.gpus_needed,
        server_gpus=server.gpus_per_server,
        load_utilization=best.utilization if best else 0.0,
        break_even_low_price=break_even_at(server, rent_price, "server_price_usd", server.price_usd_low),
        break_even_high_price=break_even_at(server, rent_price, "server_price_usd", server.price_usd_high),
        break_even_residual=break_even_at(server, rent_price, "residual", server.residual_share_scenario),
        best_option_offer=best.offer if best else "",
        best_option_gpu=best.gpu if best else "",
        best_option_gpus=best.gpus if best else 0,
        best_option_usd_per_hour=best.usd_per_hour if best else 0.0,
        best_option_other_prices=other_prices(knowledge, best),
        hyperscaler_best_usd_per_month=alternatives.hyperscaler.usd_per_month
        if alternatives.hyperscaler
        else 0.0,
        non_eu_best_usd_per_month=non_eu.usd_per_month if non_eu else 0.0,
        eu_premium=best_monthly / non_eu.usd_per_month - 1 if best and non_eu else 0.0,
        reference_gpu=knowledge.sizing.reference_gpu.gpu,
        reference_gpus=reference.gpus if reference else 0,
        reference_usd_per_hour=reference.usd_per_hour if reference else 0.0,
        quantized_precision=alternatives.quantized_precision or "",
        quantized_best_gpu=quantized.gpu if quantized else "",
        quantized_best_gpus=quantized.gpus if quantized else 0,
        quantized_weights_gb=alternatives.quantized_weights_gb,
    )


def weigh_economics(
    session: FactSession,
    facts: Fact,
    resolved: ResolvedWorkload,
    market: Market,
    constraints: Constraints,
    knowledge: Knowledge,
    evaluated_on: dt.date,
) -> tuple[list[Firing], EconomicsDetails]:
    """Assert the economics fact; its firings and the details their messages show. A rule that already
    ruled serverless out (residency, an organization's policy) keeps its estimate out of the API
    comparison."""
    serverless, self_hosted = self_hosted_cost(
        knowledge, resolved, market, "serverless" in constraints.ruled_out
    )
    fact = economics_fact(knowledge, resolved, market, self_hosted, evaluated_on)
    firings = session.assert_fact(fact, facts)
    return firings, economics_details(knowledge, market, serverless, self_hosted)
