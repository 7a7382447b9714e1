"""The user's own figures for one run: the overrides file's schema.

An overrides file re-prices catalog offers (``offers``), and may add offers the catalog does not have
(``added_offers``) in regions it knows or adds (``regions``); ``catalog import`` writes such files from
published price catalogs and records where they came from (``source``).
"""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Annotated, Literal

from pydantic import Field, PrivateAttr, model_validator

from gpu_advisor.engine.common.user_input import on_line
from gpu_advisor.engine.common.wording import Words, WordsError
from gpu_advisor.engine.domain.choices import JurisdictionInput
from gpu_advisor.engine.domain.countries import CountryCodeInput
from gpu_advisor.engine.domain.distributions import Range
from gpu_advisor.engine.domain.knowledge.entries import MAX_INSTANCE_GPUS, ClusterNetwork, GpuHourPrice
from gpu_advisor.engine.domain.limits import (
    MAX_MONTHLY_COST,
    MAX_PRICE_PER_KWH,
    MAX_SERVER_PRICE,
    MAX_WRITE_OFF_MONTHS,
)
from gpu_advisor.engine.domain.requests import DepreciationYears
from gpu_advisor.engine.domain.strict_input import StrictInput

ImportFormat = Literal["skypilot", "gpuhunt", "csv"]
IMPORT_FORMATS: tuple[str, ...] = ("skypilot", "gpuhunt", "csv")

Identifier = Annotated[str, Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:+-]*$")]


class OfferOverride(StrictInput):
    provider: str
    offer: str
    gpu: str
    usd_per_gpu_hour: GpuHourPrice
    as_of: dt.date | None = None
    """When this rate was agreed or read (default: the file's ``as_of``)."""
    note: str | None = None
    """What the rate is (an enterprise discount, a quote's number), kept beside the catalog price."""

    @property
    def key(self) -> str:
        """The catalog offer's key (``Offer.key``): provider/offer/gpu."""
        return f"{self.provider}/{self.offer}/{self.gpu}"


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
    jurisdiction: JurisdictionInput = "unknown"
    countries: tuple[CountryCodeInput, ...] = ()
    """Where its data centres are; none may lie in another of the jurisdictions EU, CH, UK and US, by the
    country's data-protection region (``knowledge/data_protection.yaml``): an EU region in the US is
    refused. A country of none of them (data-protection region 'other') is taken on the file's word:
    the catalog does not list the EU's outermost regions (Réunion, Guadeloupe, ...) as EU countries."""
    source: RegionSource | None = None
    """Required where a jurisdiction is claimed: where the region's location comes from."""

    @model_validator(mode="after")
    def _sourced(self) -> AddedRegion:
        if (self.jurisdiction != "unknown" or self.countries) and self.source is None:
            raise WordsError(
                Words("a region with a jurisdiction or countries needs a source (url and title)")
            )
        return self


class AddedOffer(StrictInput):
    """An offer the catalog does not have, with everything a catalog offer needs."""

    provider: str
    offer: Identifier
    gpu: str
    usd_per_gpu_hour: GpuHourPrice
    instance_usd_per_hour: float | None = Field(default=None, gt=0)
    """The price of one instance of the largest size, where the source quotes instances."""
    pricing: Literal["on_demand", "spot", "reserved", "capacity_block"]
    commitment_months: int | None = Field(default=None, gt=0, le=120)
    instance_gpus: tuple[Annotated[int, Field(ge=1, le=MAX_INSTANCE_GPUS)], ...] = Field(min_length=1)
    nvlink_instance_gpus: tuple[Annotated[int, Field(ge=2, le=MAX_INSTANCE_GPUS)], ...] | None = None
    cluster_network: ClusterNetwork | None = None
    """The network between its instances that the provider documents and the rate includes, with its own
    source and date (NET006): a replica larger than one instance may then span several."""
    regions: tuple[str, ...] = Field(min_length=1)
    price_jurisdiction: JurisdictionInput
    as_of: dt.date
    note: str | None = None

    @property
    def key(self) -> str:
        return f"{self.provider}/{self.offer}/{self.gpu}"

    @model_validator(mode="after")
    def _commitment(self) -> AddedOffer:
        if (self.pricing == "reserved") != (self.commitment_months is not None):
            raise WordsError(Words("reserved offers, and only they, give commitment_months"))
        return self


