"""A proposal's latency at the workload's peak: the peak spread over the replicas its cards hold, against
the workload's latency targets (the LAT checks)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.calc.gpu_fit import GpuFit
from gpu_advisor.engine.calc.latency import UNBOUNDED_MS, at_rate, lone_request
from gpu_advisor.engine.calc.performance import ReplicaPerformance, replica_performance
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.rulebook.schema import family_of


def proposed_performance(fit: GpuFit, per_replica: int, evaluation: Evaluation) -> ReplicaPerformance | None:
    """One replica of ``per_replica`` cards of the proposed GPU, for the workload's average request."""
    resolved = evaluation.workload
    return replica_performance(
        evaluation.knowledge,
        evaluation.capacity.figures,
        fit,
        resolved.avg_input_tokens,
        resolved.avg_output_tokens,
        per_replica,
    )


def latency_facts(
    fit: GpuFit | None,
    gpus: int | None,
    per_replica: int | None,
    evaluation: Evaluation,
    scales_out: bool = False,
) -> dict[str, Any]:
    """What a user sees at the peak on the proposed cards: the peak spread over the replicas they hold
    (the usual card count each) beside the spares the rules ask for (``*_at_peak_ms``), the same over all
    of them (``*_intact_ms``), and the workload's targets. ``scales_out``: a serverless product, whose
    proposed cards are one instance's and which starts more instances as requests wait: the nearest it
    comes is what a lone request sees on one instance."""
    resolved, load = evaluation.workload, evaluation.capacity.load
    ttft, tpot = resolved.max_time_to_first_token_ms, resolved.max_time_per_output_token_ms
    targets = {
        "ttft_target_given": ttft is not None,
        "max_time_to_first_token_ms": ttft or 0.0,
        "tpot_target_given": tpot is not None,
        "max_time_per_output_token_ms": tpot or 0.0,
    }
    # A latency rule (LAT) ruled the GPU out for this workload: another it may have comes nearer, whatever
    # the proposal's card count.
    verdicts = evaluation.verdicts
    targets = {
        **targets,
        "gpu_misses_latency_targets": fit is not None
        and any(family_of(rule_id) == "LAT" for rule_id in verdicts.unsuitable.get(fit.gpu, ())),
    }
    performance = None
    if fit is not None and gpus and per_replica and gpus >= per_replica and not load.served_in_paid_hours:
        performance = proposed_performance(fit, per_replica, evaluation)
    if performance is None or not gpus:
        return {
            **targets,
            "latency_known": False,
            "time_to_first_token_at_peak_ms": 0.0,
            "time_per_output_token_at_peak_ms": 0.0,
            "peak_overloads_replicas": False,
            "replica_lost_at_peak": False,
            "replicas_left_at_peak": 0,
            "time_to_first_token_intact_ms": 0.0,
            "time_per_output_token_intact_ms": 0.0,
            "peak_overloads_intact": False,
            "busiest_hour_requests_per_second": 0.0,
            "proposed_requests_per_second": 0.0,
            "time_to_first_token_planned_ms": 0.0,
            "time_per_output_token_planned_ms": 0.0,
            "time_to_first_token_alone_ms": 0.0,
            "time_per_output_token_alone_ms": 0.0,
        }
    replicas = gpus // performance.cards
    alone = lone_request(performance.roofline)
    # The peak on the replicas beside the spares the rules ask for, as recommend states its latency: what
    # users see while a spare stands in for a lost replica (all of them where there are no more).
    spares = evaluation.market.replicas.sizing.spare_replicas
    serving = replicas - spares if replicas > spares else replicas
    point = alone if scales_out else at_rate(performance.roofline, load.peak_requests_per_second / serving)
    # The peak over all the proposed replicas, none lost: what the LAT checks fail a proposal on.
    intact = alone if scales_out else at_rate(performance.roofline, load.peak_requests_per_second / replicas)
    # The nearest the workload can be planned to on the GPUs it may have (as recommend sizes it): a GPU
    # that cannot come as near is held to it as well.
    return {
        **targets,
        "time_to_first_token_planned_ms": verdicts.planned_time_to_first_token_ms or ttft or 0.0,
        "time_per_output_token_planned_ms": verdicts.planned_time_per_output_token_ms or tpot or 0.0,
        "latency_known": True,
        "time_to_first_token_at_peak_ms": UNBOUNDED_MS if point.saturated else point.time_to_first_token_ms,
        # Past a replica's capacity the prompts queue without bound, while the sequences the engine admits
        # decode in its full batch: their time between tokens is that batch's step, not unbounded.
        "time_per_output_token_at_peak_ms": point.time_per_output_token_ms,
        "peak_overloads_replicas": point.saturated,
        "replica_lost_at_peak": not scales_out and serving < replicas,
        "replicas_left_at_peak": replicas if scales_out else serving,
        "time_to_first_token_intact_ms": UNBOUNDED_MS if intact.saturated else intact.time_to_first_token_ms,
        "time_per_output_token_intact_ms": intact.time_per_output_token_ms,
        "peak_overloads_intact": intact.saturated,
        "busiest_hour_requests_per_second": load.busiest_hour_requests_per_second,
        "proposed_requests_per_second": replicas * performance.requests_per_second,
        # What a lone request sees on one proposed replica: where it is within what the workload is planned
        # to, more replicas (a shorter queue) reach it; beyond, only more cards per replica.
        "time_to_first_token_alone_ms": alone.time_to_first_token_ms,
        "time_per_output_token_alone_ms": alone.time_per_output_token_ms,
    }


def planned_details(planned: ReplicaPlan | None, fit: GpuFit | None) -> dict[str, object]:
    """The recommendation's replicas on the proposed GPU, for SIZ009's and SIZ026's messages: whether the
    latency targets set them, their cards, the rate their KV cache caps each at (0: none), and whether
    the GPU has no usual count at all (a light load's replicas)."""
    return {
        "peak_set_by_latency": bool(planned and planned.latency_bound),
        "planned_cards_per_replica": planned.cards_per_replica if planned else 0,
        "planned_kv_held_requests_per_second": (planned.rate_kv_holds or 0.0) if planned else 0.0,
        "planned_without_usual_count": bool(planned and fit and fit.gpus_with_kv_reserve is None),
    }
