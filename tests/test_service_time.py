"""A request's time in flight as the load grows (``traffic.ServiceTime``) is the latency model's: the
requests in flight and the busy share agree with the first-token and per-token times the memo states at
the same rate. Figures worked out by hand on the small roofline of ``test_finite_run``: a decode step
of c sequences takes 10 ms for the weights plus 0.1 ms per sequence, a prefill 20 ms, 10 output tokens
(the first from the prompt's pass, 9 decode steps)."""

from __future__ import annotations

import pytest
from helpers import EVALUATED_ON, EXAMPLES_DIR, read_example, run
from test_finite_run import ROOFLINE

from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.calc.latency import at_rate
from gpu_advisor.engine.calc.request_times import request_times
from gpu_advisor.engine.calc.traffic import ServiceTime
from gpu_advisor.engine.domain.workload import validate_workload

RATES, TIMES = request_times(ROOFLINE, 100)


def test_a_knot_is_the_operating_point_of_its_batch() -> None:
    # Alone: the prompt's pass (its 20 ms of multiply-adds), which yields the first token, and 9 lone
    # decode steps of 10.1 ms.
    assert (RATES[0], TIMES[0]) == (0.0, pytest.approx(0.1109))
    # The first knot: a quarter of a sequence decoding would keep the replica prefilling 0.25 x 0.02 /
    # (0.25 x 0.02 + 9 x 0.0101) = 5.2 % of the time, over the 5 % a first knot may take, so the knot has
    # the batch that takes 5 %: 0.05 x 9 x 0.0101 / (0.95 x 0.02) = 0.2392 sequences decoding, at
    # 0.05 / 0.02 = 2.5 requests/s.
    first = 0.05 * 9 * 0.0101 / (0.95 * 0.02)
    assert RATES[1] == pytest.approx(first / (first * 0.02 + 9 * 0.0101), rel=1e-12)
    assert RATES[1] == pytest.approx(2.5, rel=1e-12)
    # Eight times that batch, 1.914 sequences decoding (three knots per doubling: the tenth): each takes
    # 1.914 x 20 ms of prefills' time plus 9 steps of 10.19 ms between its tokens, 0.13 s (0.129996), so
    # the rate is 1.914 / 0.13 = 14.72 requests/s. A prompt then waits for the prefills ahead (M/D/1:
    # rho = 14.72 x 0.02 = 0.2944, rho x 0.02 / (2 (1 - rho)) = 4.17 ms), half a step (5.10 ms) and its
    # own pass with the sequences' step (20.02 + 0.19 ms): 29.48 ms to the first token, so a request
    # takes 0.13 + 0.02948 = 0.15947 s.
    decoding = 8 * first
    step = 0.010 + 0.0001 * decoding
    per_sequence = decoding * 0.02 + 9 * step
    rate = decoding / per_sequence
    rho = rate * 0.02
    first_token = rho * 0.02 / (2 * (1 - rho)) + step / 2 + 0.02 + 0.00001 * decoding + 0.0001 * decoding
    assert RATES[10] == pytest.approx(rate, rel=1e-9)
    assert TIMES[10] == pytest.approx(per_sequence + first_token, rel=1e-9)
    assert TIMES[10] == pytest.approx(0.15947, abs=1e-5)
    # Every knot is what the latency model finds from the rate (in flight = rate x S), to the tolerance
    # of its fixed-point search.
    for knot_rate, seconds in zip(RATES[1:], TIMES[1:], strict=True):
        assert at_rate(ROOFLINE, knot_rate).in_flight == pytest.approx(knot_rate * seconds, rel=1e-7)
    # The last knot has the batch full: the replica's capacity.
    assert RATES[-1] == pytest.approx(ROOFLINE.requests_per_second(100), rel=1e-12)


