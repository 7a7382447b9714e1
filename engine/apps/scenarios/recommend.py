"""``recommend --scenarios N``: the recommendation, and how it holds across N drawn scenarios."""

from __future__ import annotations

import datetime as dt

from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.apps.scenarios.findings import robustness_findings
from gpu_advisor.engine.apps.scenarios.inputs import scenario_inputs
from gpu_advisor.engine.apps.scenarios.outcomes import outcome
from gpu_advisor.engine.apps.scenarios.run import (
    MAX_SCENARIOS,
    Mapper,
    ScenarioJob,
    draw,
    local_mapper,
    one_at_a_time,
)
from gpu_advisor.engine.apps.scenarios.summary import option_share, summarize
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.overrides import Overrides
from gpu_advisor.engine.domain.robustness import Robustness, ScenarioRecommendation
from gpu_advisor.engine.domain.workload import WorkloadInput
from gpu_advisor.engine.domain.workload_ranges import WorkloadRanges
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.pipeline.engines import rules_engine
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.report.recommendation import recommendation_from


def check_scenarios(scenarios: int) -> None:
    if not 1 <= scenarios <= MAX_SCENARIOS:
        raise InputError(
            f"--scenarios: {scenarios} is not between 1 and {MAX_SCENARIOS:,}", field="scenarios"
        )


def robustness_of(
    base: Evaluation,
    workload: WorkloadInput,
    ranges: WorkloadRanges,
    overrides: Overrides | None,
    policy_dir: str | None,
    scenarios: int,
    seed: int,
    mapper: Mapper | None = None,
) -> Robustness:
    """The robustness of ``base``'s decision: ``scenarios`` draws and the one-at-a-time runs, evaluated by
    ``mapper`` (default: this machine's processes)."""
    check_scenarios(scenarios)
    knowledge: Knowledge = base.knowledge
    inputs = scenario_inputs(knowledge, ranges, overrides)
    fixed = frozenset(o.key for o in (overrides.offers if overrides else ()))
    based = outcome(base)
    job = ScenarioJob(workload, base.evaluated_on, knowledge, policy_dir, inputs, fixed, based.decision)
    draws = draw(inputs, scenarios, seed)
    oat = one_at_a_time(inputs)
    outcomes = (mapper or local_mapper())(job, [*draws, *oat])
    return summarize(
        knowledge.uncertainty.analysis,
        seed,
        inputs,
        based,
        draws,
        outcomes[:scenarios],
        outcomes[scenarios:],
    )


def recommend_scenarios(
    workload: WorkloadInput,
    ranges: WorkloadRanges,
    evaluated_on: dt.date,
    scenarios: int,
    seed: int,
    knowledge: Knowledge,
    overrides: Overrides | None = None,
    policy_dir: str | None = None,
    fmt: Format = DEFAULT_FORMAT,
    mapper: Mapper | None = None,
) -> ScenarioRecommendation:
    check_scenarios(scenarios)
    base = evaluate_workload(workload, evaluated_on, knowledge=knowledge, policy_dir=policy_dir)
    return scenario_recommendation(
        base, workload, ranges, scenarios, seed, overrides, policy_dir, fmt, mapper
    )


def scenario_recommendation(
    base: Evaluation,
    workload: WorkloadInput,
    ranges: WorkloadRanges,
    scenarios: int,
    seed: int,
    overrides: Overrides | None = None,
    policy_dir: str | None = None,
    fmt: Format = DEFAULT_FORMAT,
    mapper: Mapper | None = None,
) -> ScenarioRecommendation:
    """``base``'s result with its robustness section and the ROB rules' findings, which ``findings`` and
    ``fired_rules`` list among the others (catalog order)."""
    result = recommendation_from(base, fmt)
    robustness = robustness_of(base, workload, ranges, overrides, policy_dir, scenarios, seed, mapper)
    recommended = option_share(outcome(base).decision, robustness.recommended_win_share)
    found = robustness_findings(base, robustness, recommended, rules_engine(policy_dir), fmt)
    order = {rule_id: index for index, rule_id in enumerate(base.rulebook.ids)}
    findings = tuple(sorted((*result.findings, *found), key=lambda f: order[f.rule_id]))
    fired = tuple(sorted({*result.fired_rules, *(f.rule_id for f in found)}, key=order.__getitem__))
    return ScenarioRecommendation(
        **{**dict(result), "findings": findings, "fired_rules": fired}, robustness=robustness
    )
