"""The performance estimate against published measurements: ``gpu-advisor calibration`` and
docs/calibration.md show the error of each, and of the fit and held-out sets separately; a test keeps
each measurement held to a tolerance within it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.calc.finite_run import run_requests_per_second
from gpu_advisor.engine.calc.latency import at_concurrency, at_rate, saturation
from gpu_advisor.engine.calc.performance import replica_performance
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import CalibrationSplit, Measurement
from gpu_advisor.engine.domain.knowledge.uncertain_ranges import KnownRange
from gpu_advisor.engine.domain.knowledge.uncertainty import UncertainInput

Metric = Literal["throughput", "time_to_first_token", "time_per_output_token", "end_to_end_latency"]
LATENCY_METRICS: tuple[Metric, ...] = ("time_to_first_token", "time_per_output_token", "end_to_end_latency")
METRICS: tuple[Metric, ...] = (
    "throughput",
    "time_to_first_token",
    "time_per_output_token",
    "end_to_end_latency",
)
SPLITS: tuple[CalibrationSplit, ...] = ("fit", "held_out")


class MeasurementEstimate(BaseModel):
    """The estimate for one measurement's setup; None where the estimate cannot run it."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    throughput: float | None
    """In the measurement's unit: output tokens/s, or input + output tokens/s where it counts both."""
    time_to_first_token_ms: float | None
    time_per_output_token_ms: float | None


