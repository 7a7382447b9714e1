"""Stage 5, the decision: the proposals of every rule that fired settled by their declared precedence,
and the winning deployment made concrete (the option, the server, the API or the serverless estimate)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gpu_advisor.engine.domain.choices import Deployment
from gpu_advisor.engine.domain.results import Decision, Option, Resolution
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.rulebook.conclusions import settle_deployment
from gpu_advisor.engine.rulebook.schema import Rule

NO_CHOICE = {"pricing": None, "provider": None, "offer": None, "gpu": None, "gpus": None}


@dataclass(frozen=True)
class Settlement:
    resolution: Resolution
    decision: Decision
    best: Option | None
    """The best option, marked chosen where the decision is dedicated cloud GPUs."""


def decision_for(
    deployment: Deployment,
    rule_id: str,
    chosen: Option | None,
    market: Market,
    serverless_usd_per_month: float | None,
    serverless_break_even: float,
) -> Decision:
    own, api = market.own, market.compared_api
    if deployment == "dedicated_cloud" and chosen is not None:
        return Decision(
            deployment="dedicated_cloud",
            pricing=chosen.pricing,
            provider=chosen.provider,
            offer=chosen.offer,
            gpu=chosen.gpu,
            gpus=chosen.gpus,
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
            **{**NO_CHOICE, "offer": api.api if api else None},
            deployment="api",
            usd_per_month=api.usd_per_month if api else None,
            deciding_rule_id=rule_id,
        )
    # Own hardware that no catalog server holds names no server, count or price; serverless has an
    # estimate only where there is a dedicated price to scale.
    estimated = serverless_usd_per_month if deployment == "serverless" else None
    return Decision(
        **NO_CHOICE,
        deployment=deployment,
        usd_per_month=estimated,
        cost_is_estimate=estimated is not None,
        estimate_break_even_utilization=serverless_break_even if estimated is not None else None,
        deciding_rule_id=rule_id,
    )


def settle(
    rules: Sequence[Rule], market: Market, serverless_usd_per_month: float, serverless_break_even: float
) -> Settlement:
    resolution = settle_deployment(rules)
    winner = next(p for p in resolution.proposals if p.status == "won")
    best = market.alternatives.best
    if best is not None:
        best = best.model_copy(update={"chosen": winner.deployment == "dedicated_cloud"})
    chosen = best if best is not None and best.chosen else None
    serverless = serverless_usd_per_month if market.alternatives.best is not None else None
    decision = decision_for(
        winner.deployment, winner.rule_id, chosen, market, serverless, serverless_break_even
    )
    return Settlement(resolution=resolution, decision=decision, best=best)
