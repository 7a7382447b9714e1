"""Serving-engine profiles: the defaults of vLLM, SGLang and TensorRT-LLM that decide what a replica
holds and runs at once. Each profile is sourced from the engine's own code or documentation."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal, NamedTuple

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.choices import ServingEngineId
from gpu_advisor.engine.domain.knowledge.entries import Citation, Sourced, Strict
from gpu_advisor.engine.domain.knowledge.gpus import Gpu, GpuVendor

GIB = 2**30
MIB = 2**20


class CardMemoryTier(Strict):
    """The defaults an engine takes on cards below ``below_gib`` GiB (None: every larger card)."""

    below_gib: float | None = Field(default=None, gt=0)
    chunked_prefill_tokens: int = Field(ge=1)
    decode_graph_batch: int = Field(ge=0)
    """The largest decode batch captured as a CUDA graph on fewer than ``larger_graph_from_cards``."""
    decode_graph_batch_larger: int = Field(ge=0)
    """The same from ``larger_graph_from_cards`` cards of tensor parallelism on."""
    prefill_graph_sizes: int = Field(default=0, ge=0)
    """How many prompt sizes up to the chunk are captured as prefill CUDA graphs."""


class ReserveByCardMemory(Strict):
    """A runtime reserve the engine works out from the card's memory and the tensor-parallel degree, as
    SGLang's default ``mem_fraction_static`` does: metadata, activations for one prompt chunk, the decode
    and prefill CUDA graphs and a share per card of tensor parallelism, with a floor on large cards (all
    in MiB)."""

    tiers: tuple[CardMemoryTier, ...] = Field(min_length=1)
    metadata_mib: float = Field(ge=0)
    activation_mib_per_token: float = Field(ge=0)
    min_activation_tokens: int = Field(ge=0)
    graph_mib_per_batch: float = Field(ge=0)
    prefill_graph_mib_per_size: float = Field(default=0, ge=0)
    parallel_mib_per_card: float = Field(ge=0)
    larger_graph_from_cards: int = Field(ge=1)
    floor_gib: float = Field(ge=0)
    floor_above_gib: float = Field(ge=0)

    @model_validator(mode="after")
    def _tiers_ascend(self) -> ReserveByCardMemory:
        bounds = [tier.below_gib for tier in self.tiers]
        if bounds[-1] is not None or None in bounds[:-1]:
            raise ValueError("every tier but the last gives below_gib; the last covers every larger card")
        if bounds[:-1] != sorted(bounds[:-1]) or len(set(bounds)) != len(bounds):  # type: ignore[type-var]
            raise ValueError("tiers ascend by below_gib")
        return self

    def tier(self, card_bytes: float) -> CardMemoryTier:
        return next(t for t in self.tiers if t.below_gib is None or card_bytes < t.below_gib * GIB)

    def bytes_per_card(self, card_bytes: float, cards: int) -> float:
        tier = self.tier(card_bytes)
        graph = (
            tier.decode_graph_batch_larger
            if cards >= self.larger_graph_from_cards
            else tier.decode_graph_batch
        )
        mib = (
            self.metadata_mib
            + self.activation_mib_per_token * max(tier.chunked_prefill_tokens, self.min_activation_tokens)
            + self.graph_mib_per_batch * graph
            + self.prefill_graph_mib_per_size * tier.prefill_graph_sizes
            + self.parallel_mib_per_card * cards
        )
        if card_bytes > self.floor_above_gib * GIB:
            mib = max(mib, self.floor_gib * 1024)
        return mib * MIB


CardCount = Annotated[str, Field(pattern=r"^[1-9][0-9]*$")]
"""A card count as a table's key (YAML keys are text)."""


class ReplicaActivations(NamedTuple):
    """What a replica's activation memory goes by (``ReserveByAccounting``): the width of the activations a
    layer passes on and whether the model is a mixture of experts."""

    width: int
    mixture: bool


