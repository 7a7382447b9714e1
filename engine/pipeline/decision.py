"""The decision: the proposals of every rule that fired settled by their declared precedence, the
winning deployment made concrete (the dedicated option, the serverless option, the server or the API),
and the ``decision`` fact, which says of that route what its rules read (where it runs)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gpu_advisor.engine.domain.choices import Deployment
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import Decision, Option, Resolution
from gpu_advisor.engine.pipeline.abroad import abroad, decided_route
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.pipeline.serverless_option import serverless_option
from gpu_advisor.engine.rulebook.conclusions import settle_deployment
from gpu_advisor.engine.rulebook.decided_details import DecisionDetails
from gpu_advisor.engine.rulebook.decision_facts import DecisionFact
from gpu_advisor.engine.rulebook.durable import FactSession, Firing
from gpu_advisor.engine.rulebook.facts import Fact
from gpu_advisor.engine.rulebook.schema import Rule

NO_CHOICE = {"pricing": None, "provider": None, "offer": None, "gpu": None, "gpus": None}


@dataclass(frozen=True)
class Settlement:
    resolution: Resolution
    decision: Decision
    best: Option | None
    """The best option, marked chosen where the decision is dedicated cloud GPUs."""
    serverless: Option | None
    """The best serverless option, marked chosen where the decision is serverless."""
    mixed_fleet: Option | None = None
    """The cheapest mixed fleet, marked chosen where the decision is hybrid."""

    @property
    def chosen(self) -> Option | None:
        return chosen_of(self.best, self.serverless, self.mixed_fleet)


def chosen_of(*options: Option | None) -> Option | None:
    """The one of ``options`` marked chosen: the rental, serverless option or mixed fleet the decision
    takes (None for another route)."""
    return next((option for option in options if option is not None and option.chosen), None)


def decision_for(deployment: Deployment, rule_id: str, chosen: Option | None, market: Market) -> Decision:
    own, api = market.own, market.compared_api
    rented = deployment in ("dedicated_cloud", "serverless") and chosen is not None
    mixed = deployment == "hybrid" and chosen is not None and chosen.fleet is not None
    if chosen is not None and (rented or mixed):
        return Decision(
            deployment=deployment,
            # A mixed fleet has no single pricing kind: its base is reserved, its peak hourly (``fleet``).
            pricing=None if mixed else chosen.pricing,
            provider=chosen.provider,
            offer=chosen.offer,
            gpu=chosen.gpu,
            gpus=chosen.gpus,
            instance_gpus=chosen.serverless.instance_gpus if chosen.serverless else None,
            usd_per_month=chosen.usd_per_month,
            deciding_rule_id=rule_id,
        )
    if deployment == "own_hardware" and own.applicable:
        return Decision(
            **{**NO_CHOICE, "offer": own.server, "gpu": own.gpu, "gpus": own.nodes * own.gpus_per_server},
            deployment="own_hardware",
            usd_per_month=own.usd_per_month,
            deciding_rule_id=rule_id,
        )
    if deployment == "api":
        return Decision(
            **{**NO_CHOICE, "provider": api.provider if api else None, "offer": api.api if api else None},
            deployment="api",
            usd_per_month=api.usd_per_month if api else None,
            deciding_rule_id=rule_id,
            priced_with_another_model=api is not None and not api.same_model,
            # The catalog holds no API's latency: the targets a self-hosted fleet is sized to go unchecked.
            latency_targets_unchecked=market.replicas.sizing.max_time_to_first_token_ms is not None
            or market.replicas.sizing.max_time_per_output_token_ms is not None,
        )
    # Own hardware that no catalog server holds, serverless without an admitted product, a hybrid:
    # no offer, count or price to name.
    return Decision(**NO_CHOICE, deployment=deployment, usd_per_month=None, deciding_rule_id=rule_id)


def settle(rules: Sequence[Rule], market: Market) -> Settlement:
    resolution = settle_deployment(rules)
    winner = next(p for p in resolution.proposals if p.status == "won")
    best, best_listing = market.alternatives.best, market.alternatives.best_listing
    if best is not None:
        busy = (
            market.busy.of_plan(best_listing.plan) if best_listing is not None else market.busy.of(best.gpu)
        )
        best = best.model_copy(update={"chosen": winner.deployment == "dedicated_cloud", "busy_share": busy})
    priced_serverless = market.serverless.best
    serverless = None
    if priced_serverless is not None:
        busy = market.busy.of(priced_serverless.listing.gpu.gpu)
        serverless = serverless_option(priced_serverless, busy).model_copy(
            update={
                "chosen": winner.deployment == "serverless",
                "spare_usd_per_month": market.serverless.best_spare_usd_per_month,
            }
        )
    mixed = market.mixed_option
    if mixed is not None:
        mixed = mixed.model_copy(
            update={"chosen": winner.deployment == "hybrid", "busy_share": market.busy.of(mixed.gpu)}
        )
    decision = decision_for(winner.deployment, winner.rule_id, chosen_of(best, serverless, mixed), market)
    if winner.ruled_out_by:
        decision = decision.model_copy(update={"ruled_out_by": winner.ruled_out_by})
    return Settlement(
        resolution=resolution, decision=decision, best=best, serverless=serverless, mixed_fleet=mixed
    )


def weigh_decision(
    session: FactSession,
    facts: Fact,
    settlement: Settlement,
    market: Market,
    knowledge: Knowledge,
    company_country: str,
) -> tuple[list[Firing], DecisionDetails]:
    """Assert the decision fact (the route ``settlement`` takes and whether it runs outside
    ``company_country``); its firings and the details their messages show."""
    route = decided_route(settlement.decision, settlement.chosen, market)
    away = abroad(knowledge, route, company_country)
    fact = DecisionFact(decided_deployment=settlement.decision.deployment, decided_route_abroad=away.route)
    details = DecisionDetails(
        route_name=route.name if route else "", route_places=away.places, route_jurisdiction=away.jurisdiction
    )
    return session.assert_fact(fact, facts), details
