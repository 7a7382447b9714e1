"""The result of ``gpu-advisor tco``: one owned server's cost lines and break-evens against the rentals
(re-exported by ``results``)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from gpu_advisor.engine.domain.choices import PricingKind
from gpu_advisor.engine.domain.own_costs import OwnCosts, UsdPerGpuHour
from gpu_advisor.engine.domain.result_model import RESULT_SCHEMA_VERSION, ResultModel


class BreakEven(ResultModel):
    provider: str
    offer: str
    gpu: str
    pricing: PricingKind
    usd_per_gpu_hour: float
    utilization: float
    as_of: dt.date
    billing: Literal["hourly", "committed"] = "hourly"
    commitment_months: int | None = None


class TcoScenario(ResultModel):
    name: str
    server_price_usd: float
    residual: float
    usd_per_gpu_hour: UsdPerGpuHour


class TcoResult(ResultModel):
    schema_version: int = RESULT_SCHEMA_VERSION
    server: str | None
    """The catalog's server; None for a server of another card count (``gpus_per_server`` given)."""
    gpu: str
    server_price_usd: float
    gpus_per_server: int
    months: int
    hours_per_month: float
    hours_written_off: float
    gpu_watts: float
    power_overhead: float
    node_kw: float
    usd_per_kwh: float
    rack_usd_per_month: float
    residual: float
    colocation_usd_per_kw_month: float
    colocation_usd_per_month: float
    staff_usd_per_month: float
    power_usd_per_month: float
    capital_usd_per_month: float
    colocation_total_usd_per_month: float
    server_usd_per_month: float
    usd_per_gpu_hour: UsdPerGpuHour
    costs: OwnCosts
    break_even: tuple[BreakEven, ...]
    scenarios: tuple[TcoScenario, ...]
    overridden: tuple[str, ...]
    source: str
    power_source: str | None = None
    """Where the power draw comes from when it is a GPU's TDP (``tco --gpu`` of a GPU the catalog prices
    no server of); None where it is the catalog server's or the request's."""
    as_of: dt.date
    exchange_rate_usd_per_eur: float = 0.0
    """The rate a EUR figure is converted at (as ``recommend``'s result gives it), its date, and whether
    it is gpu-advisor's assumption rather than a published rate."""
    exchange_rate_as_of: dt.date | None = None
    exchange_rate_assumed: bool = False
    exchange_rate_chf_per_eur: float | None = None
    """The EUR/CHF rate and its date, as ``Recommendation.exchange_rate_chf_per_eur``."""
    exchange_rate_chf_as_of: dt.date | None = None
    exchange_rate_chf_source: str | None = None
    currencies: tuple[str, ...] = ()
    """The currencies of the figures the lines rest on and of a price given in EUR ('USD', 'EUR', 'CHF')."""
