"""A request's first token comes from its prompt's pass, so it takes one decode step fewer than its output
tokens, and a one-token answer (a classification) takes none: worked out by hand on a small roofline (one
stage, a dense model, round figures) and read in the memo of a classification service."""

from __future__ import annotations

import pytest
from helpers import ONE_RTX_5090_AT_RUNPOD, run
from test_finite_run import ROOFLINE as TEN_TOKENS
from test_moe_and_step_overheads import replica

from gpu_advisor.api import check
from gpu_advisor.engine.calc.finite_run import wave_seconds
from gpu_advisor.engine.calc.latency import at_concurrency, at_rate
from gpu_advisor.engine.calc.request_times import request_times
from gpu_advisor.engine.present.memo import render_memo

# test_finite_run's small roofline: a decode step of n sequences 10 ms for the weights plus 0.1 ms per
# sequence's KV cache (compute far below); a prompt's prefill 20 ms of compute; 10 output tokens; at most
# 100 sequences at once.
ONE_TOKEN = TEN_TOKENS.model_copy(update={"output_tokens": 1})


def test_a_request_takes_one_decode_step_fewer_than_its_output_tokens() -> None:
    assert (TEN_TOKENS.decode_steps, ONE_TOKEN.decode_steps) == (9, 0)
    # 100 decoding: a step of 10 + 100 x 0.1 = 20 ms yields 100 tokens; a request's 9 decode tokens take
    # 9 x 20 / 100 = 1.8 ms of it, and its prefill 20 ms: 1 / 21.8 ms = 45.87 requests/s (with 10 steps,
    # 1 / 22 ms = 45.45).
    assert TEN_TOKENS.step_seconds(100) == pytest.approx(0.020)
    assert TEN_TOKENS.requests_per_second(100) == pytest.approx(1 / 0.0218)
    # A wave of 100 started together: 100 prefills (2 s), then 9 steps of 20 ms.
    assert wave_seconds(TEN_TOKENS, 100) == pytest.approx(2.18)


def test_one_token_answers_take_their_prefill_alone() -> None:
    # Nothing decodes: the replica serves 1 / 20 ms = 50 prompts a second, a wave is its prefills, and no
    # time passes between tokens.
    assert ONE_TOKEN.requests_per_second(100) == pytest.approx(50.0)
    assert wave_seconds(ONE_TOKEN, 100) == pytest.approx(2.0)
    assert ONE_TOKEN.time_per_token_seconds(25.0, 0.0) == 0.0
    # At 25 prompts a second the prefills keep the replica busy half the time: a prompt waits
    # 0.5 x 20 / (2 x 0.5) = 10 ms behind the others (M/D/1), then takes its pass, its 20 ms of compute
    # with the 10 ms read of the weights under it: 30 ms in all, the whole request.
    point = at_rate(ONE_TOKEN, 25.0)
    assert (point.decoding, point.time_per_output_token_ms) == (0.0, 0.0)
    assert point.time_to_first_token_ms == pytest.approx(30.0)
    assert point.request_seconds == pytest.approx(0.030)


def test_a_request_is_its_first_token_and_its_decode_steps() -> None:
    # Little's law over the 9 decode steps: the sequences decoding are the rate times 9 steps' time, so a
    # request is in flight for its first token and 9 times the time per token, not 10.
    point = at_rate(TEN_TOKENS, 20.0)
    assert point.decoding == pytest.approx(20.0 * 9 * point.time_per_output_token_ms / 1000)
    expected = (point.time_to_first_token_ms + 9 * point.time_per_output_token_ms) / 1000
    assert point.request_seconds == pytest.approx(expected)


def test_one_token_request_times_climb_with_the_prefill_share() -> None:
    rates, seconds = request_times(ONE_TOKEN, ONE_TOKEN.max_batch)
    # Idle: the lone pass, 20 ms. Then prefill shares of 5 %, 5 % x 2^(1/3), ... up to 95 % (13 steps of
    # the cube root of 2 pass 19 = 0.95 / 0.05): 15 knots. At 95 %, 47.5 prompts a second, a prompt waits
    # 0.95 x 20 / (2 x 0.05) = 190 ms and takes its 20.
    assert len(rates) == len(seconds) == 15
    assert (rates[0], seconds[0]) == (0.0, pytest.approx(0.020))
    assert rates[1] == pytest.approx(0.05 / 0.020)
    assert rates[-1] == pytest.approx(47.5)
    assert seconds[-1] == pytest.approx(0.210)
    assert list(rates) == sorted(rates) and list(seconds) == sorted(seconds)


CLASSIFIER = {
    "name": "ticket-classifier",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 200_000,
    "avg_input_tokens": 600,
    "avg_output_tokens": 1,
    "load_pattern": "variable",
}
TARGETED = {**CLASSIFIER, "max_time_per_output_token_ms": 1}
"""The classifier held to 1 ms a token, which its one-token answers meet at any load."""


