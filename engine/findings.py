"""Findings: a fired rule rendered with the numbers of the fact it fired on, plus its citation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .adapter import Firing
from .knowledge import Citation, Knowledge
from .result import Finding
from .rulebook import Rule, Rulebook, rule_text
from .text import DEFAULT_FORMAT, Format, render_message


def cite(citation: Citation, knowledge: Knowledge) -> str:
    """'Title (date), section' for a document citation; 'title <url>' for a public page."""
    if citation.document is not None:
        document = knowledge.document(citation.document)
        return f"{document.title} ({document.as_of.isoformat()}), {citation.section}"
    return f"{citation.title} <{citation.url}>" if citation.title else str(citation.url)


def message_context(fact: dict[str, Any], knowledge: Knowledge, rulebook: Rulebook) -> dict[str, Any]:
    """What a rule's message template sees: the fact's fields, thresholds as ``t`` and knowledge as ``k``."""
    return {
        **fact,
        "t": rulebook.threshold_values(knowledge),
        "k": {"server": knowledge.own_server(), "figures": knowledge.figures_by_id()},
    }


def render_rule_message(
    rule: Rule, fact: dict[str, Any], knowledge: Knowledge, rulebook: Rulebook, fmt: Format = DEFAULT_FORMAT
) -> str:
    return render_message(rule_text(rule, fmt.lang).message, message_context(fact, knowledge, rulebook), fmt)


def findings_for(
    firings: Sequence[Firing], rulebook: Rulebook, knowledge: Knowledge, fmt: Format = DEFAULT_FORMAT
) -> tuple[Finding, ...]:
    """One finding per firing, in catalog order of the rules (firing order within a rule)."""
    order = {rule_id: index for index, rule_id in enumerate(rulebook.ids)}
    relevant = [firing for firing in firings if not firing.applicability]
    ordered = sorted(enumerate(relevant), key=lambda pair: (order[pair[1].rule_id], pair[0]))
    findings = []
    for _, firing in ordered:
        rule = rulebook.rule(firing.rule_id)
        text = rule_text(rule, fmt.lang)
        findings.append(
            Finding.model_construct(
                rule_id=rule.id,
                subject=str(firing.fact["gpu"]) if rule.fact == "gpu_fit" else None,
                topic=rule.topic,
                severity=rule.severity,
                title=text.title,
                message=render_rule_message(rule, dict(firing.fact), knowledge, rulebook, fmt),
                origin=rulebook.origin(rule.id),
                rationale=" ".join(text.rationale.split()),
                source=cite(rule.source, knowledge),
            )
        )
    return tuple(findings)
