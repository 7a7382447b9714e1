"""A self-hosted route at other daily volumes of the same workload, for the volume chart.

Each volume gets what an evaluation of the workload at that volume would work out: its load, the cards
per replica chosen at that load, the replica plans with the spares the rules asked for (the spare rules
read no volume); and the route is priced by the functions that price it for the decision, so that a
point equals what ``recommend`` reports for the same option at that volume:

- dedicated cloud GPUs: the offer the line follows, placed on the instances it sells and billed as it
  bills (``listings.price_plan``: whole instances, a batch spread over their cards, billing increments);
- own hardware: the server the volume selects, as many as its replicas need (``own_hardware``);
- serverless: the product the line follows, billed as its month is priced (``pipeline.serverless``).

A mixed fleet is not priced at other volumes: the cheapest fleet is chosen among every reservation and
hourly offer, not one offer, so its points would not be one option's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import NamedTuple

from gpu_advisor.engine.calc.card_keys import cards_key
from gpu_advisor.engine.calc.listings import Listing, price_plan
from gpu_advisor.engine.calc.own_hardware import own_hardware_position, select_own_server
from gpu_advisor.engine.calc.policy import Sizing
from gpu_advisor.engine.calc.replicas import plans_by_gpu
from gpu_advisor.engine.calc.server_costs import server_costs
from gpu_advisor.engine.calc.serverless import ServerlessListing
from gpu_advisor.engine.pipeline.capacity import (
    Capacity,
    ReplicaPlans,
    replica_plans_under,
    workload_load_for,
    workload_sizing,
)
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.pipeline.serverless import price_listing


class RoutePoint(NamedTuple):
    usd_per_month: float
    name: str
    """What is bought at this volume: the offer, the serverless product or the own server (a larger
    volume may need a larger server than the one the workload's own volume selects)."""
    servers_short: int | None = None
    """Own servers only: the servers beyond those bought that surviving the loss of any one would take
    (``ServerLoss.servers_short``); None for other routes and where a replica spans servers."""


MonthAt = Callable[[int], RoutePoint | None]
"""A route's point at a daily volume; None where the route has no price at that volume (a serverless
product whose instances cannot hold a replica of the cards that volume chooses, which ``recommend`` at
that volume would not offer either)."""


class Policies(NamedTuple):
    """The sizing policies of every point: no volume changes them, so they are worked out once a line."""

    choosing: Sizing
    """The policy that chooses the cards per replica (no spares)."""
    planning: Sizing
    """The policy the replicas are planned under: the spares and spread the rules asked for."""


def _policies(evaluation: Evaluation) -> Policies:
    resolved, knowledge, constraints = evaluation.workload, evaluation.knowledge, evaluation.constraints
    return Policies(
        workload_sizing(resolved, knowledge, spare=False),
        workload_sizing(
            resolved,
            knowledge,
            constraints.spare_replica,
            constraints.spread_replicas,
            constraints.spread_batch_rentals,
        ),
    )


def _capacity_at(
    evaluation: Evaluation, policies: Policies, requests_per_day: int, gpus: Collection[str]
) -> tuple[Capacity, ReplicaPlans]:
    """The workload's capacity at ``requests_per_day`` (as given: the quantized variant is not needed)
    and its replica plans on ``gpus``, as ``capacity.plan_capacity`` and ``capacity.replica_plans`` work
    them out (a GPU's plan depends on no other GPU's)."""
    knowledge, capacity, resolved = evaluation.knowledge, evaluation.capacity, evaluation.workload
    choosing = policies.choosing
    load = workload_load_for(resolved, knowledge, requests_per_day)
    tokens = (resolved.avg_input_tokens, resolved.avg_output_tokens)
    plans = plans_by_gpu(knowledge, capacity.figures, load, *tokens, choosing, only=gpus)
    # Every field named (``dataclasses.replace`` looks them up anew at each of the chart's points).
    at = Capacity(
        figures=capacity.figures,
        quantized_figures=None,
        quantized_precision=None,
        load=load,
        traffic=capacity.traffic,
        days_per_month=capacity.days_per_month,
        cards=cards_key({gpu: plan.cards_per_replica for gpu, plan in plans.items()}),
        quantized_cards="",
        sizing=choosing,
        plans=plans,
        quantized_plans={},
    )
    return at, replica_plans_under(at, knowledge, tokens, policies.planning, gpus)


def dedicated_month_at(evaluation: Evaluation, listing: Listing) -> MonthAt:
    """The monthly cost of ``listing`` at a daily volume."""
    knowledge, hours = evaluation.knowledge, evaluation.market.rented_hours
    calendar = knowledge.calendar_hours_per_month()
    overhead = knowledge.pricing_assumptions.spot_interruption.overhead

    policies = _policies(evaluation)

    def month(requests_per_day: int) -> RoutePoint:
        capacity, plans = _capacity_at(evaluation, policies, requests_per_day, (listing.offer.gpu,))
        plan = plans.plans[listing.offer.gpu]
        rental = price_plan(listing, plan, hours, capacity.days_per_month, calendar, overhead)[1]
        return RoutePoint(rental.usd_per_month, listing.offer.offer)

    return month


def own_month_at(evaluation: Evaluation) -> MonthAt:
    """The monthly cost of the own servers a daily volume needs."""
    knowledge, unsuitable = evaluation.knowledge, evaluation.verdicts.unsuitable
    housings = evaluation.constraints.excluded_housings
    # The GPUs ``select_own_server`` looks at: the catalog's servers' and the default server's.
    gpus = {server.gpu for server in knowledge.own_hardware.servers} | {knowledge.own_server().gpu}

    policies = _policies(evaluation)

    def month(requests_per_day: int) -> RoutePoint | None:
        _, plans = _capacity_at(evaluation, policies, requests_per_day, gpus)
        resolved = evaluation.workload.model_copy(update={"requests_per_day": requests_per_day})
        server, excluded = select_own_server(knowledge, plans.plans, unsuitable, housings)
        costs = server_costs(knowledge, server, resolved.company_country, resolved.on_premises_required)
        own = own_hardware_position(
            server, costs, plans.plans, unsuitable, resolved, None, 0.0, None, excluded
        )
        if not own.applicable:
            # At this volume no server the rules admit carries the load (a larger one stands where they
            # keep own hardware out): the route has no price there.
            return None
        loss = own.server_loss
        return RoutePoint(own.usd_per_month, own.server_name, loss.servers_short if loss else None)

    return month


def serverless_month_at(evaluation: Evaluation, listing: ServerlessListing) -> MonthAt:
    """The monthly cost of the serverless product ``listing`` at a daily volume."""
    knowledge, paid_hours = evaluation.knowledge, evaluation.workload.hours_per_month
    unsuitable, constraints = evaluation.verdicts.unsuitable, evaluation.constraints

    policies = _policies(evaluation)

    def month(requests_per_day: int) -> RoutePoint | None:
        capacity, plans = _capacity_at(evaluation, policies, requests_per_day, (listing.gpu.gpu,))
        priced = price_listing(listing, capacity, plans, unsuitable, constraints, knowledge, paid_hours)
        if priced is None:
            return None
        return RoutePoint(priced.bill.usd_per_month, listing.product.name)

    return month


def route_month_at(evaluation: Evaluation, kind: str) -> MonthAt | None:
    """The monthly cost of the route ``kind`` at a daily volume: the best rental, the own servers or the
    best serverless product of ``evaluation``; None where it has none or is a mixed fleet."""
    market = evaluation.market
    best, serverless = market.alternatives.best_listing, market.serverless.best
    if kind == "dedicated_cloud" and best is not None:
        return dedicated_month_at(evaluation, best.listing)
    if kind == "own_hardware" and market.own.applicable:
        return own_month_at(evaluation)
    if kind == "serverless" and serverless is not None:
        return serverless_month_at(evaluation, serverless.listing)
    return None
