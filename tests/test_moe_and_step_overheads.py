"""The mechanisms added to the roofline for mixtures of experts and small batches, worked out by hand:
a decode step reads only the experts its sequences were routed to, every forward pass pays a fixed time
per layer (more in a mixture-of-experts layer), and a prompt's pass also carries the decoding sequences'
step.

Factors (knowledge/throughput.yaml): 86 % of the memory bandwidth, 58 % of the dense tensor throughput,
a multiplication's reads and FLOPs blended as (read^2.5 + compute^2.5)^(1/2.5), 72.5 microseconds per
layer and 100 more per mixture-of-experts layer; over NVLink, two all-reduces per layer of 3 microseconds
each plus their activations (16 bits per element), each card sending 2(T-1)/T of them at the share of
450 GB/s that ``communication.link_share_by_message`` gives for T cards and the pass's message (its tokens
x the hidden size, in elements), interpolated in the logarithm of the size and held beyond the table's
ends. A mixture of experts' routed multiplications take ``step_overheads.routed_expert_factor`` times
their blend at the tokens each expert gets (the pass's tokens x top-k / experts), interpolated alike.
"""

from __future__ import annotations

import math

import pytest

from gpu_advisor.engine.calc.latency import at_rate, lone_request, prompt_pass_seconds
from gpu_advisor.engine.calc.performance import replica_performance
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

KNOWLEDGE = load_knowledge()
BANDWIDTH_SHARE, COMPUTE_SHARE, EXPONENT = 0.86, 0.58, 2.5
LAYER, MOE_LAYER, ALL_REDUCE = 72.5e-6, 100e-6, 3e-6


def blend(read: float, compute: float) -> float:
    return float((read**EXPONENT + compute**EXPONENT) ** (1 / EXPONENT))


def sent_per_token(layers: int, hidden: int, cards: int, link_share: float) -> float:
    return 2 * layers * 2 * (cards - 1) / cards * hidden * 2 / (450e9 * link_share)


def replica(model_id: str, precision: str, gpu: str, cards: int, prompt: int, answer: int, engine: str):
    model = KNOWLEDGE.model(model_id)
    figures = size_model(
        KNOWLEDGE, model.params_b, model.active_params_b, precision, model, prompt + answer, engine
    )
    fit = next(f for f in figures.fits if f.gpu == gpu)
    performance = replica_performance(KNOWLEDGE, figures, fit, prompt, answer, cards=cards)
    assert performance is not None
    return performance


def test_a_decode_step_reads_the_experts_its_sequences_touch() -> None:
    # Mixtral 8x7B BF16 on one H200: 46.7B parameters, 12.9B active, 2 of 8 experts per token. One
    # expert (in all 32 layers) holds (46.7 - 12.9) / (8 - 2) = 5.6333B parameters, the shared rest
    # 46.7 - 8 x 5.6333 = 1.6333B. An expert stays untouched by B sequences with probability 0.75^B.
    roofline = replica("mixtral-8x7b", "bf16", "h200", 1, 1000, 1000, "vllm").roofline
    bandwidth = 4800e9 * BANDWIDTH_SHARE
    expert, shared = 33.8e9 / 6, 1.6333333e9

    def read_bytes(sequences: float) -> float:
        return roofline.weights_read_seconds(sequences) * bandwidth

    # The token embedding (32,000 x 4,096 parameters) is among the shared ones but only looked up, not
    # read. One sequence: its active weights less the embedding, (12.9B - 0.131B) x 2 bytes.
    embedding = 32_000 * 4096
    assert read_bytes(1) == pytest.approx((12.9e9 - embedding) * 2, rel=1e-6)
    # Two: 8 x (1 - 0.75^2) = 3.5 experts, (1.6333 - 0.131 + 3.5 x 5.6333)B = 21.22B parameters, 42.44
    # GB; the active weights twice over would be 51.1 GB.
    experts_touched = 8 * (1 - 0.75**2)
    assert experts_touched == pytest.approx(3.5)
    assert read_bytes(2) == pytest.approx((shared - embedding + 3.5 * expert) * 2, rel=1e-6)
    assert read_bytes(2) == pytest.approx(42.4379e9, rel=1e-5)
    # Sixty-four: every expert, all 93.4 GB of weights once but the embedding: 93.14 GB.
    assert read_bytes(64) == pytest.approx((46.7e9 - embedding) * 2, rel=1e-6)


