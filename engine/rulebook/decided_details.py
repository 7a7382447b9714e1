"""Details of the facts asserted once the decision is settled: the decided route (the decision fact) and
the robustness of the decision (the robustness fact); see ``details.py``."""

from __future__ import annotations

from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.rulebook.details import CountryPlace, Details


class DecisionDetails(Details):
    """The decided route, as the decision fact's messages name it (``pipeline.abroad``)."""

    route_name: str | Words = ""
    """'scaleway h100-sxm-4-80g (4 × h100-sxm)', 'RunPod Serverless (eu-datacenters, 1 × l4)', a mixed
    fleet's two offers, the managed API's name ("" for owned servers or where no offer is named)."""
    route_places: tuple[CountryPlace, ...] = ()
    """The countries it processes the personal data in where they lie outside the company's country
    (RES018), and their jurisdiction ("" otherwise)."""
    route_jurisdiction: str = ""


class RobustnessDetails(Details):
    """The options and the input a robustness finding names, in the finding's language."""

    recommended_name: str
    rival_name: str
    """"" without a rival."""
    deciding_input: str
    """The input the one-at-a-time sensitivity ranks first ("" where none moves anything)."""
    deciding_input_range: str
    """Its low to its high, formatted ("" where none)."""
    deciding_input_effect_usd_per_month: float
    deciding_input_effect_on: str
    """What that effect measures (``Sensitivity.effect_on``): "advantage", "cost", or "decision" for an
    input that moves no cost but the rules' decision."""
    expected_regret_usd_per_month: float
