"""SGLang's runtime reserve goes by the card's memory and the tensor-parallel degree (its default
mem_fraction_static, knowledge/throughput.yaml reserve_by_card_memory); vLLM keeps a flat 3.5 GiB a card
(TensorRT-LLM's goes by its accounting: test_engine_reserve_accounting.py). Every figure below is worked
out from SGLang's formula: 512 MiB of metadata, 1.5 MiB per token of the prompt chunk (at least 2,048), 2
MiB per batch size of the largest decode CUDA graph, 8 MiB per prompt size captured as a prefill CUDA
graph (50 sizes up to 4,096 tokens, 58 up to 8,192, 74 up to 16,384) and 128 MiB per card of tensor
parallelism, at least 10 GiB on cards over 60 GiB."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_advisor.engine.domain.knowledge.engines import ReplicaActivations, ReserveByCardMemory, ServingEngine
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

KNOWLEDGE = load_knowledge()
SGLANG = KNOWLEDGE.serving_engine("sglang")
MIB = 2**20
# Llama 3.1 70B's activations: SGLang's and vLLM's reserves do not go by them.
ACTIVATIONS = ReplicaActivations(8192, False)


def reserve_mib(engine: ServingEngine, gpu_id: str, cards: int) -> float:
    return engine.reserve_bytes_per_card(KNOWLEDGE.gpu(gpu_id).memory_bytes, cards, ACTIVATIONS) / MIB


@pytest.mark.parametrize(
    ("gpu_id", "cards", "mib"),
    [
        # 80 GiB: chunk 8,192, graph batch 256 below 4 cards, 58 prefill sizes: 512 + 12,288 + 512 + 464
        # + 128.
        ("h100-sxm", 1, 13_904),
        # From 4 cards the graph's batch is 512: 512 + 12,288 + 1,024 + 464 + 512.
        ("h100-sxm", 4, 14_800),
        ("h100-sxm", 8, 15_312),
        # 141 GiB, the same tier as H100 (below 160 GiB): 512 + 12,288 + 512 + 464 + 256.
        ("h200", 2, 14_032),
        # 192 GB (179 GiB): chunk 16,384, graph batch 512, 74 prefill sizes: 512 + 24,576 + 1,024 + 592
        # + 128.
        ("b200", 1, 26_832),
        ("mi300x", 1, 26_832),
        # 48 GB (44.7 GiB): chunk 4,096, graph batch 32, 50 prefill sizes: 512 + 6,144 + 64 + 400 + 128;
        # no floor below 60 GiB.
        ("l40s", 1, 7_248),
        # 24 GB (22.4 GiB): chunk 4,096, graph batch 48: 512 + 6,144 + 96 + 400 + 128.
        ("l4", 1, 7_280),
        # The same card from 4 cards on: graph batch 160: 512 + 6,144 + 320 + 400 + 512.
        ("l4", 4, 7_888),
    ],
)
def test_sglang_reserve_by_card_memory_and_cards(gpu_id: str, cards: int, mib: float) -> None:
    assert reserve_mib(SGLANG, gpu_id, cards) == mib


@pytest.mark.parametrize(
    ("gpu_id", "tokens"), [("l4", 4096), ("l40s", 4096), ("h100-sxm", 8192), ("b200", 16384)]
)
def test_sglang_prompt_chunk_by_card_memory(gpu_id: str, tokens: int) -> None:
    assert SGLANG.max_batched_tokens_on(KNOWLEDGE.gpu(gpu_id)) == tokens


def test_vllm_keeps_a_flat_reserve() -> None:
    engine = KNOWLEDGE.serving_engine("vllm")
    assert reserve_mib(engine, "l4", 1) == reserve_mib(engine, "b200", 8) == 3.5 * 1024


def test_sglang_kv_cache_is_the_card_memory_less_weights_and_the_reserve() -> None:
    """Four H100 (80 GiB each) with 200 GiB of weights: 320 GiB - 200 GiB - 4 x 14,800 MiB = 63,680 MiB
    of KV cache (SGLang's whole-card basis at a share of 1)."""
    cache = SGLANG.kv_cache_bytes(4 * KNOWLEDGE.gpu("h100-sxm").memory_bytes, 200 * 2**30, 4, ACTIVATIONS)
    assert cache == 63_680 * MIB


def formula(**changes: object) -> ReserveByCardMemory:
    base: dict[str, object] = {
        "tiers": [
            {
                "below_gib": 40,
                "chunked_prefill_tokens": 1024,
                "decode_graph_batch": 8,
                "decode_graph_batch_larger": 8,
            },
            {"chunked_prefill_tokens": 1024, "decode_graph_batch": 8, "decode_graph_batch_larger": 8},
        ],
        "metadata_mib": 512,
        "activation_mib_per_token": 1.5,
        "min_activation_tokens": 2048,
        "graph_mib_per_batch": 2,
        "parallel_mib_per_card": 128,
        "larger_graph_from_cards": 4,
        "floor_gib": 10,
        "floor_above_gib": 60,
    }
    return ReserveByCardMemory.model_validate({**base, **changes})


def test_the_floor_applies_above_its_card_size_only() -> None:
    """A chunk of 1,024 tokens counts as 2,048: 512 + 3,072 + 16 + 128 = 3,728 MiB; on a card over 60 GiB
    the floor lifts it to 10,240."""
    reserve = formula()
    assert reserve.bytes_per_card(40 * 2**30, 1) / MIB == 3_728
    assert reserve.bytes_per_card(60 * 2**30, 1) / MIB == 3_728
    assert reserve.bytes_per_card(61 * 2**30, 1) / MIB == 10_240


@pytest.mark.parametrize(
    ("tiers", "message"),
    [
        (
            [{"chunked_prefill_tokens": 1, "decode_graph_batch": 1, "decode_graph_batch_larger": 1}] * 2,
            "every tier but the last gives below_gib",
        ),
        (
            [
                {
                    "below_gib": 40,
                    "chunked_prefill_tokens": 1,
                    "decode_graph_batch": 1,
                    "decode_graph_batch_larger": 1,
                },
                {
                    "below_gib": 20,
                    "chunked_prefill_tokens": 1,
                    "decode_graph_batch": 1,
                    "decode_graph_batch_larger": 1,
                },
                {"chunked_prefill_tokens": 1, "decode_graph_batch": 1, "decode_graph_batch_larger": 1},
            ],
            "tiers ascend by below_gib",
        ),
    ],
)
def test_tiers_must_ascend_and_end_open(tiers: list[dict[str, object]], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        formula(tiers=tiers)


ONE_RESERVE = (
    "give exactly one of runtime_reserve_gib_per_card, reserve_by_card_memory and reserve_by_accounting"
)


def test_an_engine_gives_one_reserve_not_two_nor_none() -> None:
    data = SGLANG.model_dump()
    with pytest.raises(ValidationError, match=ONE_RESERVE):
        ServingEngine.model_validate({**data, "runtime_reserve_gib_per_card": 10})
    with pytest.raises(ValidationError, match=ONE_RESERVE):
        ServingEngine.model_validate({**data, "reserve_by_card_memory": None})
    trtllm = KNOWLEDGE.serving_engine("trtllm").model_dump()
    with pytest.raises(ValidationError, match=ONE_RESERVE):
        ServingEngine.model_validate({**trtllm, "runtime_reserve_gib_per_card": 3.5})


def test_a_weight_only_moe_flag_comes_with_its_source() -> None:
    data = KNOWLEDGE.serving_engine("vllm").model_dump()
    assert data["weight_only_fp8_moe_flag"] == "--moe-backend marlin"
    with pytest.raises(ValidationError, match="give weight_only_fp8_moe_flag and weight_only_fp8_moe_source"):
        ServingEngine.model_validate({**data, "weight_only_fp8_moe_source": None})
    assert data["weight_only_fp8_moe_since"] == "0.17.0"
    with pytest.raises(ValidationError, match="give weight_only_fp8_moe_since and its source together"):
        ServingEngine.model_validate({**data, "weight_only_fp8_moe_since_source": None})
    with pytest.raises(ValidationError, match="weight_only_fp8_moe_since needs weight_only_fp8_moe_flag"):
        ServingEngine.model_validate(
            {**data, "weight_only_fp8_moe_flag": None, "weight_only_fp8_moe_source": None}
        )


def test_the_step_s_tokens_come_from_the_tiers_or_the_engine_not_both() -> None:
    """SGLang's prompt chunk goes by the card (its tiers); a flat figure beside them would be a second,
    unread place for the same fact."""
    data = SGLANG.model_dump()
    assert data["max_batched_tokens"] is None
    with pytest.raises(ValidationError, match="give max_batched_tokens, or reserve_by_card_memory"):
        ServingEngine.model_validate({**data, "max_batched_tokens": 8192})
    vllm = KNOWLEDGE.serving_engine("vllm").model_dump()
    with pytest.raises(ValidationError, match="give max_batched_tokens, or reserve_by_card_memory"):
        ServingEngine.model_validate({**vllm, "max_batched_tokens": None})
