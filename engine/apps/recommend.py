"""``recommend`` and ``decide``: one workload's decision, with or without its texts and tables."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from gpu_advisor.engine.domain.choices import ATTENTION_SEVERITIES
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import DecisionSummary, Recommendation
from gpu_advisor.engine.domain.workload import Workload
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.pipeline.evaluation import Evaluation, ProposalHook, evaluate_decision
from gpu_advisor.engine.report.recommendation import recommendation_from
from gpu_advisor.engine.rulebook.durable import Evaluator, Firing
from gpu_advisor.engine.rulebook.schema import Rule


def recommend(
    workload: Workload,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
    fmt: Format = DEFAULT_FORMAT,
) -> Recommendation:
    """The full decision for one workload. ``evaluated_on`` dates the evaluation (price ages);
    ``evaluator`` defaults to the process-wide durable-rules engine; ``knowledge`` to the shipped
    knowledge base (pass a modified copy for the user's own prices or a sweep; rule thresholds are
    compiled into the engine, so a copy with other thresholds needs its own evaluator); ``policy_dir``
    adds an organization's rules; ``fmt`` sets the language and currency of the finding texts."""
    return evaluate(workload, evaluated_on, evaluator, knowledge, policy_dir, fmt=fmt)[0]


def decide_workload(
    workload: Workload,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
) -> DecisionSummary:
    """The decision of ``recommend`` with the rules that fired, without rendering the findings or
    building the tables: for callers that show only the decision (batch tables, sweeps)."""
    evaluation, _ = evaluate_decision(workload, evaluated_on, evaluator, knowledge, policy_dir)
    return DecisionSummary(
        workload=workload.name,
        decision=evaluation.decision,
        fired_rules=tuple(rule.id for rule in evaluation.rules),
        attention=attention_rule_ids(evaluation.rules),
    )


def attention_rule_ids(rules: Sequence[Rule]) -> tuple[str, ...]:
    """The fired rules (in catalog order) whose findings need attention: critical or warning."""
    return tuple(rule.id for rule in rules if rule.severity in ATTENTION_SEVERITIES)


def evaluate(
    workload: Workload,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
    proposal: ProposalHook | None = None,
    fmt: Format = DEFAULT_FORMAT,
) -> tuple[Recommendation, list[Firing], Evaluation]:
    """``recommend``, plus the firings of a proposal fact built by ``proposal`` from the evaluation and
    asserted last in the same session."""
    evaluation, proposal_firings = evaluate_decision(
        workload, evaluated_on, evaluator, knowledge, policy_dir, proposal
    )
    return recommendation_from(evaluation, fmt), proposal_firings, evaluation
