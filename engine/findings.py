"""Findings: a fired rule rendered with the numbers of the fact it fired on, plus its citation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .adapter import Firing
from .knowledge import Citation, Knowledge
from .result import Finding
from .rulebook import Rule, Rulebook, rule_text
from .text import DEFAULT_FORMAT, Format, render_message
from .trusted import trusted


def cite(citation: Citation, knowledge: Knowledge) -> str:
    """'Title (date), section' for a document citation; 'title <url>' for a public page."""
    if citation.document is not None:
        document = knowledge.document(citation.document)
        return f"{document.title} ({document.as_of.isoformat()}), {citation.section}"
    return f"{citation.title} <{citation.url}>" if citation.title else str(citation.url)


def shared_context(knowledge: Knowledge, rulebook: Rulebook) -> dict[str, Any]:
    """What every rule message sees besides its fact: thresholds as ``t`` and knowledge as ``k``."""
    return {
        "t": rulebook.threshold_values(knowledge),
        "k": {"server": knowledge.own_server(), "figures": knowledge.figures_by_id()},
    }


def render_rule_message(
    rule: Rule,
    fact: dict[str, Any],
    knowledge: Knowledge,
    rulebook: Rulebook,
    fmt: Format = DEFAULT_FORMAT,
    shared: dict[str, Any] | None = None,
) -> str:
    """The rule's message with this fact's numbers; ``shared`` when the caller renders many at once."""
    context = {**fact, **(shared or shared_context(knowledge, rulebook))}
    return render_message(rule_text(rule, fmt.lang).message, context, fmt)


def findings_for(
    firings: Sequence[Firing], rulebook: Rulebook, knowledge: Knowledge, fmt: Format = DEFAULT_FORMAT
) -> tuple[Finding, ...]:
    """One finding per firing, in catalog order of the rules (firing order within a rule)."""
    order = {rule_id: index for index, rule_id in enumerate(rulebook.ids)}
    relevant = [firing for firing in firings if not firing.applicability]
    ordered = sorted(enumerate(relevant), key=lambda pair: (order[pair[1].rule_id], pair[0]))
    findings = []
    shared = shared_context(knowledge, rulebook)
    for _, firing in ordered:
        rule = rulebook.rule(firing.rule_id)
        text = rule_text(rule, fmt.lang)
        findings.append(
            trusted(
                Finding,
                rule_id=rule.id,
                subject=str(firing.fact["gpu"]) if rule.fact == "gpu_fit" else None,
                topic=rule.topic,
                severity=rule.severity,
                title=text.title,
                message=render_rule_message(rule, dict(firing.fact), knowledge, rulebook, fmt, shared),
                origin=rulebook.origin(rule.id),
                rationale=" ".join(text.rationale.split()),
                source=rule_sources(rulebook, knowledge)[rule.id],
            )
        )
    return tuple(findings)


_SOURCES: dict[tuple[int, int], tuple[Rulebook, Knowledge, dict[str, str]]] = {}


def rule_sources(rulebook: Rulebook, knowledge: Knowledge) -> dict[str, str]:
    """Each rule's citation as text, worked out once per rulebook and knowledge base. Keyed by identity;
    the objects are kept so their ids cannot be reused."""
    key = (id(rulebook), id(knowledge))
    cached = _SOURCES.get(key)
    if cached is None or cached[0] is not rulebook or cached[1] is not knowledge:
        if len(_SOURCES) > 16:
            _SOURCES.clear()
        cached = (rulebook, knowledge, {rule.id: cite(rule.source, knowledge) for rule in rulebook.rules})
        _SOURCES[key] = cached
    return cached[2]
