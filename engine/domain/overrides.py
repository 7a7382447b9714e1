"""The user's own figures for one run: the overrides file's schema."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field


class StrictInput(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


class OfferOverride(StrictInput):
    provider: str
    offer: str
    gpu: str
    usd_per_gpu_hour: float = Field(gt=0, lt=1000)


class ServerOverride(StrictInput):
    price_usd: float | None = Field(default=None, gt=0, le=1e9)
    months: int | None = Field(default=None, gt=0, le=240)
    gpu_watts: float | None = Field(default=None, gt=0, le=5000)
    power_overhead_factor: float | None = Field(default=None, ge=1, le=5)
    usd_per_kwh: float | None = Field(default=None, ge=0, le=10)
    rack_usd_per_month: float | None = Field(default=None, ge=0, le=10_000_000)
    residual_share: float | None = Field(default=None, ge=0, lt=1)


class RateOverride(StrictInput):
    usd_per_eur: float = Field(gt=0, le=10)


class Overrides(StrictInput):
    offers: list[OfferOverride] = Field(default_factory=list)
    own_server: ServerOverride | None = None
    exchange_rate: RateOverride | None = None
    as_of: dt.date | None = None
