"""How long the slowest of a share of requests waits in a queue whose mean wait is known: the tail of the
time to first token a memo gives beside its mean (``latency.first_token_tail_seconds``)."""

from __future__ import annotations

import math

UNBOUNDED_SECONDS = 1e9
"""Stands for a wait that grows without bound (``latency.UNBOUNDED_MS``): a queue busy all the time."""

TAIL_ITERATIONS = 60
"""Newton steps for the decay rate of a queue's tail, at most (a handful suffice)."""


def deterministic_queue_tail_seconds(load: float, service: float, share: float) -> float:
    """The wait in an M/D/1 queue (Poisson arrivals, each served for ``service`` seconds, busy a share
    ``load`` of the time) that ``share`` of the arrivals stay within, by the Cramér-Lundberg
    approximation of its tail (Asmussen, Applied Probability and Queues, 2nd ed., XIII.5, for the M/G/1
    queue): P(wait > t) ≈ C e^(-rt), where r service = x solves load (e^x - 1) = x and
    C = (1 - load) / (load e^x - 1). It is exact in the limit of long waits and within a few percent of
    a simulated queue at the loads and shares tested (``tests/test_latency_tail.py``)."""
    # An arrival waits only where it finds the server busy, a share ``load`` of them: the approximation
    # is one of long waits, and overstates the chance of a short one on a lightly loaded queue.
    if load <= 1 - share or service <= 0:
        return 0.0
    if load >= 1:
        return UNBOUNDED_SECONDS
    # Newton's method from the right of the root, where load (e^x - 1) - x is convex and increasing:
    # it falls to the root without overshooting.
    x = 2 * math.log(1 / load) + 1
    for _ in range(TAIL_ITERATIONS):
        step = (load * math.expm1(x) - x) / (load * math.exp(x) - 1)
        x -= step
        if step <= 1e-12 * x:
            break
    constant = (1 - load) / (load * math.exp(x) - 1)
    if constant <= 1 - share:
        return 0.0
    return math.log(constant / (1 - share)) * service / x


def exponential_wait_tail_seconds(waits: float, given_wait: float, share: float) -> float:
    """The wait that ``share`` of the arrivals stay within, where a share ``waits`` of them wait at all,
    for ``given_wait`` seconds on average, taken as exponential (as in the M/M/c queue, whose wait for a
    server is exponential once all are busy)."""
    if waits <= 1 - share or given_wait <= 0:
        return 0.0
    return given_wait * math.log(waits / (1 - share))
