"""Loading the rule catalog (``rules/*.yaml``) and an organization's policies, and validating them.

A rule is data: a stable ID, a name that says what it flags, topic, severity, the fact kind it reads,
conditions over that fact's fields, a conclusion, a message template, a rationale and a source. Thresholds
are named by key and looked up in ``knowledge/thresholds.yaml``; a rule body holds no number. Loading
checks every condition against the fact model it reads, so a typo in a rule file fails at start-up.

The checks themselves are in ``rule_checks``; their problems are ``Words``, so that a policy is refused in
the reader's language.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from pydantic import ValidationError

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import Threshold
from gpu_advisor.engine.domain.knowledge.loading import describe_validation_error
from gpu_advisor.engine.rulebook.rule_checks import (
    thousands_dotted_thresholds,
    validate_message,
    validate_rule,
)
from gpu_advisor.engine.rulebook.schema import Origin, Rule, Rulebook, RuleFile
from gpu_advisor.rules import RULE_FILES, RULES_DIR


def load_rule_file(path: Path, *, aliases: bool = True) -> RuleFile:
    data = read_yaml(path, aliases=aliases)
    if (
        isinstance(data, dict)
        and "rules" not in data
        and {"model", "workload", "proposal", "proposals"} & data.keys()
    ):
        # A workload or proposal beside the policies listed each of its fields as unknown.
        problem = Words(
            "a workload or proposal, not a rule file (schema_version, family, rules); a policy directory "
            "holds rule files only"
        )
        raise KnowledgeError(at(str(path), problem))
    try:
        return RuleFile.model_validate(data)
    except ValidationError as error:
        if not aliases:
            # An organization's policy: its problems said in the reader's language, as a workload's are.
            from gpu_advisor.engine.domain.input_errors import input_error

            raise input_error(str(path), error, RuleFile, what="rule file") from None
        raise KnowledgeError(describe_validation_error(path, data, error, "rule file")) from None


def collect_rules(
    paths: list[Path],
    knowledge: Knowledge,
    origin: Origin,
    known_ids: dict[str, str],
    known_names: dict[str, str],
    extra_thresholds: dict[str, float],
) -> tuple[list[Rule], list[Threshold], list[Words]]:
    """Rules and policy thresholds of ``paths``, with every problem found (duplicates across all files)."""
    rules: list[Rule] = []
    thresholds: list[Threshold] = []
    problems: list[Words] = []
    for path in paths:
        rule_file = load_rule_file(path, aliases=origin == "builtin")
        if origin == "builtin" and rule_file.thresholds:
            problems.append(at(str(path), Words("built-in thresholds belong in knowledge/thresholds.yaml")))
        elif rule_file.thresholds:
            problems += thousands_dotted_thresholds(path)
        for threshold in rule_file.thresholds:
            if threshold.key in extra_thresholds or threshold.key in knowledge.threshold_values():
                problem = Words("threshold %(key)s: duplicate key", key=repr(threshold.key))
                problems.append(at(str(path), problem))
            extra_thresholds[threshold.key] = threshold.value
            thresholds.append(threshold)
        for rule in rule_file.rules:
            if rule.id in known_ids:
                problem = Words(
                    "rule %(rule)s: duplicate id (also in %(file)s)", rule=rule.id, file=known_ids[rule.id]
                )
                problems.append(at(str(path), problem))
            if rule.name in known_names:
                problem = Words(
                    "rule %(rule)s: duplicate name %(name)s (also %(other)s)",
                    rule=rule.id,
                    name=repr(rule.name),
                    other=known_names[rule.name],
                )
                problems.append(at(str(path), problem))
            known_ids[rule.id] = path.name
            known_names[rule.name] = rule.id
            rules.append(rule)
    for rule in rules:
        found = validate_rule(rule, knowledge, extra_thresholds)
        if origin == "organization":
            # Built-in messages are rendered by the rule-case tests; an organization's are checked here,
            # so a typo is reported at load instead of failing the first recommendation it fires in.
            found += validate_message(rule, extra_thresholds, knowledge)
            german = rule.translations.de
            if german is not None:
                found += validate_message(
                    rule, extra_thresholds, knowledge, german.message, "translations.de.message"
                )
        problems += [Words("rule %(rule)s: %(problem)s", rule=rule.id, problem=p) for p in found]
    return rules, thresholds, problems


def lines(problems: list[Words]) -> Words:
    """The problems one to a line, each in the reader's language."""
    places = {f"p{index}": problem for index, problem in enumerate(problems)}
    return Words.joined("\n".join(f"%({name})s" for name in places), **places)


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
        raise KnowledgeError(lines(problems))
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
    organization's approval gate off without a word; so is an entry of that name that is no readable
    file, or one that ends in .YAML."""
    from gpu_advisor.engine.common.errors import InputError

    if not directory.is_dir():
        raise InputError(at("--policy", Words("%(directory)s is not a directory", directory=str(directory))))
    named = sorted(p for p in directory.iterdir() if p.suffix.lower() in (".yaml", ".yml"))
    # A policy file that cannot be read as one (a link to nothing, a directory, "EU-ONLY.YAML") would
    # leave its rules out of the gate without a word: it is refused, named.
    for path in named:
        if path.suffix not in (".yaml", ".yml"):
            problem = Words("a policy file's name ends in .yaml or .yml, in lower case: rename it")
            raise InputError(at(f"--policy {path}", problem))
        if not path.is_file():
            problem = Words("not a readable file (a link to nothing, or a directory)")
            raise InputError(at(f"--policy {path}", problem))
    files = tuple(named)
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
    header = Words("--policy %(directory)s: invalid organization policy", directory=directory)
    try:
        return load_rulebook_from(RULES_DIR, RULE_FILES, load_knowledge(), files)
    except KnowledgeError as error:
        problems = error.words if error.words is not None else str(error)
        raise InputError(Words.joined("%(header)s\n%(problems)s", header=header, problems=problems)) from None
    except InputError as error:
        # A policy file that is no rule file: its validation problems, said as a workload's are.
        origin = Words.joined("%(header)s\n%(origin)s", header=header, origin=error.origin or "")
        english = f"{header}\n{error}"
        raise InputError(english, problems=error.problems, origin=origin, what=error.what) from None
