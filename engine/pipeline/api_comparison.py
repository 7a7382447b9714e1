"""The last rule stage: the managed API against the cheapest self-hosted route the rules left standing
(serverless, own hardware or dedicated GPUs), read from the conclusions of the serverless and economics
stages, never from their conditions."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.pipeline.routes import SELF_HOSTED, cheapest_route
from gpu_advisor.engine.rulebook.details import ApiDetails
from gpu_advisor.engine.rulebook.durable import FactSession, Firing
from gpu_advisor.engine.rulebook.facts import ApiFact, Fact
from gpu_advisor.engine.rulebook.schema import Rule


def weigh_api(
    session: FactSession, facts: Fact, market: Market, rules: Sequence[Rule], evaluated_on: dt.date
) -> tuple[list[Firing], ApiDetails]:
    """Assert the api fact; ``rules``: every rule fired so far."""
    api, route = market.compared_api, cheapest_route(market, rules, SELF_HOSTED)
    fact = ApiFact(
        api_priced=api is not None,
        api_usd_per_month=float(api.usd_per_month) if api else 0.0,
        api_model_params_b=float(api.model_params_b or 0.0) if api else 0.0,
        api_price_age_days=(evaluated_on - api.as_of).days if api else 0,
        self_hosted_priced=route is not None,
        self_hosted_usd_per_month=float(route.usd_per_month) if route else 0.0,
    )
    details = ApiDetails(
        api_name=api.name if api else "",
        api_as_of=api.as_of.isoformat() if api else "",
        self_hosted_kind=route.kind if route else "",
        self_hosted_name=route.name if route else "",
    )
    return session.assert_fact(fact, facts), details
