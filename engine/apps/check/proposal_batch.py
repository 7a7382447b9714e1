"""A batch proposal's run: the hours its cards take for a run's work, against the window the work must be
done in (SIZ019 fails a run that overruns it; SIZ009 warns where it fits only if the estimate is right).
A serverless proposal's run is not worked out: its product starts the instances the window needs."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.apps.check.proposal_latency import proposed_performance
from gpu_advisor.engine.calc.checkpoint import run_start
from gpu_advisor.engine.calc.sizing import GpuFit
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
    the work a spot offer redoes after interruptions, and the run's window (the workload's, within its
    schedule's hours); not known for a service or where the cards hold no replica."""
    hours = proposed_run_hours(fit, gpus, per_replica, evaluation)
    if hours is None or fit is None or per_replica is None:
        return {"batch_run_known": False, "batch_run_hours": 0.0, "batch_run_window_hours": 0.0}
    # A run takes the window with its start (the weights' load and the engine's), as recommend sizes it.
    start = sum(run_start(evaluation.knowledge, evaluation.capacity.figures, fit.gpu, per_replica))
    window, run = evaluation.capacity.load.hours_per_day, hours * (1 + spot_overhead) + start
    return {
        "batch_run_known": True,
        "batch_run_hours": run,
        "batch_start_hours": start,
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
    """The hours a batch run takes on ``gpus`` proposed cards, replicas of ``per_replica`` cards each, at
    the estimated throughput of such a replica (whole replicas: cards beyond the last one idle); None for
    a service or where the cards hold no replica."""
    load = evaluation.capacity.load
    if fit is None or not gpus or not per_replica or gpus < per_replica or not load.served_in_paid_hours:
        return None
    plan = evaluation.market.plans.get(fit.gpu)
    if plan is not None and plan.cards_per_replica == per_replica:
        rate = plan.requests_per_second_per_replica
    else:
        performance = proposed_performance(fit, per_replica, evaluation)
        if performance is None:
            return None
        rate = performance.requests_per_second
    requests_per_run = load.average_requests_per_second * load.hours_per_day * SECONDS_PER_HOUR
    return requests_per_run / (gpus // per_replica * rate) / SECONDS_PER_HOUR


def restart_hours(evaluation: Evaluation, gpu: str, per_replica: int) -> float:
    """What a replica lost to an interruption takes to serve again: a new instance launched
    (``pricing_assumptions.instance_start``), the weights loaded and the engine started
    (``checkpoint.run_start``); a floor, as finding capacity again is not known."""
    knowledge = evaluation.knowledge
    launch = knowledge.pricing_assumptions.instance_start.seconds / SECONDS_PER_HOUR
    return launch + sum(run_start(knowledge, evaluation.capacity.figures, gpu, per_replica))
