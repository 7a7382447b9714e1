"""Capacity arithmetic: weight memory, KV cache per token and card counts per GPU.

This is the card-count document's arithmetic, not a throughput measurement: weights are parameters times
bytes per parameter (a quantized checkpoint keeps its embedding and output layer in 16 bit, a model given
by its size with the nearest catalog model's share of them, and INT4 adds its groups' scales:
``calc/weights.py``), the KV cache comes on top, and counts are rounded
up to the allowed card counts.
The usual count is the fewest cards whose memory, after the weights and the serving engine's reserve,
holds the KV cache of several full-context sequences at once under the engine's memory rule.
"""

from __future__ import annotations

import math
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.calc.attention_flops import (
    activation_width,
    attention_flops_per_token_pair,
    decode_attention_flops_per_token_pair,
    hidden_size,
)
from gpu_advisor.engine.calc.checkpoint import sixteen_bit_checkpoint_gb
from gpu_advisor.engine.calc.gpu_fit import GpuFit, fit_gpu
from gpu_advisor.engine.calc.weights import weights_layout
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.engines import ReplicaActivations, ServingEngine
from gpu_advisor.engine.domain.knowledge.models import Fp8Checkpoint, ModelConfig
from gpu_advisor.engine.domain.weights_layout import WeightsLayout


class ModelShape(Protocol):
    """What the sizing reads of a model's architecture: a catalog model (``ModelConfig``) or the attention
    shape given for a model given by its size (``AttentionShape``)."""

    @property
    def attention(self) -> str: ...
    @property
    def num_layers(self) -> int: ...
    @property
    def num_attention_heads(self) -> int: ...
    @property
    def num_kv_heads(self) -> int: ...
    @property
    def head_dim(self) -> int: ...
    @property
    def kv_lora_rank(self) -> int | None: ...
    @property
    def qk_rope_head_dim(self) -> int | None: ...
    @property
    def num_experts(self) -> int | None: ...
    @property
    def experts_per_token(self) -> int | None: ...
    @property
    def fp8_checkpoint(self) -> Fp8Checkpoint | None: ...


def kv_bytes_per_token(model: ModelShape, bytes_per_element: float) -> float:
    """KV-cache bytes one token occupies across all layers.

    Grouped-query attention stores a key and a value vector per KV head and layer; DeepSeek's multi-head
    latent attention stores one compressed latent plus the rotary key part per layer.
    """
    if model.attention == "mla":
        assert model.kv_lora_rank is not None and model.qk_rope_head_dim is not None
        return model.num_layers * (model.kv_lora_rank + model.qk_rope_head_dim) * bytes_per_element
    return 2 * model.num_layers * model.num_kv_heads * model.head_dim * bytes_per_element


def kv_split_heads(model: ModelShape) -> int:
    """``SizingFigures.kv_split_heads`` of a model: its KV heads, or 1 for latent attention, whose one
    compressed latent every head reads (vLLM: "When using MLA during decode it becomes MQA")."""
    return 1 if model.attention == "mla" else model.num_kv_heads


def nearest_catalog_model(knowledge: Knowledge, params_b: float) -> ModelConfig:
    """The grouped-query catalog model closest in size (on a log scale): stands in for an unknown
    attention shape. Never a latent-attention model: DeepSeek's compressed cache is several times smaller
    than any grouped-query cache of its size, and a model that does not say it has one would be sized
    with too little KV memory."""
    return min(
        (m for m in knowledge.models.models if m.attention == "gqa"),
        key=lambda m: (abs(math.log(m.params_b / params_b)), m.id),
    )


def nearest_of_its_kind(knowledge: Knowledge, params_b: float, active_params_b: float) -> ModelConfig:
    """The grouped-query catalog model of the same kind, dense or a mixture of experts, closest in active
    parameters: its embedding's share stands in for a model given by its size (``weights_layout``). The
    embedding is as wide as the active path, and a mixture's vocabulary says nothing of a dense model's:
    Mixtral's 32,000 tokens would give a dense 14.8B 0.30B of embedding where Qwen2.5 14B has 1.56B."""
    mixture = active_params_b < params_b
    return min(
        (
            m
            for m in knowledge.models.models
            if m.attention == "gqa" and (m.active_params_b < m.params_b) == mixture
        ),
        key=lambda m: (abs(math.log(m.active_params_b / active_params_b)), m.id),
    )


