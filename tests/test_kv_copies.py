"""A tensor-parallel group divides a token's KV cache by KV heads, and a card keeps at least one whole
head: where a model has fewer KV heads than the group has cards, the cache is kept several times (vLLM's
``get_num_kv_heads``: max(1, heads // tp) a card; TensorRT-LLM's trtllm-bench: max(tp, heads)), and latent
attention, which decodes as one KV head, is kept whole on every card. Before, gpu-advisor divided every
cache over the cards: DeepSeek-R1 on 8 H200 held 1,024 requests of 2,000 tokens where vLLM holds 345."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, read_example, run, run_waves, wave_seconds

from gpu_advisor.cli import main
from gpu_advisor.engine.calc.calibration import (
    estimate,
    mixture_of_experts_highest_error,
    own_runs_data_parallel,
)
from gpu_advisor.engine.calc.count_limits import full_context_sequences
from gpu_advisor.engine.calc.gpu_fit import count_with_kv_reserve
from gpu_advisor.engine.calc.sizing import kv_copies, size_model
from gpu_advisor.engine.domain.knowledge.engines import GIB, ReplicaActivations
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
    # memory for weights and cache and 3.5 GiB a card apart. The FP8 weights are 233.85B x 1 byte + the
    # 16-bit embedding and lm_head, 2 x 151,936 x 4,096 x 2 bytes: 236.33466 GB.
    model = KNOWLEDGE.model("qwen3-235b-a22b")
    figures = size_model(KNOWLEDGE, model.params_b, model.active_params_b, "fp8", model, 8192, "vllm")
    token = 2 * 94 * 4 * 128 * 2
    assert (figures.kv_bytes_per_token_used, figures.kv_split_heads) == (token, 4)
    assert figures.kv_bytes_per_token_on(4) == token and figures.kv_bytes_per_token_on(8) == 2 * token
    # Eight cards hold 111 sequences of 8,192 tokens, not the 223 one copy would hold.
    for cards, copies, sequences in ((4, 1, 36), (8, 2, 111)):
        cache = 0.9 * cards * 80 * GIB - 236.33466e9 - cards * 3.5 * GIB
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
    # The 8 H200 the weights need keep the whole latent on each card: (0.9 x 8 x 141 GiB - 672.88 GB (669.18B
    # at 1 byte, the 16-bit embedding and lm_head 2 x 129,280 x 7,168 at 2) - 8 x 3.5 GiB) / (4,000 x 8 x
    # 70,272 bytes) = 172.15 sequences, an eighth of what one copy would hold.
    fit = next(f for f in figures.fits if f.gpu == "h200")
    cache = 0.9 * 8 * 141 * GIB - 672.883358e9 - 8 * 3.5 * GIB
    assert fit.gpus_with_kv_reserve == 8
    assert fit.kv_tokens_capacity == math.floor(cache / (8 * 61 * 576 * 2))
    assert (
        full_context_sequences(KNOWLEDGE, figures, "h200", 8)
        == math.floor(cache / (4000 * 8 * 70_272))
        == 172
    )


def test_a_run_with_data_parallel_attention_keeps_one_copy() -> None:
    """The calibration's runs with data-parallel attention (each card keeps whole caches of its own
    sequences) are estimated without copies: Qwen3-235B on 8 H100 at 1,000 / 1,000 tokens, 15,845 output
    tokens a second as run (14,898 published: +6 %), 12,097 where its 4 KV heads were kept twice over the 8
    cards."""
    (run_dp,) = (
        m for m in KNOWLEDGE.calibration.measurements if m.id == "trtllm-qwen3-235b-a22b-fp8-8xh100-1000-1000"
    )
    assert run_dp.attention_data_parallel
    with_copies = run_dp.model_copy(update={"attention_data_parallel": False})
    one_copy, two_copies = estimate(KNOWLEDGE, run_dp).throughput, estimate(KNOWLEDGE, with_copies).throughput
    assert (round(one_copy or 0), round(two_copies or 0)) == (15_845, 12_097)


def test_the_card_count_for_a_kv_cache_counts_the_copies_of_its_group() -> None:
    # A million tokens of Qwen3-235B's cache (192,512 bytes each) on H100 under vLLM: 4 cards keep 59.2 GB
    # beside the weights, 8 keep 353.4 GB, 16 (two stages of 8) 941.8 GB. One copy would fit in 8 cards
    # (192.5 GB); two copies over a group of 8 (385.0 GB) need 16.
    gpu, engine = KNOWLEDGE.gpu("h100-sxm"), KNOWLEDGE.serving_engine("vllm")
    counts = KNOWLEDGE.sizing.card_counts.counts
    token = 2 * 94 * 4 * 128 * 2
    activations = ReplicaActivations(4096, True)  # not read by vLLM's flat reserve
    one = count_with_kv_reserve(gpu, engine, 235e9, counts, 1_000_000, lambda cards: token, activations)
    copies = count_with_kv_reserve(
        gpu, engine, 235e9, counts, 1_000_000, lambda cards: token * kv_copies(4, min(cards, 8)), activations
    )
    assert (one, copies) == (8, 16)


def test_the_memo_says_where_the_cards_keep_copies_of_the_cache() -> None:
    memo = " ".join(render_memo(run(read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml"))).split())
    assert (
        "which runs up to 224 requests of this length at once in its KV cache. Each of its 2 pipeline stages "
        "is a tensor-parallel group of 8 cards. Under latent attention every card of a group keeps the whole "
        "compressed latent of every sequence, so the KV cache takes 8 times its size, as vLLM, SGLang and "
        "TensorRT-LLM keep it by default; data-parallel attention keeps it once and holds more requests at "
        "once, which this estimate does not assume."
    ) in memo
    chat = " ".join(render_memo(run(read_example(EXAMPLES_DIR / "public-chat.yaml"))).split())
    assert "tensor-parallel group" not in chat


def test_the_memo_names_the_kv_heads_a_group_keeps_twice() -> None:
    # A German Qwen3-235B service with personal data and 30,000-token prompts: the best rental is 8 H100 a
    # replica at Scaleway, one group of 8 cards for the model's 4 KV heads.
    workload = {
        "name": "long-qwen",
        "model": {"name": "qwen3-235b-a22b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 20_000,
        "avg_input_tokens": 30_000,
        "avg_output_tokens": 1_000,
        "company_country": "DE",
        "personal_data": True,
    }
    result = run(workload)
    assert result.best_option is not None and result.best_option.gpu == "h100-sxm"
    plan = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    assert (plan.cards_per_replica, plan.tensor_parallel, plan.kv_cache_copies) == (8, 8, 2.0)
    memo = " ".join(render_memo(result).split())
    assert (
        "Its 8 cards are one tensor-parallel group. The model's 4 KV heads are split over a group's cards, "
        "each head kept whole on 2 of them, so the KV cache takes 2 times its size, as vLLM, SGLang and "
        "TensorRT-LLM keep it by default; a group of at most 4 cards with pipeline stages over the rest, or "
        "data-parallel attention, keeps one copy and holds more requests at once, which this estimate does "
        "not assume."
    ) in memo


def test_size_says_when_the_counts_hold_copies_of_the_cache() -> None:
    runner = CliRunner(env={"COLUMNS": "200"})
    latent = " ".join(
        runner.invoke(main, ["size", "--model", "deepseek-r1", "--precision", "fp8"]).output.split()
    )
    assert (
        "Latent attention: every card of a tensor-parallel group (one per pipeline stage) keeps the whole "
        "cache of every sequence (vLLM, SGLang and TensorRT-LLM without data-parallel attention), so a group "
        "of N cards holds it N times; the counts and batches below count every copy."
    ) in latent
    # Qwen3-235B's 4 KV heads on one group of 8 H100 (--gpu --cards): two copies.
    args = ["size", "--model", "qwen3-235b-a22b", "--precision", "fp8", "--gpu", "h100-sxm", "--cards", "8"]
    qwen = " ".join(runner.invoke(main, [*args, "--requests-per-day", "300000"]).output.split())
    assert (
        "A card keeps whole KV heads, at least one, so a tensor-parallel group of more cards than the "
        "model's 4 KV heads, or one they do not divide, holds copies of the cache (h100-sxm here); the "
        "counts and batches below count every copy."
    ) in qwen
    # Only the rows shown count: at 32,768 tokens the usual H100 replica takes 4 cards (one copy), and the
    # 16-card L40S and RTX 5090 rows that would keep copies are ruled out (NET001) or not shown.
    usual = ["size", "--model", "qwen3-235b-a22b", "--precision", "fp8", "--context-tokens", "32768"]
    assert "copies" not in runner.invoke(main, [*usual, "--requests-per-day", "300000"]).output
    # A multi-query shape (one KV head) is not latent attention.
    mqa = ["size", "--params-b", "40", "--attention-shape", "60,64,1,128", "--precision", "bf16"]
    single = " ".join(runner.invoke(main, [*mqa, "--requests-per-day", "100000"]).output.split())
    assert "Latent attention" not in single
    assert "more cards than the model's 1 KV head, or one they do not divide" in single
    # Llama 3.1 8B has 8 KV heads: no group of one node's cards keeps copies.
    dense = runner.invoke(main, ["size", "--model", "llama-3.1-8b", "--precision", "fp8"]).output
    assert "copies" not in dense and "Latent attention" not in dense


def test_a_batch_decided_on_another_gpu_says_which_and_its_copies() -> None:
    """A US batch of Qwen3-235B in BF16 kept in the building: the cheapest rental is B200, the decision
    8-card H100 servers (470 GB of weights: 8 cards a replica; in FP8, vLLM refuses to split the
    block-quantized checkpoint over 8 and the replicas run on 4). "Load and capacity" works through the
    servers' replicas, their KV copies included, and names the rental only for the comparison."""
    workload = {
        "name": "qwen3-us-onprem-batch",
        "model": {"name": "qwen3-235b-a22b", "precision": "bf16"},
        "requests_per_day": 1_000_000,
        "avg_input_tokens": 3000,
        "avg_output_tokens": 800,
        "load_pattern": "batch",
        "batch_window_hours": 10,
        "personal_data": True,
        "on_premises_required": True,
        "company_country": "US",
    }
    result = run(workload)
    assert (result.decision.deployment, result.decision.gpu, result.best_option.gpu) == (
        "own_hardware",
        "h100-sxm",
        "b200",
    )
    row = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    assert (row.cards_per_replica, row.concurrent_requests, row.kv_cache_copies) == (8, 80, 2.0)
    # Qwen3-235B's own published runs say the estimate may be as much as +19 % too high (TensorRT-LLM's
    # 8 x H100 FP8 run of 5,000 + 500 tokens: 3,822.8 output tokens/s estimated against 3,225 published).
    # 20 replicas would run 50,000 each, 80 at once, 625 full waves of 48.43 s (80 over 1.652
    # requests/s): 8.41 hours, 10.02 with the 209.9 s start and that margin, beyond the 10-hour window.
    # 21 run 47,620 each: 595 full waves and one of 20 (33.57 s), 8.01 hours, 9.56 with the start and
    # the margin.
    assert row.requests_per_second_per_replica is not None
    assert round(row.requests_per_second_per_replica, 3) == 1.652
    overstated = 1 + (mixture_of_experts_highest_error(KNOWLEDGE, "qwen3-235b-a22b") or 0)
    assert overstated == pytest.approx(3822.75 / 3225, abs=1e-5) and round(overstated, 2) == 1.19
    full = 80 / row.requests_per_second_per_replica
    assert (run_waves(1_000_000, 20, 80), run_waves(1_000_000, 21, 80)) == ((625, 0), (595, 20))
    twenty = 625 * full / 3600
    last = wave_seconds(20, "qwen3-235b-a22b", "bf16", "h100-sxm", 8, (3000, 800))
    twenty_one = (595 * full + last) / 3600
    assert row.hours_per_day_running == pytest.approx(twenty_one)
    assert row.run_start_hours is not None and round(row.run_start_hours * 3600, 1) == 209.9
    assert round(twenty, 2) == 8.41 and round(row.run_start_hours + twenty * overstated, 2) == 10.02
    assert round(twenty_one, 2) == 8.01 and round(row.run_start_hours + twenty_one * overstated, 2) == 9.56
    assert (row.replicas, row.gpus_total) == (21, 168)
    memo = " ".join(render_memo(result).split())
    assert (
        "**Capacity** (throughput): one replica of 8 × h100-sxm serves about 1.65 requests/s (1,321 output "
        "tokens/s) with vllm, which runs up to 80 requests of this length at once in its KV cache. Its 8 "
        "cards are one tensor-parallel group. The model's 4 KV heads are split over a group's cards, each "
        "head kept whole on 2 of them, so the KV cache takes 2 times its size"
    ) in memo
    # (209.9 s + 8.01 hours) / 10 hours = 81 %.
    assert (
        "21 replicas do a run's work in 8.0 hours each; with their start before it (210 s), the run takes "
        "81 % of the window, and the count keeps the window even if the estimate is +19 % too high."
    ) in memo
    assert "the count keeps the window even if the estimate is +19 % too high" in memo
    assert "168 GPUs in all. Renting instead, 28 × b200 at runpod community" in memo
    assert "The recommendation runs on h100-sxm instead" not in memo


