"""The names a proposal gives must exist in the catalog: a typo is an input error naming the field, not a
silent 'unknown' in every check that reads it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gpu_advisor.engine.apps.check.location import JURISDICTIONS, UNKNOWN
from gpu_advisor.engine.apps.check.proposal_api import api_providers
from gpu_advisor.engine.apps.check.proposal_facts import RENTAL_DEPLOYMENTS, catalog_offer
from gpu_advisor.engine.common.errors import InputError, unknown_value
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Offer, OwnServer, Region
from gpu_advisor.engine.domain.proposal import ProposalInput


def validate_references(proposal: ProposalInput, knowledge: Knowledge, origin: str | Words) -> None:
    """Names in the proposal must exist in the catalog; a typo is an input error, not a silent 'unknown'."""
    providers = [p.id for p in knowledge.providers.providers]
    if proposal.deployment == "api":
        # An API's provider may rent no GPUs here (DeepInfra); a GPU provider that sells no API in the
        # catalog is warned (KNB012).
        providers = list(dict.fromkeys([*api_providers(knowledge), *providers]))
    checks = [
        ("proposal.provider", proposal.provider, providers),
        ("proposal.peak_provider", proposal.peak_provider, [p.id for p in knowledge.providers.providers]),
        ("proposal.gpu", proposal.gpu, [g.id for g in knowledge.gpus.gpus]),
        ("proposal.server", proposal.server, [s.id for s in knowledge.own_hardware.servers]),
    ]
    for field, value, allowed in checks:
        if value is not None and value not in allowed:
            raise InputError(at(origin, unknown_value(field, value, allowed)), field=field)
    if proposal.deployment == "api":
        validate_api_offer(proposal, knowledge, origin)
    if proposal.server is not None and proposal.gpu is not None:
        holds(knowledge.own_server(proposal.server), proposal.gpu, origin)
    if proposal.region is not None and proposal.region not in JURISDICTIONS:
        regions = {r.id for p in knowledge.providers.providers for r in p.regions}
        jurisdictions = list(JURISDICTIONS)
        if proposal.provider is not None:
            regions = {r.id for r in knowledge.provider(proposal.provider).regions}
            served_here = served_jurisdictions(knowledge, proposal.provider)
            jurisdictions = [j for j in JURISDICTIONS if j in served_here]
        if proposal.region not in regions:
            # Only what the check below would accept: a jurisdiction the provider has no region in is not
            # offered as an alternative.
            allowed = sorted(regions) + jurisdictions
            raise InputError(
                at(origin, unknown_value("proposal.region", proposal.region, allowed)),
                field="proposal.region",
            )
    base = catalog_offer(proposal, knowledge)
    if base is not None and proposal.region is not None and proposal.deployment in RENTAL_DEPLOYMENTS:
        sold_where(base, proposal.region, knowledge, origin)
    if base is not None and proposal.pricing is not None and proposal.deployment in RENTAL_DEPLOYMENTS:
        sold_as(base, proposal.pricing, origin)
    names_peak = proposal.peak_provider is not None or proposal.peak_offer is not None
    mixed = names_peak or proposal.base_gpus is not None or proposal.deployment == "hybrid"
    if mixed and base is not None and base.billing != "committed":
        # The busier hours' offer prices the replicas beyond a reservation's: an hourly base has none.
        field = (
            "proposal.peak_provider"
            if proposal.peak_provider
            else "proposal.peak_offer"
            if proposal.peak_offer
            else "proposal.base_gpus"
            if proposal.base_gpus is not None
            else "proposal.offer"
        )
        problem = Words(
            "a mixed fleet's busier hours and reserved base go with a reservation; %(provider)s %(offer)s "
            "bills by the hour",
            provider=base.provider,
            offer=base.offer,
        )
        raise InputError(
            at(origin, Words.joined("%(field)s: %(problem)s", field=field, problem=problem)), field=field
        )
    peak = knowledge.offer(proposal.peak_provider, proposal.peak_offer, proposal.gpu)
    if peak is not None and peak.billing == "committed":
        problem = Words(
            "the busier hours' offer is an hourly one; %(provider)s %(offer)s is a reservation",
            provider=peak.provider,
            offer=peak.offer,
        )
        raise InputError(
            at(origin, Words.joined("%(field)s: %(problem)s", field="proposal.peak_offer", problem=problem)),
            field="proposal.peak_offer",
        )
    if proposal.region in JURISDICTIONS and proposal.provider is not None:
        # A jurisdiction the provider has no region in cannot be where it runs: checking the proposal as
        # if it did would pass a residency rule on a promise the provider cannot keep; a marketplace's
        # variable locations are in no jurisdiction (``served_jurisdictions``).
        served = served_jurisdictions(knowledge, proposal.provider)
        if proposal.region not in served:
            problem = Words(
                "%(provider)s has no region in %(region)s; its regions are in %(served)s",
                provider=proposal.provider,
                region=proposal.region,
                served=places(knowledge.provider(proposal.provider).regions),
            )
            raise InputError(
                at(origin, Words.joined("proposal.region: %(problem)s", problem=problem)),
                field="proposal.region",
            )


def bought_cards(proposal: ProposalInput, server: OwnServer | None, origin: str | Words) -> None:
    """Own hardware named by its servers and the cards the service runs on (``gpus``) cannot run on more
    cards than the servers hold; ``server``: the server the proposal buys (``own_server_for``: the one it
    names, else the one the evaluation selected)."""
    if proposal.deployment != "own_hardware" or not proposal.servers or not proposal.gpus:
        return
    if server is None or proposal.gpus <= proposal.servers * server.gpus_per_server:
        return
    problem = Words(
        "%(gpus)s, but %(servers)s × %(server)s hold %(cards)s cards: name the cards the service runs on, at "
        "most all of theirs, or more servers",
        gpus=proposal.gpus,
        servers=proposal.servers,
        server=server.id,
        cards=proposal.servers * server.gpus_per_server,
    )
    raise InputError(
        at(origin, Words.joined("proposal.gpus: %(problem)s", problem=problem)), field="proposal.gpus"
    )


def sold_where(offer: Offer, region: str, knowledge: Knowledge, origin: str | Words) -> None:
    """A rental runs only where the catalog prices its offer: a region of another jurisdiction than every
    region the offer is listed in would be priced and judged for residency as if it were sold there (AWS's
    US on-demand P5 in Frankfurt, with the EU premium on top; a marketplace's offer of variable locations
    in the EU, which the residency check would pass on the proposal's word). A region of a listed
    jurisdiction may be one the catalog groups (GCP's ``us``) or leaves unpriced (an import's dearer
    regions). A catalog offer is not sold in a country where none of its regions in that jurisdiction
    lies (AWS's P5 listed in Stockholm, named in Frankfurt: judged as in Germany, where AWS rents none)."""
    listed = knowledge.offer_regions_by_jurisdiction(offer)
    regions = {r.id: r for r in knowledge.provider(offer.provider).regions}
    named = regions.get(region)
    jurisdiction = region if region in JURISDICTIONS else named.jurisdiction if named else UNKNOWN
    if jurisdiction in listed and not _another_specific_region(offer, named, listed[jurisdiction], regions):
        return
    unknown = [r for r in offer.regions if regions[r].jurisdiction == UNKNOWN]
    # Refused within a jurisdiction it is listed in, the country is the reason: the regions it is listed
    # in there, by name and country, and the named region's country.
    by_country = jurisdiction in listed and named is not None
    said = {
        "offer": f"{offer.provider} {offer.offer}",
        "region": region
        if region in JURISDICTIONS
        else f"{region} ({_countries(named) if by_country and named else jurisdiction})",
        "jurisdictions": ", ".join(f"{r} ({_countries(regions[r])})" for r in listed[jurisdiction])
        if by_country
        else ", ".join(listed[jurisdiction])
        if jurisdiction in listed
        else places(tuple(regions[r] for r in offer.regions)),
    }
    if unknown:
        problem = Words(
            "the catalog lists no price of %(offer)s in %(region)s; it lists one in %(jurisdictions)s "
            "(name region: %(unknown)s for a location it does not know)",
            unknown=unknown[0],
            **said,
        )
    else:
        problem = Words(
            "the catalog lists no price of %(offer)s in %(region)s; it lists one in %(jurisdictions)s", **said
        )
    raise InputError(
        at(origin, Words.joined("proposal.region: %(problem)s", problem=problem)), field="proposal.region"
    )


def _countries(region: Region) -> str:
    """A region's countries as a refusal names them (its jurisdiction where it names none)."""
    return ", ".join(region.countries) or region.jurisdiction


def _another_specific_region(
    offer: Offer, named: Region | None, listed: Sequence[str], regions: Mapping[str, Region]
) -> bool:
    """``named`` is a region of the provider's in a country where the catalog lists the offer in no region
    of that jurisdiction (a region of the same country may be one a listed group stands for, as GCP's
    ``us`` for ``us-central1``); an offer of an overrides file or import may leave dearer regions out, so
    it is not held to its list."""
    if named is None or not named.countries or offer.origin is not None or named.id in offer.regions:
        return False
    countries = {country for region_id in listed for country in regions[region_id].countries}
    return all(regions[region_id].countries for region_id in listed) and countries.isdisjoint(named.countries)


def sold_as(offer: Offer, pricing: str, origin: str | Words) -> None:
    """A catalog offer is sold at one pricing: a proposal that names it with another would be priced as
    the offer is sold and checked as the pricing says (a latency-sensitive service on a spot offer passed
    PRC007 as "reserved"; a 3-year reservation passed PRC008 as "on_demand"). Only a reservation of an
    offer sold by the hour stands: a term the catalog does not know, which PRC008 says."""
    if pricing == offer.pricing or (pricing == "reserved" and offer.pricing == "on_demand"):
        return
    problem = Words(
        "%(pricing)s, but %(offer)s is sold as %(sold)s: name the offer sold at the pricing meant",
        pricing=pricing,
        offer=f"{offer.provider} {offer.offer}",
        sold=offer.pricing,
    )
    raise InputError(
        at(origin, Words.joined("proposal.pricing: %(problem)s", problem=problem)), field="proposal.pricing"
    )


def holds(server: OwnServer, gpu: str, origin: str | Words) -> None:
    """A server named beside a GPU holds that GPU: an HGX H100 named with MI300X cards was priced as the
    H100 box and sized on the MI300X."""
    if server.gpu == gpu:
        return
    problem = Words(
        "%(gpu)s, but the server %(server)s holds %(held)s: name the server's GPU, or a server that holds "
        "%(gpu)s",
        gpu=gpu,
        server=server.id,
        held=server.gpu,
    )
    raise InputError(
        at(origin, Words.joined("proposal.gpu: %(problem)s", problem=problem)), field="proposal.gpu"
    )


def places(regions: Sequence[Region]) -> str:
    """Where ``regions`` are, as a refusal names them: their jurisdictions, a region of unknown location
    by its ID ("US, variable (unknown)")."""
    known = sorted({r.jurisdiction for r in regions if r.jurisdiction != UNKNOWN})
    unknown = [f"{r.id} ({UNKNOWN})" for r in regions if r.jurisdiction == UNKNOWN]
    return ", ".join([*known, *dict.fromkeys(unknown)])


def served_jurisdictions(knowledge: Knowledge, provider: str) -> frozenset[str]:
    """The jurisdictions a proposal on ``provider`` may name: those of its regions of known location (a
    marketplace's variable locations are in none: a proposal that names a jurisdiction for them would pass
    the residency check on its own word); every one where the catalog lists no region of the provider."""
    regions = knowledge.provider(provider).regions
    if not regions:
        return frozenset(JURISDICTIONS)
    return frozenset(r.jurisdiction for r in regions if r.jurisdiction != UNKNOWN)


def validate_api_offer(proposal: ProposalInput, knowledge: Knowledge, origin: str | Words) -> None:
    """An API proposal's offer: one of the catalog's API IDs of its provider. They are a closed set, as
    recommend names them: a typo or another provider's API is an input error, where a rental's offer name
    may be one the catalog lacks (KNB004). Beside a provider that sells no API in the catalog (KNB012
    warns) any name goes, except another provider's API."""
    apis = [a.id for a in knowledge.api_prices.apis if proposal.provider in (None, a.provider)]
    if apis and proposal.offer is not None and proposal.offer not in apis:
        raise InputError(
            at(origin, unknown_value("proposal.offer", proposal.offer, apis)), field="proposal.offer"
        )
    sold_by = next((a.provider for a in knowledge.api_prices.apis if a.id == proposal.offer), None)
    if not apis and sold_by is not None:
        problem = Words(
            "%(offer)s is an API of %(seller)s; %(provider)s sells no API in the catalog",
            offer=proposal.offer,
            seller=sold_by,
            provider=proposal.provider,
        )
        raise InputError(
            at(origin, Words.joined("proposal.offer: %(problem)s", problem=problem)), field="proposal.offer"
        )
