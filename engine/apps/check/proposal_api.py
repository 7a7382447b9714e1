"""A proposal to use a managed API: which of the catalog's API prices it means, and what the rules made
of that price for the workload (the exclusions ``recommend`` applies to the APIs, its monthly cost).

The proposal names the API as ``recommend`` names its decision: ``provider`` (deepinfra) and ``offer``
(the API's ID in knowledge/api_prices.yaml). An offer named is that API (its batch API too, where the
workload may use it); a provider named alone means its APIs of the workload's size class; neither named,
the API the recommendation compared. Of several, the cheapest the rules admit is judged, else the
cheapest sold per request.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.proposal import ProposalInput
from gpu_advisor.engine.domain.results import ApiCost
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.rulebook.texts import rule_text


def api_providers(knowledge: Knowledge) -> list[str]:
    """The providers that sell an API of the catalog, in catalog order."""
    return list(dict.fromkeys(api.provider for api in knowledge.api_prices.apis if api.provider))


def proposed_api(proposal: ProposalInput, evaluation: Evaluation) -> ApiCost | None:
    """The API listing an API proposal means (None where the catalog has none it could mean)."""
    market = evaluation.market
    if proposal.offer is None and proposal.provider is None:
        return market.compared_api
    candidates = [
        cost
        for cost in market.apis
        if proposal.provider in (None, cost.provider)
        and (cost.api == proposal.offer if proposal.offer else cost.stands_in or cost.same_model)
    ]
    admitted = [cost for cost in candidates if not cost.excluded_by]
    if admitted:
        return min(admitted, key=lambda cost: cost.usd_per_month)
    # Every one excluded: the API as sold per request, whose exclusions are the ones that matter (a batch
    # API is also excluded for work that is not batch).
    return min(candidates, key=lambda cost: (cost.batch, cost.usd_per_month), default=None)


class ApiFacts(NamedTuple):
    facts: dict[str, Any]
    """The proposal facts about the API (nothing for another deployment)."""
    details: dict[str, Any]
    """What the messages of the API checks show."""
    api: ApiCost | None


def api_facts(proposal: ProposalInput, evaluation: Evaluation, lang: str) -> ApiFacts:
    """Whether the proposal names an API, whether the catalog prices it, whether the rules exclude it for
    the workload (their exclusions of API listings, as ``recommend`` reads them) and whether it hosts a
    smaller open model than the workload's."""
    if proposal.deployment != "api":
        return ApiFacts({"api_named": False, "api_known": False}, {}, None)
    api = proposed_api(proposal, evaluation)
    facts: dict[str, Any] = {
        "api_named": proposal.offer is not None or proposal.provider is not None,
        "api_known": api is not None,
    }
    if api is None:
        return ApiFacts(facts, {}, None)
    facts.update(
        api_excluded=bool(api.excluded_by),
        # A hosted open model below the workload's size (a proprietary model's size is not public).
        api_hosts_smaller_model=api.model_params_b is not None and not (api.stands_in or api.same_model),
    )
    rules = {rule.id: rule for rule in evaluation.rules}
    excluded_by = "; ".join(
        f"{rule_id} ({rule_text(rules[rule_id], lang).title})" for rule_id in api.excluded_by
    )
    details = {
        "api_name": api.name,
        "api_provider": api.provider or "",
        "api_jurisdiction": api.jurisdiction,
        "api_model_params_b": api.model_params_b or 0.0,
        "api_batch": api.batch,
        "api_excluded_by": excluded_by,
    }
    return ApiFacts(facts, details, api)
