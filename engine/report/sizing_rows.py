"""The sizing table's rows: each GPU's fit, the replica plan the load gets on it, and its latency."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gpu_advisor.engine.calc.card_keys import parse_cards
from gpu_advisor.engine.calc.count_limits import (
    below_usual_count,
    full_context_sequences,
    kv_held_sequences,
    longest_light_context,
    replica_kv_tokens,
)
from gpu_advisor.engine.calc.gpu_fit import GpuFit
from gpu_advisor.engine.calc.latency import OperatingPoint, first_token_tail_ms, lone_request
from gpu_advisor.engine.calc.performance import ReplicaPerformance
from gpu_advisor.engine.calc.replicas import PEAKS_KEPT, ReplicaPlan, latency_at_peak
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import GpuSizing, OperatingPointResult
from gpu_advisor.engine.pipeline.latency_fit import EVERY_GPU
from gpu_advisor.engine.report.launch import replica_launch


def sizing_rows(
    knowledge: Knowledge,
    figures: SizingFigures,
    unsuitable: dict[str, list[str]],
    plans: dict[str, ReplicaPlan],
    performances: Mapping[str, ReplicaPerformance] | None = None,
    points: Mapping[str, OperatingPoint] | None = None,
    concurrency: int | None = None,
    admitted: str | None = None,
    model: tuple[str | None, bool] = (None, False),
) -> tuple[GpuSizing, ...]:
    """One row per GPU; ``admitted``: the GPUs the workload may have (``GpuVerdicts.admitted``), which
    each row's ``offered`` reads; ``model``: the catalog model and whether its weights are the team's
    own, for each row's launch command."""
    sold = None if admitted in (None, EVERY_GPU) else parse_cards(admitted)
    rows = []
    for fit in figures.fits:
        blocked = tuple(unsuitable.get(fit.gpu, ()))
        plan = None if blocked else plans.get(fit.gpu)
        performance = (performances or {}).get(fit.gpu)
        point = (points or {}).get(fit.gpu)
        cards = plan.cards_per_replica if plan else (performance.cards if performance else None)
        tensor = (
            plan.cards_per_replica // plan.pipeline_stages
            if plan
            else (performance.tensor_parallel if performance else None)
        )
        stages = plan.pipeline_stages if plan else (performance.pipeline_stages if performance else None)
        # What the evaluated replica's cards keep, which may be less than the usual count's (size --cards).
        kv_tokens = (
            max(0, math.floor(replica_kv_tokens(knowledge, figures, fit.gpu, cards))) if cards else None
        )
        rows.append(
            trusted(
                GpuSizing,
                gpu=fit.gpu,
                name=fit.name,
                memory_gb=fit.memory_gb,
                interconnect=fit.interconnect,
                segment=fit.segment,
                gpus_for_weights=fit.gpus_for_weights,
                gpus_recommended=None if blocked else fit.gpus_with_kv_reserve,
                gpus_with_kv_reserve=fit.gpus_with_kv_reserve,
                gpus_for_light_load=fit.gpus_for_light_load,
                context_tokens_on_one_card=longest_light_context(knowledge, figures, fit),
                kv_headroom_gb=fit.kv_headroom_gb,
                kv_tokens_capacity=fit.kv_tokens_capacity,
                replica_kv_tokens_capacity=kv_tokens,
                not_recommended_by=blocked,
                **(_planned(knowledge, figures, fit, plan) if plan else NOT_PLANNED),
                cards_per_replica=cards,
                tensor_parallel=tensor,
                pipeline_stages=stages,
                concurrent_requests=plan.batch if plan else (performance.batch if performance else None),
                kv_cache_copies=figures.kv_copies_on(tensor) if tensor else None,
                at_concurrency=None
                if point is None or performance is None or concurrency is None
                else _at_concurrency(point, performance, concurrency),
                offered=None if sold is None or cards is None else sold.get(fit.gpu, 0) >= cards,
                # A GPU the rules rule out gets no command to start what they advise against.
                launch=replica_launch(knowledge, figures, model, fit.gpu, tensor, stages, kv_tokens)
                if tensor and stages and (plan is not None or point is not None) and not blocked
                else None,
            )
        )
    return tuple(rows)


