"""Own-hardware cost defaults by country (``cost_defaults.yaml``): the power price, the housing (a rack
at a flat monthly price or colocation per kW of the node's draw), an engineer's salary, the share of an
engineer an owned server takes, and the depreciation periods one may choose. Every figure names its
currency, source and date; a figure a country lacks is left out and the documents' (US) figure is used.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.knowledge.entries import Citation, Sourced, Strict, Translated

Currency = Literal["EUR", "USD", "CHF"]
"""The currencies a cost figure may be given in; each is converted to USD at the catalog's rates."""

FiniteAmount = Annotated[float, Field(ge=0, allow_inf_nan=False)]
CountryCode = Annotated[str, Field(pattern=r"^[A-Z]{2}$")]
VatStated = Literal["excluded", "not_stated"]
"""What a figure's source says of VAT: the figure excludes it (a net price), or the source does not say."""
NOTE_PLACE = re.compile(r"\{(\w+)\}")
"""A place in a cost figure's note, ``{name}``: one of its ``quoted`` amounts, or ``{vat}``."""


class CostFigure(Sourced, Translated):
    """One sourced amount in its own currency; what it is per (kWh, kW and month, month, year) follows
    from the field that holds it."""

    value: FiniteAmount
    currency: Currency
    note: str
    up_to_kwh_per_year: float | None = Field(default=None, gt=0)
    """A power price sold for a consumption of at most this many kWh a year (a tariff band); None where
    the source names no band."""
    beyond_band: str | None = None
    """What a consumer above the band pays instead, as far as the sources say (a lowercase clause the
    memo quotes); None: not known."""
    quoted: dict[str, FiniteAmount] = Field(default_factory=dict)
    """Further amounts of the same source and currency that the note names at ``{name}`` (a second tariff,
    a fixed monthly fee): they are bought as ``value`` is, so they carry the VAT where it does
    (``gross_prices.with_vat``), and the text shows them as the figure is shown."""
    vat: VatStated | None = None
    """What the source says of VAT, which the note words at ``{vat}`` for the case at hand: net, or with the
    rate a company that cannot recover it pays (``input_vat_recoverable: false``). Every price of a
    country with a VAT rate (``vat_rates.yaml``) says it; None for the others, whose figures stay net."""

    def __hash__(self) -> int:
        # A figure may sit inside an entry that is hashed; the mapping itself cannot be, its items can.
        return hash((self.value, self.currency, self.note, tuple(sorted(self.quoted.items())), self.vat))

    @model_validator(mode="after")
    def _band_before_beyond(self) -> CostFigure:
        if self.beyond_band is not None and self.up_to_kwh_per_year is None:
            raise ValueError("beyond_band is said of a tariff band (up_to_kwh_per_year) only")
        return self

    @model_validator(mode="after")
    def _places_given(self) -> CostFigure:
        names = {*self.quoted, *(("vat",) if self.vat is not None else ())}
        notes = {"note": self.note, "translations.de.note": self.translations.de.get("note", self.note)}
        for field, note in notes.items():
            places = set(NOTE_PLACE.findall(note))
            if places != names:
                given, wanted = (", ".join(sorted(found)) or "none" for found in (places, names))
                raise ValueError(
                    f"{field}: its places {{name}} ({given}) must be the quoted amounts and {{vat}} where "
                    f"vat is given ({wanted})"
                )
        return self


class BorrowingRate(Sourced, Translated):
    """What companies in a country pay a year on new bank loans: the cost of financing an owned server
    instead of paying for it at once (the memo says what it would add; the cost lines leave it out)."""

    value: float = Field(gt=0, lt=1)
    note: str


class CountryCosts(Translated):
    """One country's defaults. A figure left out was not found; the fallback country's is used."""

    country: CountryCode
    name: str
    documents: bool = False
    """The documents' own figures (US prices), used where a country has none."""
    electricity_per_kwh: tuple[CostFigure, ...] = ()
    """The parts of the price of a kWh (energy and network price, electricity tax), added up."""
    rack_per_month: CostFigure | None = None
    """Housing as a flat monthly rack price."""
    colocation_per_kw_month: CostFigure | None = None
    """Housing in a colocation data centre, priced per kW of the node's draw and month."""
    staff_salary_per_year: CostFigure | None = None
    """An engineer's gross annual salary; the staff line is its ``staff_share`` per server."""
    borrowing_rate_per_year: BorrowingRate | None = None
    """The interest rate on new loans to companies; None where none was found."""
    not_found: str | None = None
    """What was looked for and not found, in words."""

    @model_validator(mode="after")
    def _one_housing(self) -> CountryCosts:
        if self.rack_per_month is not None and self.colocation_per_kw_month is not None:
            raise ValueError(
                "give rack_per_month or colocation_per_kw_month, not both: a server is housed once"
            )
        return self


class StaffShare(Sourced, Translated):
    """The share of one engineer's working time an owned data-centre server takes."""

    value: float = Field(gt=0, le=1, allow_inf_nan=False)
    covers: str
    """What the time is spent on."""
    note: str
    assumption: bool
    """True: gpu-advisor's reading of the source, marked as an assumption in the memo."""


class TaxDepreciation(Sourced, Translated):
    """A country's tax rule for writing off computer hardware, shown beside the economic life."""

    country: CountryCode
    useful_life_years: int = Field(ge=0, le=50)
    applies_from: dt.date
    note: str
    office_note: str | None = None
    """What the rule says of a card bought for an office computer (an own server whose housing is
    ``office``) where that differs from a data-centre server's reading, with its own source and date."""
    office_source: Citation | None = None
    office_as_of: dt.date | None = None

    @model_validator(mode="after")
    def _office_note_sourced(self) -> TaxDepreciation:
        given = (self.office_note is not None, self.office_source is not None, self.office_as_of is not None)
        if any(given) and not all(given):
            raise ValueError("office_note, office_source and office_as_of: all three or none")
        return self


class Depreciation(Sourced):
    """The economic lives one may choose for an owned server; the documents' 36 months is the default."""

    years: tuple[Annotated[int, Field(ge=1, le=20)], ...] = Field(min_length=1)
    note: str
    tax: tuple[TaxDepreciation, ...] = ()

    @model_validator(mode="after")
    def _ascending(self) -> Depreciation:
        if list(self.years) != sorted(set(self.years)):
            raise ValueError("years: each period once, shortest first")
        return self


class YourCosts(Strict):
    """Cost lines the user gave (``--overrides``), already in USD; they win over every country's. A
    rack or colocation figure of yours replaces the housing: the other housing line is then zero unless
    you give it too."""

    usd_per_kwh: float | None = None
    rack_usd_per_month: float | None = None
    colocation_usd_per_month: float | None = None
    staff_usd_per_month: float | None = None
