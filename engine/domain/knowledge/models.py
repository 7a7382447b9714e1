"""Model configurations of the knowledge base: the shapes the memory and compute figures are worked out
from (``models.yaml``), each read from the model's public config, and its published FP8 checkpoint."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.knowledge.entries import Citation, PositiveFloat, Sourced, Strict


class Fp8Checkpoint(Sourced):
    """A model's published FP8 checkpoint: in blocks (DeepSeek's and Qwen's fine-grained FP8), one scale
    per ``weight_block`` x ``weight_block`` tile; or with a scale per row or channel (Meta's FP8 Llama
    3.1 405B, ``weight_block`` None), which any tensor split keeps whole."""

    hf_repo: str
    weight_block: int | None = Field(default=None, gt=0)
    split_widths: tuple[int, ...] = ()
    """The widths tensor parallelism divides over a group's cards: the intermediate size of the
    experts and of any dense feed-forward layers. Each card's part must be whole blocks."""

    @model_validator(mode="after")
    def _blocks_split(self) -> Fp8Checkpoint:
        if (self.weight_block is None) != (not self.split_widths):
            raise ValueError(
                "weight_block and split_widths go together: both for a block-quantized checkpoint"
            )
        return self

    def splits_a_block(self, tensor: int) -> bool:
        """A group of ``tensor`` cards leaves a card part of a block of some split width."""
        block = self.weight_block
        return block is not None and any(width % (tensor * block) for width in self.split_widths)


class ModelConfig(Strict):
    id: str
    name: str
    hf_repo: str
    params_b: PositiveFloat
    params_b_exact: PositiveFloat | None
    active_params_b: PositiveFloat
    architecture: str
    attention: Literal["gqa", "mla"]
    num_layers: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    num_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    hidden_size: int = Field(gt=0)
    vocab_size: int = Field(gt=0)
    tie_word_embeddings: bool
    """The output layer (lm_head) is the token embedding's matrix, held once; as config.json states it."""
    kv_lora_rank: int | None = Field(default=None, gt=0)
    qk_rope_head_dim: int | None = Field(default=None, gt=0)
    max_context_tokens: int = Field(gt=0)
    num_experts: int | None = Field(default=None, gt=0)
    experts_per_token: int | None = Field(default=None, gt=0)
    fp8_checkpoint: Fp8Checkpoint | None = None
    """The FP8 checkpoint a workload in FP8 runs, where it is block-quantized (None: none, or per-tensor
    or per-channel scales, which any split keeps whole)."""
    reasoning: bool = False
    """The model thinks before it answers by default (a chain of thought, counted in its output tokens):
    an API of a model that does not is no stand-in for it, nor the other way round (DEP053)."""
    reasoning_source: Citation | None = None
    """Where the model's card says so; required with ``reasoning``."""
    source: Citation
    as_of: dt.date

    @model_validator(mode="after")
    def _shape(self) -> ModelConfig:
        if self.active_params_b > self.params_b:
            raise ValueError("active_params_b cannot exceed params_b")
        if self.attention == "mla" and (self.kv_lora_rank is None or self.qk_rope_head_dim is None):
            raise ValueError("mla attention needs kv_lora_rank and qk_rope_head_dim")
        total = (self.params_b_exact or self.params_b) * 1e9
        if self.embedding_and_output_params >= total:
            raise ValueError("vocab_size x hidden_size leaves no parameters beside the embedding and lm_head")
        if self.reasoning and self.reasoning_source is None:
            raise ValueError("reasoning needs reasoning_source: where the model's card says it thinks first")
        return self

    @property
    def embedding_and_output_params(self) -> int:
        """The token embedding's and the output layer's parameters: vocab_size x hidden_size each, once
        where they are tied."""
        return (1 if self.tie_word_embeddings else 2) * self.vocab_size * self.hidden_size

    @property
    def looked_up_params(self) -> int:
        """The token embedding's parameters where it is a matrix of its own: a forward pass looks rows of
        it up and reads none of the rest (tied, it is the output layer, which every pass reads)."""
        return 0 if self.tie_word_embeddings else self.vocab_size * self.hidden_size
