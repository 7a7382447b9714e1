"""Rule declarations: the schema of ``rules/*.yaml`` and its loader.

A rule is data: a stable ID, a name that says what it flags, topic, severity, the fact kind it reads,
conditions over that fact's fields, a conclusion, a message template, a rationale and a source. Thresholds
are named by key and looked up in ``knowledge/thresholds.yaml``; a rule body holds no number. Loading
checks every condition against the fact model it reads, so a typo in a rule file fails at start-up.
"""

from __future__ import annotations

import types
import typing
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..rules import RULE_FILES, RULES_DIR
from .errors import KnowledgeError
from .facts import FACT_MODELS
from .identity_cache import per_object
from .knowledge import Citation, Knowledge, Threshold, describe_validation_error, read_yaml

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
ATTENTION_SEVERITIES = frozenset({"critical", "warning"})
"""A finding of these severities means the workload needs attention (batch summaries, decision summaries)."""
Deployment = Literal["api", "serverless", "dedicated_cloud", "own_hardware", "hybrid"]
DEPLOYMENTS: tuple[str, ...] = typing.get_args(Deployment)
PricingKind = Literal["on_demand", "spot", "reserved", "capacity_block"]
Operator = Literal["eq", "ne", "lt", "le", "gt", "ge", "in", "not_in"]
OptionField = Literal[
    "eu", "pricing", "interconnect", "provider_kind", "enterprise_sla", "segment", "provider", "gpu"
]
FactKind = Literal["gpu_fit", "workload", "economics", "proposal"]
Verdict = Literal["fail", "warn"]
Origin = Literal["builtin", "organization"]

