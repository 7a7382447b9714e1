"""Rule declarations: the schema of ``rules/*.yaml`` and its loader.

A rule is data: a stable ID, a name that says what it flags, topic, severity, the fact kind it reads,
conditions over that fact's fields, a conclusion, a message template, a rationale and a source. Thresholds
are named by key and looked up in ``knowledge/thresholds.yaml``; a rule body holds no number. Loading
checks every condition against the fact model it reads, so a typo in a rule file fails at start-up.
"""

from __future__ import annotations

import datetime as dt
import types
import typing
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..rules import RULE_FILES, RULES_DIR
from .errors import KnowledgeError
from .facts import FACT_MODELS
from .knowledge import Citation, Knowledge, describe_validation_error, read_yaml

Topic = Literal[
    "deployment",
    "sizing",
    "interconnect",
    "pricing",
    "residency",
    "provider",
    "tco",
    "export_control",
    "optimization",
    "knowledge",
]
TOPICS: tuple[str, ...] = typing.get_args(Topic)
Severity = Literal["info", "advice", "warning", "critical"]
Deployment = Literal["api", "serverless", "dedicated_cloud", "own_hardware", "hybrid"]
DEPLOYMENTS: tuple[str, ...] = typing.get_args(Deployment)
PricingKind = Literal["on_demand", "spot", "reserved", "capacity_block"]
Operator = Literal["eq", "ne", "lt", "le", "gt", "ge"]
OptionField = Literal["eu", "pricing", "interconnect", "provider_kind", "enterprise_sla", "segment"]

Precedence = Annotated[int, Field(ge=1, le=1000)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Condition(Strict):
    """``fact <op> value | threshold | other_fact``: exactly one right-hand side."""

    fact: str
    op: Operator = "eq"
    value: bool | str | None = None
    threshold: str | None = None
    other_fact: str | None = None

    @model_validator(mode="after")
    def _one_right_hand_side(self) -> Condition:
        given = [x for x in (self.value, self.threshold, self.other_fact) if x is not None]
        if len(given) != 1:
            raise ValueError("a condition compares with exactly one of value, threshold or other_fact")
        if self.value is not None and self.op not in ("eq", "ne"):
            raise ValueError("a literal value (true/false or a name) is only compared with eq or ne")
        return self


class Proposal(Strict):
    deployment: Deployment
    precedence: Precedence


class RuleOut(Strict):
    deployments: tuple[Deployment, ...] = Field(min_length=1)
    precedence: Precedence
    """Removes proposals of these deployments whose precedence is lower than this."""


class OptionFilter(Strict):
    field: OptionField
    equals: bool | str


class Conclusion(Strict):
    propose: Proposal | None = None
    rule_out: RuleOut | None = None
    prefer_pricing: PricingKind | None = None
    exclude_options: tuple[OptionFilter, ...] = ()
    gpu_unsuitable: bool = False


class Rule(Strict):
    id: str = Field(pattern=r"^[A-Z]{3}[0-9]{3}$")
    name: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    topic: Topic
    severity: Severity
    fact: Literal["gpu_fit", "workload", "economics"]
    when: tuple[Condition, ...] = Field(min_length=1)
    then: Conclusion = Conclusion()
    title: str
    message: str
    """Jinja template rendered with the matched fact's fields, ``t`` (thresholds) and ``k`` (knowledge)."""
    rationale: str
    source: Citation

    @model_validator(mode="after")
    def _source_is_a_document(self) -> Rule:
        if self.source.document is None:
            raise ValueError("a rule cites a source document and its section")
        if self.then.gpu_unsuitable and self.fact != "gpu_fit":
            raise ValueError("gpu_unsuitable is a conclusion of gpu_fit rules only")
        return self

    @property
    def threshold_keys(self) -> tuple[str, ...]:
        return tuple(c.threshold for c in self.when if c.threshold is not None)


class RuleFile(Strict):
    schema_version: Literal[1]
    family: str
    rules: tuple[Rule, ...]


class Rulebook(Strict):
    """All rules in catalog order (file order, then order within the file)."""

    rules: tuple[Rule, ...]
    as_of: dt.date | None = None

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(rule.id for rule in self.rules)


def load_rule_file(path: Path) -> RuleFile:
    data = read_yaml(path)
    try:
        return RuleFile.model_validate(data)
    except ValidationError as error:
        raise KnowledgeError(describe_validation_error(path, data, error)) from None


def load_rulebook_from(directory: Path, files: tuple[str, ...], knowledge: Knowledge) -> Rulebook:
    rules: list[Rule] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    names: dict[str, str] = {}
    for file_name in files:
        path = directory / file_name
        for rule in load_rule_file(path).rules:
            if rule.id in seen:
                problems.append(f"{path}: rule {rule.id}: duplicate id (also in {seen[rule.id]})")
            if rule.name in names:
                problems.append(
                    f"{path}: rule {rule.id}: duplicate name {rule.name!r} (also {names[rule.name]})"
                )
            seen[rule.id] = file_name
            names[rule.name] = rule.id
            problems.extend(f"{path}: rule {rule.id}: {p}" for p in check_rule(rule, knowledge))
            rules.append(rule)
    if problems:
        raise KnowledgeError("\n".join(problems))
    return Rulebook(rules=tuple(rules))


@cache
def load_rulebook() -> Rulebook:
    from .knowledge import load_knowledge

    return load_rulebook_from(RULES_DIR, RULE_FILES, load_knowledge())


def check_rule(rule: Rule, knowledge: Knowledge) -> list[str]:
    """Conditions must name fields of the fact kind, with a right-hand side of the field's type."""
    problems: list[str] = []
    fields = FACT_MODELS[rule.fact].model_fields
    thresholds = knowledge.threshold_values()
    document_ids = {d.id for d in knowledge.documents.documents}
    if rule.source.document not in document_ids:
        problems.append(f"field source: unknown document {rule.source.document!r}")
    for index, condition in enumerate(rule.when):
        where = f"field when.{index}"
        if condition.fact not in fields:
            problems.append(f"{where}.fact: {condition.fact!r} is not a field of {rule.fact} facts")
            continue
        kind = _python_type(fields[condition.fact].annotation)
        if condition.threshold is not None:
            if condition.threshold not in thresholds:
                problems.append(f"{where}.threshold: unknown threshold key {condition.threshold!r}")
            if kind not in (int, float):
                problems.append(
                    f"{where}: a threshold compares with a number, {condition.fact} is {kind.__name__}"
                )
        elif condition.other_fact is not None:
            if condition.other_fact not in fields:
                problems.append(
                    f"{where}.other_fact: {condition.other_fact!r} is not a field of {rule.fact} facts"
                )
            elif _python_type(fields[condition.other_fact].annotation) not in (int, float) or kind not in (
                int,
                float,
            ):
                problems.append(f"{where}: other_fact compares two numbers")
        elif isinstance(condition.value, bool) != (kind is bool) or not isinstance(condition.value, kind):
            problems.append(f"{where}.value: {condition.fact} is {kind.__name__}, got {condition.value!r}")
    return problems


def _python_type(annotation: Any) -> type:
    if isinstance(annotation, type):
        return annotation
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return type(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return next(a for a in typing.get_args(annotation) if a is not type(None))
    return object
