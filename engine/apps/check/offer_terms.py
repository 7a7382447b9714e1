"""What the catalog says of the offer a proposal names: the provider's other offers, the newer list that
replaces it, a hybrid's spot part, and a commitment that reserves no instances."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.apps.check.proposal_cost import names_peak
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Offer
from gpu_advisor.engine.domain.proposal import ProposalInput


def listed_offers(proposal: ProposalInput, knowledge: Knowledge) -> tuple[str, ...]:
    """The catalog's current offers of the proposed provider and GPU (every GPU's where none is named)."""
    if proposal.provider is None:
        return ()
    return tuple(sorted({o.offer for o in knowledge.current_offers(proposal.provider, proposal.gpu)}))


def successor_details(offer: Offer | None, knowledge: Knowledge, replica_cards: int = 1) -> dict[str, Any]:
    """The newer offer that replaces the one proposed for its replicas of ``replica_cards``, for KNB011's
    message (nothing where none does)."""
    newer = knowledge.successor(offer, replica_cards) if offer is not None else None
    if newer is None:
        return {}
    return {
        "successor_offer": newer.offer,
        "successor_usd_per_gpu_hour": newer.usd_per_gpu_hour,
        "successor_as_of": newer.as_of.isoformat(),
    }


def peak_is_spot(
    proposal: ProposalInput, priced: Offer | None, gpu: str | None, knowledge: Knowledge
) -> bool:
    """A hybrid's busier hours run on spot: the hourly offer its mix was priced on (``priced``), else the
    catalog offer its peak fields name (of the base's GPU where it is known)."""
    if priced is not None:
        return priced.pricing == "spot"
    if proposal.peak_offer is None:
        return False
    return any(
        offer.pricing == "spot"
        for offer in knowledge.offers.offers
        if names_peak(proposal, offer) and gpu in (None, offer.gpu)
    )


def capacity_details(offer: Offer | None) -> dict[str, Any]:
    """How the provider reserves the instances a proposed commitment leaves unreserved, and where it says
    so, for PRC027's message (nothing where the offer reserves them or promises none)."""
    terms = offer.capacity_not_reserved if offer is not None else None
    if terms is None:
        return {}
    return {
        "reserve_with": terms.reserve_with,
        "capacity_sources": terms.sources(),
    }


def spot_seller(proposal: ProposalInput, pricing: str | None, peak: Offer | None) -> str | None:
    """Whose spot capacity the proposal rents: the proposed provider's where its pricing is spot, else a
    hybrid's busier hours' (the offer the mix was priced on, else the one its peak fields name)."""
    if pricing == "spot" or proposal.deployment != "hybrid":
        return proposal.provider
    return peak.provider if peak is not None else proposal.peak_provider or proposal.provider
