"""The performance estimate against published measurements: ``gpu-advisor calibration`` and
docs/calibration.md show the error of each, and of the fit and held-out sets separately; a test keeps
each measurement held to a tolerance within it.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.calc.performance import ReplicaPerformance, replica_performance
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import CalibrationSplit, Measurement

Metric = Literal["throughput", "time_to_first_token", "time_per_output_token", "end_to_end_latency"]
METRICS: tuple[Metric, ...] = (
    "throughput",
    "time_to_first_token",
    "time_per_output_token",
    "end_to_end_latency",
)
SPLITS: tuple[CalibrationSplit, ...] = ("fit", "held_out")


class MeasurementEstimate(BaseModel):
    """The estimate for one measurement's setup; None where the estimate cannot run it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    throughput: float | None
    """In the measurement's unit: output tokens/s, or input + output tokens/s where it counts both."""
    time_to_first_token_ms: float | None
    time_per_output_token_ms: float | None


class Comparison(BaseModel):
    """One published figure beside its estimate."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    published: float
    estimate: float | None
    error: float | None
    """estimate / published - 1; None where the estimate cannot run the measurement."""


class CalibrationRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    split: CalibrationSplit
    serving_engine: str
    engine: str | None
    model: str
    precision: str
    gpu: str
    gpus: int
    input_tokens: int
    output_tokens: int
    concurrency: int | None
    request_rate_per_second: float | None = None
    metric: str | None
    """The throughput's unit ('output tokens/s' or 'total tokens/s'); None: no throughput published."""
    published: float | None
    estimate: float | None
    error: float | None
    """estimate / published - 1 of the throughput; None where there is none or it cannot be estimated."""
    time_to_first_token: Comparison | None = None
    time_per_output_token: Comparison | None = None
    """Against the published inter-token latency (ITL or TPOT)."""
    end_to_end_latency: Comparison | None = None
    """Estimated as the first token plus every later one at the time per output token."""
    tolerance: float | None
    within_tolerance: bool | None
    source: str
    as_of: str

    def comparison(self, metric: Metric) -> Comparison | None:
        if metric == "throughput":
            if self.published is None:
                return None
            return Comparison(published=self.published, estimate=self.estimate, error=self.error)
        comparison: Comparison | None = getattr(self, metric)
        return comparison


