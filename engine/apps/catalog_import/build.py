"""From validated catalog rows to an overrides file: names mapped to catalog IDs, one offer per
instance, pricing kind and jurisdiction at the cheapest region's price, regions the catalog lacks added
with an unknown jurisdiction, and a report of everything left out.

An instance's price per GPU-hour is its price per instance-hour over its cards (``AcceleratorCount``,
``gpu_count``); SkyPilot's ``SpotPrice`` gives a spot offer beside the on-demand one. Within one
jurisdiction the offer lists the regions at the lowest price; dearer regions are counted, not priced
(a recommendation would never pick them over the cheaper region of the same jurisdiction).
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from gpu_advisor.engine.apps.catalog_import.read import at_line
from gpu_advisor.engine.common.errors import InputError, unknown_value_message
from gpu_advisor.engine.common.wording import Grouped, Words, at
from gpu_advisor.engine.domain.import_mapping import ImportMappingFile
from gpu_advisor.engine.domain.import_rows import GpuhuntRow, PlainRow, Row, SkyPilotRow
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import MAX_USD_PER_GPU_HOUR
from gpu_advisor.engine.domain.overrides import (
    AddedOffer,
    AddedRegion,
    OfferOverride,
    Overrides,
    OverridesSource,
)

PRICE_DIGITS = 6
"""Prices per GPU-hour are rounded to a millionth of a dollar (an instance price over its cards)."""


@dataclass(frozen=True)
class Candidate:
    """One priced instance in one region, mapped to catalog IDs."""

    line: int
    provider: str
    instance: str
    gpu: str
    count: int
    usd_per_instance_hour: float
    pricing: str
    region: str
    jurisdiction: str


@dataclass
class Tally:
    rows: int = 0
    no_accelerator: int = 0
    no_price: int = 0
    no_instance: int = 0
    unknown_provider: int = 0
    unknown_gpus: Counter[str] = field(default_factory=Counter)
    unknown_providers: Counter[str] = field(default_factory=Counter)
    format_names: dict[str, str] = field(default_factory=dict)
    """An unknown provider name that is a catalog provider's ID -> the format's name for it."""
    new_regions: dict[tuple[str, str], int] = field(default_factory=dict)
    suggestions: dict[str, str] = field(default_factory=dict)
    """A provider or GPU name of a file of your own rates the catalog does not know -> the catalog's name
    it is closest to (a misspelling)."""


class Regions:
    """Region codes resolved to catalog regions, or added with an unknown jurisdiction."""

    def __init__(self, knowledge: Knowledge, mapping: ImportMappingFile, tally: Tally) -> None:
        self.providers = {p.id: {r.id: r for r in p.regions} for p in knowledge.providers.providers}
        self.mapping = mapping
        self.tally = tally

    def resolve(self, provider: str, code: str) -> tuple[str, str]:
        """The catalog region ID and its jurisdiction for the format's region code."""
        known = self.providers[provider]
        region_id = code if code in known else self.mapping.region(provider, code)
        if region_id is not None:
            return region_id, known[region_id].jurisdiction
        added = slug(code)
        if added in known:
            # Written otherwise ("US East 1"), it is the catalog's region its ID names.
            return added, known[added].jurisdiction
        key = (provider, added)
        self.tally.new_regions[key] = self.tally.new_regions.get(key, 0) + 1
        return added, "unknown"


def slug(text: str) -> str:
    """An ID from a catalog's name: lower case, anything but letters, digits, dots and dashes a dash."""
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9.+-]", "-", text.strip().lower())).strip("-.+") or "x"


