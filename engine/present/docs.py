"""The generated documents: docs/coverage.md and docs/calibration.md."""

from __future__ import annotations

from gpu_advisor.engine.apps.coverage import load_coverage
from gpu_advisor.engine.calc.calibration import (
    METRICS,
    CalibrationRow,
    calibration_rows,
    error_band,
    held_out_by_engine,
    set_statistics,
)
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import (
    Communication,
    Efficiency,
    StepOverheads,
    ThroughputReference,
)


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


CALIBRATION_SETS = {"fit": "fit", "held_out": "held out"}
CALIBRATION_FIGURES = {
    "throughput": "throughput",
    "time_to_first_token": "time to first token",
    "time_per_output_token": "time per output token",
    "end_to_end_latency": "end-to-end latency",
}
SERVING_ENGINES = {"trtllm": "TensorRT-LLM", "vllm": "vLLM", "sglang": "SGLang"}


def render_calibration(knowledge: Knowledge) -> str:
    nvlink = next(t for t in knowledge.throughput.tensor_parallel if t.interconnect == "nvlink")
    return render_calibration_rows(
        calibration_rows(knowledge),
        knowledge.throughput.efficiency,
        knowledge.calibration.references,
        nvlink.efficiency_per_doubling,
        communication=knowledge.throughput.communication,
        overheads=knowledge.throughput.step_overheads,
    )


def render_calibration_rows(
    rows: tuple[CalibrationRow, ...],
    efficiency: Efficiency,
    references: tuple[ThroughputReference, ...],
    nvlink: float,
    *,
    communication: Communication | None = None,
    overheads: StepOverheads | None = None,
) -> str:
    """docs/calibration.md for measurements already compared with their estimates; without
    ``communication`` or ``overheads`` it states the one link share and no routed-expert factor."""
    from gpu_advisor.engine.i18n.environment import render

    low, high = error_band(rows)
    engines = sorted({r.serving_engine for r in rows}, key=list(SERVING_ENGINES).index)
    return render(
        "calibration.md.j2",
        rows=rows,
        low=low,
        high=high,
        statistics=set_statistics(rows),
        by_engine=held_out_by_engine(rows),
        counts={split: sum(r.split == split for r in rows) for split in CALIBRATION_SETS},
        engines=", ".join(
            f"{SERVING_ENGINES[e]}: {sum(r.serving_engine == e for r in rows)}" for e in engines
        ),
        latency_metrics=[m for m in METRICS if m != "throughput"],
        set_names=CALIBRATION_SETS,
        metric_names=CALIBRATION_FIGURES,
        engine_names=SERVING_ENGINES,
        efficiency=efficiency,
        nvlink=nvlink,
        link_shares=communication.link_share_by_message if communication else {},
        link_gpus=communication.link_share_gpus if communication else (),
        routed_factors=overheads.routed_expert_factor if overheads else {},
        references=references,
    )