def test_between_knots_the_curve_keeps_to_the_model_on_real_replicas() -> None:
    """Every replica plan of three workloads far apart (DeepSeek-R1 on premises; a 70B RAG service with
    100,000-token prompts, whose replicas are prefilling most of the time; Mixtral in BF16): the
    requests in flight within 1 % of the latency model's at 100 rates up to 80 % of the capacity."""
    rag = {
        "name": "rag-100k",
        "model": {"name": "llama-3.3-70b", "precision": "fp8"},
        "requests_per_day": 560,
        "avg_input_tokens": 100_000,
        "avg_output_tokens": 300,
        "context_tokens": 110_000,
        "load_pattern": "variable",
        "schedule": "office_hours",
    }
    mixtral = {
        "name": "mixtral",
        "model": {"name": "mixtral-8x7b", "precision": "bf16"},
        "requests_per_day": 300_000,
        "avg_input_tokens": 800,
        "avg_output_tokens": 300,
    }
    worst, plans = 0.0, 0
    for workload in (read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml"), rag, mixtral):
        evaluation = evaluate_workload(validate_workload(workload, "test"), EVALUATED_ON)
        for plan in evaluation.market.plans.values():
            service = ServiceTime(*request_times(plan.roofline, plan.batch), replicas=1)
            plans += 1
            for step in range(1, 101):
                rate = service.rates[-1] * 0.8 * step / 100
                point = at_rate(plan.roofline, rate)
                worst = max(worst, abs(service.in_flight(rate) - point.in_flight) / point.in_flight)
    assert plans >= 20
    assert 0.001 < worst <= 0.01


def test_service_time_is_linear_in_the_rate_between_knots_and_split_over_replicas() -> None:
    service = ServiceTime(RATES, TIMES, replicas=1)
    middle = (RATES[10] + RATES[11]) / 2
    assert service.seconds(middle) == pytest.approx((TIMES[10] + TIMES[11]) / 2, rel=1e-12)
    assert service.in_flight(middle) == pytest.approx(middle * (TIMES[10] + TIMES[11]) / 2, rel=1e-12)
    # Within 1 % of the latency model between the knots.
    point = at_rate(ROOFLINE, middle)
    assert service.in_flight(middle) == pytest.approx(point.in_flight, rel=0.01)
    assert service.in_flight(middle) != pytest.approx(point.in_flight, rel=1e-6)
    # Two replicas share the rate: twice the rate takes the same time.
    assert ServiceTime(RATES, TIMES, replicas=2).seconds(2 * middle) == service.seconds(middle)
    # At or past the capacity the batch stays full.
    assert service.seconds(10 * RATES[-1]) == TIMES[-1]
    assert service.seconds(0.0) == service.alone == 0.1109


def test_a_faster_replica_scales_rates_up_and_times_down() -> None:
    service = ServiceTime(RATES, TIMES, replicas=1)
    faster = service.scaled(2.0)
    assert faster.seconds(2 * RATES[10]) == pytest.approx(TIMES[10] / 2, rel=1e-12)
    assert faster.alone == pytest.approx(0.05545)


def test_a_mixture_of_experts_in_flight_agrees_with_its_latency_at_the_peak() -> None:
    # DeepSeek-R1 on one 16-card H100 replica at 0.586 requests/s at the peak: its step grows fastest at
    # small batches (each new sequence reads experts the others do not), so a straight line between a
    # lone request and the full batch put fewer requests in flight than the latency line means (18.4
    # against 27 before the routed experts' measured factor). The latency line now gives 115 ms to the
    # first token, which the prompt's pass yields, and 33.7 ms a token for the other 1,999 of 2,000:
    # 0.586 x (0.115 + 1,999 x 0.0337) s, about 39.57.
    result = run(read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml"))
    load, gpu = result.load, result.sizing.gpus[0]
    assert (load.busy_share_gpu, gpu.gpu, result.replicas) == ("h100-sxm", "h100-sxm", 1)
    assert gpu.time_to_first_token_ms is not None and gpu.time_per_output_token_ms is not None
    seconds = (gpu.time_to_first_token_ms + 1999 * gpu.time_per_output_token_ms) / 1000
    assert load.requests_in_flight_peak == pytest.approx(load.peak_requests_per_second * seconds, rel=0.01)
    assert load.requests_in_flight_peak == pytest.approx(39.57, abs=0.01)