def test_a_margin_from_runs_with_one_copy_says_so() -> None:
    """DeepSeek-R1's one published run (+16 %) and Qwen3-235B's kept one copy of the KV cache
    (data-parallel attention); Mixtral's runs are tensor-parallel like the estimate."""
    assert own_runs_data_parallel(KNOWLEDGE, "deepseek-r1") and own_runs_data_parallel(
        KNOWLEDGE, "qwen3-235b-a22b"
    )
    assert not own_runs_data_parallel(KNOWLEDGE, "mixtral-8x7b")
    assert not own_runs_data_parallel(KNOWLEDGE, "llama-3.1-8b") and not own_runs_data_parallel(
        KNOWLEDGE, None
    )
    # R1's one run, 8 H200 at 1,024 / 2,048 tokens, is the model's own band.
    (r1_run,) = (m for m in KNOWLEDGE.calibration.measurements if m.model == "deepseek-r1")
    overstated = (estimate(KNOWLEDGE, r1_run).throughput or 0) / (r1_run.output_tokens_per_second or 1)
    assert round(overstated, 2) == 1.16
    memo = " ".join(render_memo(run(read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml"))).split())
    assert (
        "This model is a mixture of experts, whose published throughput the estimate overstates by up to "
        "+16 %: its replicas are sized with that taken off instead. Its published runs all kept one copy of "
        "the KV cache (data-parallel attention), where this estimate counts a tensor-parallel group's "
        "copies, so they check it less closely than that figure suggests."
    ) in memo
    mixtral = {
        "name": "m",
        "model": {"name": "mixtral-8x7b", "precision": "fp8"},
        "requests_per_day": 200_000,
    }
    text = " ".join(render_memo(run(mixtral)).split())
    assert "(the model's own measurements, or every mixture's where it has none)" in text
    assert "data-parallel attention), where this estimate" not in text
