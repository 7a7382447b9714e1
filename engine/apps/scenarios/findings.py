"""The ROB rules' findings on a scenario run: the ``robustness`` fact, asserted into a session of its own
after the run (the rules, ``rules/robustness.yaml``, decide; this module only states the facts)."""

from __future__ import annotations

from gpu_advisor.engine.domain.results import Finding
from gpu_advisor.engine.domain.robustness import OptionShare, RivalCost, Robustness
from gpu_advisor.engine.i18n.environment import render
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.report.findings import findings_for
from gpu_advisor.engine.rulebook.decided_details import RobustnessDetails
from gpu_advisor.engine.rulebook.durable import Evaluator
from gpu_advisor.engine.rulebook.facts import RobustnessFact


def robustness_fact(robustness: Robustness) -> RobustnessFact:
    rival = robustness.cost_usd_per_month.rival
    share = robustness.recommended_win_share
    top = robustness.sensitivity[0] if robustness.sensitivity else None
    deciding = top is not None and top.effect > 0
    return RobustnessFact(
        scenarios=robustness.scenarios,
        recommended_win_share=share,
        has_rival=rival is not None,
        rival_win_share=rival.share if rival else 0.0,
        win_share_gap=abs(share - rival.share) if rival else 0.0,
        has_deciding_input=deciding,
        deciding_input_flips=bool(top and deciding and top.decision_changes),
    )


def robustness_details(
    robustness: Robustness, recommended: OptionShare, fmt: Format, api_names: dict[str, str]
) -> RobustnessDetails:
    """The names and figures the ROB rules' messages show (an API by its catalog name)."""
    rival = robustness.cost_usd_per_month.rival
    top = robustness.sensitivity[0] if robustness.sensitivity else None
    deciding = top is not None and top.effect > 0
    return RobustnessDetails(
        recommended_name=_name(recommended, fmt, api_names),
        rival_name=_name(rival, fmt, api_names) if rival else "",
        deciding_input=top.description if top and deciding else "",
        deciding_input_range=(
            render("robustness_names.txt.j2", fmt, low=top.low, high=top.high, unit=top.unit).strip()
            if top and deciding
            else ""
        ),
        deciding_input_effect_usd_per_month=top.effect if top and deciding else 0.0,
        deciding_input_effect_on=top.effect_on if top and deciding else "",
        expected_regret_usd_per_month=robustness.expected_regret_usd_per_month,
    )


def _name(option: OptionShare | RivalCost, fmt: Format, api_names: dict[str, str]) -> str:
    return render("robustness_names.txt.j2", fmt, o=option, api_names=api_names).strip()


def robustness_findings(
    base: Evaluation, robustness: Robustness, recommended: OptionShare, evaluator: Evaluator, fmt: Format
) -> tuple[Finding, ...]:
    """The findings of the ROB rules that fire on ``robustness``."""
    fact = robustness_fact(robustness)
    with evaluator.session() as session:
        firings = session.assert_fact(fact)
    api_names = {api.id: api.name for api in base.knowledge.api_prices.apis}
    details = {"robustness": robustness_details(robustness, recommended, fmt, api_names)}
    return findings_for(firings, base.rulebook, base.knowledge, fmt, details)
