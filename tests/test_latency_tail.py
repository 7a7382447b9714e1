"""The latency targets hold for the mean at the peak; beside it the memo gives the time to first token that
99 % of the requests stay within (MLPerf Inference's percentile), each replica taken as its own queue. The
tail of the wait behind other prompts (an M/D/1 queue) is checked against the queue itself, simulated."""

from __future__ import annotations

import math
import random

import pytest
from helpers import run
from test_finite_run import ROOFLINE

from gpu_advisor.engine.calc.latency import at_rate, first_token_tail_ms, highest_rate_within, lone_request
from gpu_advisor.engine.calc.queue_tails import (
    deterministic_queue_tail_seconds,
    exponential_wait_tail_seconds,
)
from gpu_advisor.engine.present.memo import render_memo


def simulated_waits(load: float, service: float, arrivals: int, seed: int) -> list[float]:
    """The waits of an M/D/1 queue by Lindley's recursion: each arrival waits for what the one before it
    waited and was served, less the time between them."""
    rng = random.Random(seed)
    rate = load / service
    waits, wait = [], 0.0
    for _ in range(arrivals):
        waits.append(wait)
        wait = max(0.0, wait + service - rng.expovariate(rate))
    return waits


@pytest.mark.parametrize("load", [0.05, 0.1, 0.3, 0.5, 0.7, 0.85])
@pytest.mark.parametrize("share", [0.9, 0.99])
def test_the_queue_tail_matches_the_queue(load: float, share: float) -> None:
    waits = sorted(simulated_waits(load, 1.0, 400_000, seed=7))
    simulated = waits[int(share * len(waits))]
    estimated = deterministic_queue_tail_seconds(load, 1.0, share)
    assert estimated == pytest.approx(simulated, rel=0.03, abs=0.02)


def test_the_exact_wait_worked_out() -> None:
    """Busy half the time (a service a second, half an arrival a second), 90 % of the arrivals wait at
    most t = 1.5157 s, where Erlang's sum gives P(wait <= t) = 0.9: 0.5 (e^(0.5 t) - 0.5 (t - 1)
    e^(0.5 (t - 1)))."""
    t = deterministic_queue_tail_seconds(0.5, 1.0, 0.90)
    assert 1 < t < 2
    within = 0.5 * (math.exp(0.5 * t) - 0.5 * (t - 1) * math.exp(0.5 * (t - 1)))
    assert within == pytest.approx(0.90, abs=1e-7)
    assert t == pytest.approx(1.5157, abs=1e-4)
    # Twice the service time, twice the wait.
    assert deterministic_queue_tail_seconds(0.5, 2.0, 0.90) == pytest.approx(2 * t)


def test_the_wait_grows_from_nothing_as_the_load_passes_the_share() -> None:
    """1 % of the arrivals find the server busy at a load of 1 %: the 99th percentile wait is 0 there and
    grows from it, where the long-wait approximation alone jumped to 0.45 services."""
    assert deterministic_queue_tail_seconds(0.0100, 1.0, 0.99) == 0.0
    assert deterministic_queue_tail_seconds(0.0101, 1.0, 0.99) < 0.02
    light, busier = (deterministic_queue_tail_seconds(load, 1.0, 0.99) for load in (0.011, 0.02))
    assert 0 < light < busier


def test_long_waits_take_the_long_wait_approximation() -> None:
    """Busy 95 % of the time, 99 % of the arrivals wait at most ln(C / 0.01) / x services, beyond the 16
    the exact sum is read to: x solves 0.95 (e^x - 1) = x, C = 0.05 / (0.95 e^x - 1)."""
    x = 0.1032
    for _ in range(50):
        x -= (0.95 * math.expm1(x) - x) / (0.95 * math.exp(x) - 1)
    constant = 0.05 / (0.95 * math.exp(x) - 1)
    worked = math.log(constant / 0.01) / x
    assert worked > 16
    assert deterministic_queue_tail_seconds(0.95, 1.0, 0.99) == pytest.approx(worked)
    # Fewer than 1 % of the arrivals wait at all on a nearly idle queue; a full one never empties.
    assert deterministic_queue_tail_seconds(0.005, 1.0, 0.99) == 0.0
    assert deterministic_queue_tail_seconds(1.0, 1.0, 0.99) == 1e9


def test_an_exponential_wait_tail() -> None:
    """A fifth of the requests wait, for a second on average: 99 % wait at most ln(0.2 / 0.01) s."""
    assert exponential_wait_tail_seconds(0.2, 1.0, 0.99) == pytest.approx(math.log(20))
    assert exponential_wait_tail_seconds(0.01, 1.0, 0.99) == 0.0


def test_a_lone_request_has_no_tail_and_a_busy_replica_a_long_one() -> None:
    alone = lone_request(ROOFLINE)
    assert first_token_tail_ms(ROOFLINE, alone) == alone.time_to_first_token_ms
    # 20 ms prefills, 30 a second: busy 60 % of the time with prompts; the tail is well above the mean.
    busy = at_rate(ROOFLINE, 30.0)
    busy_tail = first_token_tail_ms(ROOFLINE, busy)
    assert busy_tail is not None
    assert busy_tail > 2 * busy.time_to_first_token_ms


def test_a_first_token_target_is_held_at_the_mean_and_the_tail_lies_beyond_it() -> None:
    target = 100.0
    rate = highest_rate_within(ROOFLINE, 45.0, target, None)
    point = at_rate(ROOFLINE, rate)
    assert point.time_to_first_token_ms == pytest.approx(target, rel=1e-6)
    tail = first_token_tail_ms(ROOFLINE, point)
    assert tail is not None and tail > target


LONG_PROMPTS = {
    "name": "contract-review",
    "model": {"name": "llama-3.3-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 300_000,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "max_time_to_first_token_ms": 500,
}


def test_the_memo_says_the_target_holds_for_the_mean_where_the_tail_passes_it() -> None:
    result = run(LONG_PROMPTS)
    assert result.sizing_policy.latency_tail_share == 0.99
    (row,) = [g for g in result.sizing.gpus if g.gpu == result.decision.gpu]
    assert row.time_to_first_token_ms is not None and row.time_to_first_token_ms <= 500
    assert row.time_to_first_token_tail_ms is not None and row.time_to_first_token_tail_ms > 500
    memo = " ".join(render_memo(result).split())
    assert (
        "The targets hold for the mean: by that estimate, more than 1 % of the requests may wait "
        "longer than 500 ms for their first token. A target meant for nearly every request needs replicas "
        "that stand idle more, or a balancer that sends each request to the least busy replica." in memo
    )
    # Without a target the sentence has nothing to say.
    relaxed = " ".join(render_memo(run({**LONG_PROMPTS, "max_time_to_first_token_ms": 100_000})).split())
    assert "The targets hold for the mean" not in relaxed
