"""A plain-Python evaluator of the same rule declarations, for differential testing only.

It reads the conditions exactly as declared (fact kind, operator, threshold by key, other fact) and
fires every rule whose conditions all hold, in catalog order. The engine must agree with it on every
workload; a difference means a surprise in durable-rules or in the adapter's compilation.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from gpu_advisor.engine.rulebook.durable import Firing, fact_payload
from gpu_advisor.engine.rulebook.facts import Fact
from gpu_advisor.engine.rulebook.guards import effective_when
from gpu_advisor.engine.rulebook.schema import Condition, Rulebook

OPERATORS = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}


class ReferenceEvaluator:
    def __init__(self, rulebook: Rulebook, thresholds: Mapping[str, float]) -> None:
        self.rulebook = rulebook
        self.thresholds = thresholds

    def holds(self, condition: Condition, fact: Mapping[str, Any]) -> bool:
        if condition.values is not None:
            return (fact[condition.fact] in condition.values) == (condition.op == "in")
        if condition.threshold is not None:
            right = self.thresholds[condition.threshold]
        elif condition.other_fact is not None:
            right = fact[condition.other_fact]
        else:
            right = condition.value
        return bool(OPERATORS[condition.op](fact[condition.fact], right))

    def assert_fact(self, fact: Fact, workload: Fact | None = None) -> list[Firing]:
        data = fact_payload(fact, workload)
        firings = []
        for rule in self.rulebook.rules:
            if rule.fact != data["kind"] or not all(self.holds(c, data) for c in rule.applies):
                continue
            if rule.is_check:
                firings.append(Firing(rule.id, data, applicability=True))
            if all(self.holds(c, data) for c in effective_when(rule)):
                firings.append(Firing(rule.id, data))
        return firings

    @contextmanager
    def session(self) -> Iterator[ReferenceEvaluator]:
        yield self
