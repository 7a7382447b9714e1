"""A listing's parts that no price changes, worked out once per offer (``listing_frames``): its
jurisdictions, regions and their countries, the attributes exclusion rules read, its source, its linked
instance sizes and where its price came from; and the regional price that completes it
(``listings.listings``)."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from gpu_advisor.engine.calc.instances import linked_sizes
from gpu_advisor.engine.common.caching import cleared_with_the_others
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import LIST_PRICE_CLEARED, Knowledge, cite
from gpu_advisor.engine.domain.knowledge.entries import Offer
from gpu_advisor.engine.domain.results import PriceOrigin


def option_attributes(
    offer: Offer, jurisdiction: str, regions: tuple[str, ...], knowledge: Knowledge
) -> dict[str, Any]:
    """The attributes exclusion rules can name (``OptionField`` in the rule schema) of ``offer`` in
    ``regions`` (those of ``jurisdiction``)."""
    provider = knowledge.provider(offer.provider)
    gpu = knowledge.gpu(offer.gpu)
    countries = {region.id: region.countries for region in provider.regions}
    return {
        "eu": jurisdiction == "EU",
        "jurisdiction": jurisdiction,
        "pricing": offer.pricing,
        "commitment": offer.commitment,
        "interconnect": gpu.interconnect,
        "provider_kind": provider.kind,
        "enterprise_sla": provider.sla_for(offer.pricing),
        "segment": gpu.segment,
        "provider": offer.provider,
        "gpu": offer.gpu,
        # A rented instance is GPUs: the team runs the serving stack on it.
        "managed": False,
        # No platform endpoint: the team runs its own server on the instance.
        "streaming_worker": "none",
        "superseded": offer.superseded_by is not None,
        # Each region's countries: an allow-list keeps the option where one region lies wholly in it.
        "countries": tuple(countries[region] for region in regions),
    }


def listing_attributes(
    offer: Offer, jurisdiction: str, regions: tuple[str, ...], knowledge: Knowledge
) -> Mapping[str, Any]:
    """``option_attributes``, read-only and one object for every listing with the same attributes, in this
    knowledge base or a copy with the same providers and GPUs (a scenario's, re-priced): the rules'
    exclusion tables are kept per set of these objects (``pipeline.constraints``)."""
    parts = (knowledge.providers, knowledge.gpus)
    key = (
        id(parts[0]),
        id(parts[1]),
        offer.provider,
        offer.gpu,
        offer.pricing,
        offer.commitment,
        offer.superseded_by,
        jurisdiction,
        regions,
    )
    shared = _SHARED_ATTRIBUTES.get(key)
    if shared is None:
        if len(_SHARED_ATTRIBUTES) >= SHARED_ATTRIBUTES_KEPT:
            _SHARED_ATTRIBUTES.clear()
        # The parts are kept with the attributes, so their ids stay theirs while the entry exists.
        attributes = MappingProxyType(option_attributes(offer, jurisdiction, regions, knowledge))
        shared = _SHARED_ATTRIBUTES[key] = (parts, attributes)
    return shared[1]


SHARED_ATTRIBUTES_KEPT = 4096
_SHARED_ATTRIBUTES: dict[tuple[Any, ...], tuple[tuple[Any, ...], Mapping[str, Any]]] = {}
cleared_with_the_others(_SHARED_ATTRIBUTES.clear)


def regional_price(offer: Offer, jurisdiction: str, knowledge: Knowledge) -> tuple[float, str]:
    """USD per GPU-hour in a jurisdiction's regions, and its basis: the list price where it applies,
    the list price plus the documents' EU premium for EU regions of a US-priced offer."""
    if jurisdiction == "EU" and offer.price_jurisdiction == "US":
        premium = knowledge.pricing_assumptions.eu_region_premium.value
        return offer.usd_per_gpu_hour * (1 + premium), "eu_premium_estimate"
    return offer.usd_per_gpu_hour, "list"


def offer_linked_sizes(offer: Offer) -> tuple[int, ...]:
    """The offer's multi-card instance sizes whose cards share the GPU's link (``linked_sizes``)."""
    return linked_sizes(offer.instance_gpus, offer.nvlink_instance_gpus)


def stages_over_cluster_network(offer: Offer, cards_per_replica: int, knowledge: Knowledge) -> bool:
    """A replica larger than the offer's largest instance runs as pipeline stages of whole linked
    instances over a network between them that the provider documents (``Offer.cluster_network``): each
    stage keeps its cards on one link, and only the activations pass from one stage to the next. The
    instance must be the node the performance estimate puts one stage on (``card_counts.node_gpus``)."""
    largest = offer.instance_gpus[-1]
    return (
        offer.cluster_network is not None
        and cards_per_replica > largest == knowledge.sizing.card_counts.node_gpus
        and cards_per_replica % largest == 0
        and largest in offer_linked_sizes(offer)
    )


def offer_price_origin(offer: Offer) -> PriceOrigin:
    """The catalog, or the overrides file or import the offer's price came from, with its date."""
    origin = offer.origin
    if origin is None:
        return trusted(PriceOrigin, kind="catalog", file=None, format=None, as_of=offer.as_of)
    return trusted(PriceOrigin, kind=origin.kind, file=origin.file, format=origin.format, as_of=offer.as_of)


class ListingFrame(NamedTuple):
    """A listing without its offer's price: what the offer's other fields, its provider's regions, its
    GPU and the cited documents give."""

    jurisdiction: str
    regions: tuple[str, ...]
    countries: tuple[str, ...]
    price_basis: str
    attributes: Mapping[str, Any]
    source: str
    linked: tuple[int, ...]
    price_origin: PriceOrigin


PRICE_FIELDS = frozenset(
    {
        "usd_per_gpu_hour",
        "usd_per_gpu_hour_low",
        "usd_per_gpu_hour_high",
        "instance_usd_per_hour",
        *LIST_PRICE_CLEARED,
    }
)
"""The offer fields a re-pricing changes (a scenario's draw, a sweep, an overrides file's rate): a listing's
frame reads none of them."""
_UNPRICED = operator.itemgetter(*(name for name in Offer.model_fields if name not in PRICE_FIELDS))


def listing_frames(offer: Offer, knowledge: Knowledge) -> tuple[ListingFrame, ...]:
    """``offer``'s listings without its price, one per jurisdiction of its regions (sorted), kept by the
    offer's other fields and the providers, GPUs and documents of ``knowledge`` (by identity): an offer
    re-priced in a copy of the knowledge base shares its original's."""
    parts = (knowledge.providers, knowledge.gpus, knowledge.documents)
    by_object = _FRAMES_BY_OFFER.get(id(offer))
    if by_object is not None and by_object[0] is offer and all(map(operator.is_, by_object[1], parts)):
        return by_object[2]
    key = (*map(id, parts), _UNPRICED(offer.__dict__))
    by_value = _FRAMES.get(key)
    if by_value is None:
        if len(_FRAMES) >= FRAMES_KEPT:
            _FRAMES.clear()
        # The parts are kept with the frames, so their ids stay theirs while the entry exists.
        by_value = _FRAMES[key] = (parts, _frames_of(offer, knowledge))
    if len(_FRAMES_BY_OFFER) >= FRAMES_KEPT:
        _FRAMES_BY_OFFER.clear()
    # The offer and the parts are kept with the entry, so their ids stay theirs while it exists.
    _FRAMES_BY_OFFER[id(offer)] = (offer, parts, by_value[1])
    return by_value[1]


def _frames_of(offer: Offer, knowledge: Knowledge) -> tuple[ListingFrame, ...]:
    source = cite(offer.source, knowledge)
    linked = offer_linked_sizes(offer)
    origin = offer_price_origin(offer)
    return tuple(
        ListingFrame(
            jurisdiction=jurisdiction,
            regions=regions,
            countries=knowledge.region_countries(offer.provider, regions),
            price_basis=regional_price(offer, jurisdiction, knowledge)[1],
            attributes=listing_attributes(offer, jurisdiction, regions, knowledge),
            source=source,
            linked=linked,
            price_origin=origin,
        )
        for jurisdiction, regions in knowledge.offer_regions_by_jurisdiction(offer).items()
    )


FRAMES_KEPT = 8192
"""Offers' listing frames kept: a catalog's few hundred offers, each also re-priced by some scenarios."""
_FRAMES: dict[tuple[Any, ...], tuple[tuple[Any, ...], tuple[ListingFrame, ...]]] = {}
_FRAMES_BY_OFFER: dict[int, tuple[Offer, tuple[Any, ...], tuple[ListingFrame, ...]]] = {}
cleared_with_the_others(_FRAMES.clear)
cleared_with_the_others(_FRAMES_BY_OFFER.clear)
