"""A request's time in flight as the load grows (``traffic.ServiceTime``) is the latency model's: the
requests in flight and the busy share agree with the first-token and per-token times the memo states at
the same rate. Figures worked out by hand on the small roofline of ``test_finite_run``: a decode step
of c sequences takes 10 ms for the weights plus 0.1 ms per sequence, a prefill 20 ms, 10 output tokens."""

from __future__ import annotations

import pytest
from helpers import EXAMPLES_DIR, read_example, run
from test_finite_run import ROOFLINE

from gpu_advisor.engine.calc.latency import at_rate, request_times
from gpu_advisor.engine.calc.traffic import ServiceTime

RATES, TIMES = request_times(ROOFLINE, 100)


def test_a_knot_is_the_operating_point_of_its_batch() -> None:
    # Alone: the prompt's pass (its 20 ms of multiply-adds) and 10 lone steps of 10.1 ms.
    assert (RATES[0], TIMES[0]) == (0.0, pytest.approx(0.121))
    # Two sequences decoding: each takes 2 x 20 ms of prefills' time plus 10 steps of 10.2 ms between
    # its tokens, 0.142 s, so the rate is 2 / 0.142 = 14.085 requests/s. A prompt then waits for the
    # prefills ahead (M/D/1: rho = 14.085 x 0.02 = 0.2817, rho x 0.02 / (2 (1 - rho)) = 3.92 ms), half a
    # step (5.1 ms) and its own pass with the two sequences' step (20.02 + 0.2 ms): 29.24 ms to the
    # first token, so a request takes 0.142 + 0.02924 = 0.17124 s.
    rate = 2 / 0.142
    rho = rate * 0.02
    first_token = rho * 0.02 / (2 * (1 - rho)) + 0.0102 / 2 + 0.02002 + 0.0002
    assert RATES[4] == pytest.approx(rate, rel=1e-12)
    assert TIMES[4] == pytest.approx(0.142 + first_token, rel=1e-9)
    assert TIMES[4] == pytest.approx(0.17124, abs=1e-5)
    # Every knot is what the latency model finds from the rate: in flight = rate x S.
    for knot_rate, seconds in zip(RATES[1:], TIMES[1:], strict=True):
        assert at_rate(ROOFLINE, knot_rate).in_flight == pytest.approx(knot_rate * seconds, rel=1e-9)
    # The last knot has the batch full: the replica's capacity.
    assert RATES[-1] == pytest.approx(ROOFLINE.requests_per_second(100), rel=1e-12)


def test_service_time_is_linear_in_the_rate_between_knots_and_split_over_replicas() -> None:
    service = ServiceTime(RATES, TIMES, replicas=1)
    middle = (RATES[4] + RATES[5]) / 2
    assert service.seconds(middle) == pytest.approx((TIMES[4] + TIMES[5]) / 2, rel=1e-12)
    assert service.in_flight(middle) == pytest.approx(middle * (TIMES[4] + TIMES[5]) / 2, rel=1e-12)
    # Within 2 % of the latency model between the knots.
    point = at_rate(ROOFLINE, middle)
    assert service.in_flight(middle) == pytest.approx(point.in_flight, rel=0.02)
    assert service.in_flight(middle) != pytest.approx(point.in_flight, rel=1e-6)
    # Two replicas share the rate: twice the rate takes the same time.
    assert ServiceTime(RATES, TIMES, replicas=2).seconds(2 * middle) == service.seconds(middle)
    # At or past the capacity the batch stays full.
    assert service.seconds(10 * RATES[-1]) == TIMES[-1]
    assert service.seconds(0.0) == service.alone == 0.121


def test_a_faster_replica_scales_rates_up_and_times_down() -> None:
    service = ServiceTime(RATES, TIMES, replicas=1)
    faster = service.scaled(2.0)
    assert faster.seconds(2 * RATES[4]) == pytest.approx(TIMES[4] / 2, rel=1e-12)
    assert faster.alone == pytest.approx(0.0605)


def test_a_mixture_of_experts_in_flight_agrees_with_its_latency_at_the_peak() -> None:
    # DeepSeek-R1 on one 16-card H100 replica at 0.586 requests/s at the peak: its step grows fastest at
    # small batches (each new sequence reads experts the others do not), so a straight line between a
    # lone request and the full batch put 18.4 requests in flight where the latency line (94 ms to the
    # first token, 23 ms a token for 2,000 tokens) means about 27.
    result = run(read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml"))
    load, gpu = result.load, result.sizing.gpus[0]
    assert (load.busy_share_gpu, gpu.gpu, result.replicas) == ("h100-sxm", "h100-sxm", 1)
    assert gpu.time_to_first_token_ms is not None and gpu.time_per_output_token_ms is not None
    seconds = (gpu.time_to_first_token_ms + 2000 * gpu.time_per_output_token_ms) / 1000
    assert load.requests_in_flight_peak == pytest.approx(load.peak_requests_per_second * seconds, rel=0.01)
    assert load.requests_in_flight_peak == pytest.approx(27.26, abs=0.01)
