"""The checks a rule passes at load: its conditions name fields of the fact it reads with a right-hand
side of the field's type, its thresholds and documents exist, its message renders from known names, and
a policy's threshold is not a number YAML misread. Each problem is ``Words``, so that an organization's
policy is refused in the reader's language (``--lang de``); the built-in catalog's are read in English."""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any, Literal

from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.choices import FactKind
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.i18n.reading import dotted_readings, thousands_dotted_values
from gpu_advisor.engine.rulebook.decided_details import DecisionDetails, RobustnessDetails
from gpu_advisor.engine.rulebook.details import ApiDetails, Details, EconomicsDetails, ServerlessDetails
from gpu_advisor.engine.rulebook.facts import FACT_MODELS, fact_fields
from gpu_advisor.engine.rulebook.option_values import option_values, unknown_names, unknown_values
from gpu_advisor.engine.rulebook.proposal_details import ProposalDetails
from gpu_advisor.engine.rulebook.schema import OPTION_KINDS, Condition, Rule

DETAIL_MODELS: dict[FactKind, type[Details]] = {
    "serverless": ServerlessDetails,
    "economics": EconomicsDetails,
    "api": ApiDetails,
    "decision": DecisionDetails,
    "robustness": RobustnessDetails,
    "proposal": ProposalDetails,
}
"""The details each fact kind's messages see beside the fact (none for the workload fact)."""


def at_field(field: str, problem: Words) -> Words:
    """``field when.0.threshold: ...``: a problem of one field of a rule."""
    return Words("field %(field)s: %(problem)s", field=field, problem=problem)


def thousands_dotted_thresholds(path: Path) -> list[Words]:
    """A policy threshold written with a dot between groups of three digits (``value: 20.000``): YAML
    reads it as 20.0, and an approval line of 20,000 EUR would hold at 20."""
    problems = []
    for line, where, written in thousands_dotted_values(path.read_text(encoding="utf-8")) or []:
        readings = dotted_readings(written)
        if where == ("thresholds", "value") and readings is not None:
            read, whole, plain = readings
            problems.append(
                Words(
                    "%(path)s, line %(line)s: thresholds: value %(written)s reads as %(read)s, not %(whole)s "
                    "(YAML takes the dot for a decimal point): write %(whole)s, or %(plain)s where %(read)s "
                    "is meant",
                    path=str(path),
                    line=line,
                    written=written,
                    read=read,
                    whole=whole,
                    plain=plain,
                )
            )
    return problems


def validate_message(
    rule: Rule,
    extra_thresholds: dict[str, float],
    knowledge: Knowledge,
    message: str | None = None,
    field: str = "message",
) -> list[Words]:
    """The message (``rule.message``, or ``message`` at ``field``: its translation) must parse, and name
    only fields of the rule's fact kind, thresholds (``t.key``), the knowledge references (``k``) and
    known filters."""
    import jinja2
    from jinja2 import meta, nodes

    from gpu_advisor.engine.i18n.environment import environment

    # The sandbox an organization's message renders in: its compiler folds no constant it would refuse
    # to compute ("x" * 1000000000 was built while the message was checked).
    env = environment("en", sandboxed=True)
    try:
        tree = env.parse(rule.message if message is None else message)
    except jinja2.TemplateSyntaxError as error:
        # Jinja's own wording: no catalog knows it.
        said = Words.verbatim(
            error.message or "", Words("a Jinja syntax error (%(error)s)", error=error.message or "")
        )
        return [at_field(field, Words("line %(line)s: %(error)s", line=error.lineno, error=said))]
    unknown_filters = sorted(
        {node.name for node in tree.find_all(nodes.Filter) if node.name not in env.filters}
    )
    if unknown_filters:  # the variable analysis below compiles the message, which needs its filters
        return [
            at_field(field, Words("unknown filter %(name)s", name=repr(name))) for name in unknown_filters
        ]
    fields = fact_fields(rule.fact)
    details = DETAIL_MODELS.get(rule.fact)
    known = {*fields, *(details.model_fields if details else ()), "t", "k", "fmt", *env.globals}
    problems = [
        at_field(field, not_a_field(name, rule.fact))
        for name in sorted(meta.find_undeclared_variables(tree) - known)
    ]
    thresholds = {**knowledge.threshold_values(), **extra_thresholds}
    for node in tree.find_all(nodes.Getattr):
        if isinstance(node.node, nodes.Name) and node.node.name == "t" and node.attr not in thresholds:
            problems.append(at_field(field, Words("t.%(key)s: unknown threshold key", key=node.attr)))
    return problems


def not_a_field(name: str, fact: str) -> Words:
    return Words("%(name)s is not a field of %(fact)s facts", name=repr(name), fact=fact)


