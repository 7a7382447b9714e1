"""Capacity: the model sized on every GPU (as given and one quantization step down), the load, and the
replicas each GPU needs for its peak. No rule is involved yet."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_advisor.engine.calc.load import workload_load
from gpu_advisor.engine.calc.replicas import ReplicaPlan, plans_by_gpu
from gpu_advisor.engine.calc.sizing import SizingFigures, size_model
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.domain.workload import ResolvedWorkload


@dataclass(frozen=True)
class Capacity:
    figures: SizingFigures
    """The model as given: weights, KV cache, card counts on every GPU."""
    quantized_figures: SizingFigures | None
    """The same one quantization step down, where the knowledge base names a step."""
    quantized_precision: str | None
    load: Load
    plans: dict[str, ReplicaPlan]
    """GPU -> replicas for the peak, for every GPU that holds the model with KV reserve."""
    quantized_plans: dict[str, ReplicaPlan]


def size(resolved: ResolvedWorkload, knowledge: Knowledge, precision: str) -> SizingFigures:
    model = resolved.model_config_entry
    return size_model(
        knowledge, resolved.params_b, resolved.active_params_b, precision, model, resolved.context_tokens
    )


def workload_load_for(resolved: ResolvedWorkload, knowledge: Knowledge) -> Load:
    return workload_load(
        knowledge,
        resolved.requests_per_day,
        knowledge.schedule(resolved.schedule),
        resolved.hours_per_month,
        resolved.load_pattern,
        resolved.avg_input_tokens,
        resolved.avg_output_tokens,
    )


def plan_capacity(resolved: ResolvedWorkload, knowledge: Knowledge) -> Capacity:
    tokens = (resolved.avg_input_tokens, resolved.avg_output_tokens)
    figures = size(resolved, knowledge, resolved.precision)
    quantized_precision = knowledge.sizing.quantization_steps.steps.get(resolved.precision)
    quantized = size(resolved, knowledge, quantized_precision) if quantized_precision else None
    load = workload_load_for(resolved, knowledge)
    return Capacity(
        figures=figures,
        quantized_figures=quantized,
        quantized_precision=quantized_precision,
        load=load,
        plans=plans_by_gpu(knowledge, figures, load, *tokens),
        quantized_plans=plans_by_gpu(knowledge, quantized, load, *tokens) if quantized else {},
    )