class Comparison(BaseModel):
    """One published figure beside its estimate."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    published: float
    estimate: float | None
    error: float | None
    """estimate / published - 1; None where the estimate cannot run the measurement."""


class CalibrationRow(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    id: str
    split: CalibrationSplit
    serving_engine: str
    engine: str | None
    model: str
    precision: str
    gpu: str
    gpus: int
    attention_data_parallel: bool = False
    input_tokens: int
    output_tokens: int
    concurrency: int | None
    request_rate_per_second: float | None = None
    requests: int | None = None
    """Requests the published run sent, where the source states it (its throughput is that run's)."""
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

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

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
    """The performance model run for the measurement's setup: model, precision, serving engine (its KV
    cache precision unless the measurement states one), GPU and card count, request lengths, and its
    load: a concurrency (a closed loop of users), an arrival rate, or all requests at once (offline).
    Where the source states how many requests the run sent, the throughput is that run's
    (``finite_run``), ramp and drain included. The only place the calibration calls the performance
    model.

    Offline runs publish a time to first token that depends on how many requests the run queued at
    once, which the measurements do not state: it is not estimated."""
    nothing = MeasurementEstimate(throughput=None, time_to_first_token_ms=None, time_per_output_token_ms=None)
    model = knowledge.model(measurement.model)
    kv_bytes = None
    if measurement.kv_cache_precision is not None:
        cache = knowledge.sizing.kv_cache
        kv_bytes = cache.fp8_bytes_per_element if measurement.kv_cache_precision == "fp8" else 2.0
    figures = size_model(
        knowledge,
        model.params_b,
        model.active_params_b,
        measurement.precision,
        model,
        measurement.input_tokens + measurement.output_tokens,
        measurement.serving_engine,
        kv_bytes,
        measurement.gpu,
    )
    if measurement.attention_data_parallel:
        figures = figures.model_copy(update={"kv_split_heads": None})
    (fit,) = figures.fits
    performance = replica_performance(
        knowledge, figures, fit, measurement.input_tokens, measurement.output_tokens, cards=measurement.gpus
    )
    if performance is None:
        return nothing
    roofline = performance.roofline
    first_token: float | None
    if measurement.concurrency is not None:
        point = at_concurrency(roofline, measurement.concurrency)
        first_token = point.time_to_first_token_ms
    elif measurement.request_rate_per_second is not None:
        point = at_rate(roofline, measurement.request_rate_per_second)
        first_token = None if point.saturated else point.time_to_first_token_ms
    else:
        point = saturation(roofline)
        first_token = None
    tokens = measurement.output_tokens
    if measurement.total_tokens_per_second is not None:
        tokens += measurement.input_tokens
    rate = point.requests_per_second
    if measurement.requests is not None:
        rate = run_requests_per_second(
            roofline,
            measurement.requests,
            point,
            in_flight=measurement.concurrency,
            rate=measurement.request_rate_per_second,
        )
    return MeasurementEstimate(
        throughput=rate * tokens,
        time_to_first_token_ms=first_token,
        time_per_output_token_ms=point.time_per_output_token_ms,
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
    loaded = m.concurrency is not None or m.request_rate_per_second is not None
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
        attention_data_parallel=m.attention_data_parallel,
        input_tokens=m.input_tokens,
        output_tokens=m.output_tokens,
        concurrency=m.concurrency,
        request_rate_per_second=m.request_rate_per_second,
        requests=m.requests,
        metric=metric,
        published=published,
        estimate=None if published is None else value.throughput,
        error=error,
        # An offline run (all requests at once) has no operating point a user sees: its first token waits
        # behind the whole run's queue and its steps run as many sequences as the release's batch limit
        # allows, neither of which the sources state. Its latencies are shown, not compared.
        time_to_first_token=compare(m.time_to_first_token_ms, value.time_to_first_token_ms)
        if loaded
        else None,
        time_per_output_token=compare(m.inter_token_latency_ms, value.time_per_output_token_ms)
        if loaded
        else None,
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


def held_out_by_engine(rows: tuple[CalibrationRow, ...]) -> tuple[tuple[str, SetStatistics], ...]:
    """The held-out throughput error per engine release as its source names it (``engine``): where the
    set's error comes from; in the file's order, releases without a throughput figure left out."""
    found = []
    for engine in dict.fromkeys(r.engine or r.serving_engine for r in rows if r.split == "held_out"):
        own = tuple(r for r in rows if r.split == "held_out" and (r.engine or r.serving_engine) == engine)
        throughput = next(s for s in set_statistics(own) if (s.split, s.metric) == ("held_out", "throughput"))
        if throughput.count:
            found.append((engine, throughput))
    return tuple(found)


MODELS_KEPT = 256
"""What the calibration says of one model (its own measurements), kept per knowledge base and model: the
rows are the knowledge base's, never changed once loaded, and every recommendation asks again."""


@per_object
def highest_error(knowledge: Knowledge) -> float:
    """The most the estimate overstates a measurement held to a tolerance (replicas are sized with it
    taken off)."""
    return error_band(calibration_rows(knowledge))[1]


@per_object
def mixture_of_experts_errors(knowledge: Knowledge) -> tuple[tuple[str, float], ...]:
    """Each throughput error of a mixture of experts' measurement, fit or held out, with its model. None
    of these measurements is held to a tolerance."""
    experts = {m.id for m in knowledge.models.models if m.active_params_b < m.params_b}
    return tuple(
        (r.model, r.error) for r in calibration_rows(knowledge) if r.model in experts and r.error is not None
    )


@per_object(entries=MODELS_KEPT)
def mixture_of_experts_highest_error(knowledge: Knowledge, model: str | None) -> float | None:
    """The most the estimate overstates a published measurement of the mixture of experts ``model``;
    where it has none (a model of the workload's own), of any mixture of experts. None without one."""
    errors = mixture_of_experts_errors(knowledge)
    own = [error for measured, error in errors if measured == model]
    return max(own or [error for _, error in errors], default=None)


@per_object(entries=MODELS_KEPT)
def own_runs_data_parallel(knowledge: Knowledge, model: str | None) -> bool:
    """Every published throughput measurement of ``model`` ran with data-parallel attention (one copy of
    the KV cache), where a workload's estimate counts a tensor-parallel group's copies; False for a model
    with none."""
    rows = [r for r in calibration_rows(knowledge) if r.model == model and r.error is not None]
    return bool(rows) and all(r.attention_data_parallel for r in rows)


@per_object(entries=MODELS_KEPT)
def latency_measured(knowledge: Knowledge, model: str | None) -> bool:
    """Some published measurement of ``model`` states a latency the estimate is compared with (a first
    token, a time per output token or a whole request at a stated load)."""
    return any(
        r.model == model and any(r.comparison(metric) is not None for metric in LATENCY_METRICS)
        for r in calibration_rows(knowledge)
    )


def error_taken_off(knowledge: Knowledge, mixture_of_experts: bool, model: str | None = None) -> float:
    """The overstatement replicas are sized with taken off: the most the estimate overstates a
    measurement held to a tolerance (all of them dense), and for a mixture of experts the most it
    overstates that model's own measurements (every mixture's where it has none) where that is more, so
    that a replica's peak stays within the headroom the memo states."""
    high = highest_error(knowledge)
    if mixture_of_experts:
        high = max(high, mixture_of_experts_highest_error(knowledge, model) or high)
    return max(0.0, high)


@per_object
def latency_margin(knowledge: Knowledge) -> float:
    """The estimate's mean absolute latency error: time to first token and time per output token
    together, over the held-out measurements that publish them (0 without any). Replicas are not planned
    to a latency nearer a lone request's than this (``calc.policy``)."""
    rows = calibration_rows(knowledge)
    errors = [
        abs(c.error)
        for r in rows
        if r.split == "held_out"
        for c in (r.time_to_first_token, r.time_per_output_token)
        if c is not None and c.error is not None
    ]
    return sum(errors) / len(errors) if errors else 0.0


def error_band(rows: tuple[CalibrationRow, ...]) -> tuple[float, float]:
    """Lowest and highest throughput error among the measurements held to a tolerance."""
    errors = [r.error for r in rows if r.tolerance is not None and r.error is not None]
    return min(errors), max(errors)


def estimate_error_range(knowledge: Knowledge, entry: UncertainInput) -> KnownRange:
    """The throughput estimate's error as a scenario input draws it: from minus to plus the mean absolute
    throughput error over the calibration set ``entry.figure`` names (docs/calibration.md, "Error per
    set"), the estimate as it is (0) its point value, dated by the latest measurement of the set."""
    statistics = next(
        s
        for s in set_statistics(calibration_rows(knowledge))
        if s.split == entry.figure and s.metric == "throughput"
    )
    size = statistics.mean_absolute_error or 0.0
    dates = [m.as_of for m in knowledge.calibration.measurements if m.split == entry.figure]
    assert entry.source is not None, "checked at load"
    return KnownRange(-size, size, 0.0, "share", entry.source, max(dates))