def vendor_candidates(
    rows: list[tuple[int, Row]],
    fmt: str,
    provider_name: str,
    knowledge: Knowledge,
    mapping: ImportMappingFile,
    tally: Tally,
) -> list[Candidate]:
    provider = mapping.provider(fmt, provider_name)
    regions = Regions(knowledge, mapping, tally)
    found = []
    for line, row in rows:
        tally.rows += 1
        instance = row_instance(row, tally)
        if instance is None:
            continue
        name, count, memory, code, prices = instance
        if provider is None:
            tally.unknown_provider += 1
            tally.unknown_providers[provider_name] += 1
            format_name = mapping.format_name(fmt, provider_name)
            if format_name is not None:
                tally.format_names[provider_name] = format_name
            continue
        gpu = mapping.gpu(fmt, name, provider, row_name(row), memory)
        if gpu is None:
            tally.unknown_gpus[name] += 1
            continue
        region, jurisdiction = regions.resolve(provider, code)
        found += [
            Candidate(line, provider, row_name(row), gpu, count, usd, pricing, region, jurisdiction)
            for usd, pricing in prices
        ]
    return found


def refuse_price_outside_overrides_bounds(candidate: Candidate, path: str, fmt: str) -> None:
    """A price per GPU-hour an overrides file would refuse, refused on its row: one at or above its bound
    (a price per month, or a whole cluster's, in the instance-hour column), or one that the written catalog
    would round to nothing (a price in another unit)."""
    per_gpu = candidate.usd_per_instance_hour / candidate.count
    column = ("SpotPrice" if candidate.pricing == "spot" else "Price") if fmt == "skypilot" else "price"
    count = candidate.count
    cards = Words("%(count)s card", count=count) if count == 1 else Words("%(count)s cards", count=count)
    hourly = candidate.usd_per_instance_hour
    # Figures in the reader's number form (16.000 in German) where they are whole or a cent's.
    price: object = Grouped(int(hourly)) if float(hourly).is_integer() else f"{hourly:,g}"
    problem: Words | None = None
    if round(per_gpu, PRICE_DIGITS) <= 0:
        problem = Words(
            "%(price)s USD an instance-hour over %(cards)s is %(per_gpu)s USD per GPU-hour, which the "
            "written catalog, at %(digits)s decimals, rounds to 0 (a price per instance-hour is expected)",
            price=price,
            cards=cards,
            per_gpu=f"{per_gpu:g}",
            digits=PRICE_DIGITS,
        )
    elif per_gpu >= MAX_USD_PER_GPU_HOUR:
        problem = Words(
            "%(price)s USD an instance-hour over %(cards)s is %(per_gpu)s USD per GPU-hour, not below the "
            "%(most)s an overrides file admits (a price per instance-hour is expected)",
            price=price,
            cards=cards,
            per_gpu=Grouped(per_gpu, 2),
            most=Grouped(MAX_USD_PER_GPU_HOUR),
        )
    if problem is not None:
        raise InputError(at(path, at_line(candidate.line, problem, column)))


Instance = tuple[str, int, float | None, str, list[tuple[float, str]]]
"""accelerator name, cards, memory per card, region code, (USD per instance-hour, pricing) pairs"""


def row_name(row: Row) -> str:
    return (row.InstanceType or "") if isinstance(row, SkyPilotRow) else row.instance_name  # type: ignore[attr-defined]


def row_instance(row: Row, tally: Tally) -> Instance | None:
    """The row's priced instance (SkyPilot: on demand and spot), or None with the reason counted."""
    if isinstance(row, SkyPilotRow):
        count = row.count
        if not row.AcceleratorName or not count:
            tally.no_accelerator += 1
            return None
        if not row.InstanceType:
            tally.no_instance += 1
            return None
        prices = [
            (p, kind) for p, kind in ((row.Price, "on_demand"), (row.SpotPrice, "spot")) if p is not None
        ]
        if not prices:
            tally.no_price += 1
            return None
        return row.AcceleratorName, count, None, row.Region, prices
    assert isinstance(row, GpuhuntRow)
    if not row.gpu_name or row.gpu_count == 0:
        tally.no_accelerator += 1
        return None
    pricing = "spot" if row.spot else "on_demand"
    return row.gpu_name, row.gpu_count, row.gpu_memory, row.location, [(row.price, pricing)]


