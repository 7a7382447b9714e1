"""Latency at an operating point: what a user of one replica sees at a given load.

An engine that batches continuously runs every sequence that has its prompt processed in each decode
step, and processes new prompts between the steps (chunked or whole). So at a load:

- the replica's time is shared: a share ``rho`` (arrival rate times one prefill's busy time) goes to
  prefills, the rest to decode steps, so the time between tokens is the decode step of the sequences
  decoding, stretched by ``1 / (1 - rho)``;
- a new prompt waits for the prefills ahead of it (an M/D/1 queue: Poisson arrivals, fixed prefill time)
  and half a decode step on average, then takes its own prefill;
- the sequences decoding follow from Little's law: the arrival rate times the time each one decodes;
- the batch holds at most ``max_batch`` sequences (the engine's limit, or what the KV cache holds): where
  the Poisson arrivals find them all taken, a request waits for one to finish (an M/D/c queue for a
  slot, ``slot_wait_seconds``), which the time to first token includes. Near a replica's capacity that
  wait, not the prefill's, is what a user sees;
- the waits above are means; the time to first token that most requests stay within (99 %, the
  percentile MLPerf Inference checks its limits at) is their tail (``first_token_tail_seconds``), shown
  beside the mean.

A fixed number of users who each send the next request when the last one is answered (how published
benchmarks fix "concurrency") is a closed loop: those not decoding wait for their first token, so the time
to first token follows from Little's law over the users instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from gpu_advisor.engine.calc.queue_tails import (
    deterministic_queue_tail_seconds,
    exponential_wait_tail_seconds,
)
from gpu_advisor.engine.calc.roofline import Roofline
from gpu_advisor.engine.common.caching import per_object

ITERATIONS = 30
"""Bisection steps: enough to pin a rate or a batch to a billionth of its range."""

QUICK_ITERATIONS = 12
"""Steps of the plain fixed-point iteration before bisection takes over."""


RATES_KEPT = 8192
"""Highest rates within latency targets cached: one per GPU, sizing, token counts and targets. They do
not depend on the load. As many saturation points, one per roofline, are kept."""


UNBOUNDED_MS = 1e12
"""Stands for a wait that grows without bound: a load the replicas cannot carry."""


class OperatingPoint(NamedTuple):
    requests_per_second: float
    decoding: float
    """Sequences decoding at once (the batch of a decode step)."""
    in_flight: float
    """Requests in the batch: waiting for their prefill, in it and decoding (those waiting for a place in
    the batch hold no KV cache and are not counted; their wait is ``slot_wait_seconds``)."""
    time_to_first_token_ms: float
    """Including the wait for a place in the batch."""
    time_per_output_token_ms: float
    saturated: bool
    """The load asks more than the replica delivers: the figures are its ceiling, and the queue grows."""
    slot_wait_seconds: float = 0.0
    """The mean wait for a place in the batch (``slot_wait_seconds``)."""

    @property
    def request_seconds(self) -> float | None:
        """A request from its arrival to its last token: the requests in the batch over the rate (Little),
        plus the wait for a place in it."""
        if not self.requests_per_second:
            return None
        return self.in_flight / self.requests_per_second + self.slot_wait_seconds


SLOT_WAIT_NEGLIGIBLE = 7.0
"""Free places in the batch, in standard deviations of the sequences decoding (Poisson: the square root of
their mean), beyond which the wait for one is left out: the chance that all are taken is then below 1e-11
(Halfin and Whitt's limit), and most operating points skip the sum over every place."""


def slot_wait_seconds(slots: int, rate: float, decoding: float) -> float:
    """The mean wait of a request arriving at ``rate`` (Poisson) for one of the batch's ``slots`` places,
    ``decoding`` of them taken on average, each for ``decoding / rate`` seconds (Little): an M/D/c queue,
    by Allen and Cunneen's approximation half the M/M/c wait, Erlang's C(c, a) × (a / rate) / (c - a),
    with C from Erlang's B recursion. A sequence's time in the batch is taken as fixed, as the prefill's
    is (M/D/1) and the request lengths are."""
    waits, given_wait = _slot_wait(slots, rate, decoding)
    return waits * given_wait


def _slot_wait(slots: int, rate: float, decoding: float) -> tuple[float, float]:
    """The chance that a request waits for a place in the batch (Erlang's C) and its mean wait when it
    does (``slot_wait_seconds``): (0, 0) where the wait is left out, (1, unbounded) where every place is
    taken on average."""
    if rate <= 0 or decoding <= 0:
        return 0.0, 0.0
    free = slots - decoding
    if free <= 0:
        return 1.0, UNBOUNDED_MS / 1000
    if free > SLOT_WAIT_NEGLIGIBLE * decoding**0.5:
        return 0.0, 0.0
    blocked = 1.0
    for place in range(1, slots + 1):
        blocked = decoding * blocked / (place + decoding * blocked)
    waits = slots * blocked / (slots - decoding * (1 - blocked))
    return waits, (decoding / rate) / free / 2


def first_token_tail_seconds(roofline: Roofline, rate: float, decoding: float) -> float:
    """The time to first token that ``roofline.latency_tail_share`` of the requests arriving at ``rate``
    stay within, the replica taken as its own queue (each replica gets its own share of the arrivals): the
    tails of the wait for a place in the batch and of the wait behind other prompts, the step in progress
    at that share of its length, and the prompt's own passes. Adding the tails of two waits is a rough
    combination: where both are common it overstates the tail of their sum, where each alone is rarer
    than the share it can miss one; the prefill's tail (Cramér-Lundberg) errs high at light loads, and a
    balancer that sends each request to the least busy replica shortens the waits. Read it as an upper
    estimate at the loads a replica is sized for."""
    share = roofline.latency_tail_share
    waits, given_wait = _slot_wait(roofline.max_batch, rate, decoding)
    prefill_busy = roofline.prefill_busy_seconds(decoding)
    busy = rate * prefill_busy
    decoding_share = min(decoding, 1.0)
    return (
        exponential_wait_tail_seconds(waits, given_wait, share)
        + deterministic_queue_tail_seconds(busy, prefill_busy, share)
        + decoding_share * roofline.step_seconds(max(decoding, 1.0)) * share
        + roofline.prefill_chunks * prompt_pass_seconds(roofline, decoding)
    )


def first_token_tail_ms(roofline: Roofline, point: OperatingPoint) -> float | None:
    """``first_token_tail_seconds`` at ``point`` (an ``at_rate`` one), in milliseconds; None where the
    replica is saturated (a full batch has no tail a user sees). Worked out where a result states it, not
    at every operating point the sizing searches."""
    if point.saturated:
        return None
    # At 99 % the slowest requests wait longer than the average one; the parts added up at a light load
    # (the prompts' queue, which most find empty) can come out a little below the mean.
    tail = first_token_tail_seconds(roofline, point.requests_per_second, point.decoding) * 1000
    return max(tail, point.time_to_first_token_ms)


def queue_and_prefill_seconds(roofline: Roofline, rate: float, decoding: float) -> float:
    """Time to first token of a prompt with other prompts arriving at ``rate`` and ``decoding`` other
    sequences in their steps."""
    prefill_busy = roofline.prefill_busy_seconds(decoding)
    busy = rate * prefill_busy
    waiting = busy * prefill_busy / (2 * (1 - busy))
    # The step in progress when the prompt arrives: half a step on average, none on an idle replica.
    decoding_share = min(decoding, 1.0)
    step = roofline.step_seconds(max(decoding, 1.0))
    return (
        waiting
        + decoding_share * step / 2
        + roofline.prefill_chunks * prompt_pass_seconds(roofline, decoding)
    )


def prompt_pass_seconds(roofline: Roofline, decoding: float) -> float:
    """One forward pass that carries (a chunk of) a prompt. The engines batch by iteration: the pass also
    carries the decoding sequences' step, so its weights' multiplications read the weights its tokens
    and theirs touch once and compute both (``Roofline.multiplications``: a mixture of experts' shared
    weights and experts apart), and its attention reads their KV cache and computes the prompt's and
    theirs: each kernel about the longer of its reads and its FLOPs (``roofline.blended``), plus the
    all-reduces and the layers' fixed time. On an idle replica it is the prompt's own pass. It never
    takes less than the decoding sequences' step alone."""
    share = min(decoding, 1.0)
    step = roofline.decode_step(max(decoding, 1.0))
    chunks = roofline.prefill_chunks
    tokens = roofline.input_tokens / chunks + share * roofline.per_stage(max(decoding, 1.0))
    weights_read = max(share * step.weights_read, roofline.weights_read_seconds(tokens))
    # The prompt's multiply-adds before a mixture's routed-expert factor: ``multiplications`` applies it
    # once, at the pass's own tokens per expert.
    prompt_compute = roofline.prefill_multiply_adds_seconds
    weights = roofline.multiplications(weights_read, share * step.weights_compute + prompt_compute / chunks)
    attention = max(
        share * step.kv_read, share * step.attention_compute + roofline.prefill_attention_seconds / chunks
    )
    # One all-reduce message carries the prompt's tokens and the decoding sequences'.
    communication = tokens * roofline.communication_seconds_per_token_in(tokens)
    return weights + attention + communication + roofline.fixed_step_seconds


def lone_prefill_seconds(roofline: Roofline) -> float:
    """A lone prompt's passes: its weights' reads and the layers' fixed time with its arithmetic, which
    ``prefill_seconds`` alone counts (a mixture of experts' reads can outweigh it)."""
    return roofline.prefill_chunks * prompt_pass_seconds(roofline, 0.0)


@per_object(entries=RATES_KEPT)
def saturation(roofline: Roofline) -> OperatingPoint:
    """The replica with its batch full and requests always waiting (an offline run). Worked out once per
    roofline (a frozen model, cached with its model's performances): every operating point of the
    replica starts from its ceiling, several per recommendation and tens while a rate is searched."""
    batch = roofline.max_batch
    rate = roofline.requests_per_second(batch)
    tpot = roofline.time_per_token_seconds(rate, batch)
    return OperatingPoint(
        requests_per_second=rate,
        decoding=batch,
        in_flight=float(batch),
        time_to_first_token_ms=lone_prefill_seconds(roofline) * 1000,
        time_per_output_token_ms=tpot * 1000,
        saturated=True,
    )


def at_rate(roofline: Roofline, rate: float) -> OperatingPoint:
    """Requests arriving at ``rate`` a second (Poisson): the batch that carries them and what each user
    sees. Past the replica's capacity, its saturation point."""
    ceiling = saturation(roofline)
    if rate >= ceiling.requests_per_second:
        return ceiling
    # The batch that carries the rate: each of its sequences decodes for decode_steps steps (its first
    # token comes from its prompt's pass), so by Little's law decoding = rate x decode_steps x time per
    # token, which grows with the batch (none decode for one-token answers). The
    # iteration from an empty batch climbs to the smallest such batch; it is quick at light load, and
    # bisection takes over where it is slow (near the replica's capacity) or would leave the prefills no
    # time to decode (a prompt's busy time depends on the batch it shares passes with).
    per_token = rate * roofline.decode_steps

    def carried(decoding: float) -> float:
        """The batch that ``decoding`` sequences' time per token asks for."""
        return per_token * roofline.time_per_token_seconds(rate, decoding)

    # The prompts alone keep the replica busy even in the passes of a full batch. (Where a prompt's busy
    # time falls as the batch grows, with a mixture's routed experts or a message-dependent link share,
    # an empty batch may not carry the rate while a larger one does: the search below finds it.)
    if carried(float(roofline.max_batch)) == math.inf:
        return ceiling
    decoding = 0.0
    for _ in range(QUICK_ITERATIONS):
        following = carried(decoding)
        if following > roofline.max_batch:
            break
        if abs(following - decoding) <= 1e-9 * following:
            decoding = following
            break
        decoding = following
    else:
        following = math.inf
    if following > roofline.max_batch:
        low, high = 0.0, float(roofline.max_batch)
        for _ in range(ITERATIONS):
            middle = (low + high) / 2
            if carried(middle) > middle:
                low = middle
            else:
                high = middle
        decoding = high
    ttft = queue_and_prefill_seconds(roofline, rate, decoding)
    slot_wait = slot_wait_seconds(roofline.max_batch, rate, decoding)
    return OperatingPoint(
        requests_per_second=rate,
        decoding=decoding,
        in_flight=decoding + rate * ttft,
        time_to_first_token_ms=(slot_wait + ttft) * 1000,
        time_per_output_token_ms=roofline.time_per_token_seconds(rate, decoding) * 1000,
        saturated=False,
        slot_wait_seconds=slot_wait,
    )


def at_concurrency(roofline: Roofline, users: int) -> OperatingPoint:
    """``users`` requests always in flight (each answered request replaced by the next): the closed loop
    of published benchmarks. A user's own prefill never waits for itself, so the others' share of the
    prefills and the decode steps is what delays it: one user sees a lone request. One-token answers hold
    no place in a batch: the users' prompts share passes, and each waits for the others' (Little's law
    over the replica's rate with the prompts batched), never less than a lone prompt's pass."""
    if not roofline.decode_steps:
        ttft = max(lone_prefill_seconds(roofline), users / roofline.requests_per_second(float(users)))
        return OperatingPoint(
            requests_per_second=users / ttft,
            decoding=0.0,
            in_flight=float(users),
            time_to_first_token_ms=ttft * 1000,
            time_per_output_token_ms=0.0,
            saturated=False,
        )
    others = (users - 1) / users

    def waiting(decoding: float) -> tuple[float, float]:
        rate = roofline.requests_per_second(decoding)
        return rate, rate * queue_and_prefill_seconds(roofline, rate * others, decoding * others)

    full = min(float(users), float(roofline.max_batch))
    rate, not_decoding = waiting(full)
    if full + not_decoding <= users:
        # Every slot is taken; the rest queue for one, and wait until a request finishes.
        ttft = (users - full) / rate
        decoding = full
    else:
        low, high = 0.0, full
        for _ in range(ITERATIONS):
            middle = (low + high) / 2
            if middle + waiting(middle)[1] < users:
                low = middle
            else:
                high = middle
        decoding = max(low, 1e-9)
        rate, _ = waiting(decoding)
        ttft = (users - decoding) / rate
    return OperatingPoint(
        requests_per_second=rate,
        decoding=decoding,
        in_flight=float(users),
        time_to_first_token_ms=ttft * 1000,
        time_per_output_token_ms=roofline.time_per_token_seconds(rate * others, decoding) * 1000,
        saturated=decoding >= roofline.max_batch,
    )


@per_object(entries=RATES_KEPT)
def lone_request(roofline: Roofline) -> OperatingPoint:
    """One request on an idle replica: the fastest any load sees."""
    return at_rate(roofline, 0.0)


@per_object(entries=RATES_KEPT)
def highest_rate_within(
    roofline: Roofline, ceiling: float, max_ttft_ms: float | None, max_tpot_ms: float | None, /
) -> float:
    """The highest arrival rate, at most ``ceiling``, at which the mean time to first token and the time
    per output token stay within the targets; 0 when even a lone request misses one. The targets hold for
    the mean, not the tail (``first_token_tail_seconds``): each replica taken as its own queue, a tail
    target near a lone prompt's time would ask for replicas that stand almost idle, where a balancer that
    sends each request to the least busy replica keeps the tail far shorter than that model says."""

    def meets(rate: float) -> bool:
        point = at_rate(roofline, rate)
        return not point.saturated and (
            (max_ttft_ms is None or point.time_to_first_token_ms <= max_ttft_ms)
            and (max_tpot_ms is None or point.time_per_output_token_ms <= max_tpot_ms)
        )

    return _highest_rate(meets, ceiling)


@per_object(entries=RATES_KEPT)
def highest_rate_holding(roofline: Roofline, ceiling: float, sequences: float, /) -> float:
    """The highest arrival rate, at most ``ceiling``, at which the requests in flight (Little's law: the
    rate times a request's time, which grows with the rate) stay within ``sequences`` and the replica is
    not saturated; 0 where even a lone request exceeds them."""

    def holds(rate: float) -> bool:
        point = at_rate(roofline, rate)
        return not point.saturated and point.in_flight <= sequences + IN_FLIGHT_SLACK

    return _highest_rate(holds, ceiling) if sequences >= 1 else 0.0


def _highest_rate(meets: Callable[[float], bool], ceiling: float) -> float:
    """The highest rate, at most ``ceiling``, that ``meets`` a condition every lower rate meets too (the
    latency and the requests in flight grow with the rate): ``ceiling`` where it does, 0 where not even a
    near-idle replica does, else found by bisection."""
    if meets(ceiling):
        return ceiling
    if not meets(ceiling * 1e-9):
        return 0.0
    low, high = 0.0, ceiling
    for _ in range(ITERATIONS):
        middle = (low + high) / 2
        if meets(middle):
            low = middle
        else:
            high = middle
    return low


IN_FLIGHT_SLACK = 1e-9
"""Requests in flight that are a whole number up to floating-point noise count as that number."""
