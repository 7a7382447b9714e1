"""From load to replicas: what one replica delivers, how many the peak needs, the utilization that follows.

The estimate is deliberately simple and stated in full, so that a reader can check it:

- Decode (one output token for every running sequence) reads the weights once per step for the whole
  batch plus each sequence's KV cache: it is bound by memory bandwidth, unless the matrix work of the
  batch takes longer (then by compute). A mixture of experts reads at most the experts its batch uses.
- Prefill (the prompt) is bound by compute: two FLOPs per active parameter and token.
- Tensor parallelism over several cards keeps a share of the combined bandwidth and compute per doubling
  of the card count, which depends on the link between the cards (NVLink, Infinity Fabric, PCIe).
- The batch is as large as the KV cache allows for the workload's average sequence, up to the engine's
  maximum number of running sequences.

The share of datasheet peaks really reached is knowledge (``knowledge/throughput.yaml``), calibrated
against published measurements (``knowledge/calibration.yaml``); docs/calibration.md shows the error.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from .identity_cache import per_object
from .knowledge import Gpu, Knowledge, Schedule
from .sizing import GpuFit, SizingFigures
from .trusted import trusted

SECONDS_PER_HOUR = 3600
HOURS_PER_DAY = 24
FLOPS_PER_PARAMETER_AND_TOKEN = 2


class ReplicaPerformance(BaseModel):
    """Estimated performance of one replica on one GPU type, for the workload's average request."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gpu: str
    cards: int
    batch: int
    """Sequences running at once: as many as the KV cache holds, up to the engine's maximum."""
    prefill_tokens_per_second: float
    decode_tokens_per_second: float
    """Output tokens per second across the whole batch."""
    requests_per_second: float
    output_tokens_per_second: float
    time_to_first_token_ms: float
    """Prefill of one average prompt on an otherwise idle replica: a lower bound, without queueing."""
    time_per_output_token_ms: float
    """One decode step at the full batch: what each user sees between tokens at peak."""
    decode_bound: str
    """'memory' or 'compute': what limits a decode step at this batch."""


def compute_tflops(gpu: Gpu, precision: str) -> float:
    """Dense tensor throughput for the weight precision: FP8 kernels where the card has them (8- and 4-bit
    weights are served with 8-bit math there), BF16 otherwise; FP32 at half the BF16 rate (TF32)."""
    if precision in ("fp8", "int8", "int4") and gpu.fp8_dense_tflops is not None:
        return gpu.fp8_dense_tflops
    if precision == "fp32":
        return gpu.bf16_dense_tflops / 2
    return gpu.bf16_dense_tflops


def tensor_parallel_efficiency(knowledge: Knowledge, interconnect: str, cards: int) -> float:
    per_doubling = next(
        t.efficiency_per_doubling
        for t in knowledge.throughput.tensor_parallel
        if t.interconnect == interconnect
    )
    return per_doubling ** math.log2(cards)


def replica_hardware(
    knowledge: Knowledge, gpu_id: str, precision: str, cards: int
) -> tuple[float, float, float]:
    """What ``cards`` cards of a GPU give one replica: usable memory bandwidth for decoding (bytes/s),
    usable compute (FLOP/s), both after tensor-parallel losses, and memory (bytes). The same for every
    workload, so kept per knowledge base."""
    table = _hardware_tables(knowledge)
    key = (gpu_id, precision, cards)
    found = table.get(key)
    if found is None:
        gpu = knowledge.gpu(gpu_id)
        efficiency = knowledge.throughput.efficiency
        parallel = tensor_parallel_efficiency(knowledge, gpu.interconnect, cards)
        found = (
            cards * gpu.memory_bandwidth_gb_s * 1e9 * efficiency.decode_bandwidth_share * parallel,
            cards * compute_tflops(gpu, precision) * 1e12 * efficiency.compute_share * parallel,
            cards * gpu.memory_gb * 1e9,
        )
        table[key] = found
    return found


