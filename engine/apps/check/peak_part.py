"""A hybrid proposal's busier hours, where it names their hourly offer (``peak_provider``, ``peak_offer``).

The mix is priced as a whole (``proposal_cost.py``), but its peak replicas run at another provider, under
another offer and, for a marketplace, in places of its own: the checks of where and with whom a proposal
runs (residency, the provider's kind and SLA, company policy on providers, the catalog, the link between
a replica's cards) must judge that part too. It is asserted as a proposal of its own, the base's facts
with the peak offer's place, pricing and link, in a session of its own; a check it does worse on than the
base is reported with the peak's result and says so (``merged``).
"""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.engine.apps.check.location import proposal_place
from gpu_advisor.engine.apps.check.offer_terms import successor_details
from gpu_advisor.engine.apps.check.proposal_facts import place_facts, proposed_hardware
from gpu_advisor.engine.apps.check.remedies import remedy_details
from gpu_advisor.engine.apps.check.residency import residency_facts
from gpu_advisor.engine.calc.listing_frames import offer_linked_sizes, stages_over_cluster_network
from gpu_advisor.engine.domain.knowledge.entries import Offer
from gpu_advisor.engine.domain.proposal import CheckItem, ProposalInput, Status
from gpu_advisor.engine.i18n.environment import render
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.rulebook.facts import ProposalFact
from gpu_advisor.engine.rulebook.proposal_details import ProposalDetails

RANK: dict[Status, int] = {"pass": 0, "unknown": 1, "warn": 2, "fail": 3}
"""How much worse a result is: a check the peak does worse on than the base reports the peak's result."""


class PeakPart(NamedTuple):
    proposal: ProposalInput
    """The peak as a proposal of its own: the base's workload, GPU and cards, the peak's offer."""
    fact: ProposalFact
    details: ProposalDetails


def peak_proposal(
    proposal: ProposalInput, priced: Offer | None, jurisdiction: str | None
) -> ProposalInput | None:
    """The busier hours' part of a hybrid that names their offer; ``priced``: the hourly offer the mix was
    priced on (it runs in the base's ``jurisdiction``), None where the named offer makes no mix (then it
    runs where its offer's regions are). None where the proposal names no peak."""
    if proposal.deployment != "hybrid" or (proposal.peak_provider is None and proposal.peak_offer is None):
        return None
    return proposal.model_copy(
        update={
            "provider": proposal.peak_provider or (priced.provider if priced else None),
            "offer": proposal.peak_offer or (priced.offer if priced else None),
            "pricing": None,
            "region": jurisdiction if priced is not None else None,
            "peak_provider": None,
            "peak_offer": None,
        }
    )


def peak_part(
    proposal: ProposalInput,
    priced: Offer | None,
    jurisdiction: str | None,
    fact: ProposalFact,
    details: ProposalDetails,
    evaluation: Evaluation,
    lang: str = "en",
) -> PeakPart | None:
    """The peak's proposal fact: the base's ``fact`` with where the peak runs, with whom, how it is sold
    and how its cards are linked; None where the proposal names no peak."""
    peak = peak_proposal(proposal, priced, jurisdiction)
    if peak is None:
        return None
    knowledge = evaluation.knowledge
    hardware = proposed_hardware(peak, evaluation)
    offer = hardware.offer
    location = proposal_place(peak, offer, knowledge)
    where, residency_rules = residency_facts(location, evaluation, lang, peak.provider)
    linked = offer_linked_sizes(offer) if offer is not None else ()
    peak_fact = fact.model_copy(
        update={
            **place_facts(peak, hardware, location, evaluation),
            **where,
            "pricing": offer.pricing if offer else "",
            "pricing_known": offer is not None,
            "commitment": offer.commitment if offer else "unknown",
            "largest_linked_instance_gpus": max(linked, default=0),
            "stages_over_cluster_network": bool(
                offer and stages_over_cluster_network(offer, fact.cards_per_replica, knowledge)
            ),
            # Where the mix never runs it, its list price prices nothing (KNB014 reads this).
            "offer_billed": fact.peak_runs or not fact.mix_priced,
        }
    )
    peak_details = details.model_copy(
        update={
            "residency_rules": residency_rules,
            "commitment_months": (offer.commitment_months or 0) if offer else 0,
            "offer": peak.offer or "",
            "offer_rate_yours": bool(offer and offer.rate_yours),
            "largest_instance_gpus": max(offer.instance_gpus) if offer is not None else 0,
            "successor_offer": "",
            "successor_usd_per_gpu_hour": 0.0,
            "successor_as_of": "",
            **successor_details(offer, knowledge, fact.cards_per_replica or 1),
            **remedy_details(peak, hardware.gpu, evaluation),
        }
    )
    return PeakPart(peak, peak_fact, peak_details)


def merged(
    base: tuple[CheckItem, ...],
    peak: tuple[CheckItem, ...],
    part: ProposalInput,
    rule_order: list[str],
    fmt: Format = DEFAULT_FORMAT,
) -> tuple[CheckItem, ...]:
    """Each check's worse result of the two parts, the base's where they are as good; a peak result
    taken says it is the busier hours' offer's, which it names (``part``). A check that cannot tell for
    the peak (a provider with regions in two jurisdictions, an offer the catalog does not know) is
    'unknown' where the base passes: a gate must not read the base's pass as the whole proposal's."""
    by_rule = {item.rule_id: item for item in base}
    for item in peak:
        kept = by_rule.get(item.rule_id)
        if kept is None or RANK[item.status] > RANK[kept.status]:
            message = " ".join(
                render(
                    "check_peak_message.txt.j2",
                    fmt,
                    offer=" ".join(name for name in (part.provider, part.offer) if name),
                    message=item.message,
                ).split()
            )
            by_rule[item.rule_id] = item.model_copy(update={"message": message, "part": "peak"})
    return tuple(by_rule[rule_id] for rule_id in rule_order if rule_id in by_rule)