Precedence = Annotated[int, Field(ge=1, le=1000)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Condition(Strict):
    """``fact <op> value | values | threshold | other_fact``: exactly one right-hand side."""

    fact: str
    op: Operator = "eq"
    value: bool | str | None = None
    values: tuple[str, ...] | None = None
    """For ``in`` and ``not_in``: the names the fact is compared with."""
    threshold: str | None = None
    other_fact: str | None = None

    @model_validator(mode="after")
    def _one_right_hand_side(self) -> Condition:
        given = [x for x in (self.value, self.values, self.threshold, self.other_fact) if x is not None]
        if len(given) != 1:
            raise ValueError(
                "a condition compares with exactly one of value, values, threshold or other_fact"
            )
        if self.value is not None and self.op not in ("eq", "ne"):
            raise ValueError("a literal value (true/false or a name) is only compared with eq or ne")
        if (self.values is not None) != (self.op in ("in", "not_in")):
            raise ValueError("in and not_in compare with a list of values, and only they do")
        if self.values is not None and not self.values:
            raise ValueError("values must not be empty")
        return self


class Proposal(Strict):
    deployment: Deployment
    precedence: Precedence


class RuleOut(Strict):
    deployments: tuple[Deployment, ...] = Field(min_length=1)
    precedence: Precedence
    """Removes proposals of these deployments whose precedence is lower than this."""


class OptionFilter(Strict):
    """Excludes options whose ``field`` equals ``equals``, or (for an allow-list) is not in ``not_in``."""

    field: OptionField
    equals: bool | str | None = None
    not_in: tuple[str, ...] | None = None

    @model_validator(mode="after")
    def _one_test(self) -> OptionFilter:
        if (self.equals is None) == (self.not_in is None):
            raise ValueError("an option filter gives exactly one of equals or not_in")
        return self

    def matches(self, value: object) -> bool:
        if self.not_in is not None:
            return value not in self.not_in
        return value == self.equals


class Conclusion(Strict):
    propose: Proposal | None = None
    rule_out: RuleOut | None = None
    prefer_pricing: PricingKind | None = None
    exclude_options: tuple[OptionFilter, ...] = ()
    gpu_unsuitable: bool = False
    verdict: Verdict | None = None
    """Proposal checks only: the result when the proposal meets ``when`` (a violation)."""


class Rule(Strict):
    id: str = Field(pattern=r"^[A-Z]{3}[0-9]{3}$")
    name: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    topic: Topic
    severity: Severity
    fact: FactKind
    applies: tuple[Condition, ...] = ()
    """Proposal checks only: when the check applies at all; it then passes unless ``when`` holds."""
    needs: tuple[str, ...] = ()
    """Proposal checks only: proposal facts that must be known (``<name>_known``), else the result is
    'unknown'."""
    when: tuple[Condition, ...] = ()
    """Conditions on the fact, all of which must hold; empty: the rule fires for every fact of its kind."""
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
        is_check = self.fact == "proposal"
        if is_check != (self.then.verdict is not None):
            raise ValueError("proposal rules, and only they, conclude with a verdict (fail or warn)")
        if not is_check and (self.applies or self.needs):
            raise ValueError("applies and needs belong to proposal rules")
        if is_check and not self.when:
            raise ValueError("a proposal rule states the violation it looks for in when")
        return self

    @property
    def threshold_keys(self) -> tuple[str, ...]:
        return tuple(c.threshold for c in (*self.applies, *self.when) if c.threshold is not None)

    @property
    def is_check(self) -> bool:
        return self.fact == "proposal"


class RuleFile(Strict):
    schema_version: Literal[1]
    family: str
    rules: tuple[Rule, ...]
    thresholds: tuple[Threshold, ...] = ()
    """Organization policy files may define their own thresholds; the shipped catalog keeps them in
    knowledge/thresholds.yaml."""


class Rulebook(Strict):
    """All rules in catalog order (file order, then order within the file); organization rules last."""

    rules: tuple[Rule, ...]
    origins: dict[str, Origin] = Field(default_factory=dict)
    """Rule ID -> where it comes from; rules not listed are built in."""
    thresholds: tuple[Threshold, ...] = ()
    """Thresholds that organization policies add to the knowledge base's."""

    def origin(self, rule_id: str) -> Origin:
        return self.origins.get(rule_id, "builtin")

    def threshold_values(self, knowledge: Knowledge) -> dict[str, float]:
        """The knowledge base's thresholds plus the policies' (USD; EUR thresholds converted)."""
        values = knowledge.threshold_values()
        rate = knowledge.eur_to_usd().rate
        for threshold in self.thresholds:
            values[threshold.key] = threshold.value * (rate if threshold.currency == "EUR" else 1.0)
        return values

    def rule(self, rule_id: str) -> Rule:
        return _rules_by_id(self.rules)[rule_id]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(rule.id for rule in self.rules)


@per_object
def _rules_by_id(rules: tuple[Rule, ...]) -> dict[str, Rule]:
    return {rule.id: rule for rule in reversed(rules)}  # the first of duplicates, as a scan finds


class RuleText(Strict):
    """A rule's reader-facing texts in one language."""

    title: str
    message: str
    rationale: str


class RuleTextsFile(Strict):
    schema_version: Literal[1]
    rules: dict[str, RuleText]


@cache
def rule_texts(lang: str) -> dict[str, RuleText]:
    """Translations of the built-in rules' texts (rules/i18n/<lang>.yaml); empty for English."""
    if lang == "en":
        return {}
    path = RULES_DIR / "i18n" / f"{lang}.yaml"
    data = read_yaml(path)
    try:
        return RuleTextsFile.model_validate(data).rules
    except ValidationError as error:
        raise KnowledgeError(describe_validation_error(path, data, error)) from None


def rule_text(rule: Rule, lang: str) -> RuleText:
    """The rule's texts in ``lang``; organization rules and untranslated ones keep their own."""
    return rule_texts(lang).get(rule.id) or RuleText(
        title=rule.title, message=rule.message, rationale=rule.rationale
    )


def load_rule_file(path: Path) -> RuleFile:
    data = read_yaml(path)
    try:
        return RuleFile.model_validate(data)
    except ValidationError as error:
        raise KnowledgeError(describe_validation_error(path, data, error)) from None


def collect_rules(
    paths: list[Path],
    knowledge: Knowledge,
    origin: Origin,
    known_ids: dict[str, str],
    known_names: dict[str, str],
    extra_thresholds: dict[str, float],
) -> tuple[list[Rule], list[Threshold], list[str]]:
    """Rules and policy thresholds of ``paths``, with every problem found (duplicates across all files)."""
    rules: list[Rule] = []
    thresholds: list[Threshold] = []
    problems: list[str] = []
    for path in paths:
        rule_file = load_rule_file(path)
        if origin == "builtin" and rule_file.thresholds:
            problems.append(f"{path}: built-in thresholds belong in knowledge/thresholds.yaml")
        for threshold in rule_file.thresholds:
            if threshold.key in extra_thresholds or threshold.key in knowledge.threshold_values():
                problems.append(f"{path}: threshold {threshold.key!r}: duplicate key")
            extra_thresholds[threshold.key] = threshold.value
            thresholds.append(threshold)
        for rule in rule_file.rules:
            if rule.id in known_ids:
                problems.append(f"{path}: rule {rule.id}: duplicate id (also in {known_ids[rule.id]})")
            if rule.name in known_names:
                problems.append(
                    f"{path}: rule {rule.id}: duplicate name {rule.name!r} (also {known_names[rule.name]})"
                )
            known_ids[rule.id] = path.name
            known_names[rule.name] = rule.id
            rules.append(rule)
    for rule in rules:
        problems.extend(f"rule {rule.id}: {p}" for p in check_rule(rule, knowledge, extra_thresholds))
        if origin == "organization":
            # Built-in messages are rendered by the rule-case tests; an organization's are checked here,
            # so a typo is reported at load instead of failing the first recommendation it fires in.
            problems.extend(f"rule {rule.id}: {p}" for p in check_message(rule, extra_thresholds, knowledge))
    return rules, thresholds, problems


def check_message(rule: Rule, extra_thresholds: dict[str, float], knowledge: Knowledge) -> list[str]:
    """The message must parse, and name only fields of the rule's fact kind, thresholds (``t.key``),
    the knowledge references (``k``) and known filters."""
    import jinja2
    from jinja2 import meta, nodes

    from .text import environment

    env = environment("en")
    try:
        tree = env.parse(rule.message)
    except jinja2.TemplateSyntaxError as error:
        return [f"field message: line {error.lineno}: {error.message}"]
    unknown_filters = sorted(
        {node.name for node in tree.find_all(nodes.Filter) if node.name not in env.filters}
    )
    if unknown_filters:  # the variable analysis below compiles the message, which needs its filters
        return [f"field message: unknown filter {name!r}" for name in unknown_filters]
    fields = FACT_MODELS[rule.fact].model_fields
    known = {*fields, "t", "k", "fmt", *env.globals}
    problems = [
        f"field message: {name!r} is not a field of {rule.fact} facts"
        for name in sorted(meta.find_undeclared_variables(tree) - known)
    ]
    thresholds = {**knowledge.threshold_values(), **extra_thresholds}
    for node in tree.find_all(nodes.Getattr):
        if isinstance(node.node, nodes.Name) and node.node.name == "t" and node.attr not in thresholds:
            problems.append(f"field message: t.{node.attr}: unknown threshold key")
    return problems


def load_rulebook_from(
    directory: Path,
    files: tuple[str, ...],
    knowledge: Knowledge,
    policy_files: tuple[Path, ...] = (),
) -> Rulebook:
    """The built-in catalog, plus organization rules and thresholds from ``policy_files``."""
    ids: dict[str, str] = {}
    names: dict[str, str] = {}
    extra: dict[str, float] = {}
    builtin, _, problems = collect_rules(
        [directory / f for f in files], knowledge, "builtin", ids, names, extra
    )
    organization, thresholds, more = collect_rules(
        list(policy_files), knowledge, "organization", ids, names, extra
    )
    problems += more
    if problems:
        raise KnowledgeError("\n".join(problems))
    return Rulebook(
        rules=tuple(builtin + organization),
        origins={rule.id: "organization" for rule in organization},
        thresholds=tuple(thresholds),
    )


@cache
def load_rulebook() -> Rulebook:
    from .knowledge import load_knowledge

    return load_rulebook_from(RULES_DIR, RULE_FILES, load_knowledge())


def policy_files(directory: Path) -> tuple[Path, ...]:
    """An organization's policy directory: every *.yaml and *.yml file in it, in name order."""
    if not directory.is_dir():
        from .errors import InputError

        raise InputError(f"--policy: {directory} is not a directory")
    return tuple(sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file()))


