"""Uncertain knowledge values (``knowledge/uncertainty.yaml``): which figures scenarios draw, in what shape,
and how a drawn value enters the evaluation.

An entry restates no number: its low and high are those of the knowledge value it names (``figure``), with
that value's source and date, so there is no range without a cited figure; the throughput estimate's error
is the calibration's own (worked out from ``calibration.yaml``, with the entry's ``source``). The
references are checked at load (``checks.uncertainty_problems``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.choices import PricingKind
from gpu_advisor.engine.domain.distributions import Shape
from gpu_advisor.engine.domain.knowledge.entries import Citation, Sourced, Strict

AppliesTo = Literal[
    "own_server_price",
    "eu_region_premium",
    "spot_discount",
    "offer_price",
    "throughput_error",
    "rule_threshold",
]
"""How a drawn value enters: the named own server's price (USD); the EU region premium (a share); the
spot discount against on-demand (a share: every spot offer's price moves by (1 - drawn) / (1 - the range's
midpoint), the listed price standing at the midpoint); an offer price (USD per GPU-hour: the selected
offers' prices move by drawn / the range's midpoint); the throughput estimate's error (a share, estimate /
actual - 1 as the calibration counts it: every replica carries 1 / (1 + drawn) times the estimated rate,
from minus to plus the mean absolute error of the calibration set named by ``figure``, the estimate as it
is at zero); a rule threshold (the threshold named by ``figure`` takes the drawn value in the rules, from
the value of ``low_figure`` up to its own, which is the point value)."""


class OfferSelector(Strict):
    provider: str
    gpu: str | None = None
    pricing: PricingKind | None = None
    document: str | None = None
    """Only offers priced from this source document: a range a document gives for its own figure says
    nothing of the provider's own list price beside it."""


class UncertainInput(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    description: str
    applies_to: AppliesTo
    figure: str
    """own_server_price: an own server's id (its price_usd_low/high); eu_region_premium: the pricing
    assumption's value_low/high (``eu_region_premium``); throughput_error: a calibration set (``fit`` or
    ``held_out``); rule_threshold: a threshold's key (the range's high); otherwise a market figure's id."""
    low_figure: str | None = None
    """rule_threshold: the threshold whose value is the range's low (the other edge of a documented
    band)."""
    source: Citation | None = None
    """throughput_error: where the range comes from (a figure the calibration works out has no entry of
    its own to cite); the other kinds take their figure's source."""
    shape: Shape = "uniform"
    offers: OfferSelector | None = None
    """offer_price: the offers the drawn price applies to."""
    group: str | None = None
    """Inputs of one group move together: one draw for all of them (their quantile is shared)."""


class AnalysisSetting(Sourced):
    """A choice of the scenario analysis itself (not a figure of the market), with its reason as source."""

    value: float
    unit: str
    description: str


class AnalysisSettings(Strict):
    """How a scenario run summarizes and bounds its draws; every setting is required, each within what
    it can mean (shares above 0 and at most 1, a whole count of at least one)."""

    @model_validator(mode="after")
    def _within_meaning(self) -> AnalysisSettings:
        for name in ("loss_condition_share", "loss_condition_min_rate_gap", "max_drawn_share"):
            value = getattr(self, name).value
            if not 0 < value <= 1:
                raise ValueError(f"{name}: a share above 0 and at most 1, not {value}")
        count = self.max_loss_conditions.value
        if count < 1 or not float(count).is_integer():
            raise ValueError(f"max_loss_conditions: a whole number of at least 1, not {count}")
        return self

    loss_condition_share: AnalysisSetting
    """A loss condition names the value beyond which this share of the losing scenarios lie."""
    loss_condition_min_rate_gap: AnalysisSetting
    """An input is a loss condition only where its upper and lower halves of draws lose at rates at least
    this far apart."""
    max_loss_conditions: AnalysisSetting
    """The most loss conditions reported, strongest first."""
    max_drawn_share: AnalysisSetting
    """A drawn share (a premium, a discount) is kept at or below this: a log-normal draw may pass one."""
