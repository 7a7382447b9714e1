"""Figures (a) and (d) of bench.py, in the library: one recommendation after start-up, and the
durable-rules engine's overhead against the tests' plain-Python reference evaluator of the same rules."""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

from bench_common import EVALUATED_ON, REPO, Figure, workloads_from_examples


class TimedEvaluator:
    """Wraps an evaluator and adds up the time spent in it: opening and closing sessions, asserting facts."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.ns = 0

    @contextlib.contextmanager
    def session(self) -> Iterator[Any]:
        start = time.perf_counter_ns()
        manager = self.inner.session()
        session = manager.__enter__()
        self.ns += time.perf_counter_ns() - start
        try:
            yield _TimedSession(session, self)
        finally:
            start = time.perf_counter_ns()
            manager.__exit__(None, None, None)
            self.ns += time.perf_counter_ns() - start


class _TimedSession:
    def __init__(self, session: Any, owner: TimedEvaluator) -> None:
        self._session = session
        self._owner = owner

    def assert_fact(self, fact: Any, workload: Any = None) -> Any:
        start = time.perf_counter_ns()
        try:
            return self._session.assert_fact(fact, workload)
        finally:
            self._owner.ns += time.perf_counter_ns() - start


def time_calls(calls: int, evaluators: dict[str, Any | None]) -> dict[str, tuple[list[float], list[float]]]:
    """Milliseconds per whole recommendation and per rule evaluation inside it, for each evaluator (None:
    the default engine, untimed). They take turns call by call, so a busy machine slows all alike."""
    from gpu_advisor.engine.apps.recommend import recommend

    workloads = workloads_from_examples()
    timed = {name: TimedEvaluator(e) if e is not None else None for name, e in evaluators.items()}
    for evaluator in timed.values():
        for workload in workloads:  # start-up: knowledge, engine, templates
            recommend(workload, EVALUATED_ON, evaluator=evaluator)
    results: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in evaluators}
    for index in range(calls):
        workload = workloads[index % len(workloads)]
        for name, evaluator in timed.items():
            before = evaluator.ns if evaluator else 0
            start = time.perf_counter_ns()
            recommend(workload, EVALUATED_ON, evaluator=evaluator)
            results[name][0].append((time.perf_counter_ns() - start) / 1e6)
            if evaluator:
                results[name][1].append((evaluator.ns - before) / 1e6)
    return results


def time_uncached_calls(calls: int) -> list[float]:
    """Milliseconds per recommendation when nothing is cached for the workload's model: each call asks
    for a context length not seen before, so its sizing, replica performance and GPU-fit facts are
    worked out afresh (the examples above repeat, as the models of a portfolio do)."""
    from gpu_advisor.engine.apps.recommend import recommend

    workloads = workloads_from_examples()
    for workload in workloads:
        recommend(workload, EVALUATED_ON)
    times = []
    for index in range(calls):
        # Within every example model's context window; a length comes back only after 16,384 calls, long
        # after the bounded caches have let it go.
        context = 4096 + index % 16384
        workload = workloads[index % len(workloads)].model_copy(update={"context_tokens": context})
        start = time.perf_counter_ns()
        recommend(workload, EVALUATED_ON)
        times.append((time.perf_counter_ns() - start) / 1e6)
    return times


def library_figures(calls: int) -> list[Figure]:
    sys.path.insert(0, str(REPO / "tests"))
    from reference_evaluator import ReferenceEvaluator

    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.pipeline.engines import rules_engine
    from gpu_advisor.engine.rulebook.loading import load_rulebook

    sys.path.insert(0, str(REPO / "benchmarks"))
    from host_evaluator import HostEvaluator

    rulebook = load_rulebook()
    reference = ReferenceEvaluator(rulebook, load_knowledge().threshold_values())
    host = HostEvaluator(rulebook, rulebook.threshold_values(load_knowledge()))
    evaluators = {"plain": None, "engine": rules_engine(), "reference": reference, "host": host}
    results = time_calls(calls, evaluators)
    host_whole = results["host"][0]
    plain_whole = results["plain"][0]
    engine_whole, engine_rules = results["engine"]
    reference_whole, reference_rules = results["reference"]
    median = statistics.median(plain_whole)
    rules_ratio = statistics.median(engine_rules) / statistics.median(reference_rules)
    whole_ratio = statistics.median(engine_whole) / statistics.median(reference_whole)
    uncached = time_uncached_calls(calls)
    return [
        Figure(
            f"(a) one recommendation, library, median of {calls}",
            f"{median:.2f} ms (p90 {percentile(plain_whole, 0.9):.2f} ms)",
            "≤ 2 ms",
            median <= 2,
        ),
        Figure(
            "(a) the same, each call with a context length not seen before (nothing cached per model)",
            f"{statistics.median(uncached):.2f} ms (p90 {percentile(uncached, 0.9):.2f} ms)",
            "(context)",
            None,
        ),
        Figure(
            "(d) rule evaluation per recommendation: durable-rules / reference",
            f"{statistics.median(engine_rules):.2f} ms / {statistics.median(reference_rules):.3f} ms "
            f"= {rules_ratio:.1f}×",
            "≤ 5×",
            rules_ratio <= 5,
        ),
        Figure(
            "(a) the same through durable-rules' public API (durable.engine.Host, timers off) instead of "
            "the adapter's direct calls",
            f"{statistics.median(host_whole):.2f} ms",
            "(context)",
            None,
        ),
        Figure(
            "(d) whole recommendation: durable-rules / reference",
            f"{statistics.median(engine_whole):.2f} ms / {statistics.median(reference_whole):.2f} ms "
            f"= {whole_ratio:.2f}×",
            "(context)",
            None,
        ),
    ]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