def group_offers(candidates: list[Candidate], as_of: dt.date, label: str) -> tuple[list[AddedOffer], int]:
    """One offer per provider, instance, GPU, pricing kind and jurisdiction, at its cheapest regions'
    price; and the number of rows a cheaper region undercut."""
    groups: dict[tuple[str, str, str, str, str], list[Candidate]] = {}
    for c in candidates:
        groups.setdefault((c.provider, c.instance, c.gpu, c.pricing, c.jurisdiction), []).append(c)
    offers = []
    undercut = 0
    for (provider, instance, gpu, pricing, jurisdiction), members in sorted(groups.items()):
        per_gpu = {c: round(c.usd_per_instance_hour / c.count, PRICE_DIGITS) for c in members}
        cheapest = min(per_gpu.values())
        chosen = [c for c in members if per_gpu[c] == cheapest]
        undercut += len(members) - len(chosen)
        sizes = tuple(sorted({c.count for c in chosen}))
        instance_price = max(c.usd_per_instance_hour for c in chosen if c.count == sizes[-1])
        suffix = "-spot" if pricing == "spot" else ""
        offers.append(
            AddedOffer(
                provider=provider,
                offer=f"{slug(instance)}{suffix}-{jurisdiction.lower()}",
                gpu=gpu,
                usd_per_gpu_hour=cheapest,
                instance_usd_per_hour=instance_price,
                pricing=pricing,  # type: ignore[arg-type]
                instance_gpus=sizes,
                regions=tuple(sorted({c.region for c in chosen})),
                price_jurisdiction=jurisdiction,  # type: ignore[arg-type]
                as_of=as_of,
                note=f"{instance} ({label}, line {min(c.line for c in chosen)})",
            )
        )
    return offers, undercut


def plain_offers(
    rows: list[tuple[int, Row]], path: str, as_of: dt.date, knowledge: Knowledge, tally: Tally
) -> tuple[list[OfferOverride], list[AddedOffer]]:
    """The plain CSV: a row naming a catalog offer re-prices it; any other row is a new offer."""
    catalog = {o.key for o in knowledge.offers.offers}
    gpus = {g.id for g in knowledge.gpus.gpus}
    providers = {p.id: {r.id: r.jurisdiction for r in p.regions} for p in knowledge.providers.providers}
    regions = Regions(
        knowledge, ImportMappingFile(schema_version=1, providers=(), gpus=(), regions=()), tally
    )
    seen: dict[str, int] = {}
    repriced: list[OfferOverride] = []
    added: list[AddedOffer] = []
    for line, row in rows:
        assert isinstance(row, PlainRow)
        tally.rows += 1
        key = f"{row.provider}/{row.offer}/{row.gpu}"
        where = (path, line)
        if row.as_of is not None and row.as_of > as_of:
            problem = Words(
                "%(date)s is after the import's date, %(as_of)s (--as-of): a price is dated when it was read "
                "or agreed",
                date=row.as_of.isoformat(),
                as_of=as_of.isoformat(),
            )
            raise InputError(at(path, at_line(line, problem, "as_of")))
        if key in seen:
            problem = Words("%(key)s is given twice (line %(line)s)", key=key, line=seen[key])
            raise InputError(at(path, at_line(line, problem, "offer")))
        seen[key] = line
        if row.provider not in providers:
            tally.unknown_provider += 1
            tally.unknown_providers[row.provider] += 1
            _suggest(tally, row.provider, providers)
            continue
        if row.gpu not in gpus:
            tally.unknown_gpus[row.gpu] += 1
            _suggest(tally, row.gpu, gpus)
            continue
        if key in catalog:
            if row.describes_offer:
                problem = Words(
                    "%(key)s is a catalog offer, its sizes, regions and pricing stay: leave pricing, "
                    "commitment_months, instance_gpus and regions empty, or name a new offer",
                    key=key,
                )
                raise InputError(at(path, at_line(line, problem, "offer")))
            repriced.append(
                OfferOverride(
                    provider=row.provider,
                    offer=row.offer,
                    gpu=row.gpu,
                    usd_per_gpu_hour=row.usd_per_gpu_hour,
                    as_of=row.as_of or as_of,
                    note=row.note,
                )
            )
            continue
        added.append(plain_offer(row, where, as_of, regions))
    return repriced, added