class SetStatistics(BaseModel):
    """The error of one metric across one set (fit or held out)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    split: CalibrationSplit
    metric: Metric
    count: int
    """Measurements of the set that publish the metric and that the estimate can run."""
    not_estimated: int
    """Measurements of the set that publish the metric but that the estimate cannot run."""
    mean_absolute_error: float | None
    worst_error: float | None
    """The error farthest from zero, with its sign; None where the count is 0."""
    worst_id: str | None


def estimate(knowledge: Knowledge, measurement: Measurement) -> MeasurementEstimate:
    """The performance model run for the measurement's setup: model, precision, GPU and card count,
    request lengths, and its load (a concurrency, an arrival rate, or all requests at once). The only
    place the calibration calls the performance model."""
    nothing = MeasurementEstimate(throughput=None, time_to_first_token_ms=None, time_per_output_token_ms=None)
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

    def run(concurrency: int | None) -> ReplicaPerformance | None:
        return replica_performance(
            knowledge,
            figures,
            fit,
            measurement.input_tokens,
            measurement.output_tokens,
            cards=measurement.gpus,
            concurrency=concurrency,
        )

    saturated = run(measurement.concurrency)
    if saturated is None:
        return nothing
    performance = saturated
    requests_per_second = saturated.requests_per_second
    rate = measurement.request_rate_per_second
    if rate is not None:
        # An open-loop rate: the replica serves at most its capacity; the requests in flight follow
        # from Little's law at the time one request takes alone.
        requests_per_second = min(rate, saturated.requests_per_second)
        in_flight = max(1, math.ceil(requests_per_second * saturated.seconds_alone))
        performance = run(in_flight) or saturated
    tokens = measurement.output_tokens
    if measurement.total_tokens_per_second is not None:
        tokens += measurement.input_tokens
    return MeasurementEstimate(
        throughput=requests_per_second * tokens,
        time_to_first_token_ms=performance.time_to_first_token_ms,
        time_per_output_token_ms=performance.time_per_output_token_ms,
    )


def compare(published: float | None, estimated: float | None) -> Comparison | None:
    if published is None:
        return None
    error = None if estimated is None else estimated / published - 1
    return Comparison(published=published, estimate=estimated, error=error)


def end_to_end_ms(value: MeasurementEstimate, output_tokens: int) -> float | None:
    if value.time_to_first_token_ms is None or value.time_per_output_token_ms is None:
        return None
    return value.time_to_first_token_ms + (output_tokens - 1) * value.time_per_output_token_ms


def calibration_row(knowledge: Knowledge, m: Measurement) -> CalibrationRow:
    from gpu_advisor.engine.domain.knowledge.base import cite

    value = estimate(knowledge, m)
    published = m.output_tokens_per_second or m.total_tokens_per_second
    throughput = compare(published, value.throughput)
    error = None if throughput is None else throughput.error
    metric = None
    if published is not None:
        metric = "output tokens/s" if m.output_tokens_per_second is not None else "total tokens/s"
    return CalibrationRow(
        id=m.id,
        split=m.split,
        serving_engine=m.serving_engine,
        engine=m.engine,
        model=m.model,
        precision=m.precision,
        gpu=m.gpu,
        gpus=m.gpus,
        input_tokens=m.input_tokens,
        output_tokens=m.output_tokens,
        concurrency=m.concurrency,
        request_rate_per_second=m.request_rate_per_second,
        metric=metric,
        published=published,
        estimate=None if published is None else value.throughput,
        error=error,
        time_to_first_token=compare(m.time_to_first_token_ms, value.time_to_first_token_ms),
        time_per_output_token=compare(m.inter_token_latency_ms, value.time_per_output_token_ms),
        end_to_end_latency=compare(m.end_to_end_latency_ms, end_to_end_ms(value, m.output_tokens)),
        tolerance=m.tolerance,
        within_tolerance=None if m.tolerance is None or error is None else abs(error) <= m.tolerance,
        source=cite(m.source, knowledge),
        as_of=m.as_of.isoformat(),
    )


@per_object
def calibration_rows(knowledge: Knowledge) -> tuple[CalibrationRow, ...]:
    return tuple(calibration_row(knowledge, m) for m in knowledge.calibration.measurements)


def set_statistics(rows: tuple[CalibrationRow, ...]) -> tuple[SetStatistics, ...]:
    """Per set (fit, then held out) and metric: how many measurements, the mean absolute error and the
    worst error, over the measurements the estimate can run."""
    statistics = []
    for split in SPLITS:
        for metric in METRICS:
            compared = [(r.id, r.comparison(metric)) for r in rows if r.split == split]
            published = [(row_id, c) for row_id, c in compared if c is not None]
            errors = [(row_id, c.error) for row_id, c in published if c.error is not None]
            worst = max(errors, key=lambda e: abs(e[1]), default=None)
            statistics.append(
                SetStatistics(
                    split=split,
                    metric=metric,
                    count=len(errors),
                    not_estimated=len(published) - len(errors),
                    mean_absolute_error=sum(abs(e) for _, e in errors) / len(errors) if errors else None,
                    worst_error=None if worst is None else worst[1],
                    worst_id=None if worst is None else worst[0],
                )
            )
    return tuple(statistics)


@per_object
def highest_error(knowledge: Knowledge) -> float:
    """The most the estimate overstates a measurement held to a tolerance (replicas are sized with it
    taken off)."""
    return error_band(calibration_rows(knowledge))[1]


def error_band(rows: tuple[CalibrationRow, ...]) -> tuple[float, float]:
    """Lowest and highest throughput error among the measurements held to a tolerance."""
    errors = [r.error for r in rows if r.tolerance is not None and r.error is not None]
    return min(errors), max(errors)
