"""A benchmark run of a finite number of requests, as published benchmarks measure throughput: the
requests' output tokens over the time from the first request sent to the last one answered
("Request Throughput" times "Total Latency" is the number of requests in trtllm-bench's report). A
steady state leaves out the run's ramp and drain: the first requests find an empty batch and the last
ones finish with too few others to fill theirs.

- All requests at once (offline), or a fixed number in flight (a closed loop): the replica works
  through them in waves of as many as run together (the batch limit, or the number in flight if
  smaller). With every request the same length, a wave's sequences start together and finish
  together: a wave of ``n`` takes their ``n`` prefills, whose passes yield the first tokens, and
  ``output_tokens - 1`` decode steps of ``n`` sequences (``Roofline.decode_steps``). Full waves run
  at the steady state's rate; the last, partial wave runs its steps at a smaller batch, for as many
  steps, and so lowers the run's throughput.
- An arrival rate (an open loop): the last of ``requests`` requests is sent ``(requests - 1) / rate``
  seconds after the first and is answered one request's latency later (its first token, then every
  other at the time per output token), never sooner than the replica could work through all of them
  at once.
"""

from __future__ import annotations

from gpu_advisor.engine.calc.latency import OperatingPoint
from gpu_advisor.engine.calc.roofline import Roofline


def wave_seconds(roofline: Roofline, sequences: int) -> float:
    """``sequences`` requests started together: their prefills, then every decode step of them all."""
    return sequences * roofline.prefill_busy_seconds(
        sequences
    ) + roofline.decode_steps * roofline.step_seconds(sequences)


def all_at_once_seconds(roofline: Roofline, requests: int, in_flight: int | None = None) -> float:
    """``requests`` requests sent at once (``in_flight`` None) or kept ``in_flight`` at a time: full
    waves of the batch, then the rest as one partial wave."""
    batch = min(in_flight or roofline.max_batch, roofline.max_batch)
    full, rest = divmod(requests, batch)
    seconds = full * wave_seconds(roofline, batch)
    return seconds + (wave_seconds(roofline, rest) if rest else 0.0)


def open_loop_seconds(roofline: Roofline, requests: int, point: OperatingPoint) -> float:
    """``requests`` requests arriving at ``point``'s rate: from the first sent to the last answered."""
    last_sent = (requests - 1) / point.requests_per_second
    last_answered = (
        point.time_to_first_token_ms + (roofline.output_tokens - 1) * point.time_per_output_token_ms
    ) / 1000
    return max(last_sent + last_answered, all_at_once_seconds(roofline, requests))


def run_requests_per_second(
    roofline: Roofline,
    requests: int,
    point: OperatingPoint,
    in_flight: int | None = None,
    rate: float | None = None,
) -> float:
    """Requests over the run's time, the run's throughput as the benchmark reports it: an open loop
    at ``rate``, else ``in_flight`` at a time, else all at once. A saturated open loop runs as if all
    were sent at once (the queue, not the sends, sets its end)."""
    if rate is not None and not point.saturated:
        return requests / open_loop_seconds(roofline, requests, point)
    return requests / all_at_once_seconds(roofline, requests, in_flight)
