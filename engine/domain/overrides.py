"""The user's own figures for one run: the overrides file's schema."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_advisor.engine.domain.requests import DepreciationYears


class StrictInput(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class OfferOverride(StrictInput):
    provider: str
    offer: str
    gpu: str
    usd_per_gpu_hour: float = Field(gt=0, lt=1000)


MAX_MONTHLY = 10_000_000


class ServerOverride(StrictInput):
    """Your figures for the own server. The price, write-off and power draw replace the default server's;
    the power price, housing (rack or colocation) and staff replace the company country's defaults for
    every catalog server they apply to. A figure is given in USD or in EUR (converted at the catalog's
    rate, or at ``exchange_rate`` of the same file), never both; the write-off as ``months`` or as
    ``depreciation_years`` (3, 4 or 5), never both."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    price_usd: float | None = Field(default=None, gt=0, le=1e9)
    price_eur: float | None = Field(default=None, gt=0, le=1e9)
    months: int | None = Field(default=None, gt=0, le=240)
    depreciation_years: DepreciationYears | None = None
    gpu_watts: float | None = Field(default=None, gt=0, le=5000)
    power_overhead_factor: float | None = Field(default=None, ge=1, le=5)
    usd_per_kwh: float | None = Field(default=None, ge=0, le=10)
    eur_per_kwh: float | None = Field(default=None, ge=0, le=10)
    rack_usd_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY)
    rack_eur_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY)
    colocation_usd_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY)
    colocation_eur_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY)
    staff_usd_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY)
    staff_eur_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY)
    residual_share: float | None = Field(default=None, ge=0, lt=1)

    @model_validator(mode="after")
    def _one_form_each(self) -> ServerOverride:
        for first, second in ONE_OF:
            if getattr(self, first) is not None and getattr(self, second) is not None:
                raise ValueError(f"give {first} or {second}, not both")
        return self


ONE_OF = (
    ("price_usd", "price_eur"),
    ("months", "depreciation_years"),
    ("usd_per_kwh", "eur_per_kwh"),
    ("rack_usd_per_month", "rack_eur_per_month"),
    ("colocation_usd_per_month", "colocation_eur_per_month"),
    ("staff_usd_per_month", "staff_eur_per_month"),
)
"""Fields that state the same figure: at most one of each pair."""


class RateOverride(StrictInput):
    usd_per_eur: float = Field(gt=0, le=10)


class Overrides(StrictInput):
    offers: list[OfferOverride] = Field(default_factory=list)
    own_server: ServerOverride | None = None
    exchange_rate: RateOverride | None = None
    as_of: dt.date | None = None
