"""Rule declarations compiled into durable-rules' native JSON form: rule names are the rule IDs, and each
rule matches one fact on its conditions joined with ``$and``, the guards of the fields it reads included
(``guards.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpu_advisor.engine.rulebook.guards import effective_when
from gpu_advisor.engine.rulebook.schema import Condition, Rule, Rulebook

_OPERATORS = {"eq": None, "ne": "$neq", "lt": "$lt", "le": "$lte", "gt": "$gt", "ge": "$gte"}

SENT_PREFIX = "threshold:"
"""A threshold read from the fact instead of compiled in is sent as this prefix plus its key: no fact field
has a colon in its name."""

ThresholdValue = float | dict[str, str]
"""A threshold's value as compiled: the number, or ``sent_with_the_fact(key)``."""


def sent_with_the_fact(key: str) -> dict[str, str]:
    """The right-hand side that compares with the threshold ``key`` as every fact carries it (a scenario's
    drawn value, ``durable.RulesEngine``)."""
    return {"$m": SENT_PREFIX + key}


def compile_condition(condition: Condition, thresholds: Mapping[str, ThresholdValue]) -> dict[str, Any]:
    if condition.values is not None:
        if condition.op == "in":
            return {"$or": [{condition.fact: value} for value in condition.values]}
        return {"$and": [{"$neq": {condition.fact: value}} for value in condition.values]}
    if condition.threshold is not None:
        right: Any = thresholds[condition.threshold]
    elif condition.other_fact is not None:
        right = {"$m": condition.other_fact}
    else:
        right = condition.value
    operator = _OPERATORS[condition.op]
    if operator is None:
        return {condition.fact: right}
    return {operator: {condition.fact: right}}


APPLICABILITY_SUFFIX = "/applies"


def compile_conditions(
    fact: str, conditions: tuple[Condition, ...], thresholds: Mapping[str, ThresholdValue]
) -> dict[str, Any]:
    """Conditions on one fact of one kind as durable-rules JSON, joined with ``$and``."""
    tests = [{"kind": fact}] + [compile_condition(c, thresholds) for c in conditions]
    return {"all": [{"m": {"$and": tests}}]}


def compile_rule(rule: Rule, thresholds: Mapping[str, ThresholdValue]) -> dict[str, Any]:
    """One rule as durable-rules JSON: its preconditions and conditions on the same fact."""
    return compile_conditions(rule.fact, rule.applies + effective_when(rule), thresholds)


def compile_rulebook(
    rulebook: Rulebook, thresholds: Mapping[str, ThresholdValue]
) -> dict[str, dict[str, Any]]:
    """Every rule; a proposal check also as a second rule that fires when the check applies at all."""
    definition = {}
    for rule in rulebook.rules:
        definition[rule.id] = compile_rule(rule, thresholds)
        if rule.is_check:
            definition[rule.id + APPLICABILITY_SUFFIX] = compile_conditions(
                rule.fact, rule.applies, thresholds
            )
    return definition