def test_deepseek_at_eight_sequences_reads_fewer_than_eight_times_its_experts() -> None:
    # DeepSeek-R1 FP8: 256 routed experts, 8 per token; 671B parameters, 37B active. One expert holds
    # (671 - 37) / 248 = 2.5565B, the shared rest 671 - 256 x 2.5565 = 16.5484B. Eight sequences touch
    # 256 x (1 - (31/32)^8) = 57.42 experts, not 64: 163.34B parameters read, a byte each.
    roofline = replica("deepseek-r1", "fp8", "h200", 8, 1000, 1000, "vllm").roofline
    bandwidth = 8 * 4800e9 * BANDWIDTH_SHARE
    expert = 634e9 / 248
    touched = 256 * (1 - (31 / 32) ** 8)
    assert touched == pytest.approx(57.42, abs=0.01)
    assert roofline.weights_read_seconds(8) * bandwidth == pytest.approx(
        671e9 - 256 * expert + touched * expert, rel=1e-9
    )
    assert roofline.weights_read_seconds(8) * bandwidth == pytest.approx(163.34e9, rel=1e-4)


def test_every_step_pays_the_fixed_time_of_its_layers() -> None:
    # DeepSeek-R1 has 61 layers, a mixture of experts: 61 x (72.5 + 100) microseconds and 122 all-reduces
    # of 3 = 10.89 ms a step, which a lone token's bytes (37 GB over 8 H200 at 86 %: 1.12 ms) do not see.
    deepseek = replica("deepseek-r1", "fp8", "h200", 8, 1000, 1000, "vllm").roofline
    fixed = 61 * (LAYER + MOE_LAYER) + 122 * ALL_REDUCE
    assert deepseek.fixed_step_seconds == pytest.approx(fixed)
    assert deepseek.fixed_step_seconds * 1000 == pytest.approx(10.8885)
    step = deepseek.decode_step(1)
    bandwidth = 8 * 4800e9 * BANDWIDTH_SHARE
    # A lone token's multiplications read its 37 GB of active weights (a byte each) in far longer than
    # they compute. Its latent attention (absorbed: 128 heads against the 576-wide latent and back over
    # its 512, 17.0 MFLOP a pair) over the 1,500 tokens it sees on average computes 25.5 GFLOP at 8 x 989
    # TFLOPS x 0.58 (5.55 microseconds), shorter than it reads their 16-bit latent cache (vLLM), which
    # each of the 8 cards keeps whole: 8 x 105 MB (25.5 microseconds).
    assert step.weights_read == pytest.approx(37e9 / bandwidth, rel=1e-9)
    assert step.weights_read > step.weights_compute
    kv = 8 * 1500 * 61 * (512 + 64) * 2
    attention = 2 * 61 * 128 * (512 + 64 + 512) * 1500 / (8 * 989e12 * COMPUTE_SHARE)
    assert step.kv_read == pytest.approx(kv / bandwidth, rel=1e-9)
    assert step.attention_compute == pytest.approx(attention, rel=1e-9)
    assert (step.kv_read * 1e6, attention * 1e6) == (
        pytest.approx(25.53, abs=0.01),
        pytest.approx(5.55, abs=0.01),
    )
    # One token's activations (hidden size 7,168) on top. A sequence decodes for 999 steps (its first
    # token comes from its prompt's pass), so the prompts replacing finished sequences bring
    # 1 x 1,000 / 999 prompt tokens a step, and one step in 999 carries a whole 1,000-token prompt
    # (vLLM's 8,192-token limit takes it in one chunk): that step's message is 1,001 tokens, 7,175,168
    # elements, between the 8-card table's 4,194,304 (0.36 of the link) and 8,388,608 (0.46), 0.4375 of
    # it in the logarithm of the size (15.55 microseconds over the 61 layers); the other 998 steps' one
    # token, 7,168 elements, is below the table's first point (262,144 elements at 0.14), so at 0.14
    # (48.58 microseconds). On average 48.55 microseconds.
    assert (deepseek.prompt_step_share(1), deepseek.prompt_pass_tokens(1)) == (1 / 999, 1001)
    with_prompt = 0.36 + (0.46 - 0.36) * math.log(1001 * 7168 / 4_194_304) / math.log(2)
    assert with_prompt == pytest.approx(0.4375, abs=1e-4)
    assert sent_per_token(61, 7168, 8, with_prompt) * 1e6 == pytest.approx(15.55, abs=0.01)
    assert sent_per_token(61, 7168, 8, 0.14) * 1e6 == pytest.approx(48.58, abs=0.01)
    sent = sent_per_token(61, 7168, 8, with_prompt) / 999 + 998 / 999 * sent_per_token(61, 7168, 8, 0.14)
    assert sent * 1e6 == pytest.approx(48.55, abs=0.01)
    assert deepseek.step_seconds(1) == pytest.approx(
        step.multiplications + kv / bandwidth + fixed + sent, rel=1e-9
    )
    # A dense 70B model on two cards: 80 layers x 72.5 microseconds and 160 all-reduces.
    dense = replica("llama-3.3-70b", "fp8", "h100-sxm", 2, 1000, 300, "vllm").roofline
    assert dense.fixed_step_seconds == pytest.approx(80 * LAYER + 160 * ALL_REDUCE)
    # On one card, no all-reduce: 80 layers only.
    alone = replica("llama-3.3-70b", "fp8", "h200", 1, 1000, 300, "vllm").roofline
    assert alone.fixed_step_seconds == pytest.approx(80 * LAYER)


