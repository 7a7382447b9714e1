"""A proposal (what someone intends to do for a workload) as it is read, and the result of checking it."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gpu_advisor.engine.domain.choices import Deployment, PricingKind
from gpu_advisor.engine.domain.results import Decision, ResultModel

CHECK_SCHEMA_VERSION = 1


Status = Literal["pass", "warn", "fail", "unknown"]


class StrictInput(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ProposalInput(StrictInput):
    """What someone intends to do. Leave out what is not decided; checks that need it report 'unknown'."""

    name: str | None = Field(default=None, max_length=200)
    deployment: Deployment
    provider: str | None = None
    offer: str | None = None
    gpu: str | None = None
    gpus: int | None = Field(default=None, gt=0, le=100_000)
    """Cards in all (replicas x cards per replica)."""
    pricing: PricingKind | None = None
    region: str | None = None
    """A region ID of the provider (eu-central-1) or a jurisdiction (EU, US, UK, CH)."""
    server: str | None = None
    """Own hardware: the server type to buy (knowledge/own_hardware.yaml); default the catalog's."""
    servers: int | None = Field(default=None, gt=0, le=10_000)


class Waiver(StrictInput):
    rule: str
    reason: str = Field(min_length=1)

    @field_validator("reason")
    @classmethod
    def _reason_is_written(cls, reason: str) -> str:
        if not reason.strip():
            raise ValueError("a waiver needs a written reason")
        return reason


class ProposalDocument(StrictInput):
    workload: dict[str, Any]
    proposal: ProposalInput
    waivers: list[Waiver] = Field(default_factory=list)


class CheckItem(ResultModel):
    rule_id: str
    name: str
    topic: str
    severity: str
    origin: Literal["builtin", "organization"]
    status: Status
    title: str
    message: str
    evidence: dict[str, Any]
    """The proposal facts the check read, with their values."""
    knowledge: tuple[str, ...]
    """Knowledge entries behind the verdict: thresholds and prices, with their dates."""
    source: str
    waived: bool
    waiver_reason: str | None


class CheckResult(ResultModel):
    schema_version: int = CHECK_SCHEMA_VERSION
    file: str
    index: int
    """Position of the proposal in its file, from 1."""
    name: str
    evaluated_on: dt.date
    proposal: ProposalInput
    recommendation: Decision
    status: Status
    """fail if any check failed (waived ones do not count), else warn, else unknown, else pass."""
    counts: dict[str, int]
    results: tuple[CheckItem, ...]
