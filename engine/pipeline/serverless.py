"""Serverless: every serverless product priced for the workload (part of the market), and the stage that
asserts the ``serverless`` fact, whose rules decide whether serverless is proposed. It comes before the
economics stage, which reads what they concluded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol

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
        warm_hours_per_month=knowledge.calendar_hours_per_month(),
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
    listing, _plan, bill, excluded = priced
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
        usd_per_gpu_hour=bill.usd_per_instance_hour / bill.priced.size,
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
        capacity_utilization_at_peak=bill.priced.capacity_utilization_at_peak,
        spare_replicas=bill.priced.spare_replicas,
        hours_per_day_running=bill.priced.hours_per_day_running,
        busy_share=busy_share,
        serverless=billing,
    )


def serverless_fact(
    time_utilization: float, market: ServerlessMarket, alternative: Alternative | None
) -> ServerlessFact:
    best = market.best
    return ServerlessFact(
        utilization=float(time_utilization),
        serverless_fits=bool(market.priced),
        serverless_offered=best is not None,
        serverless_usd_per_month=float(best.bill.usd_per_month) if best else 0.0,
        serverless_kept_warm=market.kept_warm,
        has_alternative=alternative is not None,
        alternative_usd_per_month=float(alternative.usd_per_month) if alternative else 0.0,
    )


def serverless_details(
    market: ServerlessMarket, alternative: Alternative | None, weights_gb: float
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
        serverless_kept_warm_instances=priced.kept if priced else 0,
        alternative_name=alternative.name if alternative else "",
        alternative_kind=alternative.kind if alternative else "",
        model_weights_gb=weights_gb,
    )


class Alternative(Protocol):
    """A self-hosted route beside serverless (``pipeline/routes.py``)."""

    @property
    def usd_per_month(self) -> float: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...


def option_name(option: Option) -> str:
    """'runpod community (2 × h200)': the same in every language."""
    return f"{option.provider} {option.offer} ({option.gpus} × {option.gpu})"


def serverless_name(priced: PricedServerless) -> str:
    """'RunPod Serverless (flex workers) (eu-datacenters, 1 × h200)': the same in every language."""
    listing = priced.listing
    return f"{listing.product.name} ({listing.region}, {priced.bill.priced.size} × {listing.gpu.gpu})"


def weigh_serverless(
    session: FactSession,
    facts: Fact,
    market: ServerlessMarket,
    alternative: Alternative | None,
    time_utilization: float,
    weights_gb: float,
) -> tuple[list[Firing], ServerlessDetails]:
    """Assert the serverless fact: the band's statements, and the comparison of the cheapest serverless
    option with ``alternative``, the cheapest other self-hosted route the rules left standing; its
    firings and the details their messages show."""
    firings = session.assert_fact(serverless_fact(time_utilization, market, alternative), facts)
    return firings, serverless_details(market, alternative, weights_gb)
