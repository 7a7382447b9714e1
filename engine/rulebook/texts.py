"""A rule's reader-facing texts in each language: ``rules/i18n/<lang>.yaml``."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Literal

from pydantic import ValidationError

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.entries import Strict
from gpu_advisor.engine.domain.knowledge.loading import describe_validation_error
from gpu_advisor.engine.rulebook.schema import Rule
from gpu_advisor.rules import RULES_DIR


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
    """The rule's texts in ``lang``: a built-in rule's from ``rules/i18n``, an organization rule's from its
    own ``translations``; an untranslated one keeps its English texts."""
    own = getattr(rule.translations, lang, None) if lang != "en" else None
    if own is not None:
        return RuleText(title=own.title, message=own.message, rationale=own.rationale or rule.rationale)
    return rule_texts(lang).get(rule.id) or RuleText(
        title=rule.title, message=rule.message, rationale=rule.rationale
    )


def titled(rules: Iterable[Rule], lang: str) -> str:
    """Rules as a check's message names them: each ID with its title in ``lang``, joined by semicolons."""
    return "; ".join(f"{rule.id} ({rule_text(rule, lang).title})" for rule in rules)
