"""``gpu-advisor catalog``: the knowledge base as tables, with sources and dates, filtered, stale prices
flagged.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from gpu_advisor.engine.calc.listing_frames import offer_linked_sizes, regional_price
from gpu_advisor.engine.common.catalog_parts import FILTER_KINDS, selects_in
from gpu_advisor.engine.common.errors import InputError, unknown_value
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite
from gpu_advisor.engine.domain.knowledge.serving import ServerlessProduct

# Either case, ASCII letters only ('ß' would read as SS in capitals), as a workload file takes it.
COUNTRY_CODE = re.compile(r"[A-Za-z]{2}")


def catalog_rows(
    knowledge: Knowledge,
    kind: str,
    today: dt.date,
    gpu: str | None = None,
    provider: str | None = None,
    eu: bool | None = None,
    country: str | None = None,
) -> list[dict[str, Any]]:
    """Rows of one part of the knowledge base as plain mappings (for the JSON output and the template)."""
    stale_days = knowledge.threshold("stale_price_days").value
    given = {"--gpu": gpu, "--provider": provider, "--eu/--non-eu": eu, "--country": country}
    for option, value in given.items():
        if value is not None and kind not in FILTER_KINDS[option]:
            # Ignored, it listed every entry as if the filter had matched them all.
            problem = Words(
                "filters catalog %(kinds)s only, not %(kind)s",
                kinds=selects_in(option),
                kind=kind,
            )
            raise InputError(at(option, problem), field=option)
    if gpu is not None and gpu not in {g.id for g in knowledge.gpus.gpus}:
        raise InputError(unknown_value("--gpu", gpu, [g.id for g in knowledge.gpus.gpus]))
    # An API's provider may sell no GPUs (DeepSeek, Mistral): the catalog's providers and the APIs'.
    providers = knowledge.provider_ids()
    if provider is not None and provider not in providers:
        raise InputError(unknown_value("--provider", provider, providers))
    if country is not None:
        if not COUNTRY_CODE.fullmatch(country):
            raise InputError(country_message(country))
        if not knowledge.is_country(country.upper()):
            knowledge.check_country("--country", country)  # refused as typed
        country = country.upper()  # as a workload file takes it (countries.capitalized)
    if kind == "serverless":
        return serverless_rows(knowledge, today, stale_days, gpu, provider, eu, country)
    entries: list[Any]
    if kind == "gpus":
        entries = [g for g in knowledge.gpus.gpus if gpu in (None, g.id)]
    elif kind == "offers":
        entries = [
            o
            for o in knowledge.offers.offers
            if gpu in (None, o.gpu)
            and provider in (None, o.provider)
            and eu in (None, "EU" in knowledge.offer_regions_by_jurisdiction(o))
            and country in (None, *knowledge.region_countries(o.provider, o.regions))
        ]
    elif kind == "models":
        entries = list(knowledge.models.models)
    else:
        # Where an API processes the requests: its jurisdiction and, where the catalog knows them, its
        # countries.
        entries = [
            a
            for a in knowledge.api_prices.apis
            if provider in (None, a.provider)
            and eu in (None, a.jurisdiction == "EU")
            and country in (None, *a.countries)
        ]
    rows = []
    for entry in entries:
        row = entry.model_dump(mode="python")
        row["source_label"] = cite(entry.source, knowledge)
        row["stale"] = kind in ("offers", "apis") and (today - entry.as_of).days > stale_days
        if kind == "offers":
            regions = knowledge.offer_regions_by_jurisdiction(entry)
            row["jurisdictions"] = "/".join(regions)
            # Where the data centres are, where the catalog names them (the memo's "EU (DE)").
            row["countries"] = list(knowledge.region_countries(entry.provider, entry.regions))
            # The multi-card sizes whose cards share the GPU's link, as the packing reads them.
            row["linked_instance_gpus"] = offer_linked_sizes(entry)
            row["interconnect"] = knowledge.gpu(entry.gpu).interconnect
            # What a recommendation pays in the offer's EU regions: the list price, or for a US-priced
            # offer the list price plus the documents' EU premium (an estimate).
            eu_price, eu_basis = regional_price(entry, "EU", knowledge) if "EU" in regions else (None, None)
            row["eu_usd_per_gpu_hour"] = eu_price
            row["eu_price_basis"] = eu_basis
        rows.append(row)
    return rows


def country_message(country: str) -> Words:
    """A ``--country`` that is no ISO code, said as ``tco --country`` says it."""
    problem = Words.joined(
        "%(problem)s (%(got)s)",
        problem=Words("an ISO 3166 code of two letters"),
        got=Words("got %(value)s", value=repr(country)),
    )
    return at("--country", problem)


def serverless_rows(
    knowledge: Knowledge,
    today: dt.date,
    stale_days: float,
    gpu: str | None,
    provider: str | None,
    eu: bool | None,
    country: str | None,
) -> list[dict[str, Any]]:
    """One row per GPU price of a serverless product, with what the product bills and where it runs."""
    rows = []
    for product in knowledge.serverless.products:
        regions = product_regions(knowledge, product)
        jurisdictions = sorted({region["jurisdiction"] for region in regions})
        countries = list(dict.fromkeys(c for region in regions for c in region["countries"]))
        if provider not in (None, product.provider) or eu not in (None, "EU" in jurisdictions):
            continue
        if country not in (None, *countries):
            continue
        for entry in product.gpus:
            if gpu not in (None, entry.gpu):
                continue
            rows.append(
                {
                    "provider": product.provider,
                    "product": product.id,
                    "name": product.name,
                    "gpu": entry.gpu,
                    "memory_gb": knowledge.gpu(entry.gpu).memory_gb,
                    "usd_per_gpu_hour": entry.usd_per_gpu_hour,
                    "warm_usd_per_gpu_hour": entry.warm_usd_per_gpu_hour,
                    "instance_gpus": list(entry.instance_gpus),
                    "billing_increment_seconds": product.billing_increment_seconds,
                    "idle_timeout_seconds": product.idle_timeout_seconds,
                    "scale_down_seconds": product.scale_down_tail_seconds,
                    "start_seconds": product.start_seconds,
                    "weights_load_gb_per_second": knowledge.serverless.weights_load_gb_per_second,
                    "managed": product.managed,
                    "regions": regions,
                    "jurisdictions": "/".join(jurisdictions),
                    "countries": countries,
                    "note": product.note,
                    "gpu_note": entry.note,
                    "as_of": product.as_of,
                    "stale": (today - product.as_of).days > stale_days,
                    **citations(knowledge, product),
                }
            )
    return rows


def citations(knowledge: Knowledge, product: ServerlessProduct) -> dict[str, Any]:
    """The product's citations, each with its label as the text shows it (None where it has none)."""
    found: dict[str, Any] = {}
    for name in ("source", "start_source", "scale_down_source", "managed_source"):
        citation = getattr(product, name)
        found[name] = citation.model_dump(mode="python") if citation else None
        found[f"{name}_label"] = cite(citation, knowledge) if citation else None
    return found


def product_regions(knowledge: Knowledge, product: ServerlessProduct) -> list[dict[str, Any]]:
    """The product's regions with their provider's name, jurisdiction and countries for them."""
    known = {region.id: region for region in knowledge.provider(product.provider).regions}
    return [
        {
            "region": entry.region,
            "name": known[entry.region].name,
            "jurisdiction": known[entry.region].jurisdiction,
            "countries": list(known[entry.region].countries),
            "price_multiplier": entry.price_multiplier,
        }
        for entry in product.regions
    ]
