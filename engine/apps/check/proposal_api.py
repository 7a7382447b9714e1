"""A proposal to use a managed API: which of the catalog's API prices it means, and what the rules made
of that price for the workload (the exclusions ``recommend`` applies to the APIs, its monthly cost).

The proposal names the API as ``recommend`` names its decision: ``provider`` (deepinfra) and ``offer``
(the API's ID in knowledge/api_prices.yaml; ``validate_references`` refuses any other). An offer named is
that API, sold per request or through its batch API; a provider named alone means its APIs, those that
stand in for the workload's model where it sells such; neither named, the API the recommendation
compared, else the APIs that stand in. Of several, the choice is made as the recommendation's comparison
makes it (``calc.api_costs.comparable``): the ones the rules admit, else the ones sold per request; the
workload's own model, else the nearest size class at or above it (where none stands in, the largest open
model below); the cheapest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from gpu_advisor.engine.apps.check.proposal_api_limits import proposal_limit_facts
from gpu_advisor.engine.calc.api_windows import cut_window_words, window_cut_short
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.proposal import ProposalInput
from gpu_advisor.engine.domain.results import ApiCost
from gpu_advisor.engine.i18n.environment import say
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.rulebook.texts import titled


def api_providers(knowledge: Knowledge) -> list[str]:
    """The providers that sell an API of the catalog, in catalog order."""
    return list(dict.fromkeys(api.provider for api in knowledge.api_prices.apis if api.provider))


def proposed_api(proposal: ProposalInput, evaluation: Evaluation) -> ApiCost | None:
    """The API listing an API proposal means (None where the catalog has none it could mean)."""
    market = evaluation.market
    if proposal.offer is None and proposal.provider is None and market.compared_api is not None:
        return market.compared_api
    named = [
        cost
        for cost in market.apis
        if proposal.provider in (None, cost.provider) and proposal.offer in (None, cost.api)
    ]
    fitting = [cost for cost in named if cost.stands_in or cost.same_model]
    if proposal.offer is None and proposal.provider is None:
        # Nothing named and nothing compared: every API that stands in is excluded or takes shorter
        # requests (or none does), so the recommendation is an API still to be found (DEP043): the
        # proposal means that one, which the catalog does not price, not one the rules exclude.
        return None
    return chosen(fitting or named)


def chosen(candidates: Sequence[ApiCost]) -> ApiCost | None:
    """The API the recommendation's comparison would take of ``candidates``: one the rules admit, else one
    sold per request (a batch API is also excluded for work that is not batch, and its exclusions are not
    the ones that matter); the workload's own model, else the nearest size class; the cheapest."""
    pool = [c for c in candidates if not c.excluded_by] or [c for c in candidates if not c.batch]
    pool = pool or list(candidates)
    if not pool:
        return None
    tier = [c for c in pool if c.same_model]
    sized = [c for c in pool if c.stands_in and c.model_params_b is not None]
    smaller = [c for c in pool if c.model_params_b is not None]
    if not tier and sized:
        nearest = min(c.model_params_b or 0.0 for c in sized)
        tier = [c for c in sized if c.model_params_b == nearest]
    elif not tier and smaller:
        # None stands in (a provider named alone that hosts only smaller models): the largest it hosts,
        # the nearest class below; a proprietary model only where it sells nothing else.
        largest = max(c.model_params_b or 0.0 for c in smaller)
        tier = [c for c in smaller if c.model_params_b == largest]
    return min(tier or pool, key=lambda c: (c.usd_per_month, c.api, c.batch))


class ApiFacts(NamedTuple):
    facts: dict[str, Any]
    """The proposal facts about the API (nothing for another deployment)."""
    details: dict[str, Any]
    """What the messages of the API checks show."""
    api: ApiCost | None


def api_facts(proposal: ProposalInput, evaluation: Evaluation, lang: str) -> ApiFacts:
    """Whether the proposal names an API, whether the catalog prices one it means, whether the rules
    exclude it for the workload (their exclusions of API listings, as ``recommend`` reads them) and
    whether it hosts a smaller open model than the workload's."""
    if proposal.deployment != "api":
        return ApiFacts({}, {}, None)
    api = proposed_api(proposal, evaluation)
    facts: dict[str, Any] = {
        "api_named": proposal.offer is not None or proposal.provider is not None,
        "api_known": api is not None,
    }
    if api is None:
        return ApiFacts(facts, {}, None)
    listed = evaluation.knowledge.api_prices.apis
    cut = window_cut_short(evaluation.knowledge, evaluation.workload.context_tokens, api.api)
    listing = next(a for a in listed if a.id == api.api)
    active = listing.model_active_params_b
    rules = {rule.id: rule for rule in evaluation.rules}
    # Exclusions of the comparison's stand-in only (another kind of model) do not bar a proposal's choice.
    barring = tuple(rule_id for rule_id in api.excluded_by if not rules[rule_id].then.comparison_only)
    # A hosted open model below the workload's size, in parameters or active ones (a proprietary model's
    # size is not public).
    smaller = api.model_params_b is not None and not (api.large_enough or api.same_model)
    facts.update(
        api_excluded=bool(barring),
        api_hosts_smaller_model=smaller,
        # A model given by its size alone may be any model of it: another one cannot be told.
        api_hosts_other_model=not api.same_model and not smaller and evaluation.workload.model is not None,
        api_reasons_otherwise=listing.model_reasoning != evaluation.workload.reasoning,
        api_requests_too_short=api.exceeded_limit is not None,
        api_window_recorded=api.context_window_tokens is not None,
        api_windows_cut_short=cut is not None,
        api_price_age_days=(evaluation.evaluated_on - api.as_of).days,
    )
    excluded_by = titled((rules[rule_id] for rule_id in barring), lang)
    details = {
        "api_name": api.name,
        "workload_model": evaluation.workload.model or "",
        "api_as_of": api.as_of.isoformat(),
        "api_jurisdiction": api.jurisdiction,
        "api_model_params_b": api.model_params_b or 0.0,
        "api_model_active_params_b": active or 0.0,
        "api_model_reasons": listing.model_reasoning,
        "api_excluded_by": excluded_by,
        "api_exceeded_limit": api.exceeded_limit or "",
        "api_context_window_tokens": api.context_window_tokens or 0,
        "api_max_output_tokens": api.max_output_tokens or 0,
        "context_tokens": evaluation.workload.context_tokens,
        "avg_output_tokens": evaluation.workload.avg_output_tokens,
        "api_window_cut_short": say(lang, cut_window_words(evaluation.knowledge, cut)),
    }
    limits, limit_details = proposal_limit_facts(api, evaluation)
    return ApiFacts(facts | limits, details | limit_details, api)
