"""What a failing proposal could change to pass the checks that fail it, from the catalog listings the
workload's rules leave (``Constraints.exclusions``: residency, the company's policies, SLA, spot for a
latency-sensitive service): the proposed provider's regions where it sells the proposed GPU (RES005), its
offers of that GPU there without spot (PRC007), the other providers that sell it there, and those of them
that publish an enterprise SLA (PRV009); for a serverless proposal, the serverless products the rules
leave instead. The checks' messages name them; where there are none, they say so.
"""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.apps.check.location import proposal_regions
from gpu_advisor.engine.calc.listings import Listing, listings
from gpu_advisor.engine.domain.proposal import ProposalInput
from gpu_advisor.engine.pipeline.evaluation import Evaluation


def _left(gpu: str | None, evaluation: Evaluation) -> list[Listing]:
    """The listings of ``gpu`` (of every GPU where the proposal names none) no rule excludes: a price its
    provider's newer list replaces among the excluded (KNB010), and an offer whose instances cannot hold
    the workload's replica of that GPU on one link (NET003)."""
    rented = listings(evaluation.knowledge)
    unfit = evaluation.verdicts.unsuitable_offers
    return [
        listing
        for listing, excluded in zip(rented, evaluation.constraints.exclusions, strict=True)
        if not excluded and not unfit.get(listing.offer.key) and gpu in (None, listing.offer.gpu)
    ]


def remedy_details(
    proposal: ProposalInput, gpu: str | None, evaluation: Evaluation, spot_provider: str | None = None
) -> dict[str, Any]:
    """The alternatives the failing checks' messages name (``ProposalDetails``), in the catalog's order;
    the offers without spot are ``spot_provider``'s (whose spot capacity the proposal rents: a hybrid's
    busier hours' provider), else the proposed provider's."""
    seller = spot_provider or proposal.provider
    if proposal.deployment == "serverless":
        return {"spot_provider": seller or "", **_serverless_left(proposal, gpu, evaluation)}
    left = _left(gpu, evaluation)
    own = [listing for listing in left if listing.offer.provider == proposal.provider]
    sellers = [listing for listing in left if listing.offer.provider == seller]
    if proposal.deployment == "hybrid":
        # A mixed fleet's spot is its busier hours' (its base is a reservation): what replaces it is an
        # offer billed by the hour, as the busier hours' must be, where the base runs (a mix is priced
        # within one jurisdiction).
        base = evaluation.knowledge.offer(proposal.provider, proposal.offer, gpu)
        where = {region.jurisdiction for region in proposal_regions(proposal, base, evaluation.knowledge)}
        sellers = [
            listing
            for listing in sellers
            if listing.offer.billing != "committed" and (not where or listing.jurisdiction in where)
        ]
    others = [listing for listing in left if listing.offer.provider != proposal.provider]
    provider = evaluation.knowledge.provider
    return {
        "admitted_regions": tuple(dict.fromkeys(region for listing in own for region in listing.regions)),
        "spot_provider": seller or "",
        "offers_without_spot": tuple(
            dict.fromkeys(listing.offer.offer for listing in sellers if listing.offer.pricing != "spot")
        ),
        "admitted_providers": tuple(dict.fromkeys(provider(o.offer.provider).name for o in others)),
        "sla_providers": tuple(
            dict.fromkeys(
                provider(o.offer.provider).name
                for o in others
                if provider(o.offer.provider).sla_for(o.offer.pricing)
            )
        ),
    }


def _serverless_left(proposal: ProposalInput, gpu: str | None, evaluation: Evaluation) -> dict[str, Any]:
    """For a serverless proposal, the serverless products no rule excludes (of ``gpu`` where it names
    one): the proposed provider's regions among them and the other providers that sell them; a dedicated
    rental is another deployment, not a remedy for a serverless one."""
    left = [
        candidate.listing
        for candidate in evaluation.market.serverless.candidates
        if not candidate.excluded_by and gpu in (None, candidate.listing.gpu.gpu)
    ]
    provider = evaluation.knowledge.provider
    others = [listing for listing in left if listing.product.provider != proposal.provider]
    return {
        "admitted_regions": tuple(
            dict.fromkeys(listing.region for listing in left if listing.product.provider == proposal.provider)
        ),
        "admitted_providers": tuple(dict.fromkeys(provider(o.product.provider).name for o in others)),
        # The SLA verdict for the serverless product, as the options table takes it.
        "sla_providers": tuple(
            dict.fromkeys(provider(o.product.provider).name for o in others if o.attributes["enterprise_sla"])
        ),
    }
