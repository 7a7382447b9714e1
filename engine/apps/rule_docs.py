"""Rule documentation generated from the declarations: what ``gpu-advisor rules`` and
``gpu-advisor rules show ID`` print, like ``ruff rule``.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite, cite_all
from gpu_advisor.engine.domain.knowledge.figures import Threshold
from gpu_advisor.engine.rulebook.guards import effective_needs, inserted_guards
from gpu_advisor.engine.rulebook.schema import Condition, OptionTest, Rule, Rulebook

OPERATOR_SYMBOLS = {
    "eq": "=",
    "ne": "≠",
    "lt": "<",
    "le": "≤",
    "gt": ">",
    "ge": "≥",
    "in": "in",
    "not_in": "not in",
}


class ThresholdDoc(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    key: str
    value: float
    unit: str
    description: str
    source: str
    as_of: dt.date


class RuleDoc(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    id: str
    name: str
    title: str
    topic: str
    severity: str
    fact: str
    conditions: tuple[str, ...]
    conclusions: tuple[str, ...]
    rationale: str
    source: str
    thresholds: tuple[ThresholdDoc, ...]
    message_template: str
    origin: str
    applies: tuple[str, ...]
    """Proposal checks: when the check applies at all."""
    needs: tuple[str, ...] = ()
    """Proposal checks: the facts the proposal must state, else the check reports 'unknown'."""


def describe_condition(
    condition: Condition, knowledge: Knowledge, policy_thresholds: dict[str, Threshold] | None = None
) -> str:
    symbol = OPERATOR_SYMBOLS[condition.op]
    if condition.values is not None:
        return f"{condition.fact} {symbol} {', '.join(condition.values)}"
    if condition.threshold is not None:
        threshold = (policy_thresholds or {}).get(condition.threshold) or knowledge.threshold(
            condition.threshold
        )
        unit = f"{threshold.currency} {threshold.unit}" if threshold.currency else threshold.unit
        return f"{condition.fact} {symbol} {condition.threshold} ({threshold.value:g} {unit})"
    if condition.other_fact is not None:
        return f"{condition.fact} {symbol} {condition.other_fact}"
    value = str(condition.value).lower() if isinstance(condition.value, bool) else condition.value
    return f"{condition.fact} {symbol} {value}"


def describe_conclusions(rule: Rule) -> tuple[str, ...]:
    then = rule.then
    lines = []
    if then.propose is not None:
        lines.append(f"proposes deployment {then.propose.deployment} at precedence {then.propose.precedence}")
    if then.rule_out is not None:
        ruled = ", ".join(then.rule_out.deployments)
        lines.append(f"rules out {ruled} proposals of precedence below {then.rule_out.precedence}")
    if then.prefer_pricing is not None:
        lines.append(f"prefers {then.prefer_pricing} offers")
    lines += [
        "excludes options where " + " and ".join(map(_option_test, (f, *f.and_also)))
        for f in then.exclude_options
    ]
    if then.gpu_unsuitable:
        lines.append("marks the GPU as not recommended for the model")
    if then.verdict is not None:
        lines.append(f"the proposal check gives '{then.verdict}'")
    return tuple(lines) or ("reports a finding",)


def rule_doc(rule: Rule, knowledge: Knowledge, rulebook: Rulebook | None = None) -> RuleDoc:
    policy_thresholds = {t.key: t for t in rulebook.thresholds} if rulebook else {}
    thresholds = tuple(
        ThresholdDoc(
            key=t.key,
            value=t.value,
            unit=f"{t.currency} {t.unit}" if t.currency else t.unit,
            description=t.description.strip(),
            source=cite(t.source, knowledge),
            as_of=t.as_of,
        )
        for t in (
            policy_thresholds.get(key) or knowledge.threshold(key)
            for key in dict.fromkeys(rule.threshold_keys)
        )
    )
    return RuleDoc(
        id=rule.id,
        name=rule.name,
        title=rule.title,
        topic=rule.topic,
        severity=rule.severity,
        fact=rule.fact,
        conditions=tuple(describe_condition(c, knowledge, policy_thresholds) for c in rule.when)
        + tuple(
            f"{describe_condition(c, knowledge)} (guard of a field read above)" for c in inserted_guards(rule)
        ),
        conclusions=describe_conclusions(rule),
        rationale=" ".join(rule.rationale.split()),
        source=cite_all(rule.citations, knowledge),
        thresholds=thresholds,
        message_template=" ".join(rule.message.split()),
        origin=rulebook.origin(rule.id) if rulebook else "builtin",
        applies=tuple(describe_condition(c, knowledge, policy_thresholds) for c in rule.applies),
        needs=effective_needs(rule),
    )


def _option_test(test: OptionTest) -> str:
    if test.not_in is None:
        return f"{test.field} = {str(test.equals).lower()}"
    return f"{test.field} is not one of {', '.join(test.not_in)}"
