"""How one GPU type holds one replica of a model (``GpuFit``): the fewest cards whose memory holds the
weights beside the serving engine's runtime reserve, and those that hold the KV cache of the working
concurrency and of a light load as well (``calc/sizing.py`` sizes every GPU with it)."""

from __future__ import annotations

import math
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.engines import ReplicaActivations, ServingEngine
from gpu_advisor.engine.domain.knowledge.gpus import Gpu


class GpuFit(BaseModel):
    """How one GPU type holds one copy (replica) of the model."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    gpu: str
    name: str
    memory_gb: float
    interconnect: str
    segment: str
    gpus_for_weights: int | None
    """Fewest cards (from the allowed counts) whose memory holds the weights beside the serving engine's
    runtime reserve (activations, CUDA graphs), with no room for a KV cache; None: not even the largest."""
    gpus_with_kv_reserve: int | None
    """Fewest cards whose memory holds the weights, the engine's reserve and the KV cache of the working
    concurrency (``min_sequences_at_full_context`` sequences of the serving context)."""
    kv_headroom_gb: float | None
    """Memory left beside the weights at ``gpus_with_kv_reserve`` cards (decimal GB)."""
    kv_tokens_capacity: int | None
    """Tokens of KV cache the serving engine keeps at ``gpus_with_kv_reserve`` cards."""
    gpus_for_light_load: int | None = None
    """Fewest cards whose memory holds the weights, the engine's reserve and the KV cache of
    ``min_sequences_under_light_load`` full-context sequences: where a load keeps few requests in flight,
    a replica may run on this many (``calc.replicas.plans_by_gpu`` decides per load)."""


def count_with_kv_reserve(
    gpu: Gpu,
    engine: ServingEngine,
    weights_bytes: float,
    counts: tuple[int, ...],
    kv_tokens: int,
    kv_bytes_on: Callable[[int], float],
    activations: ReplicaActivations,
) -> int | None:
    """Fewest cards whose memory, after the weights and the engine's reserve (for a model of these
    ``activations``), holds the KV cache of ``kv_tokens`` tokens under the engine's memory rule, at
    ``kv_bytes_on(cards)`` bytes a token."""
    for count in counts:
        cache = engine.kv_cache_bytes(count * gpu.memory_bytes, weights_bytes, count, activations)
        if cache >= kv_tokens * kv_bytes_on(count):
            return count
    return None


def fit_gpu(
    gpu: Gpu,
    engine: ServingEngine,
    weights_bytes: float,
    counts: tuple[int, ...],
    kv_bytes_on: Callable[[int], float],
    kv_tokens_needed: int,
    kv_tokens_light: int,
    activations: ReplicaActivations,
    memory_counts: tuple[int, ...] = (),
) -> GpuFit:
    """How ``gpu`` holds one replica on ``counts`` (``loadable_counts``), the weights' fit on
    ``memory_counts`` (every count); ``kv_bytes_on(cards)``: a token's KV cache on that many cards."""
    sizes = memory_counts or counts
    for_weights = next(
        (
            c
            for c in sizes
            if c * (gpu.memory_bytes - engine.reserve_bytes_per_card(gpu.memory_bytes, c, activations))
            >= weights_bytes
        ),
        None,
    )
    with_reserve = count_with_kv_reserve(
        gpu, engine, weights_bytes, counts, kv_tokens_needed, kv_bytes_on, activations
    )
    headroom = None if with_reserve is None else (with_reserve * gpu.memory_bytes - weights_bytes) / 1e9
    tokens = None
    if with_reserve is not None:
        cache = engine.kv_cache_bytes(
            with_reserve * gpu.memory_bytes, weights_bytes, with_reserve, activations
        )
        tokens = math.floor(cache / kv_bytes_on(with_reserve))
    return trusted(
        GpuFit,
        gpu=gpu.id,
        name=gpu.name,
        memory_gb=gpu.memory_gb,
        interconnect=gpu.interconnect,
        segment=gpu.segment,
        gpus_for_weights=for_weights,
        gpus_with_kv_reserve=with_reserve,
        kv_headroom_gb=None if headroom is None else round(headroom, 3),
        kv_tokens_capacity=tokens,
        gpus_for_light_load=count_with_kv_reserve(
            gpu, engine, weights_bytes, counts, kv_tokens_light, kv_bytes_on, activations
        ),
    )
