"""Serving-engine profiles: the defaults of vLLM, SGLang and TensorRT-LLM that decide what a replica
holds and runs at once. Each profile is sourced from the engine's own code or documentation."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.choices import ServingEngineId
from gpu_advisor.engine.domain.knowledge.entries import Citation, Sourced
from gpu_advisor.engine.domain.knowledge.gpus import Gpu, GpuVendor

GIB = 2**30


class ServingEngine(Sourced):
    id: ServingEngineId
    name: str
    max_sequences: int = Field(ge=1)
    """Sequences one replica runs at once by default (vLLM ``max_num_seqs``, SGLang
    ``max_running_requests``, TensorRT-LLM ``max_batch_size``)."""
    max_sequences_large_gpu: int | None = Field(default=None, ge=1)
    """A larger default on cards with at least ``large_gpu_min_memory_gib`` (vLLM raises it on
    H100-class cards); None where the engine has one default."""
    large_gpu_min_memory_gib: float | None = Field(default=None, gt=0)
    large_gpu_exceptions: tuple[str, ...] = ()
    """GPU IDs that keep the smaller default although they have the memory (vLLM excludes the A100)."""
    kv_cache_fp8_with_fp8_weights: bool
    """True: an FP8 (or smaller) checkpoint runs an FP8 KV cache by default; False: the cache stays in
    the model's 16-bit activation type unless the checkpoint or the operator says otherwise."""
    fp8_attention_with_fp8_kv_cache: bool
    """Attention runs in FP8 kernels where the KV cache is FP8 (TensorRT-LLM's FP8 context FMHA), else
    in 16-bit."""
    chunked_prefill: bool
    """Long prompts are split into chunks of ``max_batched_tokens`` that share steps with decoding."""
    max_batched_tokens: int = Field(ge=1)
    """Tokens one forward step takes at most (prompt chunks and decode tokens together)."""
    max_batched_tokens_large_gpu: int | None = Field(default=None, ge=1)
    """A larger step on the cards ``max_sequences_large_gpu`` applies to (vLLM: 8,192 tokens against
    2,048); None where the engine has one default."""
    kv_memory_basis: Literal["total", "free_after_weights"]
    """What ``kv_memory_share`` is a share of: the card's whole memory (vLLM's gpu_memory_utilization,
    weights included), or the memory left after the weights and the runtime reserve (TensorRT-LLM's
    free_gpu_memory_fraction)."""
    kv_memory_share: float = Field(gt=0, le=1)
    runtime_reserve_gib_per_card: float = Field(ge=0)
    """Memory per card neither weights nor KV cache may use: activations, CUDA graphs, communication
    buffers."""
    fp8_block_split_refused: bool | None = None
    """The engine refuses to load a block-quantized FP8 checkpoint where tensor parallelism leaves a card
    part of a block (``Fp8Checkpoint.splits_a_block``): True for vLLM and SGLang, whose FP8 layers check
    it as they create their weights; None where it is not known."""
    gpu_vendors: tuple[GpuVendor, ...]
    """The GPU vendors whose cards the engine runs on (TensorRT-LLM: NVIDIA's only)."""
    gpu_vendors_source: Citation
    fp8_needs_fp8_tensor_cores: bool = False
    """An FP8 checkpoint runs only on cards with FP8 tensor cores (TensorRT-LLM: Ada Lovelace, Hopper and
    newer, not Ampere); False where the engine converts it on others (vLLM's weight-only FP8)."""
    fp8_hardware_source: Citation | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _large_gpu_pair(self) -> ServingEngine:
        if (self.max_sequences_large_gpu is None) != (self.large_gpu_min_memory_gib is None):
            raise ValueError("give max_sequences_large_gpu and large_gpu_min_memory_gib together")
        if self.max_batched_tokens_large_gpu is not None and self.large_gpu_min_memory_gib is None:
            raise ValueError("max_batched_tokens_large_gpu needs large_gpu_min_memory_gib")
        if self.fp8_needs_fp8_tensor_cores and self.fp8_hardware_source is None:
            raise ValueError("fp8_needs_fp8_tensor_cores needs its fp8_hardware_source")
        return self

    def runs_on(self, gpu: Gpu) -> bool:
        """The engine runs on this GPU's vendor's cards (``gpu_vendors``)."""
        return gpu.vendor in self.gpu_vendors

    def runs_precision_on(self, gpu: Gpu, precision: str) -> bool:
        """The engine serves weights of ``precision`` on this GPU (``fp8_needs_fp8_tensor_cores``)."""
        return not (precision == "fp8" and self.fp8_needs_fp8_tensor_cores and gpu.fp8_dense_tflops is None)

    def large(self, gpu: Gpu) -> bool:
        """The engine takes its larger defaults on this card (``large_gpu_min_memory_gib``)."""
        return (
            self.large_gpu_min_memory_gib is not None
            and gpu.memory_bytes >= self.large_gpu_min_memory_gib * GIB
            and gpu.id not in self.large_gpu_exceptions
        )

    def max_sequences_on(self, gpu: Gpu) -> int:
        if self.max_sequences_large_gpu is not None and self.large(gpu):
            return self.max_sequences_large_gpu
        return self.max_sequences

    def max_batched_tokens_on(self, gpu: Gpu) -> int:
        if self.max_batched_tokens_large_gpu is not None and self.large(gpu):
            return self.max_batched_tokens_large_gpu
        return self.max_batched_tokens

    def kv_cache_bytes(self, memory_bytes: float, weights_bytes: float, cards: int) -> float:
        """Bytes of KV cache ``cards`` cards of ``memory_bytes`` in all hold beside ``weights_bytes``;
        zero or less when the weights do not fit."""
        reserve = cards * self.runtime_reserve_gib_per_card * GIB
        if self.kv_memory_basis == "total":
            return memory_bytes * self.kv_memory_share - weights_bytes - reserve
        return (memory_bytes - weights_bytes - reserve) * self.kv_memory_share