class ServerOverride(StrictInput):
    """Your figures for the own server. The price, write-off and power draw replace the default server's;
    the power price, housing (rack or colocation) and staff replace the company country's defaults for
    every catalog server they apply to. A figure is given in USD or in EUR (converted at the catalog's
    rate, or at ``exchange_rate`` of the same file), never both; the write-off as ``months`` or as
    ``depreciation_years`` (3, 4 or 5), never both; a rack or a colocation fee, never both."""

    price_usd: float | None = Field(default=None, gt=0, le=MAX_SERVER_PRICE)
    price_eur: float | None = Field(default=None, gt=0, le=MAX_SERVER_PRICE)
    months: int | None = Field(default=None, gt=0, le=MAX_WRITE_OFF_MONTHS)
    depreciation_years: DepreciationYears | None = None
    gpu_watts: float | None = Field(default=None, gt=0, le=5000)
    power_overhead_factor: float | None = Field(default=None, ge=1, le=5)
    usd_per_kwh: float | None = Field(default=None, ge=0, le=MAX_PRICE_PER_KWH)
    eur_per_kwh: float | None = Field(default=None, ge=0, le=MAX_PRICE_PER_KWH)
    rack_usd_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY_COST)
    rack_eur_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY_COST)
    colocation_usd_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY_COST)
    colocation_eur_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY_COST)
    staff_usd_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY_COST)
    staff_eur_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY_COST)
    residual_share: float | None = Field(default=None, ge=0, lt=1)

    @model_validator(mode="after")
    def _one_form_each(self) -> ServerOverride:
        # Each housing replaces the country's: a colocation fee pays for the rack space, so a rack and a
        # colocation fee would count the housing twice, in whichever currencies they are given.
        for first, second in (*ONE_OF, *itertools.product(RACK, COLOCATION)):
            if getattr(self, first) is not None and getattr(self, second) is not None:
                raise WordsError(Words("give %(first)s or %(second)s, not both", first=first, second=second))
        return self


RACK = ("rack_usd_per_month", "rack_eur_per_month")
COLOCATION = ("colocation_usd_per_month", "colocation_eur_per_month")
ONE_OF = (
    ("price_usd", "price_eur"),
    ("months", "depreciation_years"),
    ("usd_per_kwh", "eur_per_kwh"),
    RACK,
    COLOCATION,
    ("staff_usd_per_month", "staff_eur_per_month"),
)
"""Fields that state the same figure: at most one of each pair."""


class RateOverride(StrictInput):
    # The euro has traded between about 0.83 and 1.60 dollars since 1999: a rate outside 0.5 to 2.5 is a
    # slip of the decimal point (0.108 for 1.08) or another unit, whose memo priced an API at
    # quadrillions of euros.
    usd_per_eur: float = Field(ge=0.5, le=2.5)


class Overrides(StrictInput):
    offers: list[OfferOverride] = Field(default_factory=list)
    own_server: ServerOverride | None = None
    exchange_rate: RateOverride | None = None
    as_of: dt.date | None = None
    source: OverridesSource | None = None
    """Set by ``catalog import``: the figures come from this imported file."""
    regions: list[AddedRegion] = Field(default_factory=list)
    added_offers: list[AddedOffer] = Field(default_factory=list)
    ranges: dict[str, Range] = Field(default_factory=dict)
    """Your ranges for ``recommend --scenarios``: an uncertain input's id (``knowledge/uncertainty.yaml``)
    -> its low, high and shape, in the input's own unit."""
    _lines: dict[tuple[str | int, ...], int] = PrivateAttr(default_factory=dict)
    """The line each value of the file starts on, by its path, where it was read from YAML
    (``user_input.load_yaml``); empty for one built in memory (``catalog import``) or read from JSON."""

    def read_on(self, lines: dict[tuple[str | int, ...], int]) -> Overrides:
        """These overrides, knowing the lines of the file they were read from."""
        self._lines = lines
        return self

    def entry(self, file: str, part: str, index: int) -> str:
        """An entry of a list of the file as its errors name it: ``FILE:LINE: offers[1]``, the line where
        it is known, as a workload file's errors name theirs."""
        return f"{on_line(file, self._lines.get((part, index)))}: {part}[{index}]"

    @model_validator(mode="after")
    def _each_offer_once(self) -> Overrides:
        # Two rates for one offer: which one was meant is the reader's to say, not the last one's.
        seen: set[str] = set()
        keys = [o.key for o in self.offers] + [a.key for a in self.added_offers]
        for key in keys:
            if key in seen:
                raise WordsError(Words("%(offer)s is given twice; give each offer once", offer=key))
            seen.add(key)
        return self
