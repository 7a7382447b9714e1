"""The rule compiler against the reference evaluator, fact by fact.

Facts of every kind are generated from the rulebook itself (each field's values cluster at the thresholds
and other fields it is compared with, where a wrong operator shows), then asserted both into the
durable-rules engine and into the plain-Python reference evaluator of the same declarations: the rules
that fire must agree. The rulebook is the catalog plus the example organization policies plus a test
policy with one rule per operator (tests/policies/operators.yaml). Then every operator of the compiler
is mutated in turn, and the same comparison must catch each mutation.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

import pytest
from helpers import EXAMPLES_DIR, TESTS_DIR
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from reference_evaluator import ReferenceEvaluator

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.rulebook import compiler
from gpu_advisor.engine.rulebook.durable import RulesEngine
from gpu_advisor.engine.rulebook.facts import FACT_KINDS, FACT_MODELS, Fact, WorkloadFacts, fact_fields
from gpu_advisor.engine.rulebook.loading import load_rulebook_from
from gpu_advisor.engine.rulebook.schema import Condition, Rulebook
from gpu_advisor.rules import RULE_FILES, RULES_DIR

POLICY_FILES = (
    *sorted((EXAMPLES_DIR / "org-policy").glob("*.yaml")),
    TESTS_DIR / "policies" / "operators.yaml",
)
RULEBOOK: Rulebook = load_rulebook_from(RULES_DIR, RULE_FILES, load_knowledge(), POLICY_FILES)
THRESHOLDS = RULEBOOK.threshold_values(load_knowledge())
ENGINE = RulesEngine(RULEBOOK, THRESHOLDS)
REFERENCE = ReferenceEvaluator(RULEBOOK, THRESHOLDS)
Facts = tuple[Fact, Fact | None]


def conditions_on(kind: str) -> list[Condition]:
    return [c for rule in RULEBOOK.rules if rule.fact == kind for c in (*rule.applies, *rule.when)]


def numbers_near(field: str, kind: str, integer: bool) -> list[float]:
    """The thresholds a field is compared with, and values just beside them."""
    found: set[float] = {0.0, 1.0}
    for c in conditions_on(kind):
        if c.fact == field and c.threshold is not None:
            value = THRESHOLDS[c.threshold]
            step = 1.0 if integer else max(abs(value) * 0.01, 0.001)
            found |= {value, value - step, value + step}
    return sorted(v for v in found if v >= 0)


def field_values(kind: str, name: str, annotation: Any) -> st.SearchStrategy[Any]:
    if annotation is bool:
        return st.booleans()
    if annotation in (int, float):
        integer = annotation is int
        near = [int(v) if integer else float(v) for v in numbers_near(name, kind, integer)]
        anywhere = st.integers(0, 10**7) if integer else st.floats(0, 1e6, allow_nan=False)
        return st.one_of(st.sampled_from(near), anywhere)
    names = {str(c.value) for c in conditions_on(kind) if c.fact == name and isinstance(c.value, str)}
    names |= {v for c in conditions_on(kind) if c.fact == name for v in (c.values or ())}
    if typing.get_origin(annotation) is typing.Literal:
        return st.sampled_from(typing.get_args(annotation))
    return st.sampled_from(sorted(names | {"other"}))


@st.composite
def facts(draw: st.DrawFn, kind: str) -> Facts:
    values = {
        name: draw(field_values(kind, name, info.annotation))
        for name, info in fact_fields(kind).items()
        if name != "kind"
    }
    # Equal sides, where lt and le (or gt and ge) part.
    for c in conditions_on(kind):
        if c.other_fact is not None and draw(st.booleans()):
            values[c.fact] = values[c.other_fact]
    model = FACT_MODELS[kind]
    own = {name: value for name, value in values.items() if name in model.model_fields}
    rest = {name: value for name, value in values.items() if name not in model.model_fields}
    return model(**own), (WorkloadFacts(**rest) if model.about_workload else None)


ANY_FACTS = st.sampled_from(FACT_KINDS).flatmap(facts)


def fired(evaluator: Any, case: Facts) -> list[tuple[str, bool]]:
    with evaluator.session() as session:
        firings = session.assert_fact(*case)
    # A list, not a set: a rule that fires twice on one fact is a difference too.
    return sorted((f.rule_id, f.applicability) for f in firings)


def differs(engine: RulesEngine) -> Callable[[Facts], bool]:
    return lambda case: fired(engine, case) != fired(REFERENCE, case)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=ANY_FACTS)
def test_engine_agrees_with_reference_evaluator_on_every_kind_of_fact(case: Facts) -> None:
    assert fired(ENGINE, case) == fired(REFERENCE, case)


OPERATOR_MUTATIONS = {
    "eq": "$neq",
    "ne": None,
    "lt": "$lte",
    "le": "$lt",
    "gt": "$gte",
    "ge": "$gt",
}


def mutated_condition(kind: str) -> Callable[..., dict[str, Any]]:
    """``compile_condition`` with one kind of right-hand side written wrongly."""
    original = compiler.compile_condition

    def compile_condition(condition: Condition, thresholds: Any) -> dict[str, Any]:
        if kind == "in" and condition.op == "in":
            condition = condition.model_copy(update={"op": "not_in"})
        elif kind == "not_in" and condition.op == "not_in":
            condition = condition.model_copy(update={"op": "in"})
        elif kind == "threshold" and condition.threshold is not None:
            thresholds = {**thresholds, condition.threshold: thresholds[condition.threshold] + 1}
        elif kind == "other_fact" and condition.other_fact is not None:
            return {condition.fact: {"$m": condition.other_fact}}  # equal, whatever the operator
        return original(condition, thresholds)

    return compile_condition


def assert_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    mutant = RulesEngine(RULEBOOK, THRESHOLDS)
    monkeypatch.undo()
    try:
        find(
            ANY_FACTS, differs(mutant), settings=settings(max_examples=3000, derandomize=True, database=None)
        )
    except NoSuchExample:
        pytest.fail("the comparison with the reference evaluator did not catch the mutation")


@pytest.mark.parametrize(("operator", "wrong"), OPERATOR_MUTATIONS.items())
def test_a_wrong_operator_is_caught(
    monkeypatch: pytest.MonkeyPatch, operator: str, wrong: str | None
) -> None:
    monkeypatch.setitem(compiler._OPERATORS, operator, wrong)
    assert_caught(monkeypatch)


@pytest.mark.parametrize("kind", ["in", "not_in", "threshold", "other_fact"])
def test_a_wrong_right_hand_side_is_caught(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    monkeypatch.setattr(compiler, "compile_condition", mutated_condition(kind))
    assert_caught(monkeypatch)


def test_a_missing_guard_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiler, "effective_when", lambda rule: rule.when)
    assert_caught(monkeypatch)
