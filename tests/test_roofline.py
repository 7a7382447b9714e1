"""The roofline's compute terms worked out by hand: attention in prefill and decode, and the math each
weight precision runs in."""

from __future__ import annotations

import math

import pytest

from gpu_advisor.engine.calc.performance import replica_performance
from gpu_advisor.engine.calc.sizing import attention_flops_per_token_pair, size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

KNOWLEDGE = load_knowledge()


def test_attention_flops_per_token_pair_from_the_model_config() -> None:
    # Llama 3.1 70B: 80 layers x 64 heads x (128 key + 128 value) x 2 FLOPs per multiply-add.
    assert attention_flops_per_token_pair(KNOWLEDGE.model("llama-3.1-70b")) == 2 * 80 * 64 * 256
    # DeepSeek-R1 (latent attention): queries and keys in 128 + 64 (rotary), values in 128; 61 layers,
    # 128 heads.
    assert attention_flops_per_token_pair(KNOWLEDGE.model("deepseek-r1")) == 2 * 61 * 128 * (192 + 128)


def first_token_ms(input_tokens: int, precision: str = "fp8") -> float:
    model = KNOWLEDGE.model("llama-3.1-70b")
    figures = size_model(KNOWLEDGE, 70, 70, precision, model, input_tokens + 100)
    fit = next(f for f in figures.fits if f.gpu == "h100-sxm")
    performance = replica_performance(KNOWLEDGE, figures, fit, input_tokens, 100, cards=4)
    assert performance is not None
    return performance.time_to_first_token_ms


def h100_flops(tflops: float, cards: int) -> float:
    """Usable FLOP/s of ``cards`` H100 in one replica: the compute share, and 10 % lost per doubling of
    the tensor-parallel degree over NVLink (knowledge/throughput.yaml)."""
    return cards * tflops * 1e12 * 0.50 * 0.90 ** math.log2(cards)


@pytest.mark.parametrize(("prompt", "attention_share"), [(100_000, 0.936), (32_000, 0.300)])
def test_long_prompts_pay_for_attention_in_prefill(prompt: int, attention_share: float) -> None:
    # Weights: 2 x 70e9 FLOPs per token. Attention: 2,621,440 per token pair, s^2 / 2 pairs (causal):
    # at 100,000 tokens 1.31e16 FLOPs on top of 1.4e16, +94 %; at 32,000, +30 %.
    linear = prompt * 2 * 70e9
    attention = 2 * 80 * 64 * 256 * prompt**2 / 2
    assert attention / linear == pytest.approx(attention_share, abs=0.001)
    expected_ms = (linear + attention) / h100_flops(1979, 4) * 1000
    assert first_token_ms(prompt) == pytest.approx(expected_ms, rel=1e-9)


def test_four_bit_weights_compute_at_the_sixteen_bit_rate() -> None:
    # INT4 (W4A16) multiplies in FP16: 989 dense TFLOPS on an H100, not the 1,979 of FP8.
    prompt = 2_000
    flops = prompt * 2 * 70e9 + 2 * 80 * 64 * 256 * prompt**2 / 2
    assert first_token_ms(prompt, "int4") == pytest.approx(flops / h100_flops(989, 4) * 1000, rel=1e-9)
    assert first_token_ms(prompt, "fp8") == pytest.approx(flops / h100_flops(1979, 4) * 1000, rel=1e-9)
