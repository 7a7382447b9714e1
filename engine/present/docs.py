"""The generated documents: docs/coverage.md and docs/calibration.md."""

from __future__ import annotations

from gpu_advisor.engine.apps.coverage import load_coverage
from gpu_advisor.engine.calc.calibration import calibration_rows, error_band
from gpu_advisor.engine.domain.knowledge.base import Knowledge


def render_coverage() -> str:
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.i18n.environment import render
    from gpu_advisor.engine.rulebook.loading import load_rulebook

    knowledge = load_knowledge()
    rulebook = load_rulebook()
    coverage = load_coverage()
    covered = {rule_id for h in coverage.heuristics for rule_id in h.rules}
    return render(
        "coverage.md.j2",
        coverage=coverage,
        documents={d.id: d for d in knowledge.documents.documents},
        titles={rule.id: rule.title for rule in rulebook.rules},
        uncovered=[rule.id for rule in rulebook.rules if rule.id not in covered],
    )


def render_calibration(knowledge: Knowledge) -> str:
    from gpu_advisor.engine.i18n.environment import render

    rows = calibration_rows(knowledge)
    low, high = error_band(rows)
    return render(
        "calibration.md.j2",
        rows=rows,
        low=low,
        high=high,
        efficiency=knowledge.throughput.efficiency,
        references=knowledge.calibration.references,
    )
