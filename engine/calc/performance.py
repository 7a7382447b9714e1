"""What one replica delivers on one GPU type: throughput and latency from a roofline estimate."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.calc.sizing import GpuFit, SizingFigures
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Gpu

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
    seconds_alone: float
    """One request from prompt to last token on an otherwise idle replica (batch of one)."""
    seconds_at_full_batch: float
    """One request's time with the batch full: ``batch`` requests in flight at ``requests_per_second``."""


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
    return float(per_doubling ** math.log2(cards))


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

    active_flops = FLOPS_PER_PARAMETER_AND_TOKEN * figures.active_params_b * 1e9

    def step(sequences: int) -> tuple[float, float]:
        """Memory and compute seconds of one decode step: weights (at most the experts the batch
        touches) plus every sequence's KV cache, which holds on average the prompt and half the answer."""
        weights_read = min(weights_bytes, sequences * active_bytes)
        kv_read = sequences * (input_tokens + output_tokens / 2) * kv_bytes
        return (weights_read + kv_read) / bandwidth, active_flops * sequences / flops

    memory_seconds, compute_seconds = step(batch)
    step_seconds = max(memory_seconds, compute_seconds)
    decode_tps = batch / step_seconds
    prefill_tps = flops / active_flops
    prefill_seconds = input_tokens / prefill_tps
    seconds_per_request = prefill_seconds + output_tokens / decode_tps
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
        seconds_alone=prefill_seconds + output_tokens * max(step(1)),
        seconds_at_full_batch=batch / requests_per_second,
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
