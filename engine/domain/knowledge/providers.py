"""Providers: their kind, regions and enterprise SLA, and the notice before they take spot capacity back."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.knowledge.entries import Citation, CountryCode, Region, Sourced, Translated


class SpotNotice(Sourced):
    """The warning a provider gives before it takes spot (interruptible) capacity back, as its own pages
    state it."""

    seconds: int | None = Field(ge=1, le=86_400)
    """The notice in seconds; null (to be written out): the provider's pages document none, so none is
    assumed rather than guessed."""
    up_to: bool = False
    """The notice is best effort and at most ``seconds`` (Google Cloud: "up to 30 seconds")."""

    @model_validator(mode="after")
    def _up_to_needs_seconds(self) -> SpotNotice:
        if self.up_to and self.seconds is None:
            raise ValueError("up_to bounds a notice in seconds; without one (seconds: null) it says nothing")
        return self


class SpotSla(Sourced, Translated):
    """Whether the provider's enterprise SLA covers its spot capacity, as its pages say: the capacity is
    the provider's to take back, so an uptime commitment for the instances it sells at list price says
    nothing of it unless the provider says so."""

    covered: bool
    note: str


class SpendLimit(Sourced):
    """The most an account may spend an hour across all the provider's resources until its support
    raises it: instances beyond it do not start."""

    usd_per_hour: float = Field(gt=0)


class ParentCompany(Sourced):
    """The company that controls a provider, and the country it is established in: a state whose law
    reaches data its companies control abroad (``data_protection.yaml``: extraterritorial_access) reaches
    the provider's regions everywhere (RES015)."""

    company: str
    country: CountryCode


class Provider(Sourced):
    id: str
    name: str
    kind: Literal["hyperscaler", "neocloud", "marketplace", "european"]
    enterprise_sla: bool | None
    """The provider publishes an uptime commitment with service credits (a public SLA page or its enterprise
    terms) for the GPU compute the catalog prices; false where the pages checked publish none; null
    (unknown) where its own page could not be read, so the verdict is not established."""
    sla_source: Citation | None = None
    """The page that says so (or that was checked and says nothing of one)."""
    sla_as_of: dt.date | None = None
    sla_note: str | None = None
    """Where the verdict is unknown: what was looked for and why it is not established."""
    regions: tuple[Region, ...] = Field(min_length=1)
    regions_source: Citation | None = None
    """Where the regions come from, where not from ``source`` (the provider's own region list)."""
    regions_as_of: dt.date | None = None
    regions_note: str | None = None
    """Why regions a source names are left out, or which of the provider's regions are not listed."""
    spot_notice: SpotNotice | None = None
    """Required where the provider sells spot (an offer priced ``spot``; ``checks.py``)."""
    spot_sla: SpotSla | None = None
    """Required where the provider sells spot and its ``enterprise_sla`` is not false (``checks.py``): its
    spot capacity's verdict, which ``sla_for`` gives a spot offer in place of ``enterprise_sla``."""
    spend_limit: SpendLimit | None = None
    """A default spend limit a new account starts with; None where the provider's pages name none."""
    parent: ParentCompany | None = None
    """Who controls the provider, where a source establishes it; None where none was found
    (``parent_note`` says what was looked for)."""
    parent_note: str | None = None

    def sla_for(self, pricing: str | None) -> bool | None:
        """The enterprise SLA verdict for capacity sold at ``pricing``: for spot, the spot verdict; where
        the provider has none (an offer added by an overrides file), no SLA where it has none at all,
        else not established (None): an SLA for the instances it sells at list price says nothing of
        capacity it may take back."""
        if pricing != "spot":
            return self.enterprise_sla
        if self.spot_sla is not None:
            return self.spot_sla.covered
        return False if self.enterprise_sla is False else None

    @model_validator(mode="after")
    def _sla_sourced(self) -> Provider:
        if self.enterprise_sla is not None and (self.sla_source is None or self.sla_as_of is None):
            raise ValueError(
                "an enterprise_sla verdict (true or false) comes with its sla_source and sla_as_of"
            )
        if self.enterprise_sla is None and not self.sla_note:
            raise ValueError(
                "an unknown enterprise_sla (null) comes with an sla_note saying what was checked"
            )
        if (self.sla_source is None) != (self.sla_as_of is None):
            raise ValueError("sla_source and sla_as_of come together")
        if (self.regions_source is None) != (self.regions_as_of is None):
            raise ValueError("regions_source and regions_as_of come together")
        if self.parent is None and not self.parent_note:
            raise ValueError(
                "a provider without a parent comes with a parent_note saying what was looked for"
            )
        return self