def test_a_short_prompt_alone_waits_for_the_weights_not_its_flops() -> None:
    # 32 prompt tokens of Llama 3.1 70B BF16 on four H200: 32 x 140 GFLOP (the nominal 70B active
    # parameters; 1.953 ms at 4 x 989 TFLOPS x 0.58) are far less work than reading the 139.0 GB of
    # weights a pass reads (the exact 70.55B less the embedding's 128,256 x 8,192, whose rows it only
    # looks up, x 2 bytes: 139.0e9 / (4 x 4,800e9 x 0.86) = 8.418 ms), so the multiplications take about
    # one read of the weights (8.505 ms blended); then the prompt's attention (0.6 microseconds), its 32
    # tokens' activations through 160 all-reduces (32 x 8,192 = 262,144 elements, the 4-card table's
    # first point: 0.35 of the link, 0.799 ms), and 80 layers of fixed time and 160 all-reduces of 3
    # microseconds: 15.584 ms.
    roofline = replica("llama-3.1-70b", "bf16", "h200", 4, 32, 128, "vllm").roofline
    weights = (70.55e9 - 128_256 * 8192) * 2 / (4 * 4800e9 * BANDWIDTH_SHARE)
    assert roofline.prefill_seconds < weights
    assert weights * 1000 == pytest.approx(8.418, abs=0.001)
    compute = 32 * 140e9 / (4 * 989e12 * COMPUTE_SHARE)
    assert (compute * 1000, blend(weights, compute) * 1000) == (
        pytest.approx(1.953, abs=0.001),
        pytest.approx(8.505, abs=0.001),
    )
    attention = 2 * 80 * 64 * 256 * 32**2 / 2 / (4 * 989e12 * COMPUTE_SHARE)
    assert 32 * sent_per_token(80, 8192, 4, 0.35) * 1000 == pytest.approx(0.799, abs=0.001)
    all_reduces = 32 * sent_per_token(80, 8192, 4, 0.35) + 160 * ALL_REDUCE
    expected = blend(weights, compute) + attention + all_reduces + 80 * LAYER
    assert expected * 1000 == pytest.approx(15.584, abs=0.001)
    assert lone_request(roofline).time_to_first_token_ms == pytest.approx(expected * 1000, rel=1e-9)


