"""What every managed API in the catalog costs for the workload's tokens."""

from __future__ import annotations

from gpu_advisor.engine.calc.costs import api_usd_per_month
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import ApiCost
from gpu_advisor.engine.domain.workload import ResolvedWorkload


def api_costs(knowledge: Knowledge, resolved: ResolvedWorkload) -> tuple[ApiCost, ...]:
    """Monthly cost of every managed API for the workload's tokens; the hosted open-weights model is the
    like-for-like comparison."""
    usd_per_eur = knowledge.eur_to_usd().rate
    requests = resolved.requests_per_day * resolved.days_per_month
    costs = []
    for api in knowledge.api_prices.apis:
        monthly = api_usd_per_month(
            api,
            resolved.requests_per_day,
            resolved.days_per_month,
            resolved.avg_input_tokens,
            resolved.avg_output_tokens,
            usd_per_eur,
        )
        costs.append(
            ApiCost(
                api=api.id,
                name=api.name,
                kind=api.kind,
                currency=api.currency,
                usd_per_month=monthly,
                usd_per_request=monthly / requests if requests else 0.0,
                as_of=api.as_of,
                compared=api.stands_in_up_to_params_b is not None
                and resolved.params_b <= api.stands_in_up_to_params_b,
                model_params_b=api.model_params_b,
            )
        )
    return tuple(costs)
