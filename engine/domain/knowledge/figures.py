"""The knowledge base's figures and assumptions: thresholds, schedules, sizing, throughput and
calibration figures, defaults. Every entry carries ``source`` and ``as_of``.
"""

from __future__ import annotations

import itertools
import typing
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from gpu_advisor.engine.domain.choices import (
    Interconnect,
    LoadPattern,
    PersonalDataRegion,
    Precision,
    ScheduleId,
)
from gpu_advisor.engine.domain.knowledge.entries import Citation, PositiveFloat, Sourced


def _ascending(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    """Interpolation looks a point up by bisecting its x: they must rise strictly."""
    xs = [x for x, _ in points]
    if any(b <= a for a, b in itertools.pairwise(xs)):
        raise ValueError(f"points must be in strictly ascending x, got {xs}")
    return points


Points = Annotated[tuple[tuple[PositiveFloat, PositiveFloat], ...], AfterValidator(_ascending)]
"""(x, value) points a figure is interpolated between (``calc.roofline.interpolated``)."""


class Threshold(Sourced):
    key: str
    value: float
    unit: str
    description: str
    currency: Literal["USD", "EUR"] | None = None
    """For money thresholds: EUR values are converted to USD at the catalog's dated rate."""


class Schedule(Sourced):
    id: ScheduleId
    hours_per_month: PositiveFloat
    hours_per_day: PositiveFloat = Field(le=24)
    first_hour: int = Field(ge=0, le=23)
    """The hour of the day the schedule's hours start; they run for ``hours_per_day`` hours."""
    days_per_month: PositiveFloat
    description: str


class BytesPerParameter(Sourced):
    precision: Precision
    bytes: PositiveFloat


class QuantizedPrecision(Sourced):
    """A quantized precision's checkpoint layout: ``bytes_per_group`` of scale and zero point for every
    ``group_size`` weights, where the format quantizes in groups (INT4)."""

    precision: Precision
    group_size: int | None = Field(default=None, gt=0)
    bytes_per_group: float = Field(default=0.0, ge=0)

    @model_validator(mode="after")
    def _groups(self) -> QuantizedPrecision:
        if (self.group_size is None) != (self.bytes_per_group == 0):
            raise ValueError("group_size and bytes_per_group go together: both for a format with groups")
        return self


class QuantizedCheckpoints(Sourced):
    """What a published checkpoint in a quantized precision keeps beside its quantized weights: the token
    embedding and the output layer at ``kept_bytes_per_parameter`` (16 bit)."""

    kept_bytes_per_parameter: PositiveFloat
    precisions: tuple[QuantizedPrecision, ...]

    @model_validator(mode="after")
    def _once_each(self) -> QuantizedCheckpoints:
        # ``of`` takes the first entry of a precision: a second would be read by nothing.
        names = [entry.precision for entry in self.precisions]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"precisions listed more than once: {', '.join(repeated)}")
        return self

    def of(self, precision: str) -> QuantizedPrecision | None:
        """The precision's layout; None for a precision no checkpoint quantizes (16 and 32 bit)."""
        return next((entry for entry in self.precisions if entry.precision == precision), None)


class CardCounts(Sourced):
    counts: tuple[int, ...] = Field(min_length=1)
    node_gpus: int = Field(gt=0)

    @field_validator("counts")
    @classmethod
    def _ascending(cls, counts: tuple[int, ...]) -> tuple[int, ...]:
        if list(counts) != sorted(set(counts)) or counts[0] < 1:
            raise ValueError("counts must be positive, ascending and unique")
        return counts


class KvCache(Sourced):
    bytes_per_element_by_precision: dict[Precision, PositiveFloat]
    """The model's activation type by weight precision: what a cache the engine does not quantize uses."""
    fp8_bytes_per_element: PositiveFloat


class ReferenceGpu(Sourced):
    gpu: str


class QuantizationSteps(Sourced):
    steps: dict[Precision, Precision]


class RestrictedCountry(Sourced):
    country: str = Field(pattern=r"^[A-Z]{2}$")
    name: str


