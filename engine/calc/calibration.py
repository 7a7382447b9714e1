"""The throughput estimate against published measurements: ``gpu-advisor calibration`` and
docs/calibration.md show the error for each, and a test keeps each within the stated tolerance.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.calc.performance import replica_performance
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import Measurement


class CalibrationRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    model: str
    precision: str
    gpu: str
    gpus: int
    input_tokens: int
    output_tokens: int
    concurrency: int | None
    metric: str
    published: float
    estimate: float | None
    error: float | None
    """estimate / published - 1; None where the estimate cannot run the measurement."""
    tolerance: float | None
    within_tolerance: bool | None
    source: str
    as_of: str


def estimate(knowledge: Knowledge, measurement: Measurement) -> float | None:
    model = knowledge.model(measurement.model)
    figures = size_model(
        knowledge,
        model.params_b,
        model.active_params_b,
        measurement.precision,
        model,
        measurement.input_tokens + measurement.output_tokens,
        "trtllm",
    )
    fit = next(f for f in figures.fits if f.gpu == measurement.gpu)
    performance = replica_performance(
        knowledge,
        figures,
        fit,
        measurement.input_tokens,
        measurement.output_tokens,
        cards=measurement.gpus,
        concurrency=measurement.concurrency,
    )
    if performance is None:
        return None
    if measurement.total_tokens_per_second is not None:
        return performance.requests_per_second * (measurement.input_tokens + measurement.output_tokens)
    return performance.output_tokens_per_second


def calibration_rows(knowledge: Knowledge) -> tuple[CalibrationRow, ...]:
    from gpu_advisor.engine.domain.knowledge.base import cite

    rows = []
    for m in knowledge.calibration.measurements:
        published = m.output_tokens_per_second or m.total_tokens_per_second
        assert published is not None
        value = estimate(knowledge, m)
        error = 0.0 if value is None else value / published - 1
        rows.append(
            CalibrationRow(
                id=m.id,
                model=m.model,
                precision=m.precision,
                gpu=m.gpu,
                gpus=m.gpus,
                input_tokens=m.input_tokens,
                output_tokens=m.output_tokens,
                concurrency=m.concurrency,
                metric="output tokens/s" if m.output_tokens_per_second is not None else "total tokens/s",
                published=published,
                estimate=value,
                error=None if value is None else error,
                tolerance=m.tolerance,
                within_tolerance=None if m.tolerance is None or value is None else abs(error) <= m.tolerance,
                source=cite(m.source, knowledge),
                as_of=m.as_of.isoformat(),
            )
        )
    return tuple(rows)


@per_object
def highest_error(knowledge: Knowledge) -> float:
    """The most the estimate overstates a measurement held to a tolerance (replicas are sized with it
    taken off)."""
    return error_band(calibration_rows(knowledge))[1]


def error_band(rows: tuple[CalibrationRow, ...]) -> tuple[float, float]:
    """Lowest and highest error among the measurements held to a tolerance."""
    errors = [r.error for r in rows if r.tolerance is not None and r.error is not None]
    return min(errors), max(errors)
