"""The Markdown memo as HTML for the page: its tables, rule IDs linked to their documentation pages
(``/rules/ID``), the Mermaid charts replaced by the SVG charts drawn from the same series, and the
Findings section replaced by the findings grouped by severity (``templates/web/_findings.html.j2``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlencode

from markupsafe import Markup, escape

from gpu_advisor.engine.domain.results import Finding
from gpu_advisor.engine.i18n.environment import translate

SEVERITIES = ("critical", "warning", "advice", "info")
"""Most severe first, as the page lists the findings."""

CHART_MARK = "GPUADVISORCHART"
FINDINGS_MARK = "GPUADVISORFINDINGS"
_MERMAID = re.compile(r"^```mermaid\n.*?^```\n", re.MULTILINE | re.DOTALL)
_RULE_ID = re.compile(r"(?<![\w/#-])([A-Z]{3}\d{3})(?![\w-])")
_TAG = re.compile(r"(<[^>]*>)")
_HEADING = re.compile(r"<h([23])>(.*?)</h\1>")


@dataclass(frozen=True)
class RuleFindings:
    """The findings of one rule (a rule that fires once per GPU has several subjects)."""

    rule_id: str
    title: str
    topic: str
    message: str
    rationale: str
    source: str
    origin: str
    subjects: tuple[str, ...]
    messages: tuple[str, ...]


@cache
def _markdown() -> object:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


def findings_by_severity(findings: Sequence[Finding]) -> list[tuple[str, list[RuleFindings]]]:
    """The severities that have findings, most severe first, each with its rules in the memo's order."""
    grouped: dict[str, dict[str, list[Finding]]] = {severity: {} for severity in SEVERITIES}
    for finding in findings:
        grouped.setdefault(finding.severity, {}).setdefault(finding.rule_id, []).append(finding)
    shown = []
    for severity, rules in grouped.items():
        if not rules:
            continue
        rows = []
        for rule_id, same in rules.items():
            first = same[0]
            rows.append(
                RuleFindings(
                    rule_id=rule_id,
                    title=first.title,
                    topic=first.topic,
                    message=first.message,
                    rationale=first.rationale,
                    source=first.source,
                    origin=first.origin,
                    subjects=tuple(f.subject for f in same if f.subject),
                    messages=tuple(dict.fromkeys(f.message for f in same)),
                )
            )
        shown.append((severity, rows))
    return shown


def memo_html(
    markdown: str, lang: str, rule_ids: Collection[str], charts: Sequence[str], findings: str
) -> Markup:
    """``markdown`` (the memo) as HTML: ``charts`` (rendered SVG, in the memo's order) take the places of
    its Mermaid blocks and ``findings`` the body of its Findings section."""
    count = 0

    def chart(_match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"{CHART_MARK}{count - 1}\n"

    text = _MERMAID.sub(chart, markdown)
    text = replace_section(text, translate(lang, "Findings"), f"{FINDINGS_MARK}\n")
    html: str = _markdown().render(text)  # type: ignore[attr-defined]
    html = link_rules(html, rule_ids, rule_page(lang))
    html = _HEADING.sub(heading_with_id, html)
    for index, svg in enumerate(charts):
        html = html.replace(f"<p>{CHART_MARK}{index}</p>", svg)
    html = html.replace(f"<p>{FINDINGS_MARK}</p>", findings)
    return Markup(html)


def replace_section(markdown: str, heading: str, body: str) -> str:
    """The body of the level-2 section ``heading`` replaced by ``body``."""
    lines = markdown.split("\n")
    start = next((i for i, line in enumerate(lines) if line == f"## {heading}"), None)
    if start is None:
        return markdown
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join([*lines[: start + 1], "", body, *lines[end:]])


def link_rules(html: str, rule_ids: Collection[str], href: Callable[[str], str] | None = None) -> str:
    """Every rule ID in the text (not inside a link or a tag) linked to its documentation page."""
    target = href or (lambda rule_id: f"/rules/{rule_id}")
    parts = _TAG.split(html)
    inside_link = False
    for index, part in enumerate(parts):
        if part.startswith("<"):
            if part.startswith("<a "):
                inside_link = True
            elif part == "</a>":
                inside_link = False
            continue
        if not inside_link:
            parts[index] = _RULE_ID.sub(
                lambda m: f'<a href="{target(m[1])}">{m[1]}</a>' if m[1] in rule_ids else m[1], part
            )
    return "".join(parts)


def slug(text: str) -> str:
    plain = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"[^a-z0-9äöüß]+", "-", plain.lower()).strip("-") or "section"


def heading_with_id(match: re.Match[str]) -> str:
    level, inner = match[1], match[2]
    return f'<h{level} id="memo-{slug(inner)}">{inner}</h{level}>'


def plain(text: str, lang: str = "en") -> Markup:
    """A text with rule IDs linked to their pages in ``lang``, for a finding's message on the page."""
    return Markup(link_rules(str(escape(text)), _all_rule_ids(), rule_page(lang)))


def rule_page(lang: str) -> Callable[[str], str]:
    """A rule's documentation page in the page's language (a German page linked English rule pages)."""
    query = urlencode({"lang": lang})
    return lambda rule_id: f"/rules/{rule_id}?{query}"


@cache
def _all_rule_ids() -> frozenset[str]:
    from gpu_advisor.engine.rulebook.loading import load_rulebook

    return frozenset(load_rulebook().ids)