@cache
def load_rulebook_with_policies(directory: str) -> Rulebook:
    """The catalog plus the organization policies in ``directory`` (loaded once per process). A broken
    policy is the user's input: it is reported as an input error naming the file, rule and field."""
    from .errors import InputError
    from .knowledge import load_knowledge

    try:
        return load_rulebook_from(RULES_DIR, RULE_FILES, load_knowledge(), policy_files(Path(directory)))
    except KnowledgeError as error:
        raise InputError(f"--policy {directory}: invalid organization policy\n{error}") from None


def check_rule(
    rule: Rule, knowledge: Knowledge, extra_thresholds: dict[str, float] | None = None
) -> list[str]:
    """Conditions must name fields of the fact kind, with a right-hand side of the field's type."""
    problems: list[str] = []
    fields = FACT_MODELS[rule.fact].model_fields
    thresholds = {**knowledge.threshold_values(), **(extra_thresholds or {})}
    document_ids = {d.id for d in knowledge.documents.documents}
    if rule.source.document not in document_ids:
        problems.append(f"field source: unknown document {rule.source.document!r}")
    for name in rule.needs:
        if f"{name}_known" not in fields:
            problems.append(f"field needs: {name!r} has no {name}_known field in {rule.fact} facts")
    for part, conditions in (("applies", rule.applies), ("when", rule.when)):
        for index, condition in enumerate(conditions):
            problems += check_condition(f"field {part}.{index}", condition, rule.fact, fields, thresholds)
    return problems


