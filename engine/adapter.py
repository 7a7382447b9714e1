"""The one module that talks to durable-rules.

Rule declarations are compiled into durable-rules' native JSON form (rule names are our rule IDs, so the
DSL's process-wide registry is never touched) and registered on one host per process. Measured traps of
durable-rules 2.0.28 this module avoids:

- the stock host starts two timer threads that race with synchronous calls: ``_QuietHost`` starts none;
- a ruleset holds at most 1,024 live sessions: each evaluation uses a fresh session and deletes it;
- asserting a fact no rule matches still creates the session, and deleting a session that never
  stored a fact crashes the process: every session first asserts a marker fact that an internal rule
  matches, so it can always be deleted;
- ``post`` consumes events: facts are only ever asserted with ``assert_fact``;
- ``none()`` is not truth-maintained: "no rule concluded X" is decided in Python after the run;
- comparisons with missing or mistyped properties misfire: facts are complete pydantic models;
- exceptions inside actions are swallowed into ``state['exception']``: checked after every assert;
- the host is not safe to share between threads: a lock serializes evaluations.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from .errors import EngineError
from .facts import Fact
from .rulebook import Condition, Rule, Rulebook

RULESET_NAME = "gpu_advisor"
SESSION_RULE = "session-open"
"""Internal rule matching the marker fact that opens every session; not part of the rulebook."""

_OPERATORS = {"eq": None, "ne": "$neq", "lt": "$lt", "le": "$lte", "gt": "$gt", "ge": "$gte"}


@dataclass(frozen=True)
class Firing:
    """One rule that fired on one fact, in firing order.

    For a proposal check, ``applicability`` marks the firing that only says the check applies; the
    check's own firing says the proposal violates it."""

    rule_id: str
    fact: Mapping[str, Any]
    applicability: bool = False


class FactSession(Protocol):
    def assert_fact(self, fact: Fact) -> list[Firing]: ...


class Evaluator(Protocol):
    """Anything that evaluates the rulebook over facts: the durable-rules engine here, or the tests'
    plain-Python reference evaluator that reads the same declarations."""

    def session(self) -> contextlib.AbstractContextManager[FactSession]: ...


def compile_condition(condition: Condition, thresholds: Mapping[str, float]) -> dict[str, Any]:
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
    fact: str, conditions: tuple[Condition, ...], thresholds: Mapping[str, float]
) -> dict[str, Any]:
    """Conditions on one fact of one kind as durable-rules JSON, joined with ``$and``."""
    tests = [{"kind": fact}] + [compile_condition(c, thresholds) for c in conditions]
    return {"all": [{"m": {"$and": tests}}]}


def compile_rule(rule: Rule, thresholds: Mapping[str, float]) -> dict[str, Any]:
    """One rule as durable-rules JSON: its preconditions and conditions on the same fact."""
    return compile_conditions(rule.fact, rule.applies + rule.when, thresholds)


def compile_rulebook(rulebook: Rulebook, thresholds: Mapping[str, float]) -> dict[str, dict[str, Any]]:
    """Every rule; a proposal check also as a second rule that fires when the check applies at all."""
    definition = {}
    for rule in rulebook.rules:
        definition[rule.id] = compile_rule(rule, thresholds)
        if rule.is_check:
            definition[rule.id + APPLICABILITY_SUFFIX] = compile_conditions(
                rule.fact, rule.applies, thresholds
            )
    return definition


def _ignore(c: Any) -> None:
    """Action of the session marker rule: nothing to do."""


class RulesEngine:
    """A compiled rulebook on a private durable-rules host. Build once per process; reuse for every call."""

    def __init__(self, rulebook: Rulebook, thresholds: Mapping[str, float]) -> None:
        from durable import engine as durable_engine

        class _QuietHost(durable_engine.Host):  # type: ignore[misc]
            def _run(self) -> None:
                """Start no timer threads: every evaluation here is synchronous."""

        self._not_handled = durable_engine.MessageNotHandledException
        self._lock = threading.Lock()
        self._sessions = itertools.count(1)
        self._firings: list[Firing] = []
        definition = compile_rulebook(rulebook, thresholds)
        for rule_id in definition:
            definition[rule_id]["run"] = self._action(rule_id)
        definition[SESSION_RULE] = {"all": [{"m": {"kind": SESSION_RULE}}], "run": _ignore}
        self._host = _QuietHost({RULESET_NAME: definition})

    def _action(self, name: str) -> Any:
        applicability = name.endswith(APPLICABILITY_SUFFIX)
        rule_id = name.removesuffix(APPLICABILITY_SUFFIX)

        def action(c: Any) -> None:
            fact = {key: value for key, value in c.m.items() if key != "sid"}
            self._firings.append(Firing(rule_id, fact, applicability))

        return action

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A fresh engine session, deleted afterwards; evaluations are serialized across threads."""
        with self._lock:
            sid = str(next(self._sessions))
            self._host.assert_fact(RULESET_NAME, {"sid": sid, "kind": SESSION_RULE})
            try:
                yield Session(self, sid)
            finally:
                self._firings.clear()
                self._host.delete_state(RULESET_NAME, sid)

    def _assert(self, sid: str, fact: Fact) -> list[Firing]:
        self._firings.clear()
        payload = fact.payload()
        payload["sid"] = sid
        try:
            state = self._host.assert_fact(RULESET_NAME, payload)
        except self._not_handled:
            return []
        if isinstance(state, dict) and state.get("exception"):
            raise EngineError(f"rules engine failed while evaluating {fact.kind} facts: {state['exception']}")
        fired = list(self._firings)
        self._firings.clear()
        return fired


class Session:
    """Asserts facts into one engine session and returns the firings each assert caused."""

    def __init__(self, engine: RulesEngine, sid: str) -> None:
        self._engine = engine
        self._sid = sid

    def assert_fact(self, fact: Fact) -> list[Firing]:
        return self._engine._assert(self._sid, fact)