def test_a_prompt_under_load_shares_its_pass_with_the_decode_step() -> None:
    # NIM's 5,000-token prompts on 2 x H100 (TensorRT-LLM, no chunking) at 1 request a second: the
    # prompt waits in the prefill queue (M/D/1), for half the step in progress, then for one pass whose
    # multiplications compute its 5,000 tokens and the decoding sequences' tokens (compute bound, far
    # longer than reading the weights, with which they are blended) and whose attention computes the
    # prompt's and theirs (longer than reading their cache), sends the decoding sequences' activations
    # with its own, one message a layer's all-reduce, and 80 layers' and 160 all-reduces' time.
    roofline = replica("llama-3.3-70b", "fp8", "h100-sxm", 2, 5000, 500, "trtllm").roofline
    rate = 1.0
    point = at_rate(roofline, rate)
    # The prompt's 5,000 tokens and the 17.15 decoding sequences' in one message: 5,017.15 x 8,192 =
    # 41.1 million elements, between the 2-card table's 33,554,432 (0.45 of the link) and 67,108,864
    # (0.49): 0.4617 of it, the share interpolated in the logarithm of the size.
    assert point.decoding == pytest.approx(17.15, abs=0.01)
    tokens = 5000 + point.decoding
    share = 0.45 + (0.49 - 0.45) * math.log(tokens * 8192 / 33_554_432) / math.log(2)
    assert share == pytest.approx(0.4617, abs=1e-4)
    # Each prompt ahead keeps the replica busy for its prefill in the pass it shares with the sequences
    # decoding at this rate: the prompts replacing the finished ones (each sequence decodes for 499
    # steps, its first token coming from its prompt's pass), 17.15 x 5,000 / 499 = 171.8 tokens a step,
    # are fewer than a prompt, so a pass carries one prompt (in 3.4 % of the steps) and their 17.15
    # tokens, the same 5,017.15 tokens at the same 0.4617 of the link (at the capacity's full batch of 95
    # it would be 5,095 tokens).
    assert roofline.prompt_tokens_per_step(point.decoding) == pytest.approx(
        5000 / 499 * point.decoding, rel=1e-12
    )
    assert roofline.prompt_step_share(point.decoding) == pytest.approx(point.decoding / 499, rel=1e-12)
    assert roofline.prompt_pass_tokens(point.decoding) == pytest.approx(tokens, rel=1e-12)
    assert (roofline.max_batch, roofline.prompt_pass_tokens(95)) == (95, 5095)
    prefill_busy = roofline.prefill_busy_seconds(point.decoding)
    assert prefill_busy == pytest.approx(
        roofline.prefill_weights_seconds
        + roofline.prefill_attention_seconds
        + 5000 * sent_per_token(80, 8192, 2, share),
        rel=1e-9,
    )
    busy = rate * prefill_busy
    waiting = busy * prefill_busy / (2 * (1 - busy))
    parts = roofline.decode_step(point.decoding)
    assert point.decoding > 1
    assert parts.weights_compute + roofline.prefill_weights_seconds > parts.weights_read
    assert parts.attention_compute + roofline.prefill_attention_seconds > parts.kv_read
    compute = parts.weights_compute + parts.attention_compute
    step = roofline.step_seconds(point.decoding)
    sent = tokens * sent_per_token(80, 8192, 2, share)
    weights = blend(
        roofline.weights_read_seconds(tokens), parts.weights_compute + roofline.prefill_weights_seconds
    )
    attention = parts.attention_compute + roofline.prefill_attention_seconds
    fixed = 80 * LAYER + 160 * ALL_REDUCE
    expected = waiting + step / 2 + weights + attention + sent + fixed
    assert point.time_to_first_token_ms == pytest.approx(expected * 1000, rel=1e-9)
    # It is later than the prefill alone by at least the other sequences' compute and half a step.
    assert point.time_to_first_token_ms > (roofline.prefill_seconds + compute + step / 2) * 1000
    # The prompt alone, on an idle replica, sends its 5,000 tokens' activations as one message of
    # 40,960,000 elements: 0.4615 of the link.
    alone = 0.45 + (0.49 - 0.45) * math.log(40_960_000 / 33_554_432) / math.log(2)
    assert alone == pytest.approx(0.4615, abs=1e-4)
    prompt_sent = (
        roofline.prefill_seconds - roofline.prefill_weights_seconds - roofline.prefill_attention_seconds
    )
    assert prompt_sent == pytest.approx(5000 * sent_per_token(80, 8192, 2, alone), rel=1e-9)


