"""Where a proposal runs: the jurisdictions and countries of the regions its provider, offer and region
name, or, for a managed API, where its provider processes the requests."""

from __future__ import annotations

from collections.abc import Mapping

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Offer, OwnServer, Region
from gpu_advisor.engine.domain.proposal import Location, ProposalInput
from gpu_advisor.engine.domain.results import ApiCost

JURISDICTIONS = ("EU", "US", "UK", "CH")
UNKNOWN = "unknown"
"""The jurisdiction of a region of unknown location (a marketplace's variable locations)."""


def proposal_jurisdictions(
    proposal: ProposalInput, offer: Offer | None, knowledge: Knowledge
) -> tuple[str, ...]:
    """The jurisdictions the proposal may run in: the one its region names, else every jurisdiction of
    its offer's (or provider's) regions; empty when the proposal names none of these."""
    if proposal.region in JURISDICTIONS:
        return (proposal.region,)
    providers = (
        [knowledge.provider(proposal.provider)] if proposal.provider else list(knowledge.providers.providers)
    )
    if proposal.region is not None:
        for provider in providers:
            for region in provider.regions:
                if region.id == proposal.region:
                    return (region.jurisdiction,)
    if offer is not None:
        return tuple(knowledge.offer_regions_by_jurisdiction(offer))
    if proposal.provider is not None:
        return tuple(sorted({region.jurisdiction for region in providers[0].regions}))
    return ()


def proposal_regions(
    proposal: ProposalInput, offer: Offer | None, knowledge: Knowledge
) -> tuple[Region, ...]:
    """The catalog regions the proposal may run in, as ``proposal_jurisdictions`` reads it: the region it
    names, its offer's (or provider's) regions in the jurisdiction it names, or all of them."""
    providers = (
        [knowledge.provider(proposal.provider)] if proposal.provider else list(knowledge.providers.providers)
    )
    if proposal.region is not None and proposal.region not in JURISDICTIONS:
        for provider in providers:
            for region in provider.regions:
                if region.id == proposal.region:
                    return (region,)
        return ()
    if offer is not None:
        by_id = {region.id: region for region in knowledge.provider(offer.provider).regions}
        regions = tuple(by_id[region_id] for region_id in offer.regions)
    elif proposal.provider is not None:
        regions = providers[0].regions
    else:
        return ()
    if proposal.region in JURISDICTIONS:
        regions = tuple(region for region in regions if region.jurisdiction == proposal.region)
    return regions


def proposal_place(
    proposal: ProposalInput, offer: Offer | None, knowledge: Knowledge, api: ApiCost | None = None
) -> Location:
    """The jurisdictions the proposal may run in and the countries of its regions: an API's, where it
    proposes one (``proposal_api``), as the catalog says its provider processes the requests."""
    if proposal.deployment == "api":
        if api is None:
            return Location(jurisdictions=(), countries=())
        return Location(jurisdictions=(api.jurisdiction,), countries=api.countries)
    regions = proposal_regions(proposal, offer, knowledge)
    return Location(
        jurisdictions=proposal_jurisdictions(proposal, offer, knowledge),
        countries=tuple(dict.fromkeys(c for region in regions for c in region.countries)),
    )


def housing_details(
    server: OwnServer | None, excluded_housings: Mapping[str, tuple[str, ...]]
) -> dict[str, str]:
    """The proposed server, where it stands, and the rules whose exclusions keep own servers out of there (""
    where none do, or the proposal buys none), for TCO021's message."""
    if server is None:
        return {}
    return {
        "proposed_server": server.name,
        "server_housing": server.housing,
        "housing_excluded_by": ", ".join(excluded_housings.get(server.housing, ())),
    }