@per_object
def _hardware_tables(knowledge: Knowledge) -> dict[tuple[str, str, int], tuple[float, float, float]]:
    """Filled as GPU, precision and card counts come up (at most every combination of the catalog)."""
    return {}


def replica_performance(
    knowledge: Knowledge,
    figures: SizingFigures,
    fit: GpuFit,
    input_tokens: int,
    output_tokens: int,
    cards: int | None = None,
    concurrency: int | None = None,
) -> ReplicaPerformance | None:
    """Performance of one replica of ``fit`` (at ``cards``, default the usual count; at most
    ``concurrency`` sequences at once, default as many as fit); None if it cannot run one sequence of
    the workload's length."""
    cards = cards or fit.gpus_with_kv_reserve
    if cards is None:
        return None
    bandwidth, flops, memory_bytes = replica_hardware(knowledge, fit.gpu, figures.precision, cards)
    efficiency = knowledge.throughput.efficiency

    weights_bytes = figures.weights_gb * 1e9
    active_bytes = figures.active_params_b * 1e9 * figures.bytes_per_parameter
    kv_bytes = figures.kv_bytes_per_token_used
    headroom_bytes = (memory_bytes - weights_bytes) * efficiency.kv_memory_share
    sequence_tokens = input_tokens + output_tokens
    max_sequences = knowledge.throughput.concurrency.max_sequences
    batch = min(concurrency or max_sequences, math.floor(headroom_bytes / (sequence_tokens * kv_bytes)))
    if batch < 1:
        return None

    # One decode step: weights (at most the experts the batch touches) plus every sequence's KV cache,
    # which holds on average the prompt and half the answer.
    weights_read = min(weights_bytes, batch * active_bytes)
    kv_read = batch * (input_tokens + output_tokens / 2) * kv_bytes
    memory_seconds = (weights_read + kv_read) / bandwidth
    compute_seconds = FLOPS_PER_PARAMETER_AND_TOKEN * figures.active_params_b * 1e9 * batch / flops
    step_seconds = max(memory_seconds, compute_seconds)
    decode_tps = batch / step_seconds
    prefill_tps = flops / (FLOPS_PER_PARAMETER_AND_TOKEN * figures.active_params_b * 1e9)
    seconds_per_request = input_tokens / prefill_tps + output_tokens / decode_tps
    requests_per_second = 1 / seconds_per_request
    return trusted(
        ReplicaPerformance,
        gpu=fit.gpu,
        cards=cards,
        batch=batch,
        prefill_tokens_per_second=prefill_tps,
        decode_tokens_per_second=decode_tps,
        requests_per_second=requests_per_second,
        output_tokens_per_second=requests_per_second * output_tokens,
        time_to_first_token_ms=input_tokens / prefill_tps * 1000,
        time_per_output_token_ms=step_seconds * 1000,
        decode_bound="memory" if memory_seconds >= compute_seconds else "compute",
    )


class Load(BaseModel):
    """The workload's load: average and peak request rate over the hours a day in which it is served."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hours_per_day: float
    """The schedule's hours a day, or fewer where a batch job is paid fewer hours a month than the
    schedule has: its requests wait and are served in the paid hours."""
    average_requests_per_second: float
    peak_factor: float
    peak_requests_per_second: float
    peak_output_tokens_per_second: float
    peak_input_tokens_per_second: float
    schedule_hours_per_month: float
    """The schedule's hours a month, in which requests arrive."""
    served_in_paid_hours: bool
    """A batch job paid fewer hours than the schedule has: the month's requests are served in them."""
    served_share_of_paid_hours: float
    """The paid hours in which requests come, at most 1: below 1 where more hours are paid than a schedule
    of fewer than 24 hours a day serves requests in, and the cards idle in the rest."""


