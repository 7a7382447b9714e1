"""The ``robustness`` section of a result (``recommend --scenarios N``): how often the decision holds when
the uncertain figures are drawn from their ranges, what it costs across them, and which input matters."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from gpu_advisor.engine.domain.choices import Deployment, PricingKind
from gpu_advisor.engine.domain.distributions import Shape
from gpu_advisor.engine.domain.result_model import ResultModel
from gpu_advisor.engine.domain.results import Recommendation


class OptionShare(ResultModel):
    """An option (as a decision names it) and the share of scenarios in which it is the decision."""

    deployment: Deployment
    pricing: PricingKind | None
    provider: str | None
    offer: str | None
    gpu: str | None
    share: float


class Percentiles(ResultModel):
    p10: float | None
    p50: float | None
    p90: float | None
    priced_scenarios: int
    """The scenarios in which the option has a price (an option no GPU fits in a scenario has none)."""


class RivalCost(Percentiles):
    deployment: Deployment
    pricing: PricingKind | None
    provider: str | None
    offer: str | None
    gpu: str | None
    share: float
    """The share of scenarios it wins."""


class CostBands(Percentiles):
    """The recommended option's monthly cost across the scenarios, and its strongest rival's."""

    rival: RivalCost | None


class Sensitivity(ResultModel):
    """One input moved from its low to its high with every other at its point value (one at a time)."""

    input: str
    low: float
    high: float
    effect: float
    """How far the input moves the recommended option's monthly advantage over its rival (USD a month;
    without a rival, its own monthly cost); for an input that moves neither but the rules' decision (a
    rule threshold), how far the decided option's monthly cost moves between its ends (``effect_on``)."""
    effect_on: Literal["advantage", "cost", "decision"] = "advantage"
    """What ``effect`` measures: the advantage over the rival, the recommended option's own cost (no
    rival), or the cost of what the rules decide at either end."""
    description: str
    unit: str
    cost_at_low: float | None
    cost_at_high: float | None
    """The recommended option's monthly cost at the input's low and high."""
    rival_cost_at_low: float | None
    rival_cost_at_high: float | None
    decision_changes: bool
    """The decision at the input's low or high is not the recommended option."""
    decision_cost_at_low: float | None = None
    decision_cost_at_high: float | None = None
    """The monthly cost of the decision at the input's low and high."""


class LossCondition(ResultModel):
    """Where the losing scenarios concentrate: most of them have the input above (or below) a value."""

    input: str
    description: str
    unit: str
    direction: Literal["above", "below"]
    value: float
    share_of_losses: float


class ScenarioInput(ResultModel):
    id: str
    description: str
    origin: Literal["knowledge", "workload", "overrides"]
    shape: Shape
    low: float
    high: float
    point: float
    unit: str
    source: str
    as_of: dt.date | None
    vat_rate: float | None = None
    """The VAT rate ``low``, ``high`` and ``point`` include: a price the company pays with VAT it cannot
    recover (the own server's, the documents' range or yours raised by it); None: as its source gives it."""
    held_at: float | None = None
    """Where it is held while another input moves alone, where that is not ``point``: a volume growth at
    its range's point value (the middle, or a triangular range's mode), as every scenario grows the
    volume, where ``point`` (the memo's) is no growth."""


class Robustness(ResultModel):
    scenarios: int
    seed: int
    sensitivity_method: Literal["one_at_a_time"] = "one_at_a_time"
    recommended_win_share: float
    deployment_win_share: dict[str, float]
    option_win_share: tuple[OptionShare, ...]
    cost_usd_per_month: CostBands
    expected_regret_usd_per_month: float
    """The mean over the scenarios of what keeping the recommended option costs more than the decision
    of that scenario (0 where it is the decision or costs no more)."""
    sensitivity: tuple[Sensitivity, ...]
    loses_when: tuple[LossCondition, ...]
    inputs: tuple[ScenarioInput, ...]


class ScenarioRecommendation(Recommendation):
    """A recommendation with its robustness: the result of ``recommend --scenarios N``."""

    robustness: Robustness