def loadable_counts(counts: tuple[int, ...], model: ModelShape | None, node_gpus: int) -> tuple[int, ...]:
    """The card counts an engine loads the model on: each tensor-parallel group (``parallelism``) divides
    the query heads, and the KV heads divide among its cards or repeat evenly (vLLM's 'Total number of
    attention heads must be divisible by tensor parallel size' and its QKV layer; SGLang and TensorRT-LLM
    check the same). Qwen2.5-7B's 28 heads load on 1, 2 or 4 cards (pipeline stages within a node would
    take 8, but the estimate runs one stage per node). Every count for a model of unknown shape."""
    if model is None:
        return counts
    heads, kv = model.num_attention_heads, model.num_kv_heads
    tensors = {cards: parallelism(node_gpus, cards)[0] for cards in counts}
    return tuple(
        c for c, t in tensors.items() if heads % t == 0 and (kv % t == 0 if t <= kv else t % kv == 0)
    )


def parallelism(node_gpus: int, cards: int) -> tuple[int, int]:
    """Tensor-parallel cards and pipeline stages of a replica of ``cards`` cards: one stage per node of
    ``node_gpus`` cards (``knowledge.sizing.card_counts.node_gpus``)."""
    stages = max(1, math.ceil(cards / node_gpus))
    return cards // stages, stages


def kv_copies(split_heads: int | None, tensor: int) -> float:
    """Copies of each token's KV cache a tensor-parallel group of ``tensor`` cards keeps, where the cache
    divides into ``split_heads`` parts (``SizingFigures.kv_split_heads``), as the fullest card sees it.
    A card keeps whole parts, at least one, so a group larger than the parts keeps several copies: vLLM
    gives each card max(1, heads // tp) KV heads (``ModelConfig.get_num_kv_heads``), TensorRT-LLM's
    trtllm-bench counts max(tp, heads), and latent attention decodes as one KV head (every card keeps the
    whole latent). Parts that do not divide evenly leave the fullest card ceil(parts / tp) of them (vLLM
    and SGLang refuse such a split), never less than one copy. None: no copies (each card keeps whole
    caches of its own sequences, as data-parallel attention does)."""
    if split_heads is None:
        return 1.0
    return tensor * math.ceil(split_heads / tensor) / split_heads