class DataProtectionRegion(Sourced):
    """The countries whose companies and residents fall under one data-protection region: the default of
    a workload's ``personal_data_region`` and the region of its company (``company_region``)."""

    region: PersonalDataRegion
    name: str
    countries: tuple[Annotated[str, Field(pattern=r"^[A-Z]{2}$")], ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _listed(self) -> DataProtectionRegion:
        if self.region == "other":
            raise ValueError("'other' is every country no region lists; it lists no countries")
        if len(set(self.countries)) != len(self.countries):
            raise ValueError("countries lists each country once")
        return self


class ExtraterritorialAccess(Sourced):
    """A state whose law obliges its companies to hand over data they control wherever it is stored: a
    provider whose parent company is there keeps the data in the region it runs in, but not out of that
    state's reach (RES015)."""

    country: Annotated[str, Field(pattern=r"^[A-Z]{2}$")]
    law: str
    """The law's name and citation as the memo names it (US CLOUD Act, 18 U.S.C. § 2713)."""


class ExchangeRate(Sourced):
    from_currency: Literal["EUR", "USD", "CHF"]
    to_currency: Literal["EUR", "USD", "CHF"]
    rate: PositiveFloat


class WorkloadDefault(Sourced):
    field: str
    value: str | int | float | bool


class TailShare(Sourced):
    """The share of the requests a tail latency figure bounds (a percentile as a fraction)."""

    value: float = Field(gt=0.5, lt=1)


class MarketFigure(Sourced):
    """A figure of the documents that is neither an offer nor a spec: a range or a single value."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    description: str
    value_low: float
    value_high: float
    unit: str

    @model_validator(mode="after")
    def _ordered(self) -> MarketFigure:
        if self.value_low > self.value_high:
            raise ValueError("value_low must not exceed value_high")
        return self


class EuRegionPremium(Sourced):
    value: float = Field(ge=0, lt=1)
    value_low: float = Field(ge=0, lt=1)
    value_high: float = Field(ge=0, lt=1)


ComputeMathKind = Literal["tf32", "bf16", "fp8"]


class Efficiency(Sourced):
    """The shares of the datasheet peaks a replica reaches: memory bandwidth in decode, dense tensor
    throughput per math (8-bit kernels reach a smaller share of their doubled peak than 16-bit ones), and
    the link between the cards in the tensor-parallel all-reduces."""

    decode_bandwidth_share: float = Field(gt=0, le=1)
    compute_share_by_math: dict[ComputeMathKind, Annotated[float, Field(gt=0, le=1)]]
    link_bandwidth_share: float = Field(gt=0, le=1)
    roofline_exponent: float = Field(ge=1, le=64)
    """How a matrix multiplication's reads and FLOPs combine: it takes (read^p + compute^p)^(1/p), the
    longer of the two far from the ridge point and up to 2^(1/p) times it where they are equal (a
    kernel near the ridge overlaps its loads and its math imperfectly; a large p is the plain roofline)."""

    @model_validator(mode="after")
    def _every_math(self) -> Efficiency:
        missing = set(typing.get_args(ComputeMathKind)) - set(self.compute_share_by_math)
        if missing:
            raise ValueError(f"compute_share_by_math lacks {sorted(missing)}")
        return self


class StepOverheads(Sourced):
    """Fixed time each layer adds to every forward pass, whatever the batch: the kernels' minimum
    durations (norms, activations, attention, the tensor-parallel all-reduces) that a bandwidth or FLOP
    count does not see, and for a mixture-of-experts layer its routing, token permutation and
    expert-parallel exchange on top."""

    layer_seconds: float = Field(ge=0, lt=1e-3)
    moe_layer_seconds: float = Field(ge=0, lt=1e-3)
    routed_expert_factor: dict[int, Points] = Field(default_factory=dict)
    """Per tensor-parallel degree, (tokens routed to an expert on average, factor) points: how much longer
    a mixture of experts' routed multiplications take, their kernels measured with the routing skewed
    across the experts, than the blend of their bytes and FLOPs at the efficiency shares (interpolated in
    the logarithm of the tokens; 1 without points)."""


class Communication(Sourced):
    """What a tensor-parallel forward pass sends between the cards of a stage: every layer all-reduces
    its activations ``all_reduces_per_layer`` times (after attention and after the MLP), each element of
    ``activation_bytes``; a ring all-reduce over T cards sends 2(T-1)/T of the message from every card
    over its link, and each all-reduce takes a fixed ``all_reduce_seconds`` however small the message."""

    all_reduces_per_layer: int = Field(ge=0)
    activation_bytes: PositiveFloat
    all_reduce_seconds: float = Field(ge=0, lt=1e-4)
    link_share_by_message: dict[int, Points] = Field(default_factory=dict)
    """Per card count, (elements in the message, share of the one-way link rate) points: the share an
    all-reduce of that size reaches over NVLink (interpolated in the logarithm of the size, held beyond
    the ends); a card count without points uses ``Efficiency.link_bandwidth_share``."""
    link_share_gpus: tuple[str, ...] = ()
    """The GPUs ``link_share_by_message`` was measured on (the calibration report names them); the other
    NVLink GPUs take the same shares of their own rate, unmeasured."""


class TensorParallelEfficiency(Sourced):
    interconnect: Interconnect
    efficiency_per_doubling: float = Field(gt=0, le=1)


class ComputeMath(Sourced):
    """The tensor-core math the matrix multiplications of a weight precision run in: 8-bit weights in
    8-bit math where the card has it (else 16-bit), 4-bit weights dequantized to 16-bit (W4A16)."""

    by_precision: dict[Precision, ComputeMathKind]

    @model_validator(mode="after")
    def _every_precision(self) -> ComputeMath:
        missing = set(typing.get_args(Precision)) - set(self.by_precision)
        if missing:
            raise ValueError(f"by_precision lacks {sorted(missing)}")
        return self


class Concurrency(Sourced):
    min_sequences_at_full_context: int = Field(ge=1)
    """The usual card count holds the KV cache of this many sequences of the full serving context."""
    min_sequences_under_light_load: int = Field(ge=1)
    """A replica below the usual count holds at least this many full-context sequences."""
    full_context_room_under_light_load: int = Field(ge=0)
    """Requests of the full serving context a replica below the usual count keeps room for beside the
    requests in flight at their own length (``count_limits.kv_held_sequences``): gpu-advisor's margin
    for a long request, as the engines reserve none (``room_source``)."""
    room_source: Citation

    @model_validator(mode="after")
    def _light_below_usual(self) -> Concurrency:
        if self.min_sequences_under_light_load > self.min_sequences_at_full_context:
            raise ValueError("min_sequences_under_light_load exceeds min_sequences_at_full_context")
        if self.full_context_room_under_light_load > self.min_sequences_under_light_load:
            raise ValueError("full_context_room_under_light_load exceeds min_sequences_under_light_load")
        return self


CalibrationSplit = Literal["fit", "held_out"]
"""``fit``: the efficiency factors may be fitted on it; ``held_out``: only ever compared with."""

ServingEngine = Literal["trtllm", "vllm", "sglang"]
"""The serving engine that ran a measurement (NVIDIA NIM runs TensorRT-LLM: ``trtllm``)."""


class Measurement(Sourced):
    """A published throughput or latency measurement of one replica."""

    id: str
    split: CalibrationSplit
    """Fixed in the file by the rule stated at its top, before any factor is fitted."""
    model: str
    precision: Precision
    gpu: str
    gpus: int = Field(ge=1)
    input_tokens: int = Field(gt=0)
    output_tokens: int = Field(gt=0)
    concurrency: int | None = Field(ge=1)
    """Requests kept in flight (closed loop); None with no request rate: offline, all requests at once."""
    request_rate_per_second: PositiveFloat | None = None
    """Open-loop arrival rate where the source fixes the rate instead of the concurrency."""
    output_tokens_per_second: PositiveFloat | None
    total_tokens_per_second: PositiveFloat | None
    time_to_first_token_ms: PositiveFloat | None
    inter_token_latency_ms: PositiveFloat | None
    """Time per output token after the first, as the source reports it (ITL or TPOT)."""
    end_to_end_latency_ms: PositiveFloat | None = None
    """Time from sending a request to its last token."""
    serving_engine: ServingEngine
    engine: str | None
    """The engine and version as the source names it."""
    kv_cache_precision: Literal["fp8", "bf16"] | None = None
    """The KV cache precision as run, where the source says; None: the engine's default."""
    requests: int | None = Field(default=None, ge=1)
    """Requests the benchmark run sent, where the source states it: its throughput is their tokens over
    the time from the first send to the last answer, ramp and drain included. None: a steady state."""
    length_stdev_tokens: float | None = Field(default=None, ge=0)
    """Standard deviation of the request lengths as generated, where the source states it (0: every
    request exactly the stated lengths); None: not stated, the stated lengths are taken as exact."""
    run_quote: str | None = None
    """The source's words that state the run: its number of requests and how their lengths were drawn."""
    attention_data_parallel: bool = False
    """Run with data-parallel attention (TensorRT-LLM's enable_attention_dp): each card keeps whole caches
    of its own sequences, so a tensor-parallel group keeps no copies of them (``calc.sizing.kv_copies``)."""
    tolerance: float | None = Field(gt=0)
    """Largest relative error of the estimate accepted by the tests; None: shown, not held to it."""
    note: str | None = None

    @model_validator(mode="after")
    def _one_throughput(self) -> Measurement:
        if self.output_tokens_per_second is not None and self.total_tokens_per_second is not None:
            raise ValueError("give at most one of output_tokens_per_second and total_tokens_per_second")
        if self.concurrency is not None and self.request_rate_per_second is not None:
            raise ValueError("give at most one of concurrency and request_rate_per_second")
        metrics = (
            self.output_tokens_per_second,
            self.total_tokens_per_second,
            self.time_to_first_token_ms,
            self.inter_token_latency_ms,
            self.end_to_end_latency_ms,
        )
        if self.requests is not None and not self.run_quote:
            raise ValueError("a number of requests needs the run_quote that states it")
        if all(metric is None for metric in metrics):
            raise ValueError("give at least one measured figure (a throughput or a latency)")
        if (
            self.tolerance is not None
            and self.output_tokens_per_second is None
            and self.total_tokens_per_second is None
        ):
            raise ValueError("a tolerance holds a throughput: give one or set tolerance to null")
        return self


class ThroughputReference(Sourced):
    """A published throughput figure that names too little (hardware, lengths) to calibrate with."""

    id: str
    description: str
    value: float
    unit: str
    note: str | None = None


class UtilizationDefault(Sourced):
    load_pattern: LoadPattern
    utilization: float = Field(gt=0, le=1)
    latency_sensitive: bool
