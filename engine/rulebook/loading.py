"""Loading the rule catalog (``rules/*.yaml``) and an organization's policies, and validating them.

A rule is data: a stable ID, a name that says what it flags, topic, severity, the fact kind it reads,
conditions over that fact's fields, a conclusion, a message template, a rationale and a source. Thresholds
are named by key and looked up in ``knowledge/thresholds.yaml``; a rule body holds no number. Loading
checks every condition against the fact model it reads, so a typo in a rule file fails at start-up.

"""

from __future__ import annotations

import types
import typing
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.choices import FactKind
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import Threshold
from gpu_advisor.engine.domain.knowledge.loading import describe_validation_error
from gpu_advisor.engine.i18n.reading import dotted_readings, thousands_dotted_values
from gpu_advisor.engine.rulebook.details import (
    ApiDetails,
    Details,
    EconomicsDetails,
    RobustnessDetails,
    ServerlessDetails,
)
from gpu_advisor.engine.rulebook.facts import FACT_MODELS, fact_fields
from gpu_advisor.engine.rulebook.option_values import option_values, unknown_names, unknown_values
from gpu_advisor.engine.rulebook.proposal_details import ProposalDetails
from gpu_advisor.engine.rulebook.schema import OPTION_KINDS, Condition, Origin, Rule, Rulebook, RuleFile
from gpu_advisor.rules import RULE_FILES, RULES_DIR

DETAIL_MODELS: dict[FactKind, type[Details]] = {
    "serverless": ServerlessDetails,
    "economics": EconomicsDetails,
    "api": ApiDetails,
    "robustness": RobustnessDetails,
    "proposal": ProposalDetails,
}
"""The details each fact kind's messages see beside the fact (none for the workload fact)."""


def load_rule_file(path: Path, *, aliases: bool = True) -> RuleFile:
    data = read_yaml(path, aliases=aliases)
    if (
        isinstance(data, dict)
        and "rules" not in data
        and {"model", "workload", "proposal", "proposals"} & data.keys()
    ):
        # A workload or proposal beside the policies listed each of its fields as unknown.
        raise KnowledgeError(
            f"{path}: a workload or proposal, not a rule file (schema_version, family, rules); a policy "
            "directory holds rule files only"
        )
    try:
        return RuleFile.model_validate(data)
    except ValidationError as error:
        raise KnowledgeError(describe_validation_error(path, data, error, "rule file")) from None


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
        rule_file = load_rule_file(path, aliases=origin == "builtin")
        if origin == "builtin" and rule_file.thresholds:
            problems.append(f"{path}: built-in thresholds belong in knowledge/thresholds.yaml")
        elif rule_file.thresholds:
            problems += thousands_dotted_thresholds(path)
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
        problems.extend(f"rule {rule.id}: {p}" for p in validate_rule(rule, knowledge, extra_thresholds))
        if origin == "organization":
            # Built-in messages are rendered by the rule-case tests; an organization's are checked here,
            # so a typo is reported at load instead of failing the first recommendation it fires in.
            problems.extend(
                f"rule {rule.id}: {p}" for p in validate_message(rule, extra_thresholds, knowledge)
            )
            german = rule.translations.de
            if german is not None:
                problems.extend(
                    f"rule {rule.id}: translations.de.{p.removeprefix('field ')}"
                    for p in validate_message(
                        rule.model_copy(update={"message": german.message}), extra_thresholds, knowledge
                    )
                )
    return rules, thresholds, problems


def thousands_dotted_thresholds(path: Path) -> list[str]:
    """A policy threshold written with a dot between groups of three digits (``value: 20.000``): YAML
    reads it as 20.0, and an approval line of 20,000 EUR would hold at 20."""
    problems = []
    for line, where, written in thousands_dotted_values(path.read_text(encoding="utf-8")) or []:
        readings = dotted_readings(written)
        if where == ("thresholds", "value") and readings is not None:
            read, whole, plain = readings
            problems.append(
                f"{path}, line {line}: thresholds: value {written} reads as {read}, not {whole} (YAML takes "
                f"the dot for a decimal point): write {whole}, or {plain} where {read} is meant"
            )
    return problems


def validate_message(rule: Rule, extra_thresholds: dict[str, float], knowledge: Knowledge) -> list[str]:
    """The message must parse, and name only fields of the rule's fact kind, thresholds (``t.key``),
    the knowledge references (``k``) and known filters."""
    import jinja2
    from jinja2 import meta, nodes

    from gpu_advisor.engine.i18n.environment import environment

    # The sandbox an organization's message renders in: its compiler folds no constant it would refuse
    # to compute ("x" * 1000000000 was built while the message was checked).
    env = environment("en", sandboxed=True)
    try:
        tree = env.parse(rule.message)
    except jinja2.TemplateSyntaxError as error:
        return [f"field message: line {error.lineno}: {error.message}"]
    unknown_filters = sorted(
        {node.name for node in tree.find_all(nodes.Filter) if node.name not in env.filters}
    )
    if unknown_filters:  # the variable analysis below compiles the message, which needs its filters
        return [f"field message: unknown filter {name!r}" for name in unknown_filters]
    fields = fact_fields(rule.fact)
    details = DETAIL_MODELS.get(rule.fact)
    known = {*fields, *(details.model_fields if details else ()), "t", "k", "fmt", *env.globals}
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
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    return load_rulebook_from(RULES_DIR, RULE_FILES, load_knowledge())


