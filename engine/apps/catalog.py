"""``gpu-advisor catalog``: the knowledge base as tables, with sources and dates, filtered, stale prices
flagged.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from gpu_advisor.engine.calc.listing_frames import offer_linked_sizes, regional_price
from gpu_advisor.engine.common.errors import InputError, unknown_value
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite

KINDS = ("gpus", "offers", "models", "apis")


def catalog_rows(
    knowledge: Knowledge,
    kind: str,
    today: dt.date,
    gpu: str | None = None,
    provider: str | None = None,
    eu: bool | None = None,
) -> list[dict[str, Any]]:
    """Rows of one part of the knowledge base as plain mappings (for the JSON output and the template)."""
    stale_days = knowledge.threshold("stale_price_days").value
    if gpu is not None and gpu not in {g.id for g in knowledge.gpus.gpus}:
        raise InputError(unknown_value("--gpu", gpu, [g.id for g in knowledge.gpus.gpus]))
    if provider is not None and provider not in {p.id for p in knowledge.providers.providers}:
        raise InputError(unknown_value("--provider", provider, [p.id for p in knowledge.providers.providers]))
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
        ]
    elif kind == "models":
        entries = list(knowledge.models.models)
    else:
        entries = list(knowledge.api_prices.apis)
    rows = []
    for entry in entries:
        row = entry.model_dump(mode="python")
        row["source_label"] = cite(entry.source, knowledge)
        row["stale"] = kind in ("offers", "apis") and (today - entry.as_of).days > stale_days
        if kind == "offers":
            regions = knowledge.offer_regions_by_jurisdiction(entry)
            row["jurisdictions"] = "/".join(regions)
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
