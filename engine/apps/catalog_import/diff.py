"""``catalog diff``: the offers two overrides files give, compared key by key (provider/offer/GPU).

Each side is the shipped catalog with one file applied, exactly as ``--overrides`` would run it, so a
re-priced catalog offer and an added offer are compared alike; with ``--builtin`` the old side is the
shipped catalog itself. An offer on one side only is added or removed; one on both whose price per
GPU-hour differs has moved, by the new price minus the old and by that as a share of the old.
"""

from __future__ import annotations

import datetime as dt

from gpu_advisor.engine.apps.overrides import apply_overrides, read_overrides
from gpu_advisor.engine.domain.catalog_changes import CatalogDiff, PriceChange
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Offer

BUILTIN = "the shipped catalog"


def effective_offers(
    knowledge: Knowledge, path: str | None, today: dt.date, option: str = "--overrides"
) -> dict[str, Offer]:
    if path is not None:
        knowledge, _ = apply_overrides(
            knowledge, read_overrides(path, option, stdin=True), path, today, f"{option} {path}"
        )
    return {offer.key: offer for offer in knowledge.offers.offers}


def diff_files(old: str | None, new: str, knowledge: Knowledge, today: dt.date) -> CatalogDiff:
    before = effective_offers(knowledge, old, today, "OLD")
    after = effective_offers(knowledge, new, today, "NEW")
    changes = []
    unchanged = 0
    for key in sorted(before.keys() | after.keys()):
        a, b = before.get(key), after.get(key)
        if a is not None and b is not None and a.usd_per_gpu_hour == b.usd_per_gpu_hour:
            unchanged += 1
            continue
        changes.append(price_change(key, a, b))
    counts = {kind: sum(c.change == kind for c in changes) for kind in ("added", "removed", "moved")}
    return CatalogDiff(old=old or BUILTIN, new=new, unchanged=unchanged, changes=tuple(changes), **counts)


def price_change(key: str, old: Offer | None, new: Offer | None) -> PriceChange:
    delta = percent = None
    if old is not None and new is not None:
        delta = round(new.usd_per_gpu_hour - old.usd_per_gpu_hour, 4)
        percent = round((new.usd_per_gpu_hour - old.usd_per_gpu_hour) / old.usd_per_gpu_hour * 100, 2)
    change = "added" if old is None else "removed" if new is None else "moved"
    return PriceChange(
        key=key,
        pricing=(new or old).pricing,  # type: ignore[union-attr]
        change=change,
        old_usd_per_gpu_hour=old.usd_per_gpu_hour if old else None,
        new_usd_per_gpu_hour=new.usd_per_gpu_hour if new else None,
        usd_delta=delta,
        percent=percent,
        old_as_of=old.as_of if old else None,
        new_as_of=new.as_of if new else None,
    )
