"""Capacity arithmetic: weight memory, KV cache per token and card counts per GPU.

This is the card-count document's arithmetic, not a throughput measurement: weights are parameters times
bytes per parameter, the KV cache comes on top, and counts are rounded up to the allowed card counts.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from .knowledge import Gpu, Knowledge, ModelConfig


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
    """Memory left for the KV cache at ``gpus_with_kv_reserve`` cards."""
    kv_tokens_capacity: int | None
    """Tokens of KV cache that fit in the headroom (None without the model's attention shape)."""

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


def smallest_count(counts: tuple[int, ...], needed_gb: float, usable_gb_per_card: float) -> int | None:
    for count in counts:
        if count * usable_gb_per_card >= needed_gb:
            return count
    return None


def fit_gpu(
    gpu: Gpu,
    weights: float,
    counts: tuple[int, ...],
    max_weights_share: float,
    kv_bytes: float | None,
) -> GpuFit:
    for_weights = smallest_count(counts, weights, gpu.memory_gb)
    with_reserve = smallest_count(counts, weights, gpu.memory_gb * max_weights_share)
    headroom = None if with_reserve is None else with_reserve * gpu.memory_gb - weights
    tokens = None
    if headroom is not None and kv_bytes:
        tokens = math.floor(headroom * 1e9 / kv_bytes)
    return GpuFit(
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
    fits: tuple[GpuFit, ...]


def size_model(
    knowledge: Knowledge,
    params_b: float,
    active_params_b: float,
    precision: str,
    model: ModelConfig | None,
) -> SizingFigures:
    bytes_per_parameter = knowledge.bytes_per_parameter(precision)
    weights = weights_gb(params_b, bytes_per_parameter)
    kv_bytes = None
    if model is not None:
        element = knowledge.sizing.kv_cache.bytes_per_element_by_precision[precision]  # type: ignore[index]
        kv_bytes = kv_bytes_per_token(model, element)
    share = knowledge.threshold("kv_reserve_max_weights_share").value
    counts = knowledge.sizing.card_counts.counts
    fits = tuple(fit_gpu(gpu, weights, counts, share, kv_bytes) for gpu in knowledge.gpus.gpus)
    return SizingFigures(
        params_b=params_b,
        active_params_b=active_params_b,
        precision=precision,
        bytes_per_parameter=bytes_per_parameter,
        weights_gb=round(weights, 6),
        kv_bytes_per_token=kv_bytes,
        fits=fits,
    )
