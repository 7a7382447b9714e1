"""The result of a sweep."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.domain.choices import Deployment, PricingKind
from gpu_advisor.engine.domain.results import PurchasesVat

DECISION_FIELDS = ("deployment", "pricing", "provider", "offer", "gpu")
"""What makes two decisions different; the card count and the cost may change within one decision."""


VariableKind = Literal["workload", "knowledge", "offer_price"]


Value = float | int


class SweepModel(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


BaselineSource = Literal["file", "default", "derived", "knowledge", "overrides"]


class SweepVariable(SweepModel):
    name: str
    kind: VariableKind
    start: Value
    stop: Value
    step: Value
    decimals: int
    """Digits after the decimal point the range was given with (for display)."""
    values: tuple[Value, ...]
    baseline: Value | None
    """The workload's or the knowledge base's own value; None where the workload leaves it to be derived."""
    baseline_source: BaselineSource = "file"
    """Where the baseline comes from: the file, a default the file leaves to gpu-advisor (the schedule's
    hours, the default token counts), the load (utilization), or the knowledge base."""
    excluded_by: tuple[str, ...] = ()
    """For an offer's price: the rules that exclude the offer for the workload at the file's own values
    (while they do, its price cannot change the decision); empty otherwise."""


class SweepDecision(SweepModel):
    label: str
    """A, B, C ... in order of first appearance; A is the decision at the file's own values."""
    deployment: Deployment
    pricing: PricingKind | None
    provider: str | None
    offer: str | None
    gpu: str | None
    description: str


class SweepPoint(SweepModel):
    values: tuple[Value, ...]
    """One value per variable, in the order the variables were given."""
    decision: str
    """Label of the decision (see ``decisions``)."""
    gpus: int | None
    usd_per_month: float | None
    cost_is_estimate: bool = False
    """The decision's ``cost_is_estimate``: kept for readers of older results; every cost is now a
    catalog price."""
    deciding_rule_id: str
    refused: str | None = None
    """The input error that refuses this combination, in the sweep's language: a value valid alone can
    clash with the workload (a prompt longer than the model's context). Its decision and rule are
    ``REFUSED``, it has no figures, and no break-even is drawn across it."""


REFUSED = "-"
"""A refused combination's decision and deciding rule."""


class SweepFlip(SweepModel):
    """The decision differs between two neighbouring values of one variable: the break-even lies between."""

    variable: str
    below: Value
    above: Value
    from_decision: str
    to_decision: str
    changed: tuple[str, ...]
    """Which of deployment, pricing, provider, offer and gpu differ."""
    fixed: dict[str, Value]
    """The other variable's value along this line (two-variable sweeps); empty for one variable."""


class SweepResult(SweepModel):
    schema_version: int = 1
    evaluated_on: dt.date
    workload: str
    variables: tuple[SweepVariable, ...]
    baseline_decision: str
    decisions: tuple[SweepDecision, ...]
    points: tuple[SweepPoint, ...]
    """Every combination; for two variables row by row (the first variable's value changes slowest)."""
    flips: tuple[SweepFlip, ...]
    interrupted_by: str | None = None
    """SIGINT or SIGTERM where a signal stopped the sweep: ``points`` hold the combinations evaluated
    before (whole rows of the first variable), and the variables' values only those."""
    planned_points: int | None = None
    """Where interrupted: the combinations the sweep was to evaluate."""
    purchases_vat: PurchasesVat | None = None
    """The VAT every cost of the sweep includes: the workload's company cannot recover it
    (``Recommendation.purchases_vat``); a swept price is taken as net and has it added. None: net."""
    vat_rate_missing: bool = False
    """The company cannot recover input VAT, but the catalog has no rate for its country: every cost is
    net (KNB023)."""