NOT_PLANNED: dict[str, Any] = dict.fromkeys(
    (
        "replicas",
        "gpus_total",
        "requests_per_second_per_replica",
        "output_tokens_per_second_per_replica",
        "utilization",
        "capacity_utilization_at_peak",
        "spare_replicas",
        "hours_per_day_running",
        "run_start_hours",
        "time_to_first_token_ms",
        "time_to_first_token_tail_ms",
        "time_per_output_token_ms",
        "request_seconds",
        "full_context_sequences",
        "kv_held_sequences",
        "time_to_first_token_alone_ms",
        "time_per_output_token_alone_ms",
        "meets_latency_targets",
        "kept_max_time_to_first_token_ms",
        "kept_max_time_per_output_token_ms",
        "sized_for_latency",
        "replicas_for_throughput",
        "kv_held_requests_per_second",
        "replicas_without_kv_cap",
        "below_usual_count",
    )
)
"""A sizing row's figures of the replica plan, for a GPU that has none (ruled out, or no plan made)."""


def _planned(knowledge: Knowledge, figures: SizingFigures, fit: GpuFit, plan: ReplicaPlan) -> dict[str, Any]:
    """A sizing row's figures of the GPU's replica plan (the keys of ``NOT_PLANNED``)."""
    at_peak, alone, kept = latency_at_peak(plan), lone_request(plan.roofline), plan.kept_targets
    below = below_usual_count(plan.cards_per_replica, fit)
    return {
        "replicas": plan.replicas,
        "gpus_total": plan.gpus,
        "requests_per_second_per_replica": plan.requests_per_second_per_replica,
        "output_tokens_per_second_per_replica": plan.output_tokens_per_second_per_replica,
        "utilization": plan.utilization,
        "capacity_utilization_at_peak": plan.capacity_utilization_at_peak,
        "spare_replicas": plan.spare_replicas,
        "hours_per_day_running": plan.hours_per_day_running,
        "run_start_hours": None if plan.hours_per_day_running is None else plan.start_hours,
        "time_to_first_token_ms": at_peak.time_to_first_token_ms,
        "time_to_first_token_tail_ms": _tail_at_peak(plan),
        "time_per_output_token_ms": at_peak.time_per_output_token_ms,
        "request_seconds": at_peak.request_seconds,
        "full_context_sequences": full_context_sequences(knowledge, figures, fit.gpu, plan.cards_per_replica),
        "kv_held_sequences": kv_held_sequences(
            knowledge,
            figures,
            fit.gpu,
            plan.cards_per_replica,
            plan.roofline.input_tokens + plan.roofline.output_tokens,
        )
        if below and plan.hours_per_day_running is None
        else None,
        "below_usual_count": below,
        "time_to_first_token_alone_ms": alone.time_to_first_token_ms,
        "time_per_output_token_alone_ms": alone.time_per_output_token_ms,
        "meets_latency_targets": plan.meets_latency_targets,
        "kept_max_time_to_first_token_ms": kept.time_to_first_token_ms if kept else None,
        "kept_max_time_per_output_token_ms": kept.time_per_output_token_ms if kept else None,
        "sized_for_latency": plan.latency_bound,
        "replicas_for_throughput": plan.replicas_for_throughput,
        "kv_held_requests_per_second": plan.rate_kv_holds,
        "replicas_without_kv_cap": plan.replicas_without_kv_cap or None,
    }


@per_object(entries=PEAKS_KEPT)
def _tail_at_peak(plan: ReplicaPlan) -> float | None:
    """``first_token_tail_ms`` at the plan's peak, kept per plan as ``latency_at_peak`` is (a capacity's
    plans are kept, and a plan is a tuple never changed once made)."""
    return first_token_tail_ms(plan.roofline, latency_at_peak(plan))


def _at_concurrency(
    point: OperatingPoint, performance: ReplicaPerformance, concurrency: int
) -> OperatingPointResult:
    """One replica at ``concurrency`` requests in flight (``size --concurrency``)."""
    return trusted(
        OperatingPointResult,
        concurrency=concurrency,
        requests_per_second=point.requests_per_second,
        output_tokens_per_second=point.requests_per_second * performance.roofline.output_tokens,
        decoding=point.decoding,
        time_to_first_token_ms=point.time_to_first_token_ms,
        time_per_output_token_ms=point.time_per_output_token_ms,
        saturated=point.saturated,
    )
