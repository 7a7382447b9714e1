"""A published run of a finite number of requests: its throughput worked out by hand from a small
roofline (one stage, a dense model, every figure a round number)."""

from __future__ import annotations

import pytest

from gpu_advisor.engine.calc.batch_run import requests_in_window, run_hours, run_seconds
from gpu_advisor.engine.calc.finite_run import (
    all_at_once_seconds,
    open_loop_seconds,
    run_requests_per_second,
    wave_seconds,
)
from gpu_advisor.engine.calc.latency import OperatingPoint
from gpu_advisor.engine.calc.roofline import Roofline

# A decode step of n sequences: 10 ms for the weights plus 0.1 ms per sequence's KV cache (compute is
# far below); a prefill 20 ms; 10 output tokens, the first from the prompt's pass and 9 from decode steps;
# at most 100 sequences at once.
ROOFLINE = Roofline(
    input_tokens=100,
    output_tokens=10,
    pipeline_stages=1,
    weights_seconds=0.010,
    active_weights_seconds=0.010,
    experts=None,
    experts_per_token=None,
    shared_weights_seconds=0.010,
    expert_weights_seconds=0.0,
    fixed_step_seconds=0.0,
    kv_seconds_per_sequence=0.0001,
    weights_compute_seconds_per_sequence=0.00001,
    attention_seconds_per_sequence=0.0,
    prefill_seconds=0.020,
    prefill_weights_seconds=0.020,
    prefill_attention_seconds=0.0,
    prefill_chunks=1,
    max_batch=100,
    # The plain roofline: the longer of reads and FLOPs, with no blend near the ridge.
    roofline_exponent=64.0,
    latency_tail_share=0.99,
)


def point(rate: float, saturated: bool = False) -> OperatingPoint:
    return OperatingPoint(
        requests_per_second=rate,
        decoding=1.0,
        in_flight=1.0,
        time_to_first_token_ms=30.0,
        time_per_output_token_ms=12.0,
        saturated=saturated,
    )


def test_a_full_wave_runs_at_the_steady_state_rate() -> None:
    # 100 prefills of 20 ms, then 9 steps of 10 + 100 x 0.1 = 20 ms: 2.0 + 0.18 s.
    assert ROOFLINE.decode_steps == 9
    assert wave_seconds(ROOFLINE, 100) == pytest.approx(2.18)
    assert 100 / wave_seconds(ROOFLINE, 100) == pytest.approx(ROOFLINE.requests_per_second(100))


def test_all_at_once_ends_with_a_partial_wave() -> None:
    # 250 requests: two full waves of 100 (2.18 s each) and one of 50: 50 x 20 ms + 9 x 15 ms = 1.135 s.
    assert all_at_once_seconds(ROOFLINE, 250) == pytest.approx(5.495)
    # 250 / 5.495 s = 45.50 requests/s, below the steady state's 1 / (20 + 9 x 20 / 100 ms) = 45.87.
    assert run_requests_per_second(ROOFLINE, 250, point(0.0, saturated=True)) == pytest.approx(250 / 5.495)
    assert ROOFLINE.requests_per_second(100) == pytest.approx(1 / 0.0218)


def test_a_fixed_number_in_flight_passes_in_waves_of_that_number() -> None:
    # 25 in flight: waves of 25 x 20 ms + 9 x 12.5 ms = 0.6125 s; ten of them for 250 requests, 40.82 a
    # second.
    assert all_at_once_seconds(ROOFLINE, 250, in_flight=25) == pytest.approx(6.125)
    assert run_requests_per_second(ROOFLINE, 250, point(0.0), in_flight=25) == pytest.approx(250 / 6.125)
    # More in flight than the batch holds: waves of the batch.
    assert all_at_once_seconds(ROOFLINE, 250, in_flight=400) == pytest.approx(5.495)


def test_an_open_loop_run_ends_when_its_last_request_is_answered() -> None:
    # 250 requests at 5 a second: the last is sent 249 / 5 = 49.8 s after the first and answered
    # 30 ms + 9 x 12 ms = 0.138 s later.
    assert open_loop_seconds(ROOFLINE, 250, point(5.0)) == pytest.approx(49.938)
    assert run_requests_per_second(ROOFLINE, 250, point(5.0), rate=5.0) == pytest.approx(250 / 49.938)


def test_an_open_loop_run_is_never_shorter_than_working_through_it_at_once() -> None:
    # At 1,000 requests/s the sends take 0.249 s, but the replica needs 5.495 s for the 250.
    assert open_loop_seconds(ROOFLINE, 250, point(1000.0)) == pytest.approx(5.495)
    # A saturated load runs as if all were sent at once.
    assert run_requests_per_second(ROOFLINE, 250, point(45.0, saturated=True), rate=60.0) == pytest.approx(
        250 / 5.495
    )


def test_a_batch_replica_fits_full_waves_then_the_largest_partial_one() -> None:
    """``batch_run``: a wave of n takes 0.0209 n + 0.09 s (n prefills of 20 ms, 9 steps of 10 + 0.1 n
    ms). In 5 s: two full waves (4.36 s), and of the 0.64 s left a wave of 26 (0.6334 s), not 27
    (0.6543 s)."""
    rate = 100 / 2.18
    assert requests_in_window(ROOFLINE, 100, rate, 5.0) == 226
    assert run_seconds(ROOFLINE, 226, 100, rate) == pytest.approx(4.36 + 0.6334)
    # A lone request takes 0.1109 s: a shorter window fits none.
    assert requests_in_window(ROOFLINE, 100, rate, 0.1108) == 0
    assert requests_in_window(ROOFLINE, 100, rate, 0.1109 + 1e-9) == 1
    # Half the rate (a scenario's drawn error) doubles every wave: one full (4.36 s) and one of 11
    # (2 x 0.3199 s = 0.6398 s) in 5 s.
    assert requests_in_window(ROOFLINE, 100, rate / 2, 5.0) == 111
    assert run_seconds(ROOFLINE, 111, 100, rate / 2) == pytest.approx(4.36 + 0.6398)
    # Fewer requests than the batch holds still take a whole wave: 50 take 1.135 s, not 50 / 45.87 a
    # second = 1.09 s; 226 over three replicas, 76 on the fullest, 1.6784 s.
    assert run_seconds(ROOFLINE, 50, 100, rate) == pytest.approx(1.135)
    assert run_hours(226, ROOFLINE, 100, rate, 3) * 3600 == pytest.approx(0.0209 * 76 + 0.09)
