"""``size``: card counts per GPU for one model; with a load, the replicas each GPU needs."""

from __future__ import annotations

from typing import Any, NamedTuple

from gpu_advisor.engine.calc.batch_window import run_start_in_window
from gpu_advisor.engine.calc.calibration import error_taken_off
from gpu_advisor.engine.calc.card_keys import cards_key
from gpu_advisor.engine.calc.count_limits import kv_held_rate
from gpu_advisor.engine.calc.latency import at_concurrency
from gpu_advisor.engine.calc.load import workload_load
from gpu_advisor.engine.calc.performance import ReplicaPerformance, replica_performance
from gpu_advisor.engine.calc.policy import Sizing, sizing_policy
from gpu_advisor.engine.calc.replicas import (
    ReplicaPlan,
    plan_replicas,
    plans_by_gpu,
)
from gpu_advisor.engine.calc.sizing import SizingFigures, parallelism, size_model
from gpu_advisor.engine.common.errors import InputError, unknown_value_message
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.domain.requests import LoadRequest, SizeRequest
from gpu_advisor.engine.domain.results import SizeResult
from gpu_advisor.engine.pipeline.batch_start import batch_start_fact
from gpu_advisor.engine.pipeline.defaults import DERIVATIONS, check_shared_prefix, context_for
from gpu_advisor.engine.pipeline.engines import rulebook_for, rules_engine
from gpu_advisor.engine.pipeline.fit import WORKLOAD_SCENARIO, assert_gpu_fits
from gpu_advisor.engine.pipeline.latency_fit import EVERY_GPU, Defaulted, latency_fit_facts
from gpu_advisor.engine.report.recommendation import size_result, sizing_policy_result
from gpu_advisor.engine.report.sizing_rows import sizing_rows
from gpu_advisor.engine.rulebook.conclusions import dropped_targets, dropping_firings, unsuitable_gpus
from gpu_advisor.engine.rulebook.durable import Evaluator, Firing


class SizedLoad(NamedTuple):
    load: Load
    input_tokens: int
    output_tokens: int
    max_time_to_first_token_ms: float | None
    max_time_per_output_token_ms: float | None
    defaulted: Defaulted = (False, False)
    """Whether each target is the default of a service whose users wait (not one given)."""
    dropped: tuple[str, ...] = ()
    """The default targets the rules dropped, which still choose the cards per replica (``Sizing``)."""

    def without(self, dropped: tuple[str, ...]) -> SizedLoad:
        """The load without the default targets the rules dropped (LAT010, LAT011)."""
        return self._replace(
            max_time_to_first_token_ms=None
            if "max_time_to_first_token_ms" in dropped
            else self.max_time_to_first_token_ms,
            max_time_per_output_token_ms=None
            if "max_time_per_output_token_ms" in dropped
            else self.max_time_per_output_token_ms,
            dropped=dropped,
        )


def sized_load(request: LoadRequest, knowledge: Knowledge) -> SizedLoad:
    """The requested load, the workload defaults in place of the fields it leaves out."""
    defaults = knowledge.workload_default_values()

    def pick(field: str) -> Any:
        value = getattr(request, field)
        return defaults[field] if value is None else value

    schedule = knowledge.schedule(str(pick("schedule")))
    input_tokens, output_tokens = int(pick("avg_input_tokens")), int(pick("avg_output_tokens"))
    pattern = str(pick("load_pattern"))
    if request.batch_window_hours is not None and pattern != "batch":
        raise InputError(
            Words("load.batch_window_hours: only a batch has a window: give load_pattern batch too"),
            field="load.batch_window_hours",
        )
    load = workload_load(
        knowledge,
        request.requests_per_day,
        schedule,
        schedule.hours_per_month,
        pattern,
        knowledge.load_profile(pattern).hourly,
        False,
        float(pick("batch_window_hours")),
        input_tokens,
        output_tokens,
    )
    # Targets left out are those a workload file that leaves them out takes (``pipeline/defaults.py``): a
    # service's users wait for its answers (the documented defaults) unless it says they do not, a batch's
    # never do.
    values: dict[str, Any] = {"load_pattern": pattern, "latency_sensitive": request.latency_sensitive}
    if values["latency_sensitive"] is None:
        values["latency_sensitive"] = DERIVATIONS["latency_sensitive"].work_out(values, knowledge)

    def target(field: str) -> float | None:
        given = getattr(request, field)
        derived: float | None = DERIVATIONS[field].work_out(values, knowledge)
        return given if given is not None else derived

    ttft, tpot = target("max_time_to_first_token_ms"), target("max_time_per_output_token_ms")
    defaulted = (
        request.max_time_to_first_token_ms is None and ttft is not None,
        request.max_time_per_output_token_ms is None and tpot is not None,
    )
    return SizedLoad(load, input_tokens, output_tokens, ttft, tpot, defaulted)


