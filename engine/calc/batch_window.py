"""A batch's window and each run's start: a run's replicas load the weights and start the serving engine
before they serve (``run_start``; a serverless instance its cold start), and that takes the window's first
minutes. A replica started as the window opens must then still finish at least one request before the
window closes (``serves_in_window``): one whose start and one request alone on it take the whole window
does none of the work in time, however many replicas run, so such a replica (a GPU's card count, a
serverless product's instance) is no candidate for the batch. The work is spread over what the start
leaves of the window (``batch_window_replicas``)."""

from __future__ import annotations

from gpu_advisor.engine.calc.checkpoint import weights_load_hours
from gpu_advisor.engine.calc.performance import ReplicaPerformance
from gpu_advisor.engine.calc.policy import Sizing
from gpu_advisor.engine.calc.request_times import lone_request_seconds
from gpu_advisor.engine.calc.sizing import SizingFigures, parallelism
from gpu_advisor.engine.calc.traffic import SECONDS_PER_HOUR
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.load import Load


def run_start(knowledge: Knowledge, figures: SizingFigures, gpu: str, cards: int) -> tuple[float, float]:
    """A batch run's start on replicas of ``cards`` × ``gpu``, in hours: the weights' load at the catalog's
    rate, each of a replica's server instances (one pipeline stage each, ``sizing.parallelism``) reading
    its own share at once (``checkpoint.weights_load_hours``), and the serving engine's start beyond it
    (its own measurement or its stand-in's; 0 without)."""
    nodes = parallelism(knowledge.sizing.card_counts.node_gpus, cards)[1]
    weights = weights_load_hours(
        knowledge, figures.weights_gb, figures.sixteen_bit_checkpoint_gb, gpu, cards, nodes
    )
    return weights, knowledge.throughput.engine_start_seconds(figures.serving_engine) / SECONDS_PER_HOUR


def serves_in_window(load: Load, start_hours: float, request_seconds: float) -> bool:
    """A replica started as the batch's window opens finishes at least one request before it closes: its
    start (``start_hours``: ``run_start``, or a serverless instance's cold start) and one request alone on
    it (``request_seconds``: ``request_times.lone_request_seconds``, its prompt's pass and each decode step
    at a batch of one) take less than the window."""
    return start_hours * SECONDS_PER_HOUR + request_seconds < load.hours_per_day * SECONDS_PER_HOUR


def run_start_in_window(
    knowledge: Knowledge, figures: SizingFigures, load: Load, performance: ReplicaPerformance
) -> tuple[float, float] | None:
    """A batch run's start on ``performance``'s replicas (``run_start``), where they finish a request in
    the window (``serves_in_window``), else None; (0, 0) for a service, whose hours bill no start."""
    if not load.served_in_paid_hours:
        return 0.0, 0.0
    start = run_start(knowledge, figures, performance.gpu, performance.cards)
    alone = lone_request_seconds(performance.roofline)
    return start if serves_in_window(load, sum(start), alone) else None


def batch_window_replicas(
    rps: float, load: Load, sizing: Sizing, start_hours: float, request_seconds: float
) -> float:
    """A batch's replicas for its window before rounding up (``ReplicaPlan.window_replicas``): the work
    spread over what the window leaves after each run's start (``start_hours``: the weights' load and the
    engine's start). Only for replicas that finish a request in the window (``serves_in_window``, with
    ``request_seconds`` one request alone): the callers leave out those that do not."""
    if not serves_in_window(load, start_hours, request_seconds):
        raise ValueError(
            f"a start of {start_hours * SECONDS_PER_HOUR:.1f} s and a request of {request_seconds:.1f} s "
            f"take the whole {load.hours_per_day * SECONDS_PER_HOUR:.1f} s window"
        )
    work_seconds = load.average_requests_per_second * load.hours_per_day * SECONDS_PER_HOUR / rps
    window_seconds = (load.hours_per_day - start_hours) * SECONDS_PER_HOUR
    return work_seconds / sizing.batch_capacity_share / window_seconds