class SizingFigures(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    params_b: float
    active_params_b: float
    precision: str
    bytes_per_parameter: float
    weights_gb: float
    weights_params_b: float = 0.0
    """The parameters the weights hold: a catalog model's exact count (``params_b_exact``), else
    ``params_b``."""
    weights_layout: WeightsLayout
    """How the weights are held (``calc/weights.py``): a catalog model's own layout, or the shares of the
    catalog model of its kind nearest in active parameters for a model given by its size
    (``kept_share_from``)."""
    kv_bytes_per_token: float | None
    """From the model's attention shape (the catalog's, or the one given for a model given by its size);
    None where neither is known."""
    kv_bytes_per_token_used: float
    """What the sizing and throughput use: the model's figure, or the closest catalog model's. Stored
    once; a tensor-parallel group may keep copies of it (``kv_bytes_per_token_on``)."""
    kv_split_heads: int | None
    """The parts a tensor-parallel group divides a token's KV cache into (``kv_copies``): the KV heads of
    grouped-query attention (the stand-in's for a model of unknown shape), 1 for latent attention; None:
    no copies (data-parallel attention)."""
    kv_latent: bool = False
    """Latent attention: one compressed latent a token, which every card of a group keeps whole."""
    kv_estimated_from: str | None
    """The catalog model whose KV figure stands in for an unknown model."""
    attention_flops_per_token_pair: float
    """Attention FLOPs for one query token against one earlier token, over all layers and heads
    (``attention_flops_per_token_pair``): a prompt of s tokens costs this times s²/2 in prefill, and a
    decode step this times the context per sequence. The stand-in model's for a model of unknown shape."""
    decode_attention_flops_per_token_pair: float
    """The same for one decode step (``decode_attention_flops_per_token_pair``)."""
    num_layers: int
    """Transformer layers, each paying a fixed time per forward pass; the stand-in model's for a model of
    unknown shape."""
    hidden_size: int
    """The width of the activations a layer passes on (what a tensor-parallel all-reduce sends per
    token); the stand-in model's for a model of unknown shape."""
    activations: ReplicaActivations
    """What the engine's activation memory goes by (``ServingEngine.reserve_bytes_per_card``): the width
    it is accounted by (``activation_width``) and whether the model is a mixture of experts."""
    num_experts: int | None
    """Routed experts per layer of a mixture of experts, and how many each token uses; None for a dense
    model and for a model given by its size."""
    experts_per_token: int | None
    context_tokens: int
    serving_engine: str
    kv_bytes_per_element: float
    """1 for an FP8 KV cache, else the model's activation type (2 for 16 bit)."""
    fits: tuple[GpuFit, ...]
    card_counts: tuple[int, ...] = ()
    """The card counts a replica may run on: the catalog's whose tensor-parallel group the engine can
    split the model's heads over (``loadable_counts``)."""
    refused_fp8_splits: Fp8Checkpoint | None = None
    """The block-quantized FP8 checkpoint the workload runs, where the serving engine refuses a tensor
    split that cuts its blocks (``ServingEngine.fp8_block_split_refused``); None otherwise."""
    sixteen_bit_checkpoint_gb: float | None = None
    """The 16-bit checkpoint a replica quantizes as it loads it, where it does (``calc/checkpoint.py``)."""
    shared_prefix_tokens: int = 0
    """The prompt start every request of the workload shares (``ResolvedWorkload``): a replica whose
    engine caches prefixes keeps its KV cache once and prefills the rest of each prompt
    (``performance.replica_roofline``). Not part of the model's sizing: the workload sets it."""

    def refuses_tensor_split(self, tensor: int) -> bool:
        """The serving engine will not load the checkpoint over ``tensor`` cards of tensor parallelism (one
        card splits nothing)."""
        return (
            tensor > 1
            and self.refused_fp8_splits is not None
            and self.refused_fp8_splits.splits_a_block(tensor)
        )

    def loadable_tensor_split(self, tensor: int) -> int:
        """The most cards of tensor parallelism, halving ``tensor``, the engine loads the checkpoint
        over."""
        while self.refuses_tensor_split(tensor):
            tensor //= 2
        return tensor

    def kv_copies_on(self, tensor: int) -> float:
        """Copies of a token's KV cache a tensor-parallel group of ``tensor`` cards keeps (``kv_copies``)."""
        return kv_copies(self.kv_split_heads, tensor)

    def kv_bytes_per_token_on(self, tensor: int) -> float:
        """A token's KV cache over a tensor-parallel group of ``tensor`` cards, copies included."""
        return self.kv_bytes_per_token_used * self.kv_copies_on(tensor)


def kv_element_bytes(knowledge: Knowledge, precision: str, engine: ServingEngine) -> float:
    """The KV cache's bytes per element under the engine's default: FP8 where the engine runs an FP8
    cache beside FP8 weights, else the model's activation type."""
    kv = knowledge.sizing.kv_cache
    if precision == "fp8" and engine.kv_cache_fp8_with_fp8_weights:
        return kv.fp8_bytes_per_element
    return kv.bytes_per_element_by_precision[precision]  # type: ignore[index]


SIZINGS_KEPT = 32
"""Model sizings cached (one store for every knowledge base, keyed by it): a portfolio uses a few models
in a few precisions."""


@per_object(entries=SIZINGS_KEPT)
def size_model(
    knowledge: Knowledge,
    params_b: float,
    active_params_b: float,
    precision: str,
    model: ModelShape | None,
    context_tokens: int,
    engine_id: str = "vllm",
    kv_bytes_per_element: float | None = None,
    gpu_id: str | None = None,
    /,
) -> SizingFigures:
    """Weights, KV cache and card counts on every GPU under a serving engine's defaults
    (``kv_bytes_per_element`` replaces the engine's KV precision; ``gpu_id``: on that GPU only, as a
    published measurement is run). The same for every workload with this model, precision, context and
    engine, so cached (the figures are frozen)."""
    engine = knowledge.serving_engine(engine_id)
    bytes_per_parameter = knowledge.bytes_per_parameter(precision)
    # A catalog model's weights are its exact parameter count (Qwen2.5-7B: 7.62B), not the size it is
    # named by, nor a size given beside its ID (within the catalog's tolerance it is the same model); a
    # model given by its size alone is taken as given.
    catalog = model if isinstance(model, ModelConfig) else None
    weighed = (catalog.params_b_exact if catalog is not None else None) or params_b
    layout = weights_layout(
        knowledge,
        catalog or nearest_of_its_kind(knowledge, params_b, active_params_b),
        weighed,
        precision,
        None if catalog is not None else active_params_b,
    )
    weights = layout.weights_gb
    element = kv_bytes_per_element or kv_element_bytes(knowledge, precision, engine)
    kv_bytes = kv_bytes_per_token(model, element) if model is not None else None
    stand_in = None if model is not None else nearest_catalog_model(knowledge, params_b)
    kv_used = kv_bytes if kv_bytes is not None else kv_bytes_per_token(stand_in, element)  # type: ignore[arg-type]
    node_gpus = knowledge.sizing.card_counts.node_gpus
    every = knowledge.sizing.card_counts.counts
    counts = loadable_counts(every, model, node_gpus)
    concurrency = knowledge.throughput.concurrency
    kv_tokens_needed = concurrency.min_sequences_at_full_context * context_tokens
    kv_tokens_light = concurrency.min_sequences_under_light_load * context_tokens
    split_heads = kv_split_heads(model or stand_in)  # type: ignore[arg-type]

    def kv_bytes_on(cards: int) -> float:
        return kv_used * kv_copies(split_heads, parallelism(node_gpus, cards)[0])

    width = hidden_size(model or stand_in)  # type: ignore[arg-type]
    activations = ReplicaActivations(
        activation_width(model or stand_in),  # type: ignore[arg-type]
        model is not None and model.num_experts is not None,
    )
    fits = tuple(
        fit_gpu(
            gpu,
            engine,
            weights * 1e9,
            counts,
            kv_bytes_on,
            kv_tokens_needed,
            kv_tokens_light,
            activations,
            every,
        )
        for gpu in knowledge.gpus.gpus
        if gpu_id in (None, gpu.id)
    )
    return trusted(
        SizingFigures,
        params_b=float(params_b),
        active_params_b=float(active_params_b),
        precision=precision,
        bytes_per_parameter=bytes_per_parameter,
        weights_gb=round(weights, 6),
        weights_params_b=float(weighed),
        weights_layout=layout,
        kv_bytes_per_token=kv_bytes,
        kv_bytes_per_token_used=kv_used,
        kv_split_heads=split_heads,
        kv_latent=(model or stand_in).attention == "mla",  # type: ignore[union-attr]
        kv_estimated_from=stand_in.id if stand_in is not None else None,
        attention_flops_per_token_pair=attention_flops_per_token_pair(model or stand_in),  # type: ignore[arg-type]
        decode_attention_flops_per_token_pair=decode_attention_flops_per_token_pair(model or stand_in),  # type: ignore[arg-type]
        num_layers=(model or stand_in).num_layers,  # type: ignore[union-attr]
        hidden_size=width,
        activations=activations,
        num_experts=model.num_experts if model is not None else None,
        experts_per_token=model.experts_per_token if model is not None else None,
        context_tokens=context_tokens,
        serving_engine=engine.id,
        kv_bytes_per_element=element,
        fits=fits,
        card_counts=counts,
        refused_fp8_splits=model.fp8_checkpoint
        if model is not None and precision == "fp8" and engine.fp8_block_split_refused
        else None,
        sixteen_bit_checkpoint_gb=sixteen_bit_checkpoint_gb(knowledge, weighed, precision, model, engine.id),
        shared_prefix_tokens=0,
    )
