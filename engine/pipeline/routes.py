"""The self-hosted routes the rules left standing, with their prices: what the serverless stage compares a
serverless product with, and the API stage the managed API. Read from the rules' conclusions (a route
stands where some fired rule proposes it and none rules it out), never from their conditions."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from gpu_advisor.engine.calc.commitments import fleet_name
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.knowledge.entries import commitment_term
from gpu_advisor.engine.domain.knowledge.serving import IdleScaleDown, WorkerLimits
from gpu_advisor.engine.domain.results import Option
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.pipeline.serverless import PricedServerless
from gpu_advisor.engine.pipeline.serverless_weighing import peak_usd_per_hour, serverless_name
from gpu_advisor.engine.rulebook.conclusions import proposal_stands
from gpu_advisor.engine.rulebook.schema import Rule


def option_name(option: Option) -> str | Words:
    """'runpod community (2 × h200)', the same in every language; with the cards whole instances bill
    'aws p5-reserved-3y (6 × h100-sxm, 8 billed)', said in the reader's language."""
    name = f"{option.provider} {option.offer}"
    if option.gpus_rented == option.gpus:
        return f"{name} ({option.gpus} × {option.gpu})"
    return Words(
        "%(name)s (%(gpus)s × %(gpu)s, %(rented)s billed)",
        name=name,
        gpus=option.gpus,
        gpu=option.gpu,
        rented=option.gpus_rented,
    )


class SelfHosted(NamedTuple):
    """A self-hosted route with a price."""

    usd_per_month: float
    kind: str
    """serverless, own_hardware, dedicated_cloud or hybrid (a mixed fleet)."""
    name: str | Words
    as_of: dt.date
    """The date of the price it rests on (a mixed fleet: the older of its two offers')."""
    provider: str = ""
    """The provider billing it ("" for own hardware and a mixed fleet of two)."""
    peak_usd_per_hour: float = 0.0
    """What it costs in its busiest hour: every rented card at its price, or a serverless option's
    instances at the peak (0 for own hardware and a mixed fleet)."""
    peak_instances: int = 0
    """A serverless option's instances in its busiest hour (0 otherwise)."""
    worker_limits: WorkerLimits | None = None
    """A serverless option's product's default limits on its instances (None otherwise)."""
    idle_scale_down: IdleScaleDown | None = None
    """How a serverless option's product scales down an endpoint idle for days (None otherwise)."""
    commits: bool = False
    """It binds a purchase or a term of a year or more: own servers, a reservation (a mixed fleet's
    reserved base among them); a monthly instance does not (``binds_years``)."""
    spare_usd_per_month: float = 0.0
    """What the spare replicas a rule adds (SIZ010, SIZ011) cost in a rental's bill (0 elsewhere)."""
    spare_replicas: int = 0
    """How many they are (0 where ``spare_usd_per_month`` is)."""
    billed_hours: float = 0.0
    """The hours a month a rental's cards are billed (0 for the other routes)."""


def standing_routes(market: Market, rules: Sequence[Rule], kinds: Sequence[str]) -> list[SelfHosted]:
    """The routes of ``kinds`` some fired rule proposes and none rules out, where the market prices them."""
    routes = []
    own, best = market.own, market.alternatives.best
    if "serverless" in kinds and market.serverless.best is not None and proposal_stands(rules, "serverless"):
        routes.append(serverless_route(market.serverless.best))
    if "own_hardware" in kinds and own.applicable and proposal_stands(rules, "own_hardware"):
        # The cards bought, as the summary counts them (the cost is theirs, busy or not)
        name = Words.joined(
            "%(nodes)s × %(server)s (%(cards)s × %(gpu)s)",
            nodes=own.nodes,
            # The knowledge base's name, in the reader's language where it words it so.
            server=Words(own.server_name),
            cards=own.nodes * own.gpus_per_server,
            gpu=own.gpu,
        )
        routes.append(SelfHosted(own.usd_per_month, "own_hardware", name, market.server.as_of, commits=True))
    if "dedicated_cloud" in kinds and best is not None and proposal_stands(rules, "dedicated_cloud"):
        routes.append(rental_route(best))
    fleet = market.mixed_fleet
    if "hybrid" in kinds and fleet is not None and proposal_stands(rules, "hybrid"):
        base = fleet.base.listing.offer
        commits = binds_years(base.pricing, base.commitment_months)
        routes.append(
            SelfHosted(fleet.usd_per_month, "hybrid", fleet_name(fleet), fleet.as_of, commits=commits)
        )
    return routes


def serverless_route(serverless: PricedServerless) -> SelfHosted:
    product = serverless.listing.product
    return SelfHosted(
        serverless.bill.usd_per_month,
        "serverless",
        serverless_name(serverless),
        product.as_of,
        product.provider,
        peak_usd_per_hour(serverless),
        serverless.bill.priced.instances_at_peak,
        product.worker_limits,
        product.idle_scale_down,
    )


def rental_route(best: Option) -> SelfHosted:
    return SelfHosted(
        best.usd_per_month,
        "dedicated_cloud",
        option_name(best),
        best.as_of,
        best.provider,
        best.gpus_rented * best.usd_per_gpu_hour,
        commits=binds_years(best.pricing, best.commitment_months),
        spare_usd_per_month=best.spare_usd_per_month or 0.0,
        spare_replicas=best.spare_replicas if best.spare_usd_per_month else 0,
        billed_hours=best.billed_hours_per_month or 0.0,
    )


def binds_years(pricing: str, commitment_months: int | None) -> bool:
    """A rental binds a year or more (``commitment_term``, as ``Offer.commitment`` reads it)."""
    return commitment_term(pricing, commitment_months) == "years"


def stopgap_route(market: Market, ruled_out: Mapping[str, tuple[str, ...]]) -> SelfHosted | None:
    """The cheapest self-hosted route that binds no purchase and no term, where no rule rules its
    deployment out: the best serverless product, or the cheapest admitted rental sold by the hour or
    second (``Alternatives.unbound``). What a workload runs on while a provider is asked for an API it
    may use (DEP043, DEP044), where the cheapest route standing binds one; proposed or not, as a stopgap
    is not a decision."""
    routes = []
    if market.serverless.best is not None and "serverless" not in ruled_out:
        routes.append(serverless_route(market.serverless.best))
    unbound = market.alternatives.unbound
    if unbound is not None and "dedicated_cloud" not in ruled_out:
        routes.append(rental_route(unbound))
    return min(routes, key=lambda route: route.usd_per_month, default=None)


SELF_HOSTED = ("serverless", "own_hardware", "dedicated_cloud", "hybrid")
BESIDE_SERVERLESS = ("own_hardware", "dedicated_cloud", "hybrid")


def cheapest_route(market: Market, rules: Sequence[Rule], kinds: Sequence[str]) -> SelfHosted | None:
    """The cheapest standing route of ``kinds`` (ties: in the order serverless, own, dedicated)."""
    return min(standing_routes(market, rules, kinds), key=lambda route: route.usd_per_month, default=None)
