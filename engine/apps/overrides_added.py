"""Regions and offers an overrides file adds to a copy of the knowledge base.

An added offer is validated like a catalog offer (the same ``Offer`` model, so every rule of the
knowledge base holds: prices within their ranges, instance sizes in order, reservations committed), and
it must name a known provider, a known GPU and regions of that provider: the catalog's, or regions the
same file adds. A region the catalog lacks carries its jurisdiction and countries only with a source;
otherwise its jurisdiction is unknown, which no residency rule admits as EU.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from gpu_advisor.engine.common.errors import (
    InputError,
    suggestions,
    unknown_country,
    unknown_value,
    validator_message,
)
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.input_errors import validation_problems
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Citation, Offer, Region
from gpu_advisor.engine.domain.overrides import AddedOffer, AddedRegion, Overrides

Replacement = tuple[dict[str, Any], list[Words | str]]

LAW_OF_JURISDICTION = {"EU": "eu", "CH": "ch", "UK": "uk", "US": "us"}
"""A region's jurisdiction and the data-protection region (``knowledge/data_protection.yaml``) of the
countries it may lie in."""


def added_regions(
    knowledge: Knowledge, overrides: Overrides, stamp: dict[str, Any], file: str
) -> Replacement:
    """The providers file with the overrides' regions added; a line for each region."""
    if not overrides.regions:
        return {}, []
    providers = {p.id: p for p in knowledge.providers.providers}
    added: dict[str, list[Region]] = {}
    lines: list[Words | str] = []
    for index, region in enumerate(overrides.regions):
        where = overrides.entry(file, "regions", index)
        provider = providers.get(region.provider)
        if provider is None:
            raise InputError(at(where, unknown_value("provider", region.provider, providers)))
        known = {r.id for r in provider.regions} | {r.id for r in added.get(region.provider, [])}
        if region.id in known:
            problem = Words(
                "%(region)s is already a region of %(provider)s", region=repr(region.id), provider=provider.id
            )
            raise InputError(at(where, Words.joined("field id: %(problem)s", problem=problem)))
        for country in region.countries:
            if not knowledge.is_country(country):
                raise InputError(at(where, unknown_country("field countries", country)))
            law = LAW_OF_JURISDICTION.get(region.jurisdiction)
            found = knowledge.data_protection_region(country)
            if law is not None and found in LAW_OF_JURISDICTION.values() and found != law:
                # A region in the EU whose data centre is in the US would pass the GDPR's checks.
                problem = Words(
                    "%(country)s is not in %(jurisdiction)s (its data-protection region is %(found)s): a "
                    "region's countries must lie in its jurisdiction",
                    country=country,
                    jurisdiction=region.jurisdiction,
                    found=found,
                )
                raise InputError(at(where, Words.joined("field countries: %(problem)s", problem=problem)))
        added.setdefault(region.provider, []).append(
            Region(
                id=region.id, name=region.name, jurisdiction=region.jurisdiction, countries=region.countries
            )
        )
        lines.append(region_line(region))
    if overrides.source is not None:
        named = {"count": len(overrides.regions), "file": overrides.source.file}
        lines = [
            Words("%(count)s region of unknown jurisdiction added from %(file)s", **named)
            if len(overrides.regions) == 1
            else Words("%(count)s regions of unknown jurisdiction added from %(file)s", **named)
        ]
    updated = tuple(
        p.model_copy(update={"regions": (*p.regions, *added[p.id])}) if p.id in added else p
        for p in knowledge.providers.providers
    )
    return {"providers": knowledge.providers.model_copy(update={"providers": updated})}, lines


def region_line(region: AddedRegion) -> Words:
    return Words(
        "region %(region)s (%(jurisdiction)s)",
        region=f"{region.provider}/{region.id}",
        jurisdiction=region.jurisdiction,
    )


def added_offers(knowledge: Knowledge, overrides: Overrides, stamp: dict[str, Any], file: str) -> Replacement:
    """The offers file with the overrides' offers added; a line for each offer."""
    if not overrides.added_offers:
        return {}, []
    offers = list(knowledge.offers.offers)
    keys = {o.key for o in offers}
    gpus = {g.id for g in knowledge.gpus.gpus}
    providers = {p.id: p for p in knowledge.providers.providers}
    lines: list[Words | str] = []
    for index, added in enumerate(overrides.added_offers):
        where = f"{overrides.entry(file, 'added_offers', index)} ({added.key})"
        check_references(added, where, keys, gpus, providers)
        offers.append(to_offer(added, where, stamp))
        keys.add(added.key)
        lines.append(
            Words(
                "%(key)s = %(price)s USD per GPU-hour (added)",
                key=added.key,
                price=f"{added.usd_per_gpu_hour:g}",
            )
        )
    if overrides.source is not None:
        # An import adds offers by the hundred: one line says where they came from.
        source = overrides.source
        lines = [
            Words(
                "%(count)s offers added from %(file)s (%(format)s)",
                count=len(overrides.added_offers),
                file=source.file,
                format=source.format,
            )
        ]
    return {"offers": knowledge.offers.model_copy(update={"offers": tuple(offers)})}, lines