def load_sizing(knowledge: Knowledge, sized: SizedLoad, figures: SizingFigures, model: str | None) -> Sizing:
    """The sizing policy a recommendation sizes a load with (no spares): the headroom, the error band
    (a mixture of experts' where it is wider) and the latency targets at the peak."""
    return sizing_policy(
        knowledge,
        error_taken_off(knowledge, figures.active_params_b < figures.params_b, model),
        False,
        1,
        sized.max_time_to_first_token_ms,
        sized.max_time_per_output_token_ms,
        dropped=sized.dropped,
    )


def size(request: SizeRequest, evaluator: Evaluator | None = None) -> SizeResult:
    """Card counts per GPU for one model, with the sizing and interconnect rules applied; with a load,
    the replicas each GPU needs for its peak."""
    knowledge = load_knowledge()
    model_ids = [m.id for m in knowledge.models.models]
    if request.model is not None and request.model not in model_ids:
        raise InputError(unknown_value_message("model", request.model, model_ids), field="model")
    catalog = knowledge.model(request.model) if request.model is not None else None
    total = catalog.params_b if catalog is not None else float(request.params_b or 0)
    active = catalog.active_params_b if catalog is not None else (request.active_params_b or total)
    sized = sized_load(request.load, knowledge) if request.load is not None else None
    tokens = (
        (sized.input_tokens, sized.output_tokens)
        if sized
        else (
            request.input_tokens or int(knowledge.workload_default_values()["avg_input_tokens"]),
            request.output_tokens or int(knowledge.workload_default_values()["avg_output_tokens"]),
        )
    )
    # The window holds the requests whose figures are shown: a load's, those in flight at a concurrency
    # or on one configuration, or the token counts given. A bare card count reads no request.
    asked = (request.concurrency, request.cards, request.input_tokens, request.output_tokens)
    reads_requests = sized is not None or any(given is not None for given in asked)
    context = context_for(
        *(tokens if reads_requests else (0, 0)),
        request.context_tokens or int(knowledge.workload_default_values()["context_tokens"]),
        request.context_tokens is not None,
        catalog,
    )
    shape = catalog or request.attention_shape
    figures = size_model(knowledge, total, active, request.precision, shape, context, request.serving_engine)
    if request.shared_prefix_tokens:
        given = request.load.avg_input_tokens if request.load is not None else request.input_tokens
        check_shared_prefix(request.shared_prefix_tokens, tokens[0], given is None)
        figures = figures.model_copy(update={"shared_prefix_tokens": request.shared_prefix_tokens})
    gpu_ids = [gpu.id for gpu in knowledge.gpus.gpus]
    if request.gpu is not None and request.gpu not in gpu_ids:
        raise InputError(unknown_value_message("gpu", request.gpu, gpu_ids), field="gpu")
    if request.cards is not None and request.cards not in knowledge.sizing.card_counts.counts:
        allowed = ", ".join(str(c) for c in knowledge.sizing.card_counts.counts)
        raise InputError(
            f"cards: {request.cards} is not a card count a replica runs on ({allowed})", field="cards"
        )
    if request.cards is not None and shape is not None and request.cards not in figures.card_counts:
        tensor = parallelism(knowledge.sizing.card_counts.node_gpus, request.cards)[0]
        loadable = ", ".join(str(c) for c in figures.card_counts)
        raise InputError(
            f"cards: the serving engine does not split this model's {shape.num_attention_heads} attention "
            f"heads ({shape.num_kv_heads} key-value heads) over {request.cards} cards (a tensor-parallel "
            f"group of {tensor}); it loads on {loadable}",
            field="cards",
        )
    # A default latency target no GPU can be planned to is not held (LAT010, LAT011): it only chooses
    # the cards, sized again as recommend does, the firings of the rules that dropped it kept.
    rulebook = rulebook_for(None)
    dropped: tuple[str, ...] = ()
    dropping: list[Firing] = []
    while True:
        plans, performances, firings = judged(knowledge, figures, request, tokens, sized, evaluator)
        newly = tuple(field for field in dropped_targets(firings, rulebook) if field not in dropped)
        if sized is None or not newly:
            firings = [*dropping, *firings]
            break
        dropped, dropping = (*dropped, *newly), [*dropping, *dropping_firings(firings, rulebook)]
        sized = sized.without(dropped)
    sizing = load_sizing(knowledge, sized, figures, request.model) if sized is not None else None
    points = (
        {gpu: at_concurrency(p.roofline, request.concurrency) for gpu, p in performances.items()}
        if request.concurrency
        else {}
    )
    result = size_result(
        figures,
        request.model,
        firings,
        knowledge,
        sized.load if sized else None,
        plans,
        performances=performances,
        points=points,
        concurrency=request.concurrency,
    )
    if request.cards is not None:
        # The configuration asked about is shown with its figures even where a rule rules its GPU out
        # (its row names the rules): the reader asked what those cards do, not which GPU to take.
        shown = sizing_rows(
            knowledge,
            figures,
            {},
            plans,
            performances,
            points,
            request.concurrency,
            model=(request.model, False),
        )
        ruled = {row.gpu: row.not_recommended_by for row in result.gpus}
        # No command to start what the rules advise against (TensorRT-LLM's FP8 on an A100, SIZ028).
        rows = [
            row.model_copy(
                update={
                    "not_recommended_by": ruled[row.gpu],
                    **({"launch": None} if ruled[row.gpu] else {}),
                }
            )
            for row in shown
        ]
        result = result.model_copy(update={"gpus": tuple(rows)})
    if request.gpu is not None:
        # One GPU asked about: its row, and the findings about it or about no GPU in particular.
        result = result.model_copy(
            update={
                "gpus": tuple(g for g in result.gpus if g.gpu == request.gpu),
                "findings": tuple(f for f in result.findings if f.subject in (None, request.gpu)),
            }
        )
    return result.model_copy(
        update={
            "input_tokens": tokens[0],
            "output_tokens": tokens[1],
            "concurrency": request.concurrency,
            "cards": request.cards,
            "attention_shape": request.attention_shape,
            "max_time_to_first_token_ms": sized.max_time_to_first_token_ms if sized else None,
            "max_time_per_output_token_ms": sized.max_time_per_output_token_ms if sized else None,
            "default_targets_dropped": dropped if sized else (),
            "sizing_policy": sizing_policy_result(knowledge, sizing, request.model) if sizing else None,
            "batch_window_cut_from": window_cut_from(request, sized),
        }
    )


