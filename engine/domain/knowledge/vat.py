"""VAT standard rates by country (``vat_rates.yaml``): what a purchase costs a company that cannot deduct
the VAT it pays (the workload's ``input_vat_recoverable: false``)."""

from __future__ import annotations

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.knowledge.costs import CountryCode
from gpu_advisor.engine.domain.knowledge.entries import Sourced, Translated
from gpu_advisor.engine.domain.knowledge.files import VersionedFile


class VatRate(Sourced, Translated):
    """A country's standard VAT rate, the law that sets it, its source and date."""

    country: CountryCode
    rate: float = Field(gt=0, lt=1, allow_inf_nan=False)
    """The standard rate as a share of the net price (0.19 for 19 %)."""
    law: str = Field(min_length=1)
    """The provision that sets it, as the memo names it (``§ 12(1) UStG``)."""
    note: str = Field(min_length=1)


class VatRatesFile(VersionedFile):
    rates: tuple[VatRate, ...] = Field(min_length=1)
    applied: VatRate | None = None
    """The rate every purchase of the knowledge base's copy is priced with (``gross_prices.with_vat``):
    set on the copy an evaluation prices a workload that cannot recover input VAT at; never in the
    shipped file."""

    def of(self, country: str) -> VatRate | None:
        """The country's standard rate; None where the file has none."""
        return next((entry for entry in self.rates if entry.country == country), None)

    @model_validator(mode="after")
    def _each_country_once(self) -> VatRatesFile:
        countries = [entry.country for entry in self.rates]
        repeated = sorted({country for country in countries if countries.count(country) > 1})
        if repeated:
            raise ValueError(f"countries listed more than once: {', '.join(repeated)}")
        return self
