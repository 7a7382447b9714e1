"""The knowledge base's prose in the reader's language, and country names.

A knowledge entry whose prose a text quotes (a cost figure's note, what was not found for a country)
may carry its German wording beside the English: ``translations: {de: {note: "..."}}`` (validated with
the entry, ``domain/knowledge/entries.py``). The calculators copy the English text into a result; a
template shows it with the ``known`` filter, which gives the wording in the reader's language where the
knowledge base has one (a cited page's title too, in 'title <address>'). Country names are in the message
catalog (``countries:``), by ISO 3166 code.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.knowledge import KNOWLEDGE_DIR
from gpu_advisor.templates import TEMPLATES_DIR

MARKER = "translations:"
"""Only the knowledge files that hold translations are read."""


@cache
def knowledge_texts(lang: str) -> dict[str, str]:
    """English text of the knowledge base -> its wording in ``lang`` (empty for English)."""
    found: dict[str, str] = {}
    if lang == "en":
        return found
    for path in sorted(KNOWLEDGE_DIR.glob("*.yaml")):
        if MARKER in path.read_text(encoding="utf-8"):
            _collect(read_yaml(path), lang, found)
    return found


def _collect(node: Any, lang: str, found: dict[str, str]) -> None:
    if isinstance(node, dict):
        texts = (node.get("translations") or {}).get(lang) or {}
        for field, text in texts.items():
            if isinstance(node.get(field), str):
                found[node[field]] = str(text)
        for value in node.values():
            _collect(value, lang, found)
    elif isinstance(node, list):
        for value in node:
            _collect(value, lang, found)


CITED_PAGE = re.compile(r"^(?P<title>.+) (?P<address><https?://[^>\s]+>)$")
"""A public page as ``cite`` names it: its title, then its address."""
CITED_SECTION = re.compile(
    r"^(?P<document>.+ \(\d{4}-\d{2}-\d{2}\), )(?P<section>.+?)(?P<address> <https?://[^>\s]+>)?$"
)
"""A section of a document as ``cite`` names it: 'title (date), section', then the document's address."""


def known_text(lang: str, text: str) -> str:
    """``text``, quoted from the knowledge base, in ``lang`` where the knowledge base words it so; a cited
    page ('title <address>') with its title so worded; a cited document's section ('title (date), § 12(1)
    <address>') with the section so worded (``translations: {de: {section: ...}}`` on the citation: a
    German law is cited '§ 12 Abs. 1')."""
    texts = knowledge_texts(lang)
    found = texts.get(text)
    if found is not None or not texts:
        return text if found is None else found
    cited = CITED_SECTION.match(text)
    if cited is not None and cited["section"] in texts:
        return f"{cited['document']}{texts[cited['section']]}{cited['address'] or ''}"
    page = CITED_PAGE.match(text)
    if page is None or page["title"] not in texts:
        return text
    return f"{texts[page['title']]} {page['address']}"


@cache
def country_words(lang: str, section: str = "countries") -> dict[str, str]:
    """ISO 3166 code -> the country as ``lang``'s messages word it in ``section`` (empty for English: the
    knowledge base's names): ``countries``, its name; ``countries_after_in``, its name after "in" where
    the language gives it an article there (German: "in den Niederlanden")."""
    if lang == "en":
        return {}
    data = read_yaml(TEMPLATES_DIR / "i18n" / f"{lang}.yaml") or {}
    return {str(code): str(name) for code, name in (data.get(section) or {}).items()}


def country_name(lang: str, code: str, name: str) -> str:
    """The country ``code`` in ``lang``; ``name`` (the knowledge base's English name) where none is given."""
    return country_words(lang).get(code, name)


ENGLISH_WITH_THE = frozenset({"GB", "NL", "UK", "US"})
"""Countries whose English name takes "the" in running text ("in the Netherlands")."""


def country_after_in(lang: str, code: str, name: str) -> str:
    """The country ``code`` as it reads after "in" in ``lang``, each of a list of them so ("in Romania,
    the Netherlands or France")."""
    if lang == "en":
        return f"the {name}" if code in ENGLISH_WITH_THE else name
    return country_words(lang, "countries_after_in").get(code) or country_name(lang, code, name)
