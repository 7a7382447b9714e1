"""Serverless: every serverless product priced for the workload (part of the market), and the stage that
asserts the ``serverless`` fact, whose rules decide whether serverless is proposed. It comes before the
economics stage, which reads what they concluded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.serverless import (
    HourDemand,
    ProductMonth,
    ServerlessBill,
    ServerlessListing,
    ServerlessWorkload,
    product_month,
    serverless_bill,
    serverless_billing,
    serverless_listings,
)
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import Option
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.capacity import Capacity, ReplicaPlans
from gpu_advisor.engine.pipeline.constraints import Constraints
from gpu_advisor.engine.rulebook.details import ServerlessDetails
from gpu_advisor.engine.rulebook.durable import FactSession, Firing
from gpu_advisor.engine.rulebook.facts import Fact, ServerlessFact


class PricedServerless(NamedTuple):
    listing: ServerlessListing
    plan: ReplicaPlan
    """The replica plan on the listing's GPU."""
    bill: ServerlessBill
    excluded_by: tuple[str, ...]


@dataclass(frozen=True)
class ServerlessMarket:
    priced: tuple[PricedServerless, ...]
    """Every product GPU whose instances hold a replica and that no rule calls unsuitable for the model,
    cheapest first."""
    best: PricedServerless | None
    """The cheapest one no rule excluded."""
    kept_warm: bool


def priced_order(priced: PricedServerless) -> tuple[object, ...]:
    listing = priced.listing
    return (priced.bill.usd_per_month, listing.product.id, listing.gpu.gpu, listing.region)


def price_serverless(
    resolved: ResolvedWorkload,
    capacity: Capacity,
    plans: ReplicaPlans,
    unsuitable: dict[str, list[str]],
    constraints: Constraints,
    knowledge: Knowledge,
) -> ServerlessMarket:
    workload = ServerlessWorkload(
        load=capacity.load,
        traffic=capacity.traffic,
        sizing=plans.sizing,
        weights_gb=capacity.figures.weights_gb,
        days_per_month=capacity.days_per_month,
        paid_hours_per_month=resolved.hours_per_month,
        keep_warm=constraints.keep_serverless_warm,
    )
    demand: dict[tuple[str, int], tuple[HourDemand, ...]] = {}
    month: ProductMonth | None = None
    entry = None
    priced = []
    for listing, excluded in zip(
        serverless_listings(knowledge), constraints.serverless_exclusions, strict=True
    ):
        gpu = listing.gpu.gpu
        plan = plans.plans.get(gpu)
        if plan is None or gpu in unsuitable:
            continue  # a GPU the rules call unsuitable for the model is not priced serverless
        if listing.gpu is not entry:  # the listings of one GPU entry, region by region, come together
            entry = listing.gpu
            size = listing.smallest_instance(plan.cards_per_replica)
            month = product_month(listing.product, plan, size, workload, knowledge, demand) if size else None
        if month is None:
            continue
        priced.append(PricedServerless(listing, plan, serverless_bill(listing, month), excluded))
    priced.sort(key=priced_order)
    best = next((p for p in priced if not p.excluded_by), None)
    return ServerlessMarket(priced=tuple(priced), best=best, kept_warm=workload.keep_warm)


def serverless_option(priced: PricedServerless, busy_share: float | None = None) -> Option:
    listing, plan, bill, excluded = priced
    attributes = listing.attributes
    billing = serverless_billing(listing, bill)
    return trusted(
        Option,
        provider=listing.product.provider,
        offer=listing.product.id,
        gpu=listing.gpu.gpu,
        jurisdiction=listing.jurisdiction,
        regions=(listing.region,),
        gpus=bill.priced.instances_at_peak * billing.instance_gpus,
        gpus_rented=bill.priced.instances_at_peak * billing.instance_gpus,
        replicas=bill.priced.instances_at_peak,
        utilization=min(1.0, bill.priced.work_hours / bill.billed_hours_per_month),
        usd_per_gpu_hour=listing.usd_per_gpu_hour,
        price_basis="list",
        usd_per_hour=bill.usd_per_instance_hour,
        billed_hours_per_month=bill.billed_hours_per_month,
        usd_per_month=bill.usd_per_month,
        eu=attributes["eu"],
        pricing="serverless",
        commitment_months=None,
        interconnect=attributes["interconnect"],
        provider_kind=attributes["provider_kind"],
        enterprise_sla=attributes["enterprise_sla"],
        chosen=False,
        excluded_by=excluded,
        as_of=listing.product.as_of,
        source=listing.source,
        capacity_utilization_at_peak=plan.capacity_utilization_at_peak,
        spare_replicas=0,
        hours_per_day_running=plan.hours_per_day_running,
        busy_share=busy_share,
        serverless=billing,
    )


def serverless_fact(
    resolved: ResolvedWorkload, market: ServerlessMarket, best_dedicated: Option | None
) -> ServerlessFact:
    best = market.best
    return ServerlessFact(
        utilization=float(resolved.utilization or 0.0),
        serverless_fits=bool(market.priced),
        serverless_offered=best is not None,
        serverless_usd_per_month=float(best.bill.usd_per_month) if best else 0.0,
        serverless_kept_warm=market.kept_warm,
        has_eligible_option=best_dedicated is not None,
        best_option_usd_per_month=float(best_dedicated.usd_per_month) if best_dedicated else 0.0,
    )


def serverless_details(
    market: ServerlessMarket,
    best_dedicated: Option | None,
    busy_share: float | None,
    stated: bool,
    weights_gb: float,
) -> ServerlessDetails:
    best = market.best
    priced = best.bill.priced if best else None
    month = priced.month if priced else None
    return ServerlessDetails(
        serverless_name=serverless_name(best) if best else "",
        serverless_gpu=best.listing.gpu.gpu if best else "",
        serverless_instance_gpus=priced.size if priced else 0,
        serverless_billed_hours=best.bill.billed_hours_per_month if best else 0.0,
        serverless_busy_hours=month.busy if month else 0.0,
        serverless_idle_hours=month.idle if month else 0.0,
        serverless_cold_start_hours=month.cold if month else 0.0,
        serverless_cold_starts=month.starts if month else 0.0,
        serverless_cold_start_seconds=priced.cold if priced else 0.0,
        best_option_name=option_name(best_dedicated) if best_dedicated else "",
        busy_share=busy_share or 0.0,
        utilization_stated=stated,
        model_weights_gb=weights_gb,
    )


def option_name(option: Option) -> str:
    return f"{option.provider} {option.offer}, {option.gpus} × {option.gpu}"


def serverless_name(priced: PricedServerless) -> str:
    listing = priced.listing
    size = priced.bill.priced.size
    return f"{listing.product.name} in {listing.region}, {size} × {listing.gpu.gpu} per instance"


def weigh_serverless(
    session: FactSession,
    facts: Fact,
    resolved: ResolvedWorkload,
    market: ServerlessMarket,
    best_dedicated: Option | None,
    busy_share: float | None,
    weights_gb: float,
) -> tuple[list[Firing], ServerlessDetails]:
    """Assert the serverless fact (the band's statements, the priced comparison's proposal); its
    firings and the details their messages show."""
    firings = session.assert_fact(serverless_fact(resolved, market, best_dedicated), facts)
    stated = resolved.utilization_source == "input"
    return firings, serverless_details(market, best_dedicated, busy_share, stated, weights_gb)
