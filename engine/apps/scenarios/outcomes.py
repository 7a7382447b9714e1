"""What one evaluation says for a scenario run: the decision as an option key, its monthly cost, and the
monthly cost of every option the market priced (so that the recommended option and its rival can be
costed in scenarios they do not win)."""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.engine.domain.results import Decision, Option
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.rulebook.conclusions import ruled_out_deployments

OptionKey = tuple[str, str | None, str | None, str | None, str | None]
"""deployment, pricing, provider, offer, GPU: what a decision names."""


class Outcome(NamedTuple):
    decision: OptionKey
    cost: float | None
    costs: dict[OptionKey, float]
    routes: tuple[OptionKey, ...]
    """The cheapest admitted option of each route (dedicated, serverless, mixed fleet, own hardware, the
    compared API) that no fired rule rules out: the rivals a decision was weighed against."""


def decision_key(decision: Decision) -> OptionKey:
    return (decision.deployment, decision.pricing, decision.provider, decision.offer, decision.gpu)


def _option_key(deployment: str, option: Option) -> OptionKey:
    pricing = None if deployment == "hybrid" else option.pricing
    return (deployment, pricing, option.provider, option.offer, option.gpu)


def outcome(evaluation: Evaluation, recommended: OptionKey | None = None) -> Outcome:
    """``recommended``: the base run's decision, costed in every scenario: the market prices only the
    cheapest serverless product, so another product the base recommends is priced here where it is not
    the cheapest (its regret and cost bands would otherwise leave out the scenarios it loses)."""
    market = evaluation.market
    # A route a rule ruled out (the API for own weights, DEP005; serverless for a busy service, DEP024)
    # was never a rival, whatever its price.
    ruled_out = ruled_out_deployments(evaluation.rules)
    costs: dict[OptionKey, float] = {}
    excluded: dict[OptionKey, float] = {}
    for priced in market.priced:  # cheapest first: the first admitted listing of an offer is its price
        offer = priced.listing.offer
        key: OptionKey = ("dedicated_cloud", offer.pricing, offer.provider, offer.offer, offer.gpu)
        (excluded if priced.excluded_by else costs).setdefault(key, priced.rental.usd_per_month)
    for key, cost in excluded.items():
        costs.setdefault(key, cost)
    routes: list[OptionKey] = []
    for deployment, option in (
        ("dedicated_cloud", evaluation.best),
        ("serverless", evaluation.serverless),
        ("hybrid", evaluation.mixed_fleet),
    ):
        if option is not None and option.usd_per_month is not None:
            key = _option_key(deployment, option)
            costs[key] = option.usd_per_month
            if not option.excluded_by and deployment not in ruled_out:
                routes.append(key)
    own = market.own
    if own.applicable:
        key = ("own_hardware", None, None, own.server, own.gpu)
        costs[key] = own.usd_per_month
        if "own_hardware" not in ruled_out:
            routes.append(key)
    for api in market.apis:
        costs.setdefault(("api", None, api.provider, api.api, None), api.usd_per_month)
    if market.compared_api is not None and "api" not in ruled_out:
        compared = market.compared_api
        routes.append(("api", None, compared.provider, compared.api, None))
    if recommended is not None and recommended[0] == "serverless" and recommended not in costs:
        serverless = market.serverless
        prices = [
            serverless.pricer.price(candidate).bill.usd_per_month
            for candidate in serverless.candidates
            if (candidate.listing.product.provider, candidate.listing.product.id, candidate.listing.gpu.gpu)
            == recommended[2:]
        ]
        if prices:
            costs[recommended] = min(prices)
    decision = evaluation.decision
    key = decision_key(decision)
    if decision.usd_per_month is not None:
        costs[key] = decision.usd_per_month
    return Outcome(key, decision.usd_per_month, costs, tuple(routes))
