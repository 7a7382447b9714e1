"""Providers: their kind, regions and enterprise SLA, and the notice before they take spot capacity back."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.knowledge.entries import Region, Sourced


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


class Provider(Sourced):
    id: str
    name: str
    kind: Literal["hyperscaler", "neocloud", "marketplace", "european"]
    enterprise_sla: bool
    regions: tuple[Region, ...] = Field(min_length=1)
    spot_notice: SpotNotice | None = None
    """Required where the provider sells spot (an offer priced ``spot``; ``checks.py``)."""