def workload_load(
    knowledge: Knowledge,
    requests_per_day: int,
    schedule: Schedule,
    paid_hours_per_month: float,
    load_pattern: str,
    input_tokens: int,
    output_tokens: int,
) -> Load:
    pattern = knowledge.peak_to_average(load_pattern)
    served_in_paid_hours = pattern.waits_for_paid_hours and paid_hours_per_month < schedule.hours_per_month
    hours_per_day = (
        paid_hours_per_month / schedule.days_per_month if served_in_paid_hours else schedule.hours_per_day
    )
    # Around the clock every paid hour is an hour requests come in (a 31-day month pays 744 hours).
    around_the_clock = schedule.hours_per_day >= HOURS_PER_DAY
    serving_hours = paid_hours_per_month if around_the_clock else schedule.hours_per_month
    average = requests_per_day / (hours_per_day * SECONDS_PER_HOUR)
    peak = average * pattern.factor
    return Load(
        hours_per_day=hours_per_day,
        average_requests_per_second=average,
        peak_factor=pattern.factor,
        peak_requests_per_second=peak,
        peak_output_tokens_per_second=peak * output_tokens,
        peak_input_tokens_per_second=peak * input_tokens,
        schedule_hours_per_month=schedule.hours_per_month,
        served_in_paid_hours=served_in_paid_hours,
        served_share_of_paid_hours=1.0
        if served_in_paid_hours
        else min(1.0, serving_hours / paid_hours_per_month),
    )


class ReplicaPlan(BaseModel):
    """How one GPU type carries the load: replicas for the peak, cards in all, utilization that follows."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gpu: str
    cards_per_replica: int
    replicas: int
    gpus: int
    requests_per_second_per_replica: float
    output_tokens_per_second_per_replica: float
    utilization: float
    """Average load over provisioned capacity in the paid hours: the share in which the cards emit tokens."""
    time_to_first_token_ms: float
    time_per_output_token_ms: float
    batch: int
    decode_bound: str


def plan_replicas(performance: ReplicaPerformance, load: Load) -> ReplicaPlan:
    replicas = max(1, math.ceil(load.peak_requests_per_second / performance.requests_per_second))
    capacity = replicas * performance.requests_per_second
    return trusted(
        ReplicaPlan,
        gpu=performance.gpu,
        cards_per_replica=performance.cards,
        replicas=replicas,
        gpus=replicas * performance.cards,
        requests_per_second_per_replica=performance.requests_per_second,
        output_tokens_per_second_per_replica=performance.output_tokens_per_second,
        utilization=min(1.0, load.average_requests_per_second * load.served_share_of_paid_hours / capacity),
        time_to_first_token_ms=performance.time_to_first_token_ms,
        time_per_output_token_ms=performance.time_per_output_token_ms,
        batch=performance.batch,
        decode_bound=performance.decode_bound,
    )


PERFORMANCES_KEPT = 64
"""Replica performances cached (one store for every knowledge base, keyed by it): one entry per sizing
and token counts."""


@per_object(entries=PERFORMANCES_KEPT)
def replica_performances(
    knowledge: Knowledge, figures: SizingFigures, input_tokens: int, output_tokens: int, /
) -> tuple[ReplicaPerformance, ...]:
    """One replica's performance on every GPU type that can run a sequence of the workload's length,
    in catalog order. It does not depend on the load, so workloads with the same model, precision and
    token counts share it."""
    found = (
        replica_performance(knowledge, figures, fit, input_tokens, output_tokens) for fit in figures.fits
    )
    return tuple(performance for performance in found if performance is not None)


def plans_by_gpu(
    knowledge: Knowledge, figures: SizingFigures, load: Load, input_tokens: int, output_tokens: int
) -> dict[str, ReplicaPlan]:
    """A replica plan for every GPU type that can hold the model with KV reserve."""
    return {
        performance.gpu: plan_replicas(performance, load)
        for performance in replica_performances(knowledge, figures, input_tokens, output_tokens)
    }