def validate_rule(
    rule: Rule, knowledge: Knowledge, extra_thresholds: dict[str, float] | None = None
) -> list[Words]:
    """Conditions must name fields of the fact kind, with a right-hand side of the field's type."""
    problems: list[Words] = []
    fields = fact_fields(rule.fact)
    thresholds = {**knowledge.threshold_values(), **(extra_thresholds or {})}
    document_ids = {d.id for d in knowledge.documents.documents}
    if rule.source.document not in document_ids:
        problems.append(at_field("source", unknown_document(rule.source.document)))
    problems += [
        at_field(f"see_also.{index}", unknown_document(citation.document))
        for index, citation in enumerate(rule.see_also)
        if citation.document not in document_ids
    ]
    for name in rule.needs:
        if f"{name}_known" not in fields:
            problem = Words(
                "%(name)s has no %(field)s field in %(fact)s facts",
                name=repr(name),
                field=f"{name}_known",
                fact=rule.fact,
            )
            problems.append(at_field("needs", problem))
    drawn = {e.figure for e in knowledge.uncertainty.inputs if e.applies_to == "rule_threshold"}
    known = option_values(knowledge)
    for part, conditions in (("applies", rule.applies), ("when", rule.when)):
        for index, condition in enumerate(conditions):
            where = f"{part}.{index}"
            problems += validate_condition(where, condition, rule.fact, fields, thresholds)
            problems += [at_field(where, p) for p in unknown_names(condition, known)]
            if condition.threshold in drawn and FACT_MODELS[rule.fact].shared_between_evaluations:
                # A scenario's engine reads a drawn threshold from the facts of its own evaluation; the
                # GPU-fit facts' firings are worked out once for all evaluations, at the point value.
                problem = Words(
                    "%(key)s is drawn by scenarios (knowledge/uncertainty.yaml), which %(fact)s rules cannot "
                    "read",
                    key=repr(condition.threshold),
                    fact=rule.fact,
                )
                problems.append(at_field(f"{where}.threshold", problem))
    for index, option_filter in enumerate(rule.then.exclude_options):
        where = f"then.exclude_options.{index}"
        if not any(option_filter.fields <= fields for fields in OPTION_KINDS.values()):
            problem = Words(
                "its tests name %(fields)s, fields no one kind of option has together, so it could never "
                "match",
                fields=", ".join(sorted(option_filter.fields)),
            )
            problems.append(at_field(where, problem))
        problems += [
            at_field(where, p) for p in unknown_values((option_filter, *option_filter.and_also), known)
        ]
    return problems


def unknown_document(document: str | None) -> Words:
    return Words("unknown document %(document)s", document=repr(document))


def validate_condition(
    where: str, condition: Condition, fact: str, fields: dict[str, Any], thresholds: dict[str, float]
) -> list[Words]:
    if condition.fact not in fields:
        return [at_field(f"{where}.fact", not_a_field(condition.fact, fact))]
    kind = _python_type(fields[condition.fact].annotation)
    numeric = (int, float)
    if condition.threshold is not None:
        problems = []
        if condition.threshold not in thresholds:
            problem = Words("unknown threshold key %(key)s", key=repr(condition.threshold))
            problems.append(at_field(f"{where}.threshold", problem))
        if kind not in numeric:
            problem = Words(
                "a threshold compares with a number, %(fact)s is %(kind)s",
                fact=condition.fact,
                kind=kind.__name__,
            )
            problems.append(at_field(where, problem))
        return problems
    if condition.other_fact is not None:
        if condition.other_fact not in fields:
            return [at_field(f"{where}.other_fact", not_a_field(condition.other_fact, fact))]
        if _python_type(fields[condition.other_fact].annotation) not in numeric or kind not in numeric:
            return [at_field(where, Words("other_fact compares two numbers"))]
        return []
    choices = _choices(fields[condition.fact].annotation)
    named = condition.values or ((condition.value,) if isinstance(condition.value, str) else ())
    unknown = [name for name in named if choices and name not in choices]
    if unknown:
        return [
            at_field(
                where,
                Words(
                    "%(fact)s is one of %(choices)s, got %(name)s",
                    fact=condition.fact,
                    choices=", ".join(choices),
                    name=repr(name),
                ),
            )
            for name in unknown
        ]
    if condition.values is not None:
        if kind is str:
            return []
        problem = Words(
            "in and not_in compare names, %(fact)s is %(kind)s", fact=condition.fact, kind=kind.__name__
        )
        return [at_field(where, problem)]
    if isinstance(condition.value, bool) != (kind is bool) or not isinstance(condition.value, kind):
        problem = Words(
            "%(fact)s is %(kind)s, got %(value)s",
            fact=condition.fact,
            kind=kind.__name__,
            value=repr(condition.value),
        )
        return [at_field(f"{where}.value", problem)]
    return []


def _choices(annotation: Any) -> tuple[str, ...]:
    """The names a field of a closed set of names (a ``Literal`` of strings) can hold; empty otherwise."""
    if typing.get_origin(annotation) is Literal:
        return tuple(str(arg) for arg in typing.get_args(annotation) if isinstance(arg, str))
    return ()


def _python_type(annotation: Any) -> type:
    if isinstance(annotation, type):
        return annotation
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return type(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        member: type = next(a for a in typing.get_args(annotation) if a is not type(None))
        return member
    return object
