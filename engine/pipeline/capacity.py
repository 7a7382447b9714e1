"""Capacity: the model sized on every GPU (as given and one quantization step down), and the load over
the day. No rule is involved yet; the replicas follow once the rules have said whether a spare is
needed (``replica_plans``)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from gpu_advisor.engine.calc.calibration import error_taken_off
from gpu_advisor.engine.calc.card_keys import cards_key, parse_cards
from gpu_advisor.engine.calc.load import traffic_for, workload_load
from gpu_advisor.engine.calc.policy import Sizing, sizing_policy
from gpu_advisor.engine.calc.replicas import ReplicaPlan, at_throughput, plans_by_gpu
from gpu_advisor.engine.calc.sizing import SizingFigures, size_model
from gpu_advisor.engine.calc.traffic import DailyTraffic
from gpu_advisor.engine.common.caching import cleared_with_the_others, per_object
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.wording import Words, WordsError, marked
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
    """Without the busy share, which needs the chosen GPU (``market``)."""
    traffic: DailyTraffic
    days_per_month: float
    """The days a month requests come (the schedule's)."""
    cards: str = ""
    """Cards per replica by GPU (``fit.cards_key``): the count that carries the load on the fewest cards."""
    quantized_cards: str = ""
    sizing: Sizing | None = None
    """The sizing policy without spares that chose the cards per replica."""
    plans: dict[str, ReplicaPlan] = field(default_factory=dict)
    """The replica plans at those cards without spares: ``replica_plans`` where no rule adds a spare."""
    quantized_plans: dict[str, ReplicaPlan] = field(default_factory=dict)


@dataclass(frozen=True)
class ReplicaPlans:
    sizing: Sizing
    plans: dict[str, ReplicaPlan]
    """GPU -> replicas for the peak (with headroom and spares), for every GPU that holds the model with
    KV reserve."""
    quantized_plans: dict[str, ReplicaPlan]


def size(resolved: ResolvedWorkload, knowledge: Knowledge, precision: str) -> SizingFigures:
    model = resolved.model_config_entry or resolved.attention_shape
    figures = size_model(
        knowledge,
        resolved.params_b,
        resolved.active_params_b,
        precision,
        model,
        resolved.context_tokens,
        resolved.serving_engine,
    )
    if resolved.custom_weights and figures.sixteen_bit_checkpoint_gb is not None:
        # The team's own checkpoint is taken to be in the precision served, as the launch command says.
        figures = figures.model_copy(update={"sixteen_bit_checkpoint_gb": None})
    if resolved.shared_prefix_tokens:
        figures = figures.model_copy(update={"shared_prefix_tokens": resolved.shared_prefix_tokens})
    return figures


def workload_traffic(resolved: ResolvedWorkload, knowledge: Knowledge) -> DailyTraffic:
    schedule = knowledge.schedule(resolved.schedule)
    try:
        return traffic_for(
            knowledge,
            schedule,
            resolved.hours_per_month,
            resolved.load_pattern,
            resolved.load_profile,
            resolved.batch_window_hours,
            resolved.days_per_month,
        )
    except ValueError as error:
        problem = (
            error.words
            if isinstance(error, WordsError)
            else Words.verbatim(str(error), Words("not a valid value"))
        )
        label = SCHEDULE_LABELS.get(schedule.id)
        described = Words.verbatim(schedule.description, Words(label)) if label else schedule.description
        where = Words("%(schedule)s, from %(hour)s:00", schedule=described, hour=schedule.first_hour)
        said = Words.joined("load_profile: %(problem)s (%(where)s)", problem=problem, where=where)
        raise InputError(said, field="load_profile") from None


SCHEDULE_LABELS = {
    "always": marked("around the clock"),
    "workdays": marked("12 hours on working days"),
    "office_hours": marked("office hours"),
}
"""The schedules by what a message in another language calls them (English quotes their description)."""


def workload_load_for(
    resolved: ResolvedWorkload, knowledge: Knowledge, requests_per_day: int | None = None
) -> Load:
    """The workload's load; at ``requests_per_day`` instead of its own volume where given (the volume
    chart's points)."""
    return workload_load(
        knowledge,
        resolved.requests_per_day if requests_per_day is None else requests_per_day,
        knowledge.schedule(resolved.schedule),
        resolved.hours_per_month,
        resolved.load_pattern,
        resolved.load_profile,
        "load_profile" not in resolved.defaults_used,
        resolved.batch_window_hours,
        resolved.avg_input_tokens,
        resolved.avg_output_tokens,
        resolved.days_per_month,
    )


CAPACITIES_KEPT = 64
"""Capacities kept (``plan_capacity``): a scenario run asks for one per volume it draws."""
_CAPACITIES: dict[tuple[int, str, int], tuple[Knowledge, ResolvedWorkload, Capacity]] = {}
cleared_with_the_others(_CAPACITIES.clear)


def plan_capacity(resolved: ResolvedWorkload, knowledge: Knowledge) -> Capacity:
    """The capacity of ``resolved`` on ``knowledge``, worked out once per knowledge base and workload
    (equal workloads share it): every scenario of a scenario run sizes the same workload, at most with
    another volume, on the same knowledge base (``evaluate(..., sizing_knowledge=base)``). A capacity is
    never changed once made."""
    key = (id(knowledge), resolved.name, resolved.requests_per_day)
    kept = _CAPACITIES.get(key)
    if kept is not None and kept[0] is knowledge and kept[1] == resolved:
        return kept[2]
    capacity = _plan_capacity(resolved, knowledge)
    if len(_CAPACITIES) >= CAPACITIES_KEPT:
        _CAPACITIES.clear()
    # The knowledge base is kept with its capacity, so its id stays its own while the entry exists.
    _CAPACITIES[key] = (knowledge, resolved, capacity)
    return capacity


def _plan_capacity(resolved: ResolvedWorkload, knowledge: Knowledge) -> Capacity:
    figures = size(resolved, knowledge, resolved.precision)
    quantized_precision = knowledge.sizing.quantization_steps.steps.get(resolved.precision)
    quantized = size(resolved, knowledge, quantized_precision) if quantized_precision else None
    traffic = workload_traffic(resolved, knowledge)  # first: it names a profile without traffic
    load = workload_load_for(resolved, knowledge)
    tokens = (resolved.avg_input_tokens, resolved.avg_output_tokens)
    sizing = workload_sizing(resolved, knowledge, spare=False)
    # The cards per replica are settled without spares, so the count does not depend on whether a rule
    # later adds one; the plans that chose them serve as they are where none does.
    plans = plans_by_gpu(knowledge, figures, load, *tokens, sizing)
    quantized_plans = plans_by_gpu(knowledge, quantized, load, *tokens, sizing) if quantized else {}
    return Capacity(
        figures=figures,
        quantized_figures=quantized,
        quantized_precision=quantized_precision,
        load=load,
        traffic=traffic,
        days_per_month=resolved.days_per_month,
        cards=cards_key({gpu: plan.cards_per_replica for gpu, plan in plans.items()}),
        quantized_cards=cards_key({gpu: plan.cards_per_replica for gpu, plan in quantized_plans.items()})
        if quantized
        else "",
        sizing=sizing,
        plans=plans,
        quantized_plans=quantized_plans,
    )


def workload_sizing(
    resolved: ResolvedWorkload,
    knowledge: Knowledge,
    spare: bool,
    spread: bool = False,
    spread_runs: bool = False,
) -> Sizing:
    return sizing_policy(
        knowledge,
        error_taken_off(knowledge, resolved.is_moe, resolved.model),
        spare,
        resolved.min_replicas,
        resolved.max_time_to_first_token_ms,
        resolved.max_time_per_output_token_ms,
        spread,
        resolved.default_targets_dropped,
        spread_runs,
    )


def replica_plans(
    resolved: ResolvedWorkload,
    capacity: Capacity,
    knowledge: Knowledge,
    spare: bool,
    only: Collection[str] | None = None,
    throughput_factor: float = 1.0,
    spread: bool = False,
    spread_runs: bool = False,
) -> ReplicaPlans:
    """The replicas every GPU needs (of ``only``, where given), with the spares the rules asked for
    (``spare``), on at least two instances where they asked for that (``spread``; a batch's rentals:
    ``spread_runs``); with
    ``throughput_factor``, for replicas that carry that many times the estimated rate (a scenario's,
    ``replicas.at_throughput``; a batch's GPU whose replicas, that much slower, finish no request in its
    window has none)."""
    found = _replica_plans(resolved, capacity, knowledge, spare, only, spread, spread_runs)
    if throughput_factor == 1.0:
        return found
    load, sizing = capacity.load, found.sizing

    def scaled(plans: dict[str, ReplicaPlan]) -> dict[str, ReplicaPlan]:
        return {
            gpu: plan
            for gpu, p in plans.items()
            if (plan := at_throughput(p, throughput_factor, load, sizing)) is not None
        }

    return ReplicaPlans(
        sizing=sizing, plans=scaled(found.plans), quantized_plans=scaled(found.quantized_plans)
    )


def _replica_plans(
    resolved: ResolvedWorkload,
    capacity: Capacity,
    knowledge: Knowledge,
    spare: bool,
    only: Collection[str] | None = None,
    spread: bool = False,
    spread_runs: bool = False,
) -> ReplicaPlans:
    sizing = workload_sizing(resolved, knowledge, spare, spread, spread_runs)
    return replica_plans_under(
        capacity, knowledge, (resolved.avg_input_tokens, resolved.avg_output_tokens), sizing, only
    )


def replica_plans_under(
    capacity: Capacity,
    knowledge: Knowledge,
    tokens: tuple[int, int],
    sizing: Sizing,
    only: Collection[str] | None = None,
) -> ReplicaPlans:
    """``replica_plans`` under the sizing policy ``sizing`` (``workload_sizing``'s, for a caller that
    plans several capacities under one policy: the volume chart's points)."""
    if sizing == capacity.sizing:
        return ReplicaPlans(sizing=sizing, plans=capacity.plans, quantized_plans=capacity.quantized_plans)
    if only is None:
        return _plans_with_spares(capacity, knowledge, *tokens, *sizing)
    # a few GPUs (the volume chart's): planned here, not kept
    return _plans_at(capacity, knowledge, tokens, sizing, only)


@per_object(entries=CAPACITIES_KEPT)
def _plans_with_spares(
    capacity: Capacity,
    knowledge: Knowledge,
    input_tokens: int,
    output_tokens: int,
    /,
    *policy: float | int | None,
) -> ReplicaPlans:
    """The plans at the capacity's cards per replica under another sizing policy (``Sizing``'s fields,
    by value): worked out once per capacity and policy, which every scenario of one volume shares."""
    return _plans_at(capacity, knowledge, (input_tokens, output_tokens), Sizing(*policy))  # type: ignore[arg-type]


def _plans_at(
    capacity: Capacity,
    knowledge: Knowledge,
    tokens: tuple[int, int],
    sizing: Sizing,
    only: Collection[str] | None = None,
) -> ReplicaPlans:
    """The plans at the capacity's cards per replica under ``sizing`` (of the GPUs in ``only``, where
    given; the quantized model's for every GPU)."""
    quantized = capacity.quantized_figures
    return ReplicaPlans(
        sizing=sizing,
        plans=plans_by_gpu(
            knowledge, capacity.figures, capacity.load, *tokens, sizing, parse_cards(capacity.cards), only
        ),
        quantized_plans=plans_by_gpu(
            knowledge, quantized, capacity.load, *tokens, sizing, parse_cards(capacity.quantized_cards)
        )
        if quantized
        else {},
    )


def plan_for_throughput_alone(
    resolved: ResolvedWorkload,
    capacity: Capacity,
    knowledge: Knowledge,
    sizing: Sizing,
    gpu: str,
    throughput_factor: float = 1.0,
) -> ReplicaPlan | None:
    """The plan on ``gpu`` with no latency target: its cards per replica chosen as ``capacity`` chooses
    them (without spares) and its replicas sized for the peak within the headroom alone, with
    ``sizing``'s spares, ``min_replicas`` and spread; what the targets cost is measured against it
    (``alternatives.with_latency_targets_cost``). None where ``sizing`` holds no target (a dropped
    default, which still chooses the cards, counts as one), for a batch (no target applies to its
    runs) or where the GPU has no plan."""
    if capacity.load.served_in_paid_hours:
        return None
    lean = sizing._replace(
        max_time_to_first_token_ms=None,
        max_time_per_output_token_ms=None,
        cards_toward_ttft_ms=None,
        cards_toward_tpot_ms=None,
    )
    if lean == sizing:
        return None
    tokens = (resolved.avg_input_tokens, resolved.avg_output_tokens)
    figures, load = capacity.figures, capacity.load
    choosing = lean._replace(spare_replicas=0, spread=False)
    chosen = plans_by_gpu(knowledge, figures, load, *tokens, choosing, only=(gpu,))
    if gpu not in chosen:
        return None
    cards = {gpu: chosen[gpu].cards_per_replica}
    plan = plans_by_gpu(knowledge, figures, load, *tokens, lean, cards, only=(gpu,))[gpu]
    return at_throughput(plan, throughput_factor, load, lean)
