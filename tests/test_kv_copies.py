"""A tensor-parallel group divides a token's KV cache by KV heads, and a card keeps at least one whole
head: where a model has fewer KV heads than the group has cards, the cache is kept several times (vLLM's
``get_num_kv_heads``: max(1, heads // tp) a card; TensorRT-LLM's trtllm-bench: max(tp, heads)), and latent
attention, which decodes as one KV head, is kept whole on every card. Before, gpu-advisor divided every
cache over the cards: DeepSeek-R1 on 8 H200 held 1,024 requests of 2,000 tokens where vLLM holds 345."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.cli import main
from gpu_advisor.engine.calc.calibration import estimate
from gpu_advisor.engine.calc.sizing import full_context_sequences, kv_copies, size_model
from gpu_advisor.engine.domain.knowledge.engines import GIB
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo

KNOWLEDGE = load_knowledge()


@pytest.mark.parametrize(
    ("heads", "tensor", "copies"),
    [
        (8, 8, 1.0),
        (8, 4, 1.0),
        (8, 1, 1.0),
        (4, 8, 2.0),
        (4, 4, 1.0),
        (1, 8, 8.0),
        (1, 1, 1.0),
        (None, 8, 1.0),
    ],
)
def test_a_card_keeps_at_least_one_whole_kv_head(heads: int | None, tensor: int, copies: float) -> None:
    assert kv_copies(heads, tensor) == copies


def test_qwen3_on_eight_cards_keeps_its_four_kv_heads_twice() -> None:
    # Qwen3-235B-A22B: 94 layers, 4 KV heads of 128, a 16-bit cache under vLLM: 192,512 bytes a token.
    # On 4 H100 each card keeps one head; on 8 each head is kept on two cards. vLLM keeps 0.9 of the
    # memory for weights and cache and 3.5 GiB a card apart.
    model = KNOWLEDGE.model("qwen3-235b-a22b")
    figures = size_model(KNOWLEDGE, model.params_b, model.active_params_b, "fp8", model, 8192, "vllm")
    token = 2 * 94 * 4 * 128 * 2
    assert (figures.kv_bytes_per_token_used, figures.kv_split_heads) == (token, 4)
    assert figures.kv_bytes_per_token_on(4) == token and figures.kv_bytes_per_token_on(8) == 2 * token
    # Eight cards hold 112 sequences of 8,192 tokens, not the 224 one copy would hold.
    for cards, copies, sequences in ((4, 1, 37), (8, 2, 112)):
        cache = 0.9 * cards * 80 * GIB - 235e9 - cards * 3.5 * GIB
        assert full_context_sequences(KNOWLEDGE, figures, "h100-sxm", cards) == math.floor(
            cache / (8192 * copies * token)
        )
        assert math.floor(cache / (8192 * copies * token)) == sequences


def test_latent_attention_is_kept_whole_on_every_card() -> None:
    model = KNOWLEDGE.model("deepseek-r1")
    figures = size_model(KNOWLEDGE, model.params_b, model.active_params_b, "fp8", model, 4000, "vllm")
    # 61 layers of a 512-wide latent and a 64-wide rotary key, 16 bits under vLLM: 70,272 bytes a token.
    assert (figures.kv_bytes_per_token_used, figures.kv_split_heads) == (61 * 576 * 2, 1)
    assert figures.kv_bytes_per_token_on(8) == 8 * 61 * 576 * 2
    # The 8 H200 the weights need keep the whole latent on each card: (0.9 x 8 x 141 GiB - 671 GB -
    # 8 x 3.5 GiB) / (4,000 x 8 x 70,272 bytes) = 172.98 sequences, an eighth of what one copy would hold.
    fit = next(f for f in figures.fits if f.gpu == "h200")
    cache = 0.9 * 8 * 141 * GIB - 671e9 - 8 * 3.5 * GIB
    assert fit.gpus_with_kv_reserve == 8
    assert fit.kv_tokens_capacity == math.floor(cache / (8 * 61 * 576 * 2))
    assert (
        full_context_sequences(KNOWLEDGE, figures, "h200", 8)
        == math.floor(cache / (4000 * 8 * 70_272))
        == 172
    )


def test_a_run_with_data_parallel_attention_keeps_one_copy() -> None:
    """The calibration's runs with data-parallel attention (each card keeps whole caches of its own
    sequences) are estimated without copies; the same run without it holds fewer requests at once."""
    (run_dp,) = (
        m for m in KNOWLEDGE.calibration.measurements if m.id == "trtllm-qwen3-235b-a22b-fp8-8xh100-1000-1000"
    )
    assert run_dp.attention_data_parallel
    with_copies = run_dp.model_copy(update={"attention_data_parallel": False})
    one_copy, two_copies = estimate(KNOWLEDGE, run_dp).throughput, estimate(KNOWLEDGE, with_copies).throughput
    assert one_copy is not None and two_copies is not None and two_copies < one_copy


def test_the_memo_says_where_the_cards_keep_copies_of_the_cache() -> None:
    memo = " ".join(render_memo(run(read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml"))).split())
    assert (
        "The 8 cards of a tensor-parallel group cannot divide this model's KV cache among them: each keeps "
        "at least one whole KV head (under latent attention the whole compressed latent), so every token's "
        "cache is kept 8 times, as vLLM, SGLang and TensorRT-LLM do by default. Data-parallel attention "
        "keeps it once and holds more requests at once; this estimate does not assume it."
    ) in memo
    chat = " ".join(render_memo(run(read_example(EXAMPLES_DIR / "public-chat.yaml"))).split())
    assert "cannot divide this model's KV cache" not in chat


def test_size_says_when_the_counts_hold_copies_of_the_cache() -> None:
    runner = CliRunner(env={"COLUMNS": "200"})
    latent = " ".join(
        runner.invoke(main, ["size", "--model", "deepseek-r1", "--precision", "fp8"]).output.split()
    )
    assert (
        "Latent attention: every card of a tensor-parallel group keeps the whole cache of every sequence "
        "(vLLM, SGLang and TensorRT-LLM without data-parallel attention), so a group of N cards holds it N "
        "times; the counts and batches below count every copy."
    ) in latent
    # Qwen3-235B's 4 KV heads: its 16-card L40S and RTX 5090 replicas (two stages of 8) keep copies.
    args = ["size", "--model", "qwen3-235b-a22b", "--precision", "fp8", "--context-tokens", "32768"]
    qwen = " ".join(runner.invoke(main, [*args, "--requests-per-day", "300000"]).output.split())
    assert (
        "A card keeps at least one whole KV head, so a tensor-parallel group of more than 4 cards (the "
        "model's KV heads) holds copies of the cache; the counts and batches below count every copy."
    ) in qwen
    # Llama 3.1 8B has 8 KV heads: no group of one node's cards keeps copies.
    dense = runner.invoke(main, ["size", "--model", "llama-3.1-8b", "--precision", "fp8"]).output
    assert "copies" not in dense and "Latent attention" not in dense
