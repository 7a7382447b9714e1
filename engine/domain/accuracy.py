"""How far the performance estimate is from published measurements, and how the replicas were sized
with that in mind: the parts of a result the memo's Accuracy paragraph and Load section read."""

from __future__ import annotations

from gpu_advisor.engine.domain.result_model import ResultModel


class UncheckedMeasurement(ResultModel):
    """A published measurement shown beside the estimate but not held to a tolerance."""

    id: str
    published: float
    metric: str
    error: float
    """The estimate's relative error against the published figure."""


class ThroughputAccuracy(ResultModel):
    """How far the throughput estimate was from the published measurements it is held to."""

    lowest_error: float
    highest_error: float
    measurements: int
    unchecked: tuple[UncheckedMeasurement, ...] = ()
    """Measurements shown but not held to a tolerance because their conditions are unknown, with their
    error. Empty since such figures are kept as references (``gpu-advisor calibration``), not measurements."""
    fit_measurements: int = 0
    """Throughput measurements the efficiency factors were fitted on (``split: fit``)."""
    fit_mean_absolute_error: float | None = None
    held_out_measurements: int = 0
    """Throughput measurements held out from fitting (``split: held_out``) that the estimate runs."""
    held_out_mean_absolute_error: float | None = None
    held_out_worst_error: float | None = None
    held_out_latency_mean_absolute_error: float | None = None
    """Time to first token and time per output token together, over the held-out measurements that
    publish them."""
    mixture_of_experts_measurements: int = 0
    """Throughput measurements of mixture-of-experts models (fit and held out), which the figures below
    summarize (None without any)."""
    mixture_of_experts_mean_error: float | None = None
    mixture_of_experts_lowest_error: float | None = None
    mixture_of_experts_highest_error: float | None = None
    measured_gpus: tuple[str, ...] = ()
    """The GPUs the published measurements ran on, in catalog order: on any other the estimate rests on
    the datasheet alone."""


class SizingPolicy(ResultModel):
    """How the replicas were sized (knowledge/throughput.yaml and the rules)."""

    headroom_target_share: float
    """The busiest minutes fill at most this share of the replicas' capacity..."""
    estimate_error_taken_off: float
    """...after the capacity is divided by 1 + this (the top of the throughput estimate's error band)."""
    spare_replicas: int
    """Replicas added beyond the peak's, where a rule asks for them."""
    min_replicas: int
    latency_margin: float = 0.0
    """A latency target is planned to only where it lies at least this share above a lone request's
    time (the estimate's mean latency error); nearer or below, the replicas keep that time plus it."""
    latency_tail_share: float
    """The share of the requests whose time to first token ``GpuSizing.time_to_first_token_tail_ms``
    bounds (knowledge/workload_defaults.yaml, MLPerf Inference's 99th percentile); the targets hold for
    the mean."""
    model_runs_data_parallel: bool = False
    """Every published measurement of the model ran with data-parallel attention (one copy of the KV
    cache), which the estimate does not assume (``calibration.own_runs_data_parallel``)."""
    model_latency_measured: bool = False
    """Some published measurement of the model states a latency the estimate is compared with
    (``calibration.latency_measured``)."""
