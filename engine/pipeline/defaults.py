"""Completing a workload: catalog model facts and documented defaults filled in."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.common.errors import InputError, unknown_value_message
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import ModelConfig
from gpu_advisor.engine.domain.workload import ModelSpec, ResolvedWorkload, Workload

CATALOG_TOLERANCE = 0.05
"""A params_b given beside a catalog model may differ from the catalog's count by this share (rounding)."""


def check_against_catalog(spec: ModelSpec, catalog: ModelConfig) -> None:
    """Numbers given beside a catalog ID must describe the same model: the attention shape used for the
    KV cache comes from the catalog, so a different size would silently mix two models."""
    known = [catalog.params_b] + ([catalog.params_b_exact] if catalog.params_b_exact else [])
    if spec.params_b is not None and all(abs(spec.params_b - k) > CATALOG_TOLERANCE * k for k in known):
        raise InputError(
            f"model.params_b: {spec.params_b} contradicts the catalog's {catalog.id} ({catalog.params_b}B); "
            "give the catalog ID or the parameter count, not both",
            field="model.params_b",
        )
    if spec.active_params_b is not None and (
        abs(spec.active_params_b - catalog.active_params_b) > CATALOG_TOLERANCE * catalog.active_params_b
    ):
        raise InputError(
            f"model.active_params_b: {spec.active_params_b} contradicts the catalog's {catalog.id} "
            f"({catalog.active_params_b}B active); leave it out for a catalog model",
            field="model.active_params_b",
        )


def context_for(
    avg_input_tokens: int,
    avg_output_tokens: int,
    context_tokens: int,
    given: bool,
    catalog: ModelConfig | None,
) -> int:
    """The context window the KV cache is sized for. A default window grows to hold an average request;
    a given one that cannot hold it, or any window longer than the model supports, is an input error."""
    request = avg_input_tokens + avg_output_tokens
    if not given:
        context_tokens = max(context_tokens, request)
    if request > context_tokens:
        raise InputError(
            f"context_tokens: an average request ({avg_input_tokens:,} in + {avg_output_tokens:,} out = "
            f"{request:,} tokens) does not fit context_tokens: {context_tokens:,} tokens; "
            f"give a context_tokens of at least {request:,}",
            field="context_tokens",
        )
    if catalog is not None and context_tokens > catalog.max_context_tokens:
        what = f"{context_tokens:,}" if given else f"an average request of {request:,} tokens"
        raise InputError(
            f"context_tokens: {what} exceeds {catalog.id}'s maximum context of "
            f"{catalog.max_context_tokens:,} tokens",
            field="context_tokens",
        )
    return context_tokens


def resolve_workload(workload: Workload, knowledge: Knowledge) -> ResolvedWorkload:
    """Fill in catalog model facts and documented defaults; the result has no missing fact."""
    spec = workload.model
    catalog: ModelConfig | None = None
    if spec.name is not None:
        model_ids = [m.id for m in knowledge.models.models]
        if spec.name not in model_ids:
            raise InputError(unknown_value_message("model.name", spec.name, model_ids), field="model.name")
        catalog = knowledge.model(spec.name)
    if catalog is not None:
        check_against_catalog(spec, catalog)
    params_b = spec.params_b if spec.params_b is not None else catalog.params_b  # type: ignore[union-attr]
    if spec.active_params_b is not None:
        active_params_b = spec.active_params_b
    elif catalog is not None and spec.params_b is None:
        active_params_b = catalog.active_params_b
    else:
        active_params_b = params_b
    if active_params_b > params_b:
        raise InputError(
            f"model.active_params_b: {active_params_b} exceeds the total of {params_b} billion parameters",
            field="model.active_params_b",
        )

    defaults = knowledge.workload_default_values()
    given = workload.model_dump(exclude_none=True)
    defaults_used: list[str] = []

    def pick(field: str) -> Any:
        if field in given:
            return given[field]
        defaults_used.append(field)
        return defaults[field]

    schedule_id = pick("schedule")
    schedule = knowledge.schedule(schedule_id)
    load_pattern = pick("load_pattern")
    by_pattern = {u.load_pattern: u for u in knowledge.workload_defaults.utilization_by_load_pattern}
    utilization_source = "input" if workload.utilization is not None else "derived"
    if workload.latency_sensitive is not None:
        latency_sensitive = workload.latency_sensitive
    else:
        latency_sensitive = by_pattern[load_pattern].latency_sensitive
        defaults_used.append("latency_sensitive")

    avg_input_tokens, avg_output_tokens = pick("avg_input_tokens"), pick("avg_output_tokens")
    context_tokens = pick("context_tokens")
    context_tokens = context_for(
        avg_input_tokens, avg_output_tokens, context_tokens, "context_tokens" in given, catalog
    )

    return ResolvedWorkload(
        name=workload.name,
        model_id=spec.name,
        model_config_entry=catalog,
        params_b=params_b,
        active_params_b=active_params_b,
        precision=spec.precision,
        custom_weights=spec.custom_weights,
        requests_per_day=workload.requests_per_day,
        avg_input_tokens=avg_input_tokens,
        avg_output_tokens=avg_output_tokens,
        context_tokens=context_tokens,
        load_pattern=load_pattern,
        schedule=schedule_id,
        hours_per_month=workload.hours_per_month
        if workload.hours_per_month is not None
        else schedule.hours_per_month,
        days_per_month=schedule.days_per_month,
        utilization=workload.utilization,
        utilization_source=utilization_source,
        latency_sensitive=latency_sensitive,
        personal_data=pick("personal_data"),
        on_premises_required=pick("on_premises_required"),
        model_stable=pick("model_stable"),
        company_country=pick("company_country"),
        volume_growing=pick("volume_growing"),
        devops_capacity=pick("devops_capacity"),
        business_critical=pick("business_critical"),
        framework=pick("framework"),
        needs_gpu=pick("needs_gpu"),
        defaults_used=tuple(defaults_used),
    )
