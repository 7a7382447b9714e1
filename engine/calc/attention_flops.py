"""The attention's arithmetic per pair of tokens, and the activations' width, from a model's attention
shape (``sizing.ModelShape``): what the roofline's FLOPs read beside the weights'."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.engine.domain.knowledge.models import ModelConfig

if TYPE_CHECKING:
    from gpu_advisor.engine.calc.sizing import ModelShape


def attention_flops_per_token_pair(model: ModelShape) -> float:
    """FLOPs of one query token attending to one key: a multiply and an add per element of the query-key
    dot product and of the weighted sum of values, for every head of every layer. Multi-head latent
    attention (DeepSeek) computes its queries and keys in the no-position part (``head_dim``) plus the
    rotary part, its values in ``head_dim``."""
    key_dim = model.head_dim + (model.qk_rope_head_dim or 0) if model.attention == "mla" else model.head_dim
    return float(
        FLOPS_PER_MULTIPLY_ADD * model.num_layers * model.num_attention_heads * (key_dim + model.head_dim)
    )


def decode_attention_flops_per_token_pair(model: ModelShape) -> float:
    """The same for a decode step. Grouped-query attention computes as in prefill. Latent attention
    decodes in the absorbed form (vLLM, SGLang and TensorRT-LLM alike): each head's query meets the
    compressed latent and its rotary part directly, and the weighted sum is taken over the latent, so a
    pair costs the latent's width, not the head's."""
    if model.attention != "mla":
        return attention_flops_per_token_pair(model)
    assert model.kv_lora_rank is not None and model.qk_rope_head_dim is not None
    width = (model.kv_lora_rank + model.qk_rope_head_dim) + model.kv_lora_rank
    return float(FLOPS_PER_MULTIPLY_ADD * model.num_layers * model.num_attention_heads * width)


FLOPS_PER_MULTIPLY_ADD = 2


def hidden_size(model: ModelShape) -> int:
    """The activations' width: a catalog model's hidden size where it is recorded, else the attention's
    heads times their width (equal for the dense Llama, Qwen2.5 and Mistral models, and what a given
    multi-head or grouped-query attention shape implies)."""
    recorded = model.hidden_size if isinstance(model, ModelConfig) else None
    return recorded or model.num_attention_heads * model.head_dim


def activation_width(model: ModelShape) -> int:
    """The width a serving engine's activation memory is accounted by (NVIDIA aiconfigurator's ``h`` for
    TensorRT-LLM, which its factors in ``throughput.yaml`` multiply): the query heads times their width,
    which is the hidden size for most models but not all (Qwen3-235B-A22B: 64 x 128 = 8,192 beside its
    4,096); latent attention's hidden size (aiconfigurator's DeepSeek entry takes its head width as 7,168
    / 128)."""
    if isinstance(model, ModelConfig) and model.attention == "mla":
        return hidden_size(model)
    return model.num_attention_heads * model.head_dim
