"""Stage 2: the workload's own constraints (the workload fact)."""

from __future__ import annotations

from collections.abc import Sequence

from gpu_advisor.engine.calc.listings import listings
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.rulebook.conclusions import excluded_by, option_filters
from gpu_advisor.engine.rulebook.facts import WorkloadFact
from gpu_advisor.engine.rulebook.schema import Rule


def fits_one_small_card(figures: SizingFigures, knowledge: Knowledge) -> bool:
    limit = knowledge.threshold("small_card_max_memory_gb").value
    return any(fit.gpus_with_kv_reserve == 1 and fit.memory_gb <= limit for fit in figures.fits)


def workload_fact(resolved: ResolvedWorkload, figures: SizingFigures, knowledge: Knowledge) -> WorkloadFact:
    return WorkloadFact(
        requests_per_day=resolved.requests_per_day,
        load_pattern=resolved.load_pattern,
        schedule=resolved.schedule,
        hours_per_month=float(resolved.hours_per_month),
        schedule_hours_per_month=knowledge.schedule(resolved.schedule).hours_per_month,
        calendar_hours_per_month=knowledge.calendar_hours_per_month(),
        requests_wait_for_paid_hours=knowledge.peak_to_average(resolved.load_pattern).waits_for_paid_hours,
        latency_sensitive=resolved.latency_sensitive,
        personal_data=resolved.personal_data,
        on_premises_required=resolved.on_premises_required,
        model_stable=resolved.model_stable,
        custom_weights=resolved.custom_weights,
        company_country=resolved.company_country,
        export_restricted_country=knowledge.export_restricted(resolved.company_country),
        precision=resolved.precision,
        params_b=float(resolved.params_b),
        active_params_b=float(resolved.active_params_b),
        is_moe=resolved.is_moe,
        weights_gb=float(figures.weights_gb),
        context_tokens=resolved.context_tokens,
        volume_growing=resolved.volume_growing,
        devops_capacity=resolved.devops_capacity,
        business_critical=resolved.business_critical,
        framework=resolved.framework,
        needs_gpu=resolved.needs_gpu,
        fits_any_gpu=any(fit.gpus_with_kv_reserve is not None for fit in figures.fits),
        fits_one_small_card=fits_one_small_card(figures, knowledge),
    )


def rule_exclusions(knowledge: Knowledge, rules: Sequence[Rule]) -> tuple[tuple[str, ...], ...]:
    """For every listing (in ``listings`` order), the IDs of the fired rules whose exclusions match it;
    the same for the workload as given and for its quantized variant."""
    filters = option_filters(rules)
    if not filters:
        return ((),) * len(listings(knowledge))
    return tuple(tuple(excluded_by(listing.attributes, filters)) for listing in listings(knowledge))
