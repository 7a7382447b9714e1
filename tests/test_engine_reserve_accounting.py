"""TensorRT-LLM's runtime reserve goes by its memory accounting (knowledge/throughput.yaml,
reserve_by_accounting, NVIDIA aiconfigurator's breakdown): 551 MiB of CUDA context and libraries, NCCL's
buffers of 0, 342, 392 and 392 MiB on 1, 2, 4 and 8 cards, and one forward pass's activations of
max_num_tokens (8,192) x the model's width x 22, 13, 10 and 10 bytes on 1, 2, 4 and 8 cards (44, 26, 20,
20 for a mixture of experts), at least 70 MiB. It replaced a flat 3.5 GiB on every card, which charged an
L4 what an H100 keeps. Every figure below is worked out by hand from those."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.engines import (
    GIB,
    ReplicaActivations,
    ReserveByAccounting,
    ServingEngine,
)
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

KNOWLEDGE = load_knowledge()
TRTLLM = KNOWLEDGE.serving_engine("trtllm")
MIB = 2**20


@pytest.mark.parametrize(
    ("gpu_id", "cards", "activations", "mib"),
    [
        # Llama 3.1 70B (8,192 wide) on one H100: 551 + 0 + 8,192 x 8,192 x 22 bytes (1,408 MiB).
        ("h100-sxm", 1, ReplicaActivations(8192, False), 1_959),
        # On 2: 551 + 342 + 8,192 x 8,192 x 13 bytes (832 MiB).
        ("h100-sxm", 2, ReplicaActivations(8192, False), 1_725),
        # Llama 3.1 405B (16,384 wide) on 8: 551 + 392 + 8,192 x 16,384 x 10 bytes (1,280 MiB).
        ("h200", 8, ReplicaActivations(16384, False), 2_223),
        # Two stages of 8 take the 8-card figures.
        ("h200", 16, ReplicaActivations(16384, False), 2_223),
        # Llama 3.1 8B (4,096 wide) on an L4: 551 + 8,192 x 4,096 x 22 bytes (704 MiB), not 3,584 MiB.
        ("l4", 1, ReplicaActivations(4096, False), 1_255),
        # Mixtral 8x7B (4,096 wide, a mixture of experts) on one H100: 551 + 8,192 x 4,096 x 44 bytes.
        ("h100-sxm", 1, ReplicaActivations(4096, True), 1_959),
        # A 4-card group of Mixtral: 551 + 392 + 8,192 x 4,096 x 20 bytes (640 MiB).
        ("h100-sxm", 4, ReplicaActivations(4096, True), 1_583),
    ],
)
def test_tensorrt_llm_reserve_follows_its_accounting(
    gpu_id: str, cards: int, activations: ReplicaActivations, mib: float
) -> None:
    reserve = TRTLLM.reserve_bytes_per_card(KNOWLEDGE.gpu(gpu_id).memory_bytes, cards, activations)
    assert reserve / MIB == mib


def test_small_activations_take_the_minimum() -> None:
    """A width of 256 on one card: 8,192 x 256 x 22 bytes is 44 MiB, below the 70 MiB minimum."""
    assert TRTLLM.reserve_bytes_per_card(24 * GIB, 1, ReplicaActivations(256, False)) / MIB == 551 + 70


def test_llama_70b_fp8_on_one_h100_keeps_9_38_gib_of_kv_cache() -> None:
    """85,899,345,920 bytes (80 GiB) - 72,651,346,000 of weights (68.45B at 1 byte, the 16-bit embedding and
    lm_head 2 x 128,256 x 8,192 x 2 bytes) - 2,054,160,384 (1,959 MiB) = 11,193,839,536 bytes, x 0.90 =
    10,074,455,582 bytes (9.38 GiB); the flat 3.5 GiB left 8,540,913,182 (7.95 GiB)."""
    model = KNOWLEDGE.model("llama-3.1-70b")
    figures = size_model(KNOWLEDGE, model.params_b, model.active_params_b, "fp8", model, 8192, "trtllm")
    cache = TRTLLM.kv_cache_bytes(
        KNOWLEDGE.gpu("h100-sxm").memory_bytes, figures.weights_gb * 1e9, 1, figures.activations
    )
    assert (figures.weights_gb, round(cache)) == (72.651346, 10_074_455_582)


@pytest.mark.parametrize(
    ("model_id", "width"),
    [
        # Qwen3-235B-A22B: 64 query heads x 128 = 8,192, twice its 4,096 hidden size, as aiconfigurator
        # multiplies it: on 8 cards 8,192 x 8,192 x 20 bytes (1,280 MiB), not 640.
        ("qwen3-235b-a22b", 8192),
        # Llama 3.1 70B: 64 x 128, its hidden size.
        ("llama-3.1-70b", 8192),
        # DeepSeek-R1's latent attention: its 7,168 hidden size, not 128 heads x 128.
        ("deepseek-r1", 7168),
    ],
)
def test_the_activations_are_as_wide_as_the_query_heads(model_id: str, width: int) -> None:
    model = KNOWLEDGE.model(model_id)
    figures = size_model(KNOWLEDGE, model.params_b, model.active_params_b, "fp8", model, 8192, "trtllm")
    assert figures.activations.width == width
    if model_id == "qwen3-235b-a22b":
        # 551 MiB + NCCL's 392 MiB + 1,280 MiB of activations a card on 8.
        reserve = TRTLLM.reserve_bytes_per_card(KNOWLEDGE.gpu("h200").memory_bytes, 8, figures.activations)
        assert reserve / MIB == 551 + 392 + 1_280


def accounting(**changes: object) -> ReserveByAccounting:
    base: dict[str, object] = {
        "context_mib": 551,
        "communication_mib_by_cards": {"1": 0, "2": 342},
        "bytes_per_token_and_width": {"1": 22, "2": 13},
        "mixture_bytes_per_token_and_width": {"1": 44, "2": 26},
        "min_activation_mib": 70,
    }
    return ReserveByAccounting.model_validate({**base, **changes})


def test_every_table_starts_at_one_card() -> None:
    assert accounting().bytes_per_card(4, 1024, ReplicaActivations(1024, False)) == (551 + 342 + 70) * MIB
    with pytest.raises(ValidationError, match="every table gives its figure for one card"):
        accounting(communication_mib_by_cards={"2": 342})


def test_the_accounting_comes_with_its_source_and_one_step_size() -> None:
    data = TRTLLM.model_dump()
    with pytest.raises(ValidationError, match="give reserve_by_accounting with its reserve_source"):
        ServingEngine.model_validate({**data, "reserve_source": None, "reserve_as_of": None})
    with pytest.raises(ValidationError, match="give reserve_source and reserve_as_of together"):
        ServingEngine.model_validate({**data, "reserve_as_of": None})
    with pytest.raises(ValidationError, match="reserve_by_accounting goes by one max_batched_tokens"):
        ServingEngine.model_validate(
            {
                **data,
                "max_batched_tokens_large_gpu": 16384,
                "max_sequences_large_gpu": 4096,
                "large_gpu_min_memory_gib": 70,
            }
        )
