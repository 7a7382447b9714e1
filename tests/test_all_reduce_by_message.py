"""All-reduces at the link share measured for their message size, and a mixture of experts' routed
multiplications at their measured speed (knowledge/throughput.yaml: ``communication.link_share_by_message``
and ``step_overheads.routed_expert_factor``), worked out by hand.

Llama 3.1 70B has 80 layers of hidden size 8,192; each layer all-reduces its activations twice (16 bits an
element), and a ring over T cards sends 2(T-1)/T of the message from every card over one direction of the
H100's 900 GB/s NVLink (450 GB/s).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic import ValidationError

from gpu_advisor.engine.calc.latency import prompt_pass_seconds
from gpu_advisor.engine.calc.performance import replica_roofline, routed_factors
from gpu_advisor.engine.calc.roofline import Roofline, blended, interpolated
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.calc.tensor_parallel import communication, communication_points
from gpu_advisor.engine.domain.knowledge.figures import Communication, StepOverheads
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

KNOWLEDGE = load_knowledge()
EXPONENT = KNOWLEDGE.throughput.efficiency.roofline_exponent
SOURCE: dict[str, Any] = {"source": {"url": "https://example.org", "title": "t"}, "as_of": "2026-12-01"}


def seventy_b(precision: str = "fp8"):
    model = KNOWLEDGE.model("llama-3.1-70b")
    return size_model(KNOWLEDGE, model.params_b, model.active_params_b, precision, model, 3000, "trtllm")


def test_interpolation_is_linear_in_the_logarithm_and_held_beyond_the_ends() -> None:
    points = ((1.0, 1.0), (4.0, 2.0), (16.0, 4.0))
    # 2 lies halfway between 1 and 4 in the logarithm: halfway between their values.
    assert interpolated(points, 2.0, 9.0) == pytest.approx(1.5, abs=1e-12)
    assert interpolated(points, 8.0, 9.0) == pytest.approx(3.0, abs=1e-12)
    assert interpolated(points, 4.0, 9.0) == 2.0
    assert (interpolated(points, 0.5, 9.0), interpolated(points, 64.0, 9.0)) == (1.0, 4.0)
    assert interpolated((), 3.0, 9.0) == 9.0


def test_the_link_share_at_each_message_size_gives_the_seconds_per_token() -> None:
    figures = seventy_b()
    h100 = KNOWLEDGE.gpu("h100-sxm")
    points = communication_points(KNOWLEDGE, h100, 8, figures)
    shares = KNOWLEDGE.throughput.communication.link_share_by_message[8]
    assert shares[0] == (262144, 0.14) and shares[-1] == (268435456, 0.74)
    sent = 2 * 80 * 2 * 7 / 8 * 8192 * 2  # bytes every card sends per token of a pass
    # 262,144 elements are a pass of 32 tokens of 8,192 each; 268,435,456 one of 32,768.
    # Each point: the tokens of the pass and the tokens its all-reduces transfer a second.
    assert points[0] == (32, pytest.approx(450e9 * 0.14 / sent, rel=1e-12))
    assert points[-1] == (32768, pytest.approx(450e9 * 0.74 / sent, rel=1e-12))
    assert len(points) == len(shares)
    # The one share (0.41) is what a card count without a table uses: the same bytes, another rate.
    per_token, fixed = communication(KNOWLEDGE, h100, 8, figures)
    assert per_token == pytest.approx(sent / (450e9 * 0.41), rel=1e-12)
    assert fixed == pytest.approx(80 * 2 * 3e-6, rel=1e-12)


def test_every_nvlink_gpu_takes_the_shares_and_nothing_else_does() -> None:
    figures = seventy_b()
    communication = KNOWLEDGE.throughput.communication
    assert communication.link_share_gpus == ("h100-sxm", "h200")
    assert communication_points(KNOWLEDGE, KNOWLEDGE.gpu("h100-sxm"), 1, figures) == ()
    # Sixteen H100 are two boards: their all-reduces cross InfiniBand, which the NVLink table is not about.
    assert communication_points(KNOWLEDGE, KNOWLEDGE.gpu("h100-sxm"), 16, figures) == ()
    assert communication_points(KNOWLEDGE, KNOWLEDGE.gpu("l40s"), 2, figures) == ()
    # Four H100 NVL are two bridged pairs over PCIe; a pair is one bridge.
    assert communication_points(KNOWLEDGE, KNOWLEDGE.gpu("h100-nvl"), 4, figures) == ()
    # The measured shares of their own rate on the GPUs the table was not measured on: B200's NVLink 5
    # (900 GB/s one way), an H100 NVL pair's bridge (300 GB/s).
    sent = 2 * 80 * 2 * 1 / 2 * 8192 * 2  # bytes every card of two sends per token of a pass
    b200 = communication_points(KNOWLEDGE, KNOWLEDGE.gpu("b200"), 2, figures)
    assert b200[0] == (32, pytest.approx(900e9 * 0.77 / sent, rel=1e-12))
    nvl = communication_points(KNOWLEDGE, KNOWLEDGE.gpu("h100-nvl"), 2, figures)
    assert nvl[-1] == (32768, pytest.approx(300e9 * 0.55 / sent, rel=1e-12))
    assert len(communication_points(KNOWLEDGE, KNOWLEDGE.gpu("a100-80gb"), 8, figures)) == 11


def seventy_b_on_eight_h100(prompt: int = 1000, answer: int = 1000) -> Roofline:
    figures = seventy_b()
    fit = next(f for f in figures.fits if f.gpu == "h100-sxm")
    roofline = replica_roofline(KNOWLEDGE, figures, fit, prompt, answer, 8)
    assert roofline is not None
    return roofline


SENT = 2 * 80 * 2 * 7 / 8 * 8192 * 2  # bytes every card sends per token of a pass of Llama 3.1 70B on 8


def seconds_per_token_at(tokens: float, low: tuple[int, float], high: tuple[int, float]) -> float:
    """The all-reduces' seconds per token of a pass of ``tokens`` tokens on 8 H100 between two points of
    the table (tokens, share): the share interpolated in the logarithm of the message."""
    weight = (math.log(tokens) - math.log(low[0])) / (math.log(high[0]) - math.log(low[0]))
    return SENT / (450e9 * (low[1] + (high[1] - low[1]) * weight))


def test_a_prompt_rides_with_the_decode_tokens_up_to_the_limit() -> None:
    roofline = seventy_b_on_eight_h100(1000, 500)
    # TensorRT-LLM's batched-token limit on an H100; a 1,000-token prompt is one chunk.
    assert (roofline.max_batched_tokens, roofline.prefill_chunks) == (8192, 1)
    # A sequence decodes for 499 steps (its first token comes from its prompt's pass). 32 decoding, one
    # in 499 finishing a step: 32 x 1,000 / 499 = 64.1 prompt tokens a step, a prompt (1,000 tokens) in
    # one step of 15.6: its pass carries it and the 32 decode tokens.
    assert roofline.prompt_tokens_per_step(32) == 32 * 1000 / 499
    assert roofline.prompt_step_share(32) == 32 * 1000 / 499 / 1000
    assert roofline.prompt_pass_tokens(32) == 1032
    # 2,000 decoding bring 4,008 prompt tokens a step: every pass carries them and the decode tokens.
    assert roofline.prompt_step_share(2000) == 1.0
    assert roofline.prompt_pass_tokens(2000) == 2000 + 2000 * 1000 / 499
    # 4,000 decoding would make 12,016: the limit holds the pass at 8,192.
    assert roofline.prompt_pass_tokens(4000) == 8192


def test_a_decode_step_sends_alone_but_in_the_steps_that_carry_a_prompt() -> None:
    roofline = seventy_b_on_eight_h100(1000, 1000)
    # 32 decoding, each for 999 steps (its first token comes from its prompt's pass): 32 x 1,000 / 999
    # prompt tokens a step, so one step in 31.2 carries a prompt, a pass of 1,032 tokens (8,454,144
    # elements: between 1,024 tokens' 0.46 and 2,048's 0.53); the others send the 32 decode tokens alone
    # (262,144 elements: 0.14).
    share = 32 / 999
    with_prompt = seconds_per_token_at(1032, (1024, 0.46), (2048, 0.53))
    alone = SENT / (450e9 * 0.14)
    expected = 32 * (share * with_prompt + (1 - share) * alone)
    assert roofline.communication_seconds(32) == pytest.approx(expected, rel=1e-9)


def test_a_prompt_is_busy_for_its_pass_at_the_batch_it_shares() -> None:
    roofline = seventy_b_on_eight_h100(1000, 1000)
    rest = roofline.prefill_weights_seconds + roofline.prefill_attention_seconds
    # Alone, 1,000 tokens are 8,192,000 elements: between 512 tokens' 0.36 and 1,024's 0.46.
    alone = 1000 * seconds_per_token_at(1000, (512, 0.36), (1024, 0.46))
    assert roofline.prefill_seconds - rest == pytest.approx(alone, rel=1e-9)
    assert roofline.busy_depends_on_batch
    assert roofline.prefill_busy_seconds(0.0) == pytest.approx(roofline.prefill_seconds, rel=1e-12)
    # With 512 decoding its pass carries 1,512 tokens, a larger message at a larger share of the link.
    assert roofline.prompt_pass_tokens(512) == 1512
    busy = rest + 1000 * seconds_per_token_at(1512, (1024, 0.46), (2048, 0.53))
    assert roofline.prefill_busy_seconds(512) == pytest.approx(busy, rel=1e-9)
    assert roofline.prefill_busy_seconds(512) < roofline.prefill_seconds


def test_on_one_card_a_prompt_is_busy_as_long_as_alone_at_any_batch() -> None:
    figures = seventy_b()
    fit = next(f for f in figures.fits if f.gpu == "h200")
    roofline = replica_roofline(KNOWLEDGE, figures, fit, 1000, 1000, 1)
    assert roofline is not None and not roofline.busy_depends_on_batch
    assert roofline.prefill_busy_seconds(0.0) == roofline.prefill_busy_seconds(64) == roofline.prefill_seconds


def test_the_routed_factor_of_the_largest_degree_stated() -> None:
    table = {1: ((1.0, 1.0),), 2: ((1.0, 1.1),), 8: ((1.0, 1.5),)}
    assert routed_factors(table, 4) == ((1.0, 1.1),)
    assert routed_factors(table, 8) == ((1.0, 1.5),)
    assert routed_factors(table, 16) == ((1.0, 1.5),)
    assert routed_factors({2: ((1.0, 1.1),)}, 1) == ()


def mixtral_on(gpu: str, cards: int, prompt: int = 400, answer: int = 400) -> Roofline:
    mixtral = KNOWLEDGE.model("mixtral-8x7b")
    figures = size_model(KNOWLEDGE, mixtral.params_b, mixtral.active_params_b, "fp8", mixtral, 2000, "vllm")
    fit = next(f for f in figures.fits if f.gpu == gpu)
    roofline = replica_roofline(KNOWLEDGE, figures, fit, prompt, answer, cards)
    assert roofline is not None
    return roofline


def test_a_dense_model_has_no_routed_factor_and_a_mixture_on_any_gpu_its_degree() -> None:
    figures = seventy_b()
    fit = next(f for f in figures.fits if f.gpu == "h100-sxm")
    dense = replica_roofline(KNOWLEDGE, figures, fit, 1000, 1000, 2)
    assert dense is not None and dense.routed_expert_factor == () and dense.prefill_routed_share == 0.0
    table = KNOWLEDGE.throughput.step_overheads.routed_expert_factor
    assert mixtral_on("h100-sxm", 2).routed_expert_factor == table[2]
    assert mixtral_on("mi300x", 2).routed_expert_factor == table[2]


def test_a_prompt_alone_pays_the_factor_at_its_own_tokens_per_expert() -> None:
    roofline = mixtral_on("h100-sxm", 2)
    # 400 tokens, 2 of 8 experts each: 100 tokens an expert, between 64 (1.35) and 128 (1.37) on 2 cards.
    weight = (math.log(100) - math.log(64)) / (math.log(128) - math.log(64))
    factor = 1.35 + 0.02 * weight
    assert roofline.routed_factor(400) == pytest.approx(factor, rel=1e-12)
    share = roofline.prefill_routed_share
    assert 0 < share < 1
    assert roofline.prefill_weights_seconds == pytest.approx(
        roofline.prefill_compute_seconds * (1 - share + share * factor), rel=1e-12
    )


def test_the_prompt_pass_applies_the_routed_factor_once() -> None:
    roofline = mixtral_on("h100-sxm", 2)
    plain = Roofline.model_validate({**roofline.model_dump(), "routed_expert_factor": ()})
    # On an idle replica the pass is the prompt's 400 tokens: the routed experts' multiplications, and
    # only they, take the factor at 100 tokens an expert longer.
    shared = roofline.shared_weights_seconds / roofline.active_weights_seconds
    read = roofline.weights_read_seconds(400)
    shared_read = min(read, roofline.shared_weights_seconds)
    routed = blended(read - shared_read, (1 - shared) * roofline.prefill_compute_seconds, EXPONENT)
    extra = prompt_pass_seconds(roofline, 0.0) - prompt_pass_seconds(plain, 0.0)
    assert extra == pytest.approx(routed * (roofline.routed_factor(400) - 1), rel=1e-9)


@pytest.mark.parametrize(
    ("model", "field"),
    [(Communication, "link_share_by_message"), (StepOverheads, "routed_expert_factor")],
)
def test_points_out_of_order_are_refused_at_load(model: Any, field: str) -> None:
    base: dict[str, Any] = (
        {"all_reduces_per_layer": 2, "activation_bytes": 2, "all_reduce_seconds": 0}
        if model is Communication
        else {"layer_seconds": 0, "moe_layer_seconds": 0}
    )
    model.model_validate({**base, **SOURCE, field: {2: [[1, 0.5], [4, 0.6]]}})
    with pytest.raises(ValidationError, match="strictly ascending"):
        model.model_validate({**base, **SOURCE, field: {2: [[4, 0.5], [1, 0.6]]}})
    with pytest.raises(ValidationError, match="strictly ascending"):
        model.model_validate({**base, **SOURCE, field: {2: [[4, 0.5], [4, 0.6]]}})
