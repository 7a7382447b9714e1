"""A proposed rental against the company's own exclusions: the organization rules that fired for the
workload exclude options by their filters (a provider, a pricing, the countries of their regions), and a
proposal of such an option is held to them as the recommendation's options are (DEP049). The built-in
exclusions have proposal checks of their own (RES005 where the data may go, PRV009 an SLA, PRC007 spot),
so only the organization's are read here; a managed API or a serverless product proposed is held to
every rule by DEP036 and DEP045."""

from __future__ import annotations

from typing import Any, NamedTuple

from gpu_advisor.engine.apps.check.location import proposal_regions
from gpu_advisor.engine.calc.listing_frames import option_attributes
from gpu_advisor.engine.domain.knowledge.entries import Offer
from gpu_advisor.engine.domain.proposal import ProposalInput
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.rulebook.conclusions import excluded_by, option_filters
from gpu_advisor.engine.rulebook.texts import titled


class PolicyFacts(NamedTuple):
    facts: dict[str, Any]
    details: dict[str, Any]


def rental_policy_facts(
    proposal: ProposalInput, offer: Offer | None, evaluation: Evaluation, lang: str
) -> PolicyFacts:
    """Whether the organization rules that fired exclude the proposed offer wherever the proposal may run
    (its region, or every region of the offer in the jurisdiction it names, or all of them): excluded
    where every jurisdiction's regions are; the excluding rules with their titles, for the message."""
    rulebook = evaluation.rulebook
    rules = [rule for rule in evaluation.rules if rulebook.origin(rule.id) == "organization"]
    filters = option_filters(rules)
    if proposal.deployment != "dedicated_cloud" or offer is None or not filters:
        return PolicyFacts({"rental_policy_excluded": False}, {})
    by_jurisdiction: dict[str, list[str]] = {}
    for region in proposal_regions(proposal, offer, evaluation.knowledge):
        if region.id in offer.regions:
            by_jurisdiction.setdefault(region.jurisdiction, []).append(region.id)
    excluding = [
        excluded_by(option_attributes(offer, jurisdiction, tuple(regions), evaluation.knowledge), filters)
        for jurisdiction, regions in by_jurisdiction.items()
    ]
    if not excluding or not all(excluding):
        return PolicyFacts({"rental_policy_excluded": False}, {})
    rule_ids = {rule_id for found in excluding for rule_id in found}
    titles = titled((rule for rule in rules if rule.id in rule_ids), lang)
    return PolicyFacts({"rental_policy_excluded": True}, {"rental_policy_excluded_by": titles})
