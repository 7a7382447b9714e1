"""``batch --scenarios N``: each workload's robustness, worked out where the workload is evaluated (a local
worker process or a cluster worker), with the same draws as ``recommend --scenarios N --seed S``.

A workload's scenarios run in the process that evaluates the workload: the batch already spreads the
workloads over every core (or a cluster), so a row's draws need no pool of their own, and a row's result
does not depend on where it ran."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.apps.scenarios.recommend import check_scenarios, scenario_recommendation
from gpu_advisor.engine.apps.scenarios.run import local_mapper
from gpu_advisor.engine.domain.choices import ATTENTION_SEVERITIES
from gpu_advisor.engine.domain.results import DecisionSummary
from gpu_advisor.engine.domain.robustness import OptionShare, RivalCost, ScenarioRecommendation
from gpu_advisor.engine.domain.workload import WorkloadInput
from gpu_advisor.engine.domain.workload_ranges import split_ranges
from gpu_advisor.engine.pipeline.evaluation import Evaluation

SCENARIO_COLUMNS = ("recommended_win_share", "rival", "rival_win_share")
"""The CSV columns ``--scenarios`` adds: the recommended option's share of the scenarios, its strongest
rival (deployment/provider/offer/gpu, the parts it has) and the rival's share."""


def robust_result(
    data: Any,
    workload: WorkloadInput,
    evaluation: Evaluation,
    scenarios: int,
    seed: int,
    origin: str,
    policy_dir: str | None = None,
) -> ScenarioRecommendation:
    """A row's robustness over ``scenarios`` draws, under the run's policy rules (``policy_dir``)."""
    check_scenarios(scenarios)
    _, ranges = split_ranges(data, origin)
    return scenario_recommendation(
        evaluation, workload, ranges, scenarios, seed, policy_dir=policy_dir, mapper=local_mapper(1)
    )


def option_name(option: OptionShare | RivalCost) -> str:
    parts = (option.deployment, option.pricing, option.provider, option.offer, option.gpu)
    return "/".join(part for part in parts if part)


def scenario_cells(result: ScenarioRecommendation) -> list[Any]:
    rb = result.robustness
    rival = rb.cost_usd_per_month.rival
    return [
        f"{rb.recommended_win_share:.4f}",
        option_name(rival) if rival else "",
        f"{rival.share:.4f}" if rival else "",
    ]


def summary_with_robustness(summary: DecisionSummary, result: ScenarioRecommendation) -> DecisionSummary:
    """``summary`` with the ROB rules that fired on the scenario run among its fired rules, as the JSON
    line's ``fired_rules`` has them (catalog order), and those with a warning among the ones that need
    attention."""
    added = [f for f in result.findings if f.rule_id not in summary.fired_rules]
    needs = {*summary.attention, *(f.rule_id for f in added if f.severity in ATTENTION_SEVERITIES)}
    fired = result.fired_rules
    return summary.model_copy(
        update={"fired_rules": fired, "attention": tuple(rule for rule in fired if rule in needs)}
    )
