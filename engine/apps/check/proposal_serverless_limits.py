"""A serverless proposal held to its product's default limits, as ``recommend`` holds the serverless
route it weighs (PRV014, PRV019, PRV023 to PRV025, KNB013): the workers its busiest hour (a batch: its run)
needs against what an endpoint and an account run by default, what that hour costs against the account's
spend limit, an endpoint idle between a batch's runs or over a long weekend that the product scales down,
and the age of the price the cost checks use (PRV026 to PRV030, KNB020)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.i18n.environment import say
from gpu_advisor.engine.pipeline.api_comparison import (
    idle_days_between_runs,
    idle_scale_down_facts,
    worker_limit_facts,
)
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.pipeline.routes import serverless_route
from gpu_advisor.engine.pipeline.serverless import PricedServerless

ROUTE_PREFIX = "self_hosted_"


def serverless_limit_facts(
    priced: PricedServerless | None, evaluation: Evaluation, lang: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The proposal fact's serverless limits and the details their messages show (in ``lang``); nothing
    where the proposal is no serverless one the catalog prices. The facts are the ones the api fact
    carries for the serverless route it weighs, under the proposal's names (``serverless_`` for
    ``self_hosted_``)."""
    if priced is None:
        return {}, {}
    route = serverless_route(priced)
    limits = {**worker_limit_facts(route), **idle_scale_down_facts(route)}
    provider = evaluation.knowledge.provider(route.provider)
    limit = provider.spend_limit
    facts = {
        "serverless_priced": True,
        "serverless_peak_instances": route.peak_instances,
        "serverless_peak_usd_per_hour": route.peak_usd_per_hour,
        "serverless_spend_limited": limit is not None,
        "serverless_spend_limit_usd_per_hour": float(limit.usd_per_hour) if limit else 0.0,
        "serverless_price_age_days": (evaluation.evaluated_on - route.as_of).days,
        "idle_days_between_runs": idle_days_between_runs(evaluation.workload, evaluation.knowledge),
        **{"serverless_" + key.removeprefix(ROUTE_PREFIX): value for key, value in limits.items()},
    }
    details = {
        "serverless_name": say(lang, route.name),
        "serverless_provider_name": provider.name,
        "serverless_as_of": route.as_of.isoformat(),
    }
    return facts, details
