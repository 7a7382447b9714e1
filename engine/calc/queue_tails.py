"""How long the slowest of a share of requests waits in a queue whose mean wait is known: the tail of the
time to first token a memo gives beside its mean (``latency.first_token_tail_seconds``)."""

from __future__ import annotations

import math

UNBOUNDED_SECONDS = 1e9
"""Stands for a wait that grows without bound (``latency.UNBOUNDED_MS``): a queue busy all the time."""

TAIL_ITERATIONS = 60
"""Newton steps for the decay rate of a queue's tail, at most (a handful suffice)."""


EXACT_ITERATIONS = 30
"""Bisection steps for a wait read off the exact distribution: to a sixty-millionth of a service."""

EXACT_SERVICES = 16
"""Waits up to this many services long are read off the M/D/1 queue's exact distribution; its sum
alternates in sign with terms up to e^(arrivals in the wait), which doubles carry to about this length."""


def deterministic_queue_tail_seconds(load: float, service: float, share: float) -> float:
    """The wait in an M/D/1 queue (Poisson arrivals, each served for ``service`` seconds, busy a share
    ``load`` of the time) that ``share`` of the arrivals stay within. Up to ``EXACT_SERVICES`` services
    it is read off the queue's exact distribution (Erlang's, for a fixed service time D and arrival rate
    λ: P(wait ≤ t) = (1 - load) Σ_{k=0}^{⌊t/D⌋} (λ(kD - t))^k / k! e^(-λ(kD - t))), which starts from
    the 1 - load of arrivals that find the server idle, so the wait grows from nothing as the load passes
    1 - share; beyond, by the Cramér-Lundberg approximation of the tail (Asmussen, Applied Probability and
    Queues, 2nd ed., XIII.5, for the M/G/1 queue), exact in the limit of long waits:
    P(wait > t) ≈ C e^(-rt), where r service = x solves load (e^x - 1) = x and
    C = (1 - load) / (load e^x - 1). Both are checked against a simulated queue
    (``tests/test_latency_tail.py``)."""
    if load <= 1 - share or service <= 0:
        return 0.0
    if load >= 1:
        return UNBOUNDED_SECONDS
    long_wait = _cramer_lundberg_tail(load, share)
    if long_wait > EXACT_SERVICES or _waits_within(load, EXACT_SERVICES) < share:
        return long_wait * service
    low, high = 0.0, float(EXACT_SERVICES)
    for _ in range(EXACT_ITERATIONS):
        middle = (low + high) / 2
        if _waits_within(load, middle) >= share:
            high = middle
        else:
            low = middle
    return high * service


def _waits_within(load: float, services: float) -> float:
    """P(wait ≤ ``services`` services) in an M/D/1 queue busy a share ``load`` of the time (Erlang)."""
    total = 0.0
    term_sign = 1.0
    for k in range(math.floor(services) + 1):
        arrivals = load * (services - k)
        total += term_sign * arrivals**k / math.factorial(k) * math.exp(arrivals)
        term_sign = -term_sign
    return (1 - load) * total


def _cramer_lundberg_tail(load: float, share: float) -> float:
    """The wait, in services, that ``share`` of the arrivals stay within by the Cramér-Lundberg
    approximation (0 where its constant says fewer wait at all)."""
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
    return math.log(constant / (1 - share)) / x


def exponential_wait_tail_seconds(waits: float, given_wait: float, share: float) -> float:
    """The wait that ``share`` of the arrivals stay within, where a share ``waits`` of them wait at all,
    for ``given_wait`` seconds on average, taken as exponential (as in the M/M/c queue, whose wait for a
    server is exponential once all are busy)."""
    if waits <= 1 - share or given_wait <= 0:
        return 0.0
    return given_wait * math.log(waits / (1 - share))