def policy_files(directory: Path) -> tuple[Path, ...]:
    """An organization's policy directory: every *.yaml and *.yml file in it, in name order. A directory
    with none is refused: a mistyped path (the rules one level further down) would otherwise turn an
    organization's approval gate off without a word."""
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.common.wording import Words, at

    if not directory.is_dir():
        raise InputError(at("--policy", Words("%(directory)s is not a directory", directory=str(directory))))
    files = tuple(sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file()))
    if not files:
        problem = Words("%(directory)s holds no policy file (*.yaml, *.yml)", directory=str(directory))
        raise InputError(at("--policy", problem))
    return files


POLICY_CACHE_ENTRIES = 8
"""Policy directories whose rulebook (and engine) a process keeps at most: a service asked for many
directories keeps the most recent, so memory stays bounded."""


PolicyKey = tuple[str, tuple[tuple[str, str], ...]]
"""A policy directory and, per policy file, its name and the SHA-256 of its content."""


def policy_key(directory: str) -> PolicyKey:
    """What a policy directory's rulebook depends on: its files' names and contents, read afresh, so a
    changed, added or deleted policy file takes effect at the next call."""
    import hashlib

    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.common.user_input import unreadable

    files = policy_files(Path(directory))
    try:
        return directory, tuple((f.name, hashlib.sha256(f.read_bytes()).hexdigest()) for f in files)
    except OSError as error:
        raise InputError(unreadable(f"--policy {directory}", error)) from None


def load_rulebook_with_policies(directory: str) -> Rulebook:
    """The catalog plus the organization policies in ``directory``, cached by the files' content (at
    most ``POLICY_CACHE_ENTRIES`` directories). A broken policy is the user's input: it is reported as
    an input error naming the file, rule and field."""
    return rulebook_for_policies(policy_key(directory))


@lru_cache(maxsize=POLICY_CACHE_ENTRIES)
def rulebook_for_policies(key: PolicyKey) -> Rulebook:
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    directory, contents = key
    files = tuple(Path(directory) / name for name, _ in contents)
    try:
        return load_rulebook_from(RULES_DIR, RULE_FILES, load_knowledge(), files)
    except KnowledgeError as error:
        raise InputError(f"--policy {directory}: invalid organization policy\n{error}") from None


def validate_rule(
    rule: Rule, knowledge: Knowledge, extra_thresholds: dict[str, float] | None = None
) -> list[str]:
    """Conditions must name fields of the fact kind, with a right-hand side of the field's type."""
    problems: list[str] = []
    fields = fact_fields(rule.fact)
    thresholds = {**knowledge.threshold_values(), **(extra_thresholds or {})}
    document_ids = {d.id for d in knowledge.documents.documents}
    if rule.source.document not in document_ids:
        problems.append(f"field source: unknown document {rule.source.document!r}")
    problems += [
        f"field see_also.{index}: unknown document {citation.document!r}"
        for index, citation in enumerate(rule.see_also)
        if citation.document not in document_ids
    ]
    for name in rule.needs:
        if f"{name}_known" not in fields:
            problems.append(f"field needs: {name!r} has no {name}_known field in {rule.fact} facts")
    drawn = {e.figure for e in knowledge.uncertainty.inputs if e.applies_to == "rule_threshold"}
    known = option_values(knowledge)
    for part, conditions in (("applies", rule.applies), ("when", rule.when)):
        for index, condition in enumerate(conditions):
            problems += validate_condition(f"field {part}.{index}", condition, rule.fact, fields, thresholds)
            problems += unknown_names(f"field {part}.{index}", condition, known)
            if condition.threshold in drawn and FACT_MODELS[rule.fact].shared_between_evaluations:
                # A scenario's engine reads a drawn threshold from the facts of its own evaluation; the
                # GPU-fit facts' firings are worked out once for all evaluations, at the point value.
                problems.append(
                    f"field {part}.{index}.threshold: {condition.threshold!r} is drawn by scenarios "
                    f"(knowledge/uncertainty.yaml), which {rule.fact} rules cannot read"
                )
    for index, option_filter in enumerate(rule.then.exclude_options):
        if not any(option_filter.fields <= fields for fields in OPTION_KINDS.values()):
            fields_named = ", ".join(sorted(option_filter.fields))
            problems.append(
                f"field then.exclude_options.{index}: its tests name {fields_named}, fields no one kind of "
                "option has together, so it could never match"
            )
        problems += unknown_values(
            f"field then.exclude_options.{index}", (option_filter, *option_filter.and_also), known
        )
    return problems


def validate_condition(
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
    choices = _choices(fields[condition.fact].annotation)
    named = condition.values or ((condition.value,) if isinstance(condition.value, str) else ())
    unknown = [name for name in named if choices and name not in choices]
    if unknown:
        return [f"{where}: {condition.fact} is one of {', '.join(choices)}, got {name!r}" for name in unknown]
    if condition.values is not None:
        return (
            []
            if kind is str
            else [f"{where}: in and not_in compare names, {condition.fact} is {kind.__name__}"]
        )
    if isinstance(condition.value, bool) != (kind is bool) or not isinstance(condition.value, kind):
        return [f"{where}.value: {condition.fact} is {kind.__name__}, got {condition.value!r}"]
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
