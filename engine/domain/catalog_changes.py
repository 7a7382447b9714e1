"""What ``catalog import`` reports and what ``catalog diff`` shows: the output models of both."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict


class ResultModel(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True)


class SkippedName(ResultModel):
    name: str
    rows: int
    suggestion: str | None = None
    """The catalog's name closest to it, where it looks misspelt (a file of your own rates)."""


class SkippedProvider(SkippedName):
    format_name: str | None = None
    """An unknown provider that is a catalog provider's ID: the name the format gives that provider
    (gpuhunt's ``lambdalabs`` for ``lambda``), for ``--provider``."""


class AddedRegionNote(ResultModel):
    provider: str
    region: str
    rows: int


class ImportReport(ResultModel):
    """One import: what was read, written and left out, and why."""

    file: str
    format: str
    provider_name: str | None
    """The cloud's name in the format (SkyPilot's directory, gpuhunt's file name), where it has one."""
    provider: str | None
    """The catalog provider it maps to; None where the catalog does not know it."""
    as_of: dt.date
    output: str
    rows: int
    offers_added: int
    offers_repriced: int
    rows_used: int
    prices_cheaper_elsewhere: int
    """Prices (a row's on-demand or spot price) that a cheaper region of the same jurisdiction undercuts
    for the same instance and pricing kind: left out of the offers."""
    rows_without_accelerator: int
    rows_without_price: int
    rows_without_instance: int
    """SkyPilot rows pricing cards without the VM that carries them (GCP's accelerator rows)."""
    rows_unknown_provider: int
    unknown_gpus: tuple[SkippedName, ...]
    unknown_providers: tuple[SkippedProvider, ...]
    regions_unknown_jurisdiction: tuple[AddedRegionNote, ...]


class PriceChange(ResultModel):
    key: str
    """provider/offer/gpu"""
    pricing: str
    change: Literal["added", "removed", "moved"]
    old_usd_per_gpu_hour: float | None
    new_usd_per_gpu_hour: float | None
    usd_delta: float | None
    """new minus old, USD per GPU-hour, rounded to 4 decimals."""
    percent: float | None
    """The move as a share of the old price, in percent, rounded to 2 decimals."""
    old_as_of: dt.date | None
    new_as_of: dt.date | None


class CatalogDiff(ResultModel):
    old: str
    new: str
    added: int
    removed: int
    moved: int
    unchanged: int
    changes: tuple[PriceChange, ...]