def plain_offer(row: PlainRow, where: tuple[str, int], as_of: dt.date, regions: Regions) -> AddedOffer:
    """A row of the plain CSV that names an offer the catalog lacks, as an added offer; ``where``: the
    file and line."""
    path, line = where
    for column in ("pricing", "instance_gpus", "regions"):
        if getattr(row, column) is None:
            key = f"{row.provider}/{row.offer}/{row.gpu}"
            problem = Words("a new offer needs it (%(key)s is not in the catalog)", key=key)
            raise InputError(at(path, at_line(line, problem, column)))
    assert row.pricing is not None and row.instance_gpus is not None and row.regions is not None
    if (row.pricing == "reserved") != (row.commitment_months is not None):
        problem = Words("reserved offers, and only they, give it")
        raise InputError(at(path, at_line(line, problem, "commitment_months")))
    resolved = [regions.resolve(row.provider, code) for code in row.regions]
    jurisdictions = sorted({j for _, j in resolved})
    if len(jurisdictions) > 1:
        problem = Words(
            "regions in %(jurisdictions)s; a rate applies in one jurisdiction, so give each its own offer",
            jurisdictions=", ".join(jurisdictions),
        )
        raise InputError(at(path, at_line(line, problem, "regions")))
    return AddedOffer(
        provider=row.provider,
        offer=row.offer,
        gpu=row.gpu,
        usd_per_gpu_hour=row.usd_per_gpu_hour,
        pricing=row.pricing,
        commitment_months=row.commitment_months,
        instance_gpus=tuple(sorted(set(row.instance_gpus))),
        regions=tuple(dict.fromkeys(r for r, _ in resolved)),
        price_jurisdiction=jurisdictions[0],  # type: ignore[arg-type]
        as_of=row.as_of or as_of,
        note=row.note,
    )


def build_overrides(
    path: str,
    fmt: str,
    rows: list[tuple[int, Row]],
    as_of: dt.date,
    provider_name: str | None,
    knowledge: Knowledge,
    mapping: ImportMappingFile,
) -> tuple[Overrides, Tally, int, str | None]:
    """The overrides file of an import, the tally of rows left out, the rows a cheaper region undercut
    and the catalog provider (vendor formats)."""
    tally = Tally()
    file = Path(path).name
    provider = None
    if fmt == "csv":
        repriced, added = plain_offers(rows, path, as_of, knowledge, tally)
        undercut = 0
    else:
        assert provider_name is not None
        provider = mapping.provider(fmt, provider_name)
        candidates = vendor_candidates(rows, fmt, provider_name, knowledge, mapping, tally)
        for c in candidates:
            refuse_price_outside_overrides_bounds(c, path, fmt)
        added, undercut = group_offers(candidates, as_of, f"{file}, {fmt}")
        repriced = []
    new_regions = [
        AddedRegion(provider=p, id=r, name=f"{r} (from {file}; location not in the catalog)")
        for p, r in sorted(tally.new_regions)
    ]
    overrides = Overrides(
        offers=repriced,
        as_of=as_of,
        source=OverridesSource(format=fmt, file=file, provider=provider),  # type: ignore[arg-type]
        regions=new_regions,
        added_offers=added,
    )
    return overrides, tally, undercut, provider


def _suggest(tally: Tally, name: str, known: Collection[str]) -> None:
    """Where a file of your own rates misspells a catalog name (``awss``, ``h100-sxmm``): a close one
    only, as a GPU the catalog lacks (``rtx-4000-ada``) is no misspelling of ``rtx-5090``."""
    found = difflib.get_close_matches(name.lower(), sorted(known), n=1, cutoff=SUGGESTION_CUTOFF)
    if found:
        tally.suggestions[name] = found[0]


SUGGESTION_CUTOFF = 0.8
"""The least similarity (difflib's ratio) of a name suggested for an unknown one: 'awss' and 'aws' are
0.86, 'rtx-4000-ada' and 'rtx-5090' 0.6."""


def unknown_format(fmt: str) -> InputError:
    return InputError(unknown_value_message("--format", fmt, ("skypilot", "gpuhunt", "csv")))