def not_in_the_catalog(key: str, offers: list[Offer]) -> Words:
    """An offer under ``offers`` (which re-prices the catalog's) that the catalog lacks: the catalog's offers
    of its provider (the offer meant, where one of the same GPU is named alike), or for a provider it
    lacks its providers; and where an offer of the user's own goes."""
    provider, _, rest = key.partition("/")
    own = sorted((o for o in offers if o.provider == provider), key=lambda o: o.key)
    if not own:
        known = Words(
            "the catalog's providers: %(providers)s",
            providers=", ".join(sorted({o.provider for o in offers})),
        )
    else:
        known = Words(
            "its offers of %(provider)s: %(offers)s", provider=provider, offers=", ".join(o.key for o in own)
        )
        found = meant(provider, rest, own)
        if len(found) == 1:
            hint = Words("did you mean %(suggestion)s?", suggestion=repr(found[0]))
            known = Words.joined("%(known)s; %(hint)s", known=known, hint=hint)
    return Words(
        "the catalog has no offer %(key)s to re-price (%(known)s); an offer the catalog lacks goes under "
        "added_offers, with its pricing, instance_gpus, regions, price_jurisdiction and as_of",
        key=repr(key),
        known=known,
    )


def meant(provider: str, rest: str, own: list[Offer]) -> list[str]:
    """The offers of ``provider`` that ``rest`` (``offer/gpu``) may mean: the same GPU with an offer named
    alike, or the same offer with a GPU named alike (a name unlike all of them means none: a new offer)."""
    name, _, gpu = rest.partition("/")
    offers = sorted({o.offer for o in own if o.gpu == gpu})
    gpus = sorted({o.gpu for o in own if o.offer == name})
    return [
        *(f"{provider}/{m}/{gpu}" for m in (suggestions(name, offers).matches if offers else ())),
        *(f"{provider}/{name}/{m}" for m in (suggestions(gpu, gpus).matches if gpus else ())),
    ]


def check_references(
    added: AddedOffer, where: str, keys: set[str], gpus: set[str], providers: dict[str, Any]
) -> None:
    if added.key in keys:
        raise InputError(at(where, Words("the offer exists already; re-price it under offers instead")))
    if added.gpu not in gpus:
        raise InputError(at(where, unknown_value("gpu", added.gpu, sorted(gpus))))
    provider = providers.get(added.provider)
    if provider is None:
        raise InputError(at(where, unknown_value("provider", added.provider, sorted(providers))))
    regions = {r.id: r for r in provider.regions}
    for region in added.regions:
        if region not in regions:
            problem = Words(
                "%(region)s is not a region of %(provider)s; add it under regions (its regions: %(known)s)",
                region=repr(region),
                provider=provider.id,
                known=", ".join(sorted(regions)),
            )
            raise InputError(at(where, Words.joined("field regions: %(problem)s", problem=problem)))
    jurisdictions = {regions[region].jurisdiction for region in added.regions}
    if added.price_jurisdiction not in jurisdictions:
        problem = Words(
            "%(jurisdiction)s is not the jurisdiction of any of its regions (%(known)s)",
            jurisdiction=repr(added.price_jurisdiction),
            known=", ".join(sorted(jurisdictions)),
        )
        raise InputError(at(where, Words.joined("field price_jurisdiction: %(problem)s", problem=problem)))


def to_offer(added: AddedOffer, where: str, stamp: dict[str, Any]) -> Offer:
    values = added.model_dump(exclude={"as_of"}, exclude_none=True)
    billing = {"billing": "committed"} if added.pricing == "reserved" else {}
    source: Citation = stamp["source"]
    try:
        return Offer.model_validate(
            {**values, **billing, "source": source, "as_of": added.as_of, "origin": stamp["origin"]}
        )
    except ValidationError as error:
        problem = error.errors()[0]
        field = ".".join(str(part) for part in problem["loc"])
        # A check across fields names them itself (no field of its own to blame).
        said = f"field {field}: {problem['msg']}" if field else validator_message(problem["msg"])
        # The first problem in English as before; every problem for the other languages.
        raise InputError(
            f"{where}: {said}",
            problems=validation_problems(error, Offer),
            origin=where,
            what="overrides",
        ) from None
