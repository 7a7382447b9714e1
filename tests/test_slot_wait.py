"""The wait for a place in the batch (``latency.slot_wait_seconds``): an M/D/c queue by Allen and Cunneen's
approximation, half the M/M/c wait of Erlang's C formula, worked out here by the formula's sum rather than
the recursion the code runs; and what it adds to the time to first token near a replica's capacity."""

from __future__ import annotations

import math

import pytest
from test_finite_run import ROOFLINE

from gpu_advisor.engine.calc.latency import UNBOUNDED_MS, at_rate, slot_wait_seconds


def erlang_c(slots: int, load: float) -> float:
    """The chance that an arrival finds every place taken: a^c / c! · c / (c - a) over the same plus
    Σ_{k<c} a^k / k!."""
    last = load**slots / math.factorial(slots) * slots / (slots - load)
    return last / (sum(load**k / math.factorial(k) for k in range(slots)) + last)


def test_two_places_one_taken_on_average() -> None:
    """a = 1, c = 2: C = (1/2 · 2) / (1 + 1 + 1) = 1/3; each sequence holds its place 1 / 1 = 1 s, so the
    M/M/2 wait is 1/3 · 1 / (2 - 1) = 0.333 s, and the M/D/2 one half that."""
    assert erlang_c(2, 1.0) == pytest.approx(1 / 3)
    assert slot_wait_seconds(2, 1.0, 1.0) == pytest.approx(1 / 6, rel=1e-12)


def test_a_batch_nine_tenths_full() -> None:
    """100 places, 90 taken on average at 45 requests/s (2 s each): C(100, 90) = 0.217; the wait is
    0.217 · 2 / 10 / 2 = 21.7 ms."""
    chance = erlang_c(100, 90.0)
    assert chance == pytest.approx(0.2169, abs=5e-4)
    assert slot_wait_seconds(100, 45.0, 90.0) == pytest.approx(chance * 2 / 10 / 2, rel=1e-9)


def test_far_below_the_places_there_is_no_wait_and_at_them_no_end() -> None:
    # 10 of 100 taken: 90 places free, more than 7 × √10 = 22 standard deviations (C is below 1e-40).
    assert erlang_c(100, 10.0) < 1e-40
    assert slot_wait_seconds(100, 5.0, 10.0) == 0.0
    assert slot_wait_seconds(100, 50.0, 100.0) == UNBOUNDED_MS / 1000
    assert slot_wait_seconds(100, 0.0, 0.0) == 0.0


def test_the_time_to_first_token_waits_for_a_place_near_capacity() -> None:
    """On the small roofline (100 places; a step of c sequences 10 + 0.1 c ms, a prefill 20 ms, 10 tokens,
    the first from the prompt's pass and 9 from decode steps): 90 sequences decoding take 90 × 20 ms of
    prefills and 9 steps of 19 ms, 1.971 s each, so they carry 90 / 1.971 = 45.66 requests/s, and each
    waits C(100, 90) · 1.971 / 10 / 2 for a place. At 9 (a tenth of the rate) none waits."""
    rate = 90 / 1.971
    point = at_rate(ROOFLINE, rate)
    assert point.decoding == pytest.approx(90, rel=1e-6)
    wait = erlang_c(100, 90.0) * 1.971 / 10 / 2
    assert point.slot_wait_seconds == pytest.approx(wait, rel=1e-5)
    # The prompt's own wait: the prefills ahead (M/D/1 at rho = 45.66 × 0.02 = 0.913), half a step of
    # 19 ms and its pass with the 90 sequences' step (29.9 ms: the prompt's 20 ms and the sequences'
    # 0.9 ms of multiply-adds, longer than the weights' 10 ms read, then 9 ms of KV cache).
    rho = rate * 0.02
    prompt = rho * 0.02 / (2 * (1 - rho)) + 0.019 / 2 + 0.0209 + 0.009
    assert point.time_to_first_token_ms == pytest.approx((wait + prompt) * 1000, rel=1e-5)
    # The requests in the batch leave out those waiting for a place; a request's time counts the wait.
    assert point.in_flight == pytest.approx(90 + rate * prompt, rel=1e-5)
    assert point.request_seconds == pytest.approx(point.in_flight / rate + point.slot_wait_seconds, rel=1e-12)
    assert at_rate(ROOFLINE, rate / 10).slot_wait_seconds == 0.0
