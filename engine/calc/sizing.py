"""Capacity arithmetic: weight memory, KV cache per token and card counts per GPU.

This is the card-count document's arithmetic, not a throughput measurement: weights are parameters times
bytes per parameter, the KV cache comes on top, and counts are rounded up to the allowed card counts.
The usual count leaves room for the KV cache twice over: the weights fill at most a set share of the
replica's memory, and the rest holds several full-context sequences at once.

"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Gpu, ModelConfig


class GpuFit(BaseModel):
    """How one GPU type holds one copy (replica) of the model."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gpu: str
    name: str
    memory_gb: float
    interconnect: str
    segment: str
    gpus_for_weights: int | None
    """Fewest cards (from the allowed counts) whose memory holds the weights; None: not even the largest."""
    gpus_with_kv_reserve: int | None
    """Fewest cards that leave the KV-cache reserve beside the weights (capacity arithmetic only)."""
    kv_headroom_gb: float | None
    """Memory left beside the weights at ``gpus_with_kv_reserve`` cards."""
    kv_tokens_capacity: int | None
    """Tokens of KV cache that fit in the usable headroom (None without a KV figure)."""

    @property
    def multi_card(self) -> bool:
        return self.gpus_with_kv_reserve is not None and self.gpus_with_kv_reserve > 1


def weights_gb(params_b: float, bytes_per_parameter: float) -> float:
    """Weight memory in GB: billions of parameters times bytes per parameter."""
    return params_b * bytes_per_parameter


def kv_bytes_per_token(model: ModelConfig, bytes_per_element: float) -> float:
    """KV-cache bytes one token occupies across all layers.

    Grouped-query attention stores a key and a value vector per KV head and layer; DeepSeek's multi-head
    latent attention stores one compressed latent plus the rotary key part per layer.
    """
    if model.attention == "mla":
        assert model.kv_lora_rank is not None and model.qk_rope_head_dim is not None
        return model.num_layers * (model.kv_lora_rank + model.qk_rope_head_dim) * bytes_per_element
    return 2 * model.num_layers * model.num_kv_heads * model.head_dim * bytes_per_element


def nearest_catalog_model(knowledge: Knowledge, params_b: float) -> ModelConfig:
    """The grouped-query catalog model closest in size (on a log scale): stands in for an unknown
    attention shape. Never a latent-attention model: DeepSeek's compressed cache is several times smaller
    than any grouped-query cache of its size, and a model that does not say it has one would be sized
    with too little KV memory."""
    return min(
        (m for m in knowledge.models.models if m.attention == "gqa"),
        key=lambda m: (abs(math.log(m.params_b / params_b)), m.id),
    )


def smallest_count(counts: tuple[int, ...], needed_gb: float, usable_gb_per_card: float) -> int | None:
    for count in counts:
        if count * usable_gb_per_card >= needed_gb:
            return count
    return None


def count_with_kv_reserve(
    gpu: Gpu,
    weights: float,
    counts: tuple[int, ...],
    max_weights_share: float,
    kv_gb_needed: float,
    kv_memory_share: float,
) -> int | None:
    """Fewest cards where the weights fill at most ``max_weights_share`` of the memory and the usable
    rest holds ``kv_gb_needed`` of KV cache."""
    for count in counts:
        memory = count * gpu.memory_gb
        if weights <= memory * max_weights_share and (memory - weights) * kv_memory_share >= kv_gb_needed:
            return count
    return None


def fit_gpu(
    gpu: Gpu,
    weights: float,
    counts: tuple[int, ...],
    max_weights_share: float,
    kv_bytes: float | None,
    kv_tokens_needed: int,
    kv_memory_share: float,
) -> GpuFit:
    kv_gb_needed = kv_tokens_needed * kv_bytes / 1e9 if kv_bytes else 0.0
    for_weights = smallest_count(counts, weights, gpu.memory_gb)
    with_reserve = count_with_kv_reserve(
        gpu, weights, counts, max_weights_share, kv_gb_needed, kv_memory_share
    )
    headroom = None if with_reserve is None else with_reserve * gpu.memory_gb - weights
    tokens = None
    if headroom is not None and kv_bytes:
        tokens = math.floor(headroom * kv_memory_share * 1e9 / kv_bytes)
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
    )


class SizingFigures(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    params_b: float
    active_params_b: float
    precision: str
    bytes_per_parameter: float
    weights_gb: float
    kv_bytes_per_token: float | None
    """From the catalog model's attention shape; None without a catalog model."""
    kv_bytes_per_token_used: float
    """What the sizing and throughput use: the model's figure, or the closest catalog model's."""
    kv_estimated_from: str | None
    """The catalog model whose KV figure stands in for an unknown model."""
    context_tokens: int
    fits: tuple[GpuFit, ...]


def kv_element_bytes(knowledge: Knowledge, precision: str) -> float:
    return knowledge.sizing.kv_cache.bytes_per_element_by_precision[precision]  # type: ignore[index]


SIZINGS_KEPT = 32
"""Model sizings cached (one store for every knowledge base, keyed by it): a portfolio uses a few models
in a few precisions."""


@per_object(entries=SIZINGS_KEPT)
def size_model(
    knowledge: Knowledge,
    params_b: float,
    active_params_b: float,
    precision: str,
    model: ModelConfig | None,
    context_tokens: int,
    /,
) -> SizingFigures:
    """Weights, KV cache and card counts on every GPU. The same for every workload with this model,
    precision and context, so cached (the figures are frozen)."""
    bytes_per_parameter = knowledge.bytes_per_parameter(precision)
    weights = weights_gb(params_b, bytes_per_parameter)
    element = kv_element_bytes(knowledge, precision)
    kv_bytes = kv_bytes_per_token(model, element) if model is not None else None
    stand_in = None if model is not None else nearest_catalog_model(knowledge, params_b)
    kv_used = kv_bytes if kv_bytes is not None else kv_bytes_per_token(stand_in, element)  # type: ignore[arg-type]
    share = knowledge.threshold("kv_reserve_max_weights_share").value
    counts = knowledge.sizing.card_counts.counts
    concurrency = knowledge.throughput.concurrency
    kv_tokens_needed = concurrency.min_sequences_at_full_context * context_tokens
    kv_share = knowledge.throughput.efficiency.kv_memory_share
    fits = tuple(
        fit_gpu(gpu, weights, counts, share, kv_used, kv_tokens_needed, kv_share)
        for gpu in knowledge.gpus.gpus
    )
    return trusted(
        SizingFigures,
        params_b=float(params_b),
        active_params_b=float(active_params_b),
        precision=precision,
        bytes_per_parameter=bytes_per_parameter,
        weights_gb=round(weights, 6),
        kv_bytes_per_token=kv_bytes,
        kv_bytes_per_token_used=kv_used,
        kv_estimated_from=stand_in.id if stand_in is not None else None,
        context_tokens=context_tokens,
        fits=fits,
    )
