"""Every sentence the texts mark for translation has a German translation that keeps its placeholders,
and every rule has German texts that use the same variables as the English ones."""

from __future__ import annotations

import re

import jinja2.meta
import pytest

from gpu_advisor.engine.i18n.environment import catalog, environment
from gpu_advisor.engine.present.translations import messages
from gpu_advisor.engine.rulebook.loading import load_rulebook
from gpu_advisor.engine.rulebook.texts import rule_texts

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def test_every_sentence_has_a_german_translation() -> None:
    german = catalog("de")
    assert [m for m in messages() if m not in german] == []


def test_no_stale_translations() -> None:
    assert sorted(set(catalog("de")) - set(messages())) == []


@pytest.mark.parametrize("message", messages())
def test_translation_keeps_placeholders(message: str) -> None:
    translation = catalog("de")[message]
    assert set(PLACEHOLDER.findall(translation)) == set(PLACEHOLDER.findall(message))
    assert translation.count("%%") == message.count("%%")


def variables(source: str) -> set[str]:
    return jinja2.meta.find_undeclared_variables(environment("en").parse(source))


@pytest.mark.parametrize("rule", load_rulebook().rules, ids=lambda rule: rule.id)
def test_every_rule_has_german_texts_with_the_same_variables(rule) -> None:
    german = rule_texts("de")[rule.id]
    assert german.title.strip() and german.rationale.strip()
    assert variables(german.message) == variables(rule.message)
