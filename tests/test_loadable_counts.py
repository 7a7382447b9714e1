"""Card counts a serving engine loads: a tensor-parallel group must split the query heads evenly and the
KV heads evenly or repeat them evenly (vLLM's 'Total number of attention heads must be divisible by
tensor parallel size'). Qwen2.5-7B's 28 heads were planned on 8 H100 per replica, which vLLM refuses,
and a memo recommended buying servers for that plan."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from helpers import EVALUATED_ON, run

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.calc.sizing import loadable_counts
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

COUNTS = (1, 2, 4, 8, 16)


def shape(heads: int, kv: int) -> SimpleNamespace:
    return SimpleNamespace(num_attention_heads=heads, num_kv_heads=kv)


@pytest.mark.parametrize(
    ("heads", "kv", "loadable"),
    [
        # Qwen2.5-7B: 28 heads do not split over 8 (nor 16 = two stages of 8).
        (28, 4, (1, 2, 4)),
        # Llama 3.1 70B: 64 heads, 8 KV heads, every count.
        (64, 8, COUNTS),
        # 40 query heads and 8 KV heads (Qwen2.5-14B): 8 divides 40.
        (40, 8, COUNTS),
        # 6 KV heads: 4 cards neither split nor repeat them evenly; 8 cards neither.
        (48, 6, (1, 2)),
        # 2 KV heads repeat evenly over 4 or 8 cards.
        (32, 2, COUNTS),
    ],
)
def test_a_count_loads_where_its_group_splits_the_heads(heads: int, kv: int, loadable: tuple) -> None:
    assert loadable_counts(COUNTS, shape(heads, kv), 8) == loadable


def test_a_model_of_unknown_shape_keeps_every_count() -> None:
    assert loadable_counts(COUNTS, None, 8) == COUNTS


def test_qwen_7b_is_never_planned_on_more_than_four_cards_a_replica() -> None:
    result = run(
        {
            "name": "long-prompts",
            "model": {"name": "qwen2.5-7b", "precision": "bf16"},
            "requests_per_day": 200_000,
            "avg_input_tokens": 30_000,
            "avg_output_tokens": 400,
            "max_time_to_first_token_ms": 400,
        }
    )
    assert result.sizing.card_counts == (1, 2, 4)
    planned = [row.cards_per_replica for row in result.sizing.gpus if row.cards_per_replica is not None]
    assert planned and max(planned) <= 4
    assert all((o.gpus // o.replicas) <= 4 for o in result.options if o.replicas)


def test_size_refuses_a_card_count_the_engine_does_not_load() -> None:
    command = ["size", "--model", "qwen2.5-7b", "--precision", "bf16", "--gpu", "h100-sxm", "--cards", "8"]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 2
    assert (
        "--cards: the serving engine does not split this model's 28 attention heads (4 key-value heads) "
        "over 8 cards (a tensor-parallel group of 8); it loads on 1, 2, 4"
    ) in result.output


def test_the_memo_says_which_counts_the_models_heads_allow() -> None:
    result = run(
        {"name": "qwen", "model": {"name": "qwen2.5-7b", "precision": "bf16"}, "requests_per_day": 5000}
    )
    assert (
        "For this model's attention heads (query and key-value) gpu-advisor plans 1, 2, 4 cards a replica: "
        "vLLM, SGLang and TensorRT-LLM split the heads evenly over a tensor-parallel group, and the estimate "
        "runs one pipeline stage per node (more cards would run as pipeline stages within a node, which it "
        "does not model)."
    ) in render_memo(result)
    assert "plant gpu-advisor 1, 2, 4 Karten je Replikat" in render_memo(result, Format.named("de"))


def size_rows(*args: str) -> str:
    result = CliRunner().invoke(main, ["size", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_gpu_is_told_the_head_limit_not_two_nodes() -> None:
    # 200B in BF16 (400 GB) with 28 heads and 4 KV heads: 8 H100 hold the weights (one node, no SIZ002),
    # but the heads split over 4 at most.
    output = size_rows("--params-b", "200", "--attention-shape", "80,28,4,128", "--precision", "bf16")
    (h100,) = [line for line in output.splitlines() if line.startswith("h100-sxm ")]
    assert h100.split()[3] == "8"
    assert "too large for the 4 cards its heads" in h100
    assert "SIZ002" not in output
    # 40 heads and 10 KV heads: 4 cards split neither evenly; one L40S holds a 14B model's weights.
    output = size_rows(
        "--params-b",
        "14",
        "--attention-shape",
        "40,40,10,128",
        "--precision",
        "bf16",
        "--context-tokens",
        "32768",
    )
    (l40s,) = [line for line in output.splitlines() if line.startswith("l40s ")]
    assert l40s.split()[3] == "1"
    assert "no usual count within 2 cards, the most" in l40s


def test_check_names_the_head_limit_not_two_nodes() -> None:
    # 200B in BF16 with 28 heads: 8 H100 hold the weights, but its heads split over 4 cards at most.
    document = ProposalDocument.model_validate(
        {
            "workload": {
                "name": "big",
                "model": {
                    "params_b": 200,
                    "precision": "bf16",
                    "attention_shape": {
                        "num_hidden_layers": 80,
                        "num_attention_heads": 28,
                        "num_key_value_heads": 4,
                        "head_dim": 128,
                    },
                },
                "requests_per_day": 5000,
            },
            "proposal": {
                "name": "eight H100",
                "deployment": "dedicated_cloud",
                "provider": "aws",
                "offer": "p5-reserved-3y-2026-09",
                "gpu": "h100-sxm",
                "gpus": 8,
                "pricing": "reserved",
                "region": "us-east-1",
            },
        }
    )
    result = check_document(document, "big.yaml", 1, EVALUATED_ON)
    (siz008,) = [item for item in result.results if item.rule_id == "SIZ008"]
    assert siz008.status == "fail"
    assert siz008.message == (
        "h100-sxm cannot hold this model with room for the KV cache on the 4 cards its attention heads split "
        "over at most (gpu-advisor plans tensor parallelism within a node, one pipeline stage per node); "
        "choose a GPU with more memory per card or a smaller precision."
    )