def test_a_classification_memo_says_its_answers_take_no_decode_step() -> None:
    memo = " ".join(render_memo(run(TARGETED)).split())
    assert (
        "then about 0 ms per output token; a lone request sees 43 ms and 0 ms. Each answer is one token, "
        "which its prompt's pass yields: no decode step follows, so the time per output token is 0 ms, and "
        "a target for it holds at any load. That is within the workload's latency targets (the first token "
        "within 1,000 ms, 1 ms per token)."
    ) in memo
    # The busy share's request is the lone first token (43 ms), with no step after it.
    assert "One request takes 0.04 s on an idle replica of rtx-5090" in memo


def test_a_two_token_memo_has_no_one_token_sentence() -> None:
    memo = " ".join(render_memo(run({**TARGETED, "avg_output_tokens": 2})).split())
    assert "Each answer is one token" not in memo
    assert "Latency at the peak" in memo


def test_one_token_users_wait_for_each_other_s_prompts() -> None:
    # No place in a batch: 50 users' prompts take 50 x 20 ms of the replica, so each waits 1 s for its
    # answer (Little's law at 50 a second); one user sees a lone pass, 20 ms.
    crowd, alone = at_concurrency(ONE_TOKEN, 50), at_concurrency(ONE_TOKEN, 1)
    assert crowd.time_to_first_token_ms == pytest.approx(1000.0)
    assert crowd.requests_per_second == pytest.approx(50.0)
    assert (crowd.decoding, crowd.time_per_output_token_ms, crowd.saturated) == (0.0, 0.0, False)
    assert alone.time_to_first_token_ms == pytest.approx(20.0)


# DeepSeek-R1 on 8 H200: a mixture of experts whose prompt's busy time depends on the pass it shares.
R1_ONE = replica("deepseek-r1", "fp8", "h200", 8, 600, 1, "sglang")
R1_TWO = replica("deepseek-r1", "fp8", "h200", 8, 600, 2, "sglang")


def test_one_token_prompts_queue_at_the_capacity_the_replica_is_sized_with() -> None:
    # A prompt's busy time is its share of a full pass at any load, as the capacity counts it: the queue
    # carries up to the capacity, its wait growing with the rate, and the request-time knots end at 95 %
    # of it.
    roofline, capacity = R1_ONE.roofline, R1_ONE.requests_per_second
    assert capacity == pytest.approx(1 / roofline.prefill_busy_seconds(0.0))
    points = [at_rate(roofline, share * capacity) for share in (0.5, 0.7, 0.9, 0.97)]
    assert not any(point.saturated for point in points)
    waits = [point.time_to_first_token_ms for point in points]
    assert waits == sorted(waits) and len(set(waits)) == 4
    rates, _ = request_times(roofline, R1_ONE.batch)
    assert rates[-1] == pytest.approx(0.95 * capacity)


def test_short_answers_find_the_batch_that_carries_them() -> None:
    # Two tokens: an empty batch's lone-prompt passes cannot carry 90 % of the capacity, a larger batch's
    # passes can; the search finds that batch instead of calling the replica saturated.
    roofline, capacity = R1_TWO.roofline, R1_TWO.requests_per_second
    assert 0.9 * capacity * roofline.prefill_busy_seconds(0.0) > 1
    point = at_rate(roofline, 0.9 * capacity)
    assert not point.saturated
    assert 1 < point.decoding < R1_TWO.batch
    assert point.decoding == pytest.approx(0.9 * capacity * point.time_per_output_token_ms / 1000, rel=1e-6)


def test_check_does_not_fail_the_time_per_token_of_one_token_answers() -> None:
    # One RTX 5090 for 2 million classifications a day: the queue grows without bound (SIZ021, LAT005),
    # but there is no time between tokens to miss.
    proposal = {
        "workload": {**CLASSIFIER, "requests_per_day": 2_000_000},
        "proposal": {"name": "classifier on one 5090", **ONE_RTX_5090_AT_RUNPOD},
    }
    failed = [r.rule_id for r in check(proposal, evaluated_on="2026-11-30").results if r.status == "fail"]
    assert failed == ["SIZ021", "LAT005"]


def test_a_one_token_batch_says_how_many_prompts_a_replica_works_through() -> None:
    batch = {**CLASSIFIER, "requests_per_day": 2_000_000, "avg_input_tokens": 400, "load_pattern": "batch"}
    result = run(batch)
    row = next(g for g in result.sizing.gpus if g.gpu == result.decision.gpu)
    assert row.requests_per_second_per_replica is not None and row.time_to_first_token_ms is not None
    memo = " ".join(render_memo(result).split())
    assert (
        "Latency with the batch full: each answer is one token, which its prompt's pass yields, so a replica "
        f"works through about {row.requests_per_second_per_replica:.0f} prompts a second in shared passes (a "
        f"lone prompt's prefill takes {row.time_to_first_token_ms:.0f} ms)."
    ) in memo
    assert "the rest is its output's steps" not in memo


def test_one_token_answers_read_the_same_rate_in_requests_and_tokens() -> None:
    # 120,000-token prompts: about 1.5 prompts a second on 8 B200, each one output token.
    long = {**CLASSIFIER, "requests_per_day": 20_000, "avg_input_tokens": 120_000, "context_tokens": 131_072}
    memo = " ".join(render_memo(run(long)).split())
    assert "serves about 1.54 requests/s (1.54 output tokens/s)" in memo
