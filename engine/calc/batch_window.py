"""A batch's window and each run's start: a run's replicas load the weights and start the serving engine
before they serve (``run_start``; a serverless instance its cold start), and that takes the window's first
minutes. A replica started as the window opens must then still finish at least one request before the
window closes (``serves_in_window``): one whose start and one request alone on it take the whole window
does none of the work in time, however many replicas run, so such a replica (a GPU's card count, a
serverless product's instance) is no candidate for the batch; nor is one whose request fits only if the
estimate is right, as the replicas are planned to keep the window even if it is as much too high as its
error band (``batch_run``). The work is spread over what the start leaves of the window
(``batch_run.window_replicas``)."""

from __future__ import annotations

from gpu_advisor.engine.calc.batch_run import fits_window
from gpu_advisor.engine.calc.checkpoint import weights_load_hours
from gpu_advisor.engine.calc.performance import ReplicaPerformance
from gpu_advisor.engine.calc.policy import Sizing
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


def serves_in_window(load: Load, start_hours: float, request_seconds: float, band: float = 0.0) -> bool:
    """A replica started as the batch's window opens finishes at least one request before it closes, even
    if the estimate is ``band`` too high (``Sizing.estimate_error_taken_off``): its start (``start_hours``:
    ``run_start``, or a serverless instance's cold start) and one request alone on it (``request_seconds``:
    ``request_times.lone_request_seconds``, its prompt's pass and each decode step at a batch of one),
    taken that much longer, end before the window does."""
    return (
        start_hours * SECONDS_PER_HOUR + request_seconds * (1 + band) < load.hours_per_day * SECONDS_PER_HOUR
    )


def run_start_in_window(
    knowledge: Knowledge, figures: SizingFigures, load: Load, performance: ReplicaPerformance, sizing: Sizing
) -> tuple[float, float] | None:
    """A batch run's start on ``performance``'s replicas (``run_start``), where their run of one request
    after it keeps the window with the estimate's error band (``batch_run.fits_window``), else None;
    (0, 0) for a service, whose hours bill no start."""
    if not load.served_in_paid_hours:
        return 0.0, 0.0
    start = run_start(knowledge, figures, performance.gpu, performance.cards)
    rps = performance.requests_per_second
    fits = fits_window(load, sizing, performance.roofline, performance.batch, rps, sum(start))
    return start if fits else None
