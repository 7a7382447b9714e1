"""A batch proposal's run: the hours its cards take for a run's work, against the window the work must be
done in (SIZ019 fails a run that overruns it; SIZ009 warns where it fits only if the estimate is right).
A run takes at least its start and one request alone on a replica (``batch_window.serves_in_window``),
however many replicas share the work. A serverless proposal's run is not worked out: its product starts
the instances the window needs."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.apps.check.proposal_latency import proposed_performance
from gpu_advisor.engine.calc.batch_run import run_hours, run_requests
from gpu_advisor.engine.calc.batch_window import run_start, serves_in_window
from gpu_advisor.engine.calc.gpu_fit import GpuFit
from gpu_advisor.engine.calc.request_times import lone_request_seconds
from gpu_advisor.engine.calc.roofline import Roofline
from gpu_advisor.engine.calc.traffic import SECONDS_PER_HOUR
from gpu_advisor.engine.pipeline.evaluation import Evaluation


def runs_daily(evaluation: Evaluation) -> bool:
    """The batch runs on every day of its schedule (``batch_runs_per_month`` at the schedule's days)."""
    workload = evaluation.workload
    days = evaluation.knowledge.schedule(workload.schedule).days_per_month
    return (workload.batch_runs_per_month or days) >= days


def run_interval_hours(evaluation: Evaluation) -> float:
    """The hours from one run's start to the next: a day for a daily batch, else the calendar month's
    hours spread over its runs."""
    if runs_daily(evaluation):
        return 24.0
    return evaluation.knowledge.calendar_hours_per_month() / (evaluation.workload.batch_runs_per_month or 1)


def batch_facts(
    fit: GpuFit | None,
    gpus: int | None,
    per_replica: int | None,
    evaluation: Evaluation,
    spot_overhead: float = 0.0,
) -> dict[str, Any]:
    """The hours a run takes on the proposed cards, at the estimated throughput of the replicas they hold
    (whole replicas: cards beyond the last one idle), with its start and the share ``spot_overhead`` of
    the work a spot offer redoes after interruptions, at least one request alone on a replica after its
    start, and the run's window (the workload's, within its schedule's hours); not known for a service or
    where the cards hold no replica."""
    hours = proposed_run_hours(fit, gpus, per_replica, evaluation)
    replica = None if fit is None or per_replica is None else proposed_replica(fit, per_replica, evaluation)
    if hours is None or fit is None or per_replica is None or replica is None:
        return {"batch_run_known": False, "batch_run_hours": 0.0, "batch_run_window_hours": 0.0}
    # A run takes the window with its start (the weights' load and the engine's), as recommend sizes it,
    # and its work takes no less than one request alone on a replica.
    load, alone = evaluation.capacity.load, lone_request_seconds(replica[1])
    start = sum(run_start(evaluation.knowledge, evaluation.capacity.figures, fit.gpu, per_replica))
    window = load.hours_per_day
    run = max(hours * (1 + spot_overhead), alone / SECONDS_PER_HOUR) + start
    return {
        "batch_run_known": True,
        "batch_run_hours": run,
        "batch_start_hours": start,
        "batch_request_seconds": alone,
        "batch_serves_in_window": serves_in_window(load, start, alone),
        "batch_run_window_hours": window,
        # What the window leaves, against what one replica lost to an interruption takes to serve again.
        "batch_slack_hours": window - run,
        "batch_runs_daily": runs_daily(evaluation),
        "batch_run_interval_hours": run_interval_hours(evaluation),
        "batch_restart_hours": restart_hours(evaluation, fit.gpu, per_replica),
    }


def proposed_run_hours(
    fit: GpuFit | None, gpus: int | None, per_replica: int | None, evaluation: Evaluation
) -> float | None:
    """The hours a batch run takes on ``gpus`` proposed cards, replicas of ``per_replica`` cards each
    sharing its requests (whole replicas: cards beyond the last one idle), each replica's share in waves
    of as many as it holds at once (``batch_run.run_hours``); None for a service or where the cards hold
    no replica."""
    load = evaluation.capacity.load
    if fit is None or not gpus or not per_replica or gpus < per_replica or not load.served_in_paid_hours:
        return None
    replica = proposed_replica(fit, per_replica, evaluation)
    if replica is None:
        return None
    # The replicas share the run's requests, each working through its share in waves (``batch_run``).
    rps, roofline = replica
    return run_hours(run_requests(load), roofline, roofline.max_batch, rps, gpus // per_replica)


def proposed_replica(fit: GpuFit, per_replica: int, evaluation: Evaluation) -> tuple[float, Roofline] | None:
    """A proposed replica of ``per_replica`` cards: its estimated rate and its step times, the GPU's
    plan's where it runs as many cards; None where such a replica holds no request."""
    plan = evaluation.market.plans.get(fit.gpu)
    if plan is not None and plan.cards_per_replica == per_replica:
        return plan.requests_per_second_per_replica, plan.roofline
    performance = proposed_performance(fit, per_replica, evaluation)
    return None if performance is None else (performance.requests_per_second, performance.roofline)


def restart_hours(evaluation: Evaluation, gpu: str, per_replica: int) -> float:
    """What a replica lost to an interruption takes to serve again: a new instance launched
    (``pricing_assumptions.instance_start``), the weights loaded and the engine started
    (``batch_window.run_start``); a floor, as finding capacity again is not known."""
    knowledge = evaluation.knowledge
    launch = knowledge.pricing_assumptions.instance_start.seconds / SECONDS_PER_HOUR
    return launch + sum(run_start(knowledge, evaluation.capacity.figures, gpu, per_replica))
