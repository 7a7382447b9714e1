"""Scenario runs: N joint draws of the uncertain inputs, each evaluated through the whole pipeline (the
same stages and rules as ``recommend``), and the one-at-a-time runs of the sensitivity.

Draws come from ``random.Random(seed)``: one uniform number per input group and scenario, in a fixed
order, turned into a value by the input's shape (``calc/draws.py``). They are made before any evaluation,
so a run split over processes or a cluster evaluates the same scenarios and gives the same result.
"""

from __future__ import annotations

import datetime as dt
import os
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_all_start_methods, get_context
from typing import Protocol

from gpu_advisor.engine.apps.scenarios.apply import (
    drawn_thresholds,
    scenario_knowledge,
    scenario_workload,
    throughput_factor,
)
from gpu_advisor.engine.apps.scenarios.inputs import Drawn, groups
from gpu_advisor.engine.apps.scenarios.outcomes import OptionKey, Outcome, outcome
from gpu_advisor.engine.calc.draws import at_quantile
from gpu_advisor.engine.common.signals import exit_with_parent
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.workload import WorkloadInput
from gpu_advisor.engine.pipeline.engines import rulebook_for, rules_engine, rules_engine_reading
from gpu_advisor.engine.pipeline.evaluation import evaluate

Values = dict[str, float]
MAX_SCENARIOS = 100_000
PARALLEL_FROM = 200
"""Fewer scenarios than this run in the calling process: starting a worker costs more than they take."""
PROGRESS_PARTS = 100
"""Runs are handed out in parts of about this many, so that a progress bar moves every second or so (a
run takes a few milliseconds) and a worker's share costs one message per part, not per run."""


@dataclass(frozen=True)
class ScenarioJob:
    """Everything a scenario's evaluation needs besides its values; picklable, for worker processes and
    cluster workers."""

    workload: WorkloadInput
    evaluated_on: dt.date
    knowledge: Knowledge
    policy_dir: str | None
    inputs: tuple[Drawn, ...]
    fixed_offers: frozenset[str]
    """Offers an overrides file re-priced: your rates keep their price in every scenario."""
    recommended: OptionKey | None = None
    """The base run's decision: costed in every scenario (``outcome``)."""


Mapper = Callable[[ScenarioJob, Sequence[Values]], list[Outcome]]


def draw(inputs: Sequence[Drawn], scenarios: int, seed: int) -> list[Values]:
    """The inputs' values in each scenario; inputs of one group share their quantile."""
    rng = random.Random(seed)
    order = groups(inputs)
    drawn = []
    for _ in range(scenarios):
        quantile = {group: rng.random() for group in order}
        drawn.append(
            {
                d.summary.id: at_quantile(
                    d.range.shape, d.range.low, d.range.high, d.range.mode, quantile[d.group]
                )
                for d in inputs
            }
        )
    return drawn


def moving_alone(inputs: Sequence[Drawn]) -> list[Drawn]:
    """The inputs the one-at-a-time runs move, in order: those whose range has a width."""
    return [d for d in inputs if d.moves]


def one_at_a_time(inputs: Sequence[Drawn]) -> list[Values]:
    """For each input that moves, its low and then its high, every other input where it is held
    (``Drawn.held_at``: its point value, volume growth at its range's point value); then, where that is
    not every input's point value, one run at the held values (``held_apart``)."""
    points = {d.summary.id: d.held_at for d in inputs}
    runs = []
    for d in moving_alone(inputs):
        runs.append({**points, d.summary.id: d.summary.low})
        runs.append({**points, d.summary.id: d.summary.high})
    if held_apart(inputs):
        runs.append(points)
    return runs


def held_apart(inputs: Sequence[Drawn]) -> bool:
    """Some input is held away from its point value (a volume growth): the one-at-a-time runs end with
    one at the held values, whose decision the others are set against (the memo's is at today's
    volume)."""
    return any(d.held_at != d.summary.point for d in inputs)


def evaluate_values(job: ScenarioJob, runs: Sequence[Values]) -> list[Outcome]:
    """Each run through the pipeline: its prices in a copy of the knowledge base, its volume in the
    workload, its replicas' throughput, its rule thresholds in an engine that reads them from the facts;
    sizing and the GPU-fit rules' firings shared with the base (neither reads a drawn figure)."""
    rulebook, base_engine = rulebook_for(job.policy_dir), rules_engine(job.policy_dir)
    points = {d.summary.id: d.summary.point for d in job.inputs}
    reading = frozenset(drawn_thresholds(job.inputs, points))
    engine = rules_engine_reading(job.policy_dir, reading)
    max_share = job.knowledge.uncertainty.analysis.max_drawn_share.value
    outcomes = []
    for values in runs:
        knowledge = scenario_knowledge(job.knowledge, job.inputs, values, job.fixed_offers)
        workload = scenario_workload(job.workload, values)
        evaluation = evaluate(
            workload,
            job.evaluated_on,
            knowledge,
            rulebook,
            engine.with_thresholds(drawn_thresholds(job.inputs, values)) if reading else base_engine,
            sizing_knowledge=job.knowledge,
            fit_evaluator=base_engine,
            throughput_factor=throughput_factor(job.inputs, values, max_share),
        )
        outcomes.append(outcome(evaluation, job.recommended))
    return outcomes


def chunks(runs: Sequence[Values], count: int) -> list[Sequence[Values]]:
    """``runs`` in ``count`` contiguous parts of nearly equal size (results are joined in order)."""
    size, extra = divmod(len(runs), count)
    parts, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        parts.append(runs[start:end])
        start = end
    return [part for part in parts if part]


class Advance(Protocol):
    """Where a run's progress goes (a progress bar on a terminal)."""

    def expect(self, total: int) -> None: ...

    def advance(self, rows: int) -> None: ...


_JOB: ScenarioJob | None = None


def _set_job(job: ScenarioJob, parent: int) -> None:
    """Worker start: the job, and an end once the parent is gone (a SIGTERM or SIGKILL that stops it
    before it stops its pool left the workers drawing scenarios for minutes)."""
    import signal

    global _JOB
    _JOB = job
    # The parent stops the run on Ctrl-C (the whole process group gets it) and shuts the pool down.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    exit_with_parent(parent)


def _evaluate_part(runs: Sequence[Values]) -> list[Outcome]:
    assert _JOB is not None
    return evaluate_values(_JOB, runs)


def local_mapper(jobs: int | None = None, progress: Advance | None = None) -> Mapper:
    """Evaluates in this process, or over ``jobs`` forked worker processes (default: every CPU), telling
    ``progress`` how many runs are done as each part ends (parts end in order)."""

    def run(job: ScenarioJob, runs: Sequence[Values]) -> list[Outcome]:
        workers = min(jobs or os.cpu_count() or 1, max(1, len(runs) // (PARALLEL_FROM // 2)))
        parts = chunks(runs, max(workers, -(-len(runs) // PROGRESS_PARTS)))
        if progress is not None:
            progress.expect(len(runs))
        found: list[Outcome] = []
        for part in _evaluated(job, parts, workers):
            found.extend(part)
            if progress is not None:
                progress.advance(len(part))
        return found

    return run


def _evaluated(job: ScenarioJob, parts: list[Sequence[Values]], workers: int) -> Iterator[list[Outcome]]:
    if workers <= 1 or "fork" not in get_all_start_methods():
        yield from (evaluate_values(job, part) for part in parts)
        return
    context = get_context("fork")
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_set_job, initargs=(job, os.getpid())
    ) as pool:
        yield from pool.map(_evaluate_part, parts)