def test_a_mixture_of_experts_multiplies_its_shared_weights_and_its_experts_apart() -> None:
    # Mixtral 8x7B BF16 on one H200 at 256 sequences: the shared weights read 1.5023B parameters (1.6333B
    # less the token embedding's 32,000 x 4,096, whose rows a step only looks up; 3.00 GB at 4,800 GB/s x
    # 0.86: 0.728 ms) and take their share of a token's 2 x 12.9e9 FLOPs by those bytes (1.5023 / 12.769 =
    # 0.1176: 1.355 ms at 989 TFLOPS x 0.58 over 256 tokens), 1.463 ms blended; the eight experts, each
    # over the tokens routed to it, read 90.1 GB (21.83 ms), longer than the rest of the FLOPs (10.16 ms),
    # 23.07 ms blended, and 1.25 times that with the routing skewed (one card's factor at 256 x 2 / 8 = 64
    # tokens an expert): 28.84 ms. One after the other: 30.30 ms, where the longer of all bytes
    # (22.56 ms) and all FLOPs (11.51 ms) gave 22.56.
    roofline = replica("mixtral-8x7b", "bf16", "h200", 1, 1000, 1000, "vllm").roofline
    bandwidth, flops = 4800e9 * BANDWIDTH_SHARE, 989e12 * COMPUTE_SHARE
    shared, expert = 1.6333333e9 - 32_000 * 4096, 33.8e9 / 6
    share = shared / (12.9e9 - 32_000 * 4096)
    shared_read, shared_compute = shared * 2 / bandwidth, 256 * 2 * 12.9e9 * share / flops
    experts_read, experts_compute = 8 * expert * 2 / bandwidth, 256 * 2 * 12.9e9 * (1 - share) / flops
    assert [round(x * 1000, 2) for x in (shared_compute, shared_read, experts_read, experts_compute)] == [
        1.35,
        0.73,
        21.83,
        10.16,
    ]
    assert roofline.routed_factor(256) == 1.25
    apart = blend(shared_read, shared_compute) + 1.25 * blend(experts_read, experts_compute)
    assert apart * 1000 == pytest.approx(30.30, abs=0.01)
    assert roofline.multiplications_seconds(256) == pytest.approx(apart, rel=1e-6)
    step = roofline.decode_step(256)
    assert max(step.weights_read, step.weights_compute) == pytest.approx(shared_read + experts_read, rel=1e-6)
    assert step.multiplications - max(step.weights_read, step.weights_compute) == pytest.approx(
        apart - shared_read - experts_read, rel=1e-5
    )


def test_a_prompt_s_pass_takes_at_least_the_step_it_carries() -> None:
    # Mixtral 8x7B BF16 on one H200, a 200-token prompt joining 256 decoding sequences: the pass multiplies
    # the shared weights over all 456 tokens and every expert over its share, one after the other, as the
    # decode step does, so it cannot take less than the step alone (the longer of all bytes and all
    # FLOPs made it 33.84 ms against the step's 34.53). Its 456 tokens bring the experts' FLOPs near
    # their bytes, where a kernel takes longer than either, and give each expert 456 x 2 / 8 = 114 tokens,
    # where the skewed routing makes the experts' blend 1.2667 times as long (between one card's 1.25 at
    # 64 tokens and 1.27 at 128, in the logarithm of the tokens), against 1.25 in the step at 64: the
    # prompt's 200 tokens are multiply-adds of the pass like the decoding sequences', slowed once, at the
    # pass's tokens an expert. 47.26 ms against the step's 41.51.
    roofline = replica("mixtral-8x7b", "bf16", "h200", 1, 200, 1000, "vllm").roofline
    step = roofline.step_seconds(256)
    prompt_pass = prompt_pass_seconds(roofline, 256)
    assert prompt_pass > step
    parts = roofline.decode_step(256)
    read = max(parts.weights_read, roofline.weights_read_seconds(456))
    compute = 456 * roofline.weights_compute_seconds_per_sequence
    assert compute == pytest.approx(parts.weights_compute * 456 / 256, rel=1e-12)
    shared = roofline.shared_weights_seconds / roofline.active_weights_seconds
    factor = 1.25 + (1.27 - 1.25) * math.log(114 / 64) / math.log(2)
    assert factor == pytest.approx(1.2667, abs=1e-4)
    multiplications = blend(roofline.shared_weights_seconds, shared * compute) + factor * blend(
        read - roofline.shared_weights_seconds, (1 - shared) * compute
    )
    attention = max(parts.kv_read, parts.attention_compute + roofline.prefill_attention_seconds)
    rest = roofline.prefill_seconds - roofline.prefill_weights_seconds - roofline.prefill_attention_seconds
    expected = multiplications + attention + rest + roofline.fixed_step_seconds
    assert (round(step * 1000, 2), round(expected * 1000, 2)) == (41.51, 47.26)
    assert prompt_pass == pytest.approx(expected, rel=1e-12)
