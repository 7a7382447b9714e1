"""One request's time in a replica at every rate up to its capacity, as curves a service-time model
interpolates (``traffic.ServiceTime``): worked out from the batch at a few knots, not searched at every
rate (``latency.at_rate``)."""

from __future__ import annotations

from gpu_advisor.engine.calc.latency import queue_and_prefill_seconds
from gpu_advisor.engine.calc.roofline import Roofline
from gpu_advisor.engine.common.caching import per_object

CURVES_KEPT = 1024
"""Request-time curves cached: one per replica shape and batch the load's busy share asks about."""

FIRST_KNOT_DECODING = 0.25
"""Sequences decoding at the first knot after an idle replica, at most."""

FIRST_KNOT_PREFILL_SHARE = 0.05
"""The share of its time the replica spends on prefills at the first knot, at most."""

KNOT_GROWTH = 2 ** (1 / 3)
"""The batch grows by this factor from knot to knot (three knots per doubling)."""


@per_object(entries=CURVES_KEPT)
def request_times(roofline: Roofline, batch: int, /) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """One request's time in the replica (time to first token plus its other output tokens at the time
    per token, one decode step each, ``Roofline.decode_steps``; not a wait for a place in the batch, as
    ``OperatingPoint.in_flight`` counts), at rates climbing from none to the replica's capacity with
    ``batch`` sequences decoding:
    ``(rates, seconds)``, the knots ``traffic.ServiceTime`` interpolates. A knot is the operating point
    ``at_rate`` finds, worked out from its batch instead of its rate: with ``c`` sequences decoding,
    Little's law gives the rate in closed form, c / (c x prefill busy time + decode steps x step(c)),
    so each knot takes one step time, not a search. The batches grow by a factor of ∛2 up to ``batch``
    (a mixture of experts' step grows fastest at small batches, as each new sequence reads experts the
    others did not), from one small enough that prefills keep the replica busy at most
    ``FIRST_KNOT_PREFILL_SHARE`` of the time: a prompt's wait grows convexly with that share, and a long
    prompt's replica is mostly prefilling already at a quarter of a sequence decoding. Between knots the
    curve is within 1 % of the model's up to 80 % of the capacity (``tests/test_service_time.py``)."""
    busy, steps = roofline.prefill_busy_seconds, roofline.decode_steps
    if not steps:
        return _prompt_times(roofline)
    lone_step = roofline.step_seconds(1.0)
    rates, seconds = [0.0], [lone_request_seconds(roofline)]
    share = FIRST_KNOT_PREFILL_SHARE
    # Below one sequence decoding the step is a lone one: the prefill share is c p / (c p + T step(1)).
    decoding = min(FIRST_KNOT_DECODING, share * steps * lone_step / ((1 - share) * busy(1.0)))
    while True:
        decoding = min(decoding, float(batch))
        per_sequence = decoding * busy(decoding) + steps * roofline.step_seconds(max(decoding, 1.0))
        rate = decoding / per_sequence
        # In flight: the sequences decoding and those waiting for or in their prefill (Little's law).
        seconds.append(per_sequence + queue_and_prefill_seconds(roofline, rate, decoding))
        rates.append(rate)
        if decoding >= batch:
            return tuple(rates), tuple(seconds)
        decoding *= KNOT_GROWTH


def lone_request_seconds(roofline: Roofline) -> float:
    """One request alone on an idle replica, from its arrival to its last token: its prompt's pass
    (``queue_and_prefill_seconds`` with nothing else in flight) and each of its other output tokens at
    the step of a batch of one (``Roofline.decode_steps``); ``request_times``' first knot. The least any
    request takes on the replica, whatever the load."""
    return queue_and_prefill_seconds(roofline, 0.0, 0.0) + roofline.decode_steps * roofline.step_seconds(1.0)


def _prompt_times(roofline: Roofline) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """``request_times`` for one-token answers: a request is its prompt's pass alone, nothing decodes,
    and its time is the wait behind the other prompts and its own pass (``queue_and_prefill_seconds``
    with none decoding). The knots climb in the replica's prefill share from
    ``FIRST_KNOT_PREFILL_SHARE`` by a factor of ∛2 to the share that leaves it idle as long: the wait
    grows without bound as the share nears 1, and the load a replica is sized for stays below it."""
    busy = roofline.prefill_busy_seconds(0.0)
    rates, seconds = [0.0], [lone_request_seconds(roofline)]
    share, last = FIRST_KNOT_PREFILL_SHARE, 1 - FIRST_KNOT_PREFILL_SHARE
    while True:
        share = min(share, last)
        rate = share / busy
        rates.append(rate)
        seconds.append(queue_and_prefill_seconds(roofline, rate, 0.0))
        if share >= last:
            return tuple(rates), tuple(seconds)
        share *= KNOT_GROWTH
