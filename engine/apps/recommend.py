"""``recommend`` and ``decide``: one workload's decision, with or without its texts and tables."""

from __future__ import annotations

import datetime as dt

from gpu_advisor.engine.domain.choices import ATTENTION_SEVERITIES
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import DecisionSummary, Recommendation, apart_from
from gpu_advisor.engine.domain.workload import WorkloadInput
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.pipeline.engines import rulebook_for, rules_engine
from gpu_advisor.engine.pipeline.evaluation import Evaluation, evaluate
from gpu_advisor.engine.report.findings import exclusion_routes
from gpu_advisor.engine.report.recommendation import recommendation_from
from gpu_advisor.engine.rulebook.durable import Evaluator
from gpu_advisor.engine.rulebook.schema import route_spoken_of


def evaluate_workload(
    workload: WorkloadInput,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
) -> Evaluation:
    """Every stage of the pipeline for one workload. ``evaluator`` defaults to the process-wide
    durable-rules engine; ``knowledge`` to the shipped knowledge base (pass a modified copy for the
    user's own prices or a sweep; rule thresholds are compiled into the engine, so a copy with other
    thresholds needs its own evaluator); ``policy_dir`` adds an organization's rules."""
    return evaluate(
        workload,
        evaluated_on,
        knowledge or load_knowledge(),
        rulebook_for(policy_dir),
        evaluator or rules_engine(policy_dir),
    )


def recommend(
    workload: WorkloadInput,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
    fmt: Format = DEFAULT_FORMAT,
) -> Recommendation:
    """The full decision for one workload (see ``evaluate_workload``); ``evaluated_on`` dates the price
    ages, ``fmt`` sets the language and currency of the finding texts."""
    return recommendation_from(
        evaluate_workload(workload, evaluated_on, evaluator, knowledge, policy_dir), fmt
    )


def decision_summary(evaluation: Evaluation) -> DecisionSummary:
    return DecisionSummary(
        workload=evaluation.workload.name,
        decision=evaluation.decision,
        fired_rules=tuple(rule.id for rule in evaluation.rules),
        attention=attention_rule_ids(evaluation),
    )


def decide_workload(
    workload: WorkloadInput,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
) -> DecisionSummary:
    """The decision of ``recommend`` with the rules that fired, without rendering the findings or
    building the tables: for callers that show only the decision (batch tables, sweeps)."""
    return decision_summary(evaluate_workload(workload, evaluated_on, evaluator, knowledge, policy_dir))


def attention_rule_ids(evaluation: Evaluation) -> tuple[str, ...]:
    """The fired rules (in catalog order) whose findings need attention: critical or warning, and about
    the decision (a finding about a route it does not take or a GPU it does not use, ``apart_from``, is
    left to the memo, which names it apart); an organization's rules always."""
    decision, rulebook = evaluation.decision, evaluation.rulebook
    rules = {rule.id: rule for rule in evaluation.rules}
    excluded_elsewhere = exclusion_routes(evaluation)
    with_the_decision = {
        firing.rule_id
        for firing in evaluation.firings
        if (rule := rules.get(firing.rule_id)) is not None
        and not apart_from(
            decision,
            route_spoken_of(rule.about_route, firing.fact) or excluded_elsewhere.get(rule.id),
            rule.about_its_gpu,
            str(firing.fact["gpu"]) if rule.per_gpu else None,
        )
    }
    return tuple(
        rule.id
        for rule in evaluation.rules
        if rule.severity in ATTENTION_SEVERITIES
        and (rule.id in with_the_decision or rulebook.origin(rule.id) == "organization")
    )