def check_condition(
    where: str, condition: Condition, fact: str, fields: dict[str, Any], thresholds: dict[str, float]
) -> list[str]:
    if condition.fact not in fields:
        return [f"{where}.fact: {condition.fact!r} is not a field of {fact} facts"]
    kind = _python_type(fields[condition.fact].annotation)
    numeric = (int, float)
    if condition.threshold is not None:
        problems = []
        if condition.threshold not in thresholds:
            problems.append(f"{where}.threshold: unknown threshold key {condition.threshold!r}")
        if kind not in numeric:
            problems.append(
                f"{where}: a threshold compares with a number, {condition.fact} is {kind.__name__}"
            )
        return problems
    if condition.other_fact is not None:
        if condition.other_fact not in fields:
            return [f"{where}.other_fact: {condition.other_fact!r} is not a field of {fact} facts"]
        if _python_type(fields[condition.other_fact].annotation) not in numeric or kind not in numeric:
            return [f"{where}: other_fact compares two numbers"]
        return []
    if condition.values is not None:
        return (
            []
            if kind is str
            else [f"{where}: in and not_in compare names, {condition.fact} is {kind.__name__}"]
        )
    if isinstance(condition.value, bool) != (kind is bool) or not isinstance(condition.value, kind):
        return [f"{where}.value: {condition.fact} is {kind.__name__}, got {condition.value!r}"]
    return []


def _python_type(annotation: Any) -> type:
    if isinstance(annotation, type):
        return annotation
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return type(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return next(a for a in typing.get_args(annotation) if a is not type(None))
    return object
