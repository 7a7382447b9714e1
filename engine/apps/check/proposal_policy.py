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
from gpu_advisor.engine.rulebook.schema import OptionFilter
from gpu_advisor.engine.rulebook.texts import titled


class PolicyFacts(NamedTuple):
    facts: dict[str, Any]
    details: dict[str, Any]


ADMITTED = PolicyFacts({"rental_policy_known": True, "rental_policy_excluded": False}, {})
UNKNOWN = PolicyFacts({"rental_policy_known": False, "rental_policy_excluded": False}, {})


def rental_policy_facts(
    proposal: ProposalInput, offer: Offer | None, evaluation: Evaluation, lang: str
) -> PolicyFacts:
    """Whether the organization rules that fired exclude the proposed rental wherever it may run: the
    offer named, or, where the proposal names none, every current offer of its provider (and GPU) in the
    regions it names. Excluded where every one is, in every jurisdiction it may run in; not known where
    some are and some are not, or where the proposal names no provider; the excluding rules with their
    titles, for the message."""
    rulebook = evaluation.rulebook
    rules = [rule for rule in evaluation.rules if rulebook.origin(rule.id) == "organization"]
    filters = option_filters(rules)
    if proposal.deployment != "dedicated_cloud" or not filters:
        return ADMITTED
    knowledge = evaluation.knowledge
    if offer is not None:
        offers: list[Offer] = [offer]
    elif proposal.provider is not None:
        offers = list(knowledge.current_offers(proposal.provider, proposal.gpu))
    else:
        return UNKNOWN
    found = (_offer_excluded_by(proposal, o, evaluation, filters) for o in offers)
    verdicts = [rule_ids for rule_ids in found if rule_ids is not None]
    if not any(verdicts):
        # Admitted wherever it is sold there; sold nowhere the proposal runs, the check cannot tell.
        return ADMITTED if verdicts else UNKNOWN
    if not all(verdicts):
        return UNKNOWN
    rule_ids = {rule_id for found in verdicts for rule_id in found}
    titles = titled((rule for rule in rules if rule.id in rule_ids), lang)
    facts = {"rental_policy_known": True, "rental_policy_excluded": True}
    return PolicyFacts(facts, {"rental_policy_excluded_by": titles})


def _offer_excluded_by(
    proposal: ProposalInput, offer: Offer, evaluation: Evaluation, filters: list[tuple[str, OptionFilter]]
) -> frozenset[str] | None:
    """The rules that exclude ``offer`` in every jurisdiction of the proposal's regions it is sold in
    (empty: admitted somewhere); None where it is sold in none of them."""
    by_jurisdiction: dict[str, list[str]] = {}
    for region in proposal_regions(proposal, offer, evaluation.knowledge):
        if region.id in offer.regions:
            by_jurisdiction.setdefault(region.jurisdiction, []).append(region.id)
    if not by_jurisdiction:
        return None
    attributes = [
        option_attributes(offer, jurisdiction, tuple(regions), evaluation.knowledge)
        for jurisdiction, regions in by_jurisdiction.items()
    ]
    # An exclusion on fields a rental has not (an own server's housing) is not about rentals.
    found = [
        excluded_by(each, [(r, f) for r, f in filters if f.fields <= each.keys()]) for each in attributes
    ]
    return frozenset(rule_id for rules in found for rule_id in rules) if all(found) else frozenset()
