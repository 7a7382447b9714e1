"""The user's own figures for one run: the overrides file's schema.

An overrides file re-prices catalog offers (``offers``), and may add offers the catalog does not have
(``added_offers``) in regions it knows or adds (``regions``); ``catalog import`` writes such files from
published price catalogs and records where they came from (``source``).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_advisor.engine.domain.choices import Jurisdiction

ImportFormat = Literal["skypilot", "gpuhunt", "csv"]
IMPORT_FORMATS: tuple[str, ...] = ("skypilot", "gpuhunt", "csv")

Identifier = Annotated[str, Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:+-]*$")]


class StrictInput(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class OfferOverride(StrictInput):
    provider: str
    offer: str
    gpu: str
    usd_per_gpu_hour: float = Field(gt=0, lt=1000)
    as_of: dt.date | None = None
    """When this rate was agreed or read (default: the file's ``as_of``)."""


class OverridesSource(StrictInput):
    """Where an imported file's figures come from."""

    format: ImportFormat
    file: str = Field(min_length=1)
    """The imported file's name (without its directory)."""
    provider: str | None = None
    """The provider the imported catalog lists (SkyPilot and gpuhunt publish one file per cloud)."""


class RegionSource(StrictInput):
    url: str = Field(min_length=1)
    title: str = Field(min_length=1)


class AddedRegion(StrictInput):
    """A region of a catalog provider that the catalog does not list."""

    provider: str
    id: Identifier
    name: str = Field(min_length=1)
    jurisdiction: Jurisdiction = "unknown"
    countries: tuple[Annotated[str, Field(pattern=r"^[A-Z]{2}$")], ...] = ()
    source: RegionSource | None = None
    """Required where a jurisdiction is claimed: where the region's location comes from."""

    @model_validator(mode="after")
    def _sourced(self) -> AddedRegion:
        if (self.jurisdiction != "unknown" or self.countries) and self.source is None:
            raise ValueError("a region with a jurisdiction or countries needs a source (url and title)")
        return self


class AddedOffer(StrictInput):
    """An offer the catalog does not have, with everything a catalog offer needs."""

    provider: str
    offer: Identifier
    gpu: str
    usd_per_gpu_hour: float = Field(gt=0, lt=1000)
    instance_usd_per_hour: float | None = Field(default=None, gt=0)
    """The price of one instance of the largest size, where the source quotes instances."""
    pricing: Literal["on_demand", "spot", "reserved", "capacity_block"]
    commitment_months: int | None = Field(default=None, gt=0, le=120)
    instance_gpus: tuple[Annotated[int, Field(ge=1, le=64)], ...] = Field(min_length=1)
    nvlink_instance_gpus: tuple[Annotated[int, Field(ge=2, le=64)], ...] | None = None
    regions: tuple[str, ...] = Field(min_length=1)
    price_jurisdiction: Jurisdiction
    as_of: dt.date
    note: str | None = None

    @property
    def key(self) -> str:
        return f"{self.provider}/{self.offer}/{self.gpu}"

    @model_validator(mode="after")
    def _commitment(self) -> AddedOffer:
        if (self.pricing == "reserved") != (self.commitment_months is not None):
            raise ValueError("reserved offers, and only they, give commitment_months")
        return self


class ServerOverride(StrictInput):
    price_usd: float | None = Field(default=None, gt=0)
    months: int | None = Field(default=None, gt=0, le=240)
    gpu_watts: float | None = Field(default=None, gt=0, le=5000)
    power_overhead_factor: float | None = Field(default=None, ge=1, le=5)
    usd_per_kwh: float | None = Field(default=None, ge=0, le=10)
    rack_usd_per_month: float | None = Field(default=None, ge=0)
    residual_share: float | None = Field(default=None, ge=0, lt=1)


class RateOverride(StrictInput):
    usd_per_eur: float = Field(gt=0, le=10)


class Overrides(StrictInput):
    offers: list[OfferOverride] = Field(default_factory=list)
    own_server: ServerOverride | None = None
    exchange_rate: RateOverride | None = None
    as_of: dt.date | None = None
    source: OverridesSource | None = None
    """Set by ``catalog import``: the figures come from this imported file."""
    regions: list[AddedRegion] = Field(default_factory=list)
    added_offers: list[AddedOffer] = Field(default_factory=list)