class ReserveByAccounting(Strict):
    """A runtime reserve worked out as the engine's memory accounting has it (TensorRT-LLM, by NVIDIA
    aiconfigurator's breakdown): the CUDA context and libraries, the all-reduce buffers of a
    tensor-parallel group, and the activations of one forward pass of ``max_batched_tokens`` tokens,
    ``bytes_per_token_and_width`` bytes for every token and unit of the activations' width (a mixture of
    experts' by its own table), at least ``min_activation_mib`` (all per card). Keyed by the card count
    of the group; a larger group takes the largest count's figure."""

    context_mib: float = Field(ge=0)
    communication_mib_by_cards: dict[CardCount, float] = Field(min_length=1)
    bytes_per_token_and_width: dict[CardCount, float] = Field(min_length=1)
    mixture_bytes_per_token_and_width: dict[CardCount, float] = Field(min_length=1)
    min_activation_mib: float = Field(ge=0)

    @model_validator(mode="after")
    def _from_one_card(self) -> ReserveByAccounting:
        tables = (
            self.communication_mib_by_cards,
            self.bytes_per_token_and_width,
            self.mixture_bytes_per_token_and_width,
        )
        if any("1" not in table for table in tables):
            raise ValueError("every table gives its figure for one card")
        return self

    @staticmethod
    def _at(table: dict[CardCount, float], cards: int) -> float:
        return table[str(max(int(count) for count in table if int(count) <= cards))]

    def bytes_per_card(self, cards: int, tokens: int, activations: ReplicaActivations) -> float:
        table = (
            self.mixture_bytes_per_token_and_width if activations.mixture else self.bytes_per_token_and_width
        )
        activation = max(tokens * activations.width * self._at(table, cards), self.min_activation_mib * MIB)
        return (self.context_mib + self._at(self.communication_mib_by_cards, cards)) * MIB + activation


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
    prefix_caching: bool
    """A prompt's start that an earlier request's KV cache holds is not computed again (vLLM's automatic
    prefix caching, SGLang's radix cache, TensorRT-LLM's KV block reuse): a workload's
    ``shared_prefix_tokens`` are prefilled once, not with every request."""
    prefix_caching_source: Citation
    start_seconds: float | None = Field(default=None, ge=0, le=3600)
    """Seconds the engine takes to be ready beyond loading the weights, at best (its compiled graphs
    cached, the weights on local disk): what each batch run pays on its cards beside the weights' load.
    None where no measurement is sourced: not counted, and the memo says so."""
    start_source: Citation | None = None
    start_as_of: dt.date | None = None
    """When ``start_source`` was read: the date the memo's sources list the start with."""
    start_stand_in: ServingEngineId | None = None
    """Where the catalog has no measurement of the engine's start: the engine whose measured start stands
    in for it (what every engine does at start, process and CUDA start, memory profiling and CUDA graph
    capture, is no faster for want of a figure), said so where it is used."""
    max_batched_tokens: int | None = Field(default=None, ge=1)
    """Tokens one forward step takes at most (prompt chunks and decode tokens together); None where
    ``reserve_by_card_memory`` gives it by the card."""
    max_batched_tokens_large_gpu: int | None = Field(default=None, ge=1)
    """A larger step on the cards ``max_sequences_large_gpu`` applies to (vLLM: 8,192 tokens against
    2,048); None where the engine has one default."""
    kv_memory_basis: Literal["total", "free_after_weights"]
    """What ``kv_memory_share`` is a share of: the card's whole memory (vLLM's gpu_memory_utilization,
    weights included), or the memory left after the weights and the runtime reserve (TensorRT-LLM's
    free_gpu_memory_fraction)."""
    kv_memory_share: float = Field(gt=0, le=1)
    runtime_reserve_gib_per_card: float | None = Field(default=None, ge=0)
    """Memory per card neither weights nor KV cache may use: activations, CUDA graphs, communication
    buffers; None where ``reserve_by_card_memory`` works it out per card and card count."""
    reserve_by_card_memory: ReserveByCardMemory | None = None
    """The reserve and the prompt chunk by the card's memory (SGLang), in place of
    ``runtime_reserve_gib_per_card`` and ``max_batched_tokens``."""
    reserve_by_accounting: ReserveByAccounting | None = None
    """The reserve by the engine's memory accounting, from the card count, ``max_batched_tokens`` and the
    model's activations (TensorRT-LLM), in place of ``runtime_reserve_gib_per_card``."""
    reserve_source: Citation | None = None
    """Where the reserve's figures come from (``reserve_by_accounting``'s, or the log
    ``runtime_reserve_gib_per_card`` is checked against), read on ``reserve_as_of``."""
    reserve_as_of: dt.date | None = None
    fp8_block_split_refused: bool | None = None
    """The engine refuses to load a block-quantized FP8 checkpoint where tensor parallelism leaves a card
    part of a block (``Fp8Checkpoint.splits_a_block``): True for vLLM and SGLang, whose FP8 layers check
    it as they create their weights; None where it is not known."""
    gpu_vendors: tuple[GpuVendor, ...]
    """The GPU vendors whose cards the engine runs on (TensorRT-LLM: NVIDIA's only)."""
    gpu_vendors_source: Citation
    fp8_needs_fp8_tensor_cores: bool = False
    """An FP8 checkpoint runs only on cards with FP8 tensor cores (TensorRT-LLM: Ada Lovelace, Hopper and
    newer, not Ampere); False where the engine converts it on others (vLLM's and SGLang's weight-only
    FP8)."""
    fp8_hardware_source: Citation | None = None
    fp8_moe_needs_fp8_tensor_cores: bool = False
    """A mixture of experts' FP8 checkpoint runs only on cards with FP8 tensor cores, where a dense one
    runs weight-only on others (SGLang: its fused-MoE kernels refuse the FP8 type on Ampere)."""
    fp8_moe_hardware_source: Citation | None = None
    weight_only_fp8_moe_flag: str | None = None
    """The option a mixture of experts' FP8 checkpoint needs on a card without FP8 tensor cores, where
    the engine's default expert kernel takes the FP8 type only on cards with them (vLLM: Marlin's
    weight-only kernel); None where none is known."""
    weight_only_fp8_moe_source: Citation | None = None
    weight_only_fp8_moe_since: str | None = None
    """The first release of the engine that has ``weight_only_fp8_moe_flag``: an older one refuses the
    option."""
    weight_only_fp8_moe_since_source: Citation | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _large_gpu_pair(self) -> ServingEngine:
        if (self.max_sequences_large_gpu is None) != (self.large_gpu_min_memory_gib is None):
            raise ValueError("give max_sequences_large_gpu and large_gpu_min_memory_gib together")
        if self.max_batched_tokens_large_gpu is not None and self.large_gpu_min_memory_gib is None:
            raise ValueError("max_batched_tokens_large_gpu needs large_gpu_min_memory_gib")
        reserves = (
            self.runtime_reserve_gib_per_card,
            self.reserve_by_card_memory,
            self.reserve_by_accounting,
        )
        if sum(reserve is not None for reserve in reserves) != 1:
            raise ValueError(
                "give exactly one of runtime_reserve_gib_per_card, reserve_by_card_memory and "
                "reserve_by_accounting"
            )
        if self.reserve_by_accounting is not None and self.reserve_source is None:
            raise ValueError("give reserve_by_accounting with its reserve_source")
        if (self.reserve_source is None) != (self.reserve_as_of is None):
            raise ValueError("give reserve_source and reserve_as_of together")
        if self.reserve_by_accounting is not None and self.max_batched_tokens_large_gpu is not None:
            raise ValueError("reserve_by_accounting goes by one max_batched_tokens")
        if (self.max_batched_tokens is None) == (self.reserve_by_card_memory is None):
            raise ValueError("give max_batched_tokens, or reserve_by_card_memory, whose tiers set it")
        if (self.weight_only_fp8_moe_flag is None) != (self.weight_only_fp8_moe_source is None):
            raise ValueError("give weight_only_fp8_moe_flag and weight_only_fp8_moe_source together")
        if (self.weight_only_fp8_moe_since is None) != (self.weight_only_fp8_moe_since_source is None):
            raise ValueError("give weight_only_fp8_moe_since and its source together")
        if self.weight_only_fp8_moe_since is not None and self.weight_only_fp8_moe_flag is None:
            raise ValueError("weight_only_fp8_moe_since needs weight_only_fp8_moe_flag")
        if (self.start_seconds is None) != (self.start_source is None):
            raise ValueError("give start_seconds and start_source together")
        if (self.start_seconds is None) != (self.start_as_of is None):
            raise ValueError("give start_seconds and start_as_of together")
        if self.start_seconds is not None and self.start_stand_in is not None:
            raise ValueError("give start_seconds or start_stand_in, not both")
        if self.fp8_needs_fp8_tensor_cores and self.fp8_hardware_source is None:
            raise ValueError("fp8_needs_fp8_tensor_cores needs its fp8_hardware_source")
        if self.fp8_moe_needs_fp8_tensor_cores and self.fp8_moe_hardware_source is None:
            raise ValueError("fp8_moe_needs_fp8_tensor_cores needs its fp8_moe_hardware_source")
        return self

    def runs_on(self, gpu: Gpu) -> bool:
        """The engine runs on this GPU's vendor's cards (``gpu_vendors``)."""
        return gpu.vendor in self.gpu_vendors

    def runs_precision_on(self, gpu: Gpu, precision: str, experts: bool = False) -> bool:
        """The engine serves weights of ``precision`` on this GPU (``fp8_needs_fp8_tensor_cores``; for a
        mixture of experts, ``experts``, also ``fp8_moe_needs_fp8_tensor_cores``)."""
        needs = self.fp8_needs_fp8_tensor_cores or (experts and self.fp8_moe_needs_fp8_tensor_cores)
        return not (precision == "fp8" and needs and gpu.fp8_dense_tflops is None)

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
        if self.reserve_by_card_memory is not None:
            return self.reserve_by_card_memory.tier(gpu.memory_bytes).chunked_prefill_tokens
        if self.max_batched_tokens_large_gpu is not None and self.large(gpu):
            return self.max_batched_tokens_large_gpu
        assert self.max_batched_tokens is not None  # the validator gives it without tiers
        return self.max_batched_tokens

    def reserve_bytes_per_card(self, card_bytes: float, cards: int, activations: ReplicaActivations) -> float:
        """Memory each of ``cards`` cards of ``card_bytes`` (one replica's tensor-parallel group) keeps
        for the runtime, for a model of these ``activations``."""
        if self.reserve_by_card_memory is not None:
            return self.reserve_by_card_memory.bytes_per_card(card_bytes, cards)
        if self.reserve_by_accounting is not None:
            assert self.max_batched_tokens is not None  # the validator gives it without tiers
            return self.reserve_by_accounting.bytes_per_card(cards, self.max_batched_tokens, activations)
        assert self.runtime_reserve_gib_per_card is not None  # the validator gives one of the three
        return self.runtime_reserve_gib_per_card * GIB

    def kv_cache_bytes(
        self, memory_bytes: float, weights_bytes: float, cards: int, activations: ReplicaActivations
    ) -> float:
        """Bytes of KV cache ``cards`` cards of ``memory_bytes`` in all hold beside ``weights_bytes``;
        zero or less when the weights do not fit."""
        reserve = cards * self.reserve_bytes_per_card(memory_bytes / cards, cards, activations)
        if self.kv_memory_basis == "total":
            return memory_bytes * self.kv_memory_share - weights_bytes - reserve
        return (memory_bytes - weights_bytes - reserve) * self.kv_memory_share