def window_cut_from(request: SizeRequest, sized: SizedLoad | None) -> float | None:
    """The batch window asked for, where the schedule's hours cut it (the table says so)."""
    asked = request.load.batch_window_hours if request.load is not None else None
    return asked if sized is not None and asked is not None and asked > sized.load.hours_per_day else None


def configurations(
    knowledge: Knowledge,
    figures: SizingFigures,
    request: SizeRequest,
    tokens: tuple[int, int],
    plans: dict[str, ReplicaPlan],
) -> dict[str, ReplicaPerformance]:
    """One replica per GPU: of the GPU and cards the request fixes (the way published benchmarks fix the
    tensor-parallel size), else at the cards per replica a load is planned with, else the usual count."""
    found = {}
    for fit in figures.fits:
        if request.gpu is not None and fit.gpu != request.gpu:
            continue
        plan = plans.get(fit.gpu)
        cards = request.cards or (plan.cards_per_replica if plan else None)
        performance = replica_performance(knowledge, figures, fit, *tokens, cards=cards)
        if performance is not None:
            found[fit.gpu] = performance
    return found


def judged(
    knowledge: Knowledge,
    figures: SizingFigures,
    request: SizeRequest,
    tokens: tuple[int, int],
    sized: SizedLoad | None,
    evaluator: Evaluator | None,
) -> tuple[dict[str, ReplicaPlan], dict[str, ReplicaPerformance], list[Firing]]:
    """The replica plans and configurations of every GPU (of the one asked about), and the GPU-fit and
    latency rules' firings on them."""
    plans: dict[str, ReplicaPlan] = {}
    sizing = load_sizing(knowledge, sized, figures, request.model) if sized is not None else None
    if sized is not None and sizing is not None:
        # The cards per replica that carry the peak on the fewest cards, as a recommendation sizes them.
        plans = plans_by_gpu(knowledge, figures, sized.load, *tokens, sizing)
        if request.gpu is not None:
            plans = {gpu: plan for gpu, plan in plans.items() if gpu == request.gpu}
    # The latency rules judge a GPU at those counts, as recommend does; the cards asked about (--cards)
    # are the configuration shown, not what the GPU can do.
    judged_at = cards_key({gpu: plan.cards_per_replica for gpu, plan in plans.items()})
    if request.cards is not None:
        plans = {}
    performances = configurations(knowledge, figures, request, tokens, plans)
    if sized is not None and sizing is not None and request.cards is not None:
        # A service's replicas of fewer cards than the usual count carry at most what their KV cache
        # holds with room kept for full-context ones (``kv_held_rate``).
        fits, load = {fit.gpu: fit for fit in figures.fits}, sized.load
        # A batch's window holds each run's start too, as recommend sizes it (``batch_window.run_start``):
        # cards whose replicas finish no request in the window after it are not planned
        # (``calc.batch_window``; the sizing table's note says so).
        plans = {
            gpu: plan_replicas(
                p, load, sizing, kv_held_rate(knowledge, figures, fits[gpu], p, load, sizing), begun
            )
            for gpu, p in performances.items()
            if (begun := run_start_in_window(knowledge, figures, load, p, sizing)) is not None
        }
    if request.gpu is not None and request.gpu not in performances:
        held = f"the weights and one request of {tokens[0] + tokens[1]:,} tokens"
        if request.cards:
            raise InputError(f"cards: {request.cards} × {request.gpu} cannot hold {held}", field="cards")
        most = max(knowledge.sizing.card_counts.counts)
        light = next((f.gpus_for_light_load for f in figures.fits if f.gpu == request.gpu), None)
        if light is not None:
            # It holds a light load (``count_limits.below_usual_count``), at the cards asked for.
            concurrency = knowledge.throughput.concurrency
            raise InputError(
                f"gpu: no count of {request.gpu} up to {most} cards holds the usual "
                f"{concurrency.min_sequences_at_full_context} sequences of the full "
                f"{figures.context_tokens:,}-token context: --cards {light} evaluates the fewest "
                f"that hold {concurrency.min_sequences_under_light_load} of them",
                field="gpu",
            )
        raise InputError(f"gpu: no count of {request.gpu} up to {most} cards holds {held}", field="gpu")
    with (evaluator or rules_engine()).session() as session:
        # The cards each GPU runs on: its plan's, else those asked about (``--gpu X --cards N`` without a
        # load has no plan; the GPU-fit rules judge that count, not the usual one).
        chosen = {gpu: p.cards for gpu, p in performances.items()} if request.cards is not None else {}
        chosen.update({gpu: plan.cards_per_replica for gpu, plan in plans.items()})
        cards = cards_key(chosen)
        firings = assert_gpu_fits(session, figures, knowledge, WORKLOAD_SCENARIO, cards)
        if sized is not None:
            # The latency rules as recommend applies them: a GPU that misses a target others meet.
            unsuitable = ",".join(sorted(unsuitable_gpus(firings, rulebook_for(None))))
            targets = (sized.max_time_to_first_token_ms, sized.max_time_per_output_token_ms)
            facts = latency_fit_facts(
                knowledge, figures, *tokens, *targets, unsuitable, judged_at, EVERY_GPU, *sized.defaulted
            )
            firings += [firing for fact in facts for firing in session.assert_fact(fact)]
            # A batch: whether a run's replicas finish a request in its window on some GPU, as recommend
            # judges it.
            band = sizing.estimate_error_taken_off if sizing is not None else 0.0
            start = batch_start_fact(knowledge, figures, sized.load, *tokens, band)
            firings += session.assert_fact(start) if start is not None else []
    return plans, performances, firings
