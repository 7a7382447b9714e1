"""The advisor: workload facts in, a justified decision out.

The flow for ``recommend``: complete the workload from the knowledge base, size the model on every GPU,
assert the facts into the rules engine stage by stage (GPU fit, workload constraints, economics), carry
out the fired rules' conclusions and settle conflicts by declared precedence. ``size`` and ``tco`` are
the first steps on their own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from .adapter import Evaluator, FactSession, Firing, RulesEngine
from .calibration import calibration_rows, error_band
from .charts import api_versus_self_hosted, buy_versus_rent
from .costs import ServerAssumptions, break_even_utilization, own_hardware_cost
from .economics import (
    api_costs,
    choose_alternatives,
    economics_fact,
    own_hardware_position,
    per_gpu_hour,
    select_own_server,
)
from .facts import Fact, GpuFitFact, WorkloadFact
from .findings import cite, findings_for
from .identity_cache import per_object
from .knowledge import Citation, Knowledge, OwnServer, load_knowledge
from .options import PricedListing, build_options, cheapest_option, priced_listings, rule_exclusions
from .resolution import fired_rules, preferred_pricing, resolve_deployment, resolve_ruled_out, unsuitable_gpus
from .result import (
    ApiCost,
    BreakEven,
    Charts,
    Decision,
    DecisionSummary,
    Finding,
    GpuSizing,
    Option,
    OwnHardware,
    PriceDate,
    Recommendation,
    Resolution,
    SizeResult,
    TcoResult,
    TcoScenario,
    ThroughputAccuracy,
    UncheckedMeasurement,
    WorkloadSummary,
)
from .rulebook import ATTENTION_SEVERITIES, Rule, Rulebook, load_rulebook, load_rulebook_with_policies
from .sizing import SIZINGS_KEPT, GpuFit, SizingFigures, size_model
from .text import DEFAULT_FORMAT, Format
from .throughput import Load, ReplicaPlan, plans_by_gpu, workload_load
from .trusted import trusted
from .workload import ResolvedWorkload, Workload, context_for, resolve_workload

WORKLOAD_SCENARIO = "workload"
QUANTIZED_SCENARIO = "quantized"


@cache
def rules_engine(policy_dir: str | None = None) -> RulesEngine:
    """The process-wide engine for the catalog (plus an organization's policies): durable-rules hosts are
    built once, then reused for every evaluation."""
    rulebook = rulebook_for(policy_dir)
    return RulesEngine(rulebook, rulebook.threshold_values(load_knowledge()))


def rulebook_for(policy_dir: str | None) -> Rulebook:
    return load_rulebook() if policy_dir is None else load_rulebook_with_policies(policy_dir)


# --- size --------------------------------------------------------------------------------------------


def gpu_fit_fact(
    fit: GpuFit, figures: SizingFigures, knowledge: Knowledge, scenario: str, reference: GpuFit
) -> GpuFitFact:
    """``reference``: the fit on the reference GPU, which every GPU's fact compares itself with."""
    gpu = knowledge.gpu(fit.gpu)
    node_gpus = knowledge.sizing.card_counts.node_gpus
    native = figures.precision != "fp8" or gpu.fp8_dense_tflops is not None
    return GpuFitFact(
        scenario=scenario,
        gpu=fit.gpu,
        vendor=gpu.vendor,
        interconnect=fit.interconnect,
        segment=fit.segment,
        memory_gb=float(fit.memory_gb),
        weights_gb=float(figures.weights_gb),
        gpus_for_weights=fit.gpus_for_weights or 0,
        gpus_with_kv_reserve=fit.gpus_with_kv_reserve or 0,
        multi_card=fit.multi_card,
        fits=fit.gpus_with_kv_reserve is not None,
        needs_two_nodes=fit.gpus_for_weights is None or fit.gpus_for_weights > node_gpus,
        node_memory_gb=float(node_gpus * fit.memory_gb),
        native_precision=native,
        reference_gpus=reference.gpus_with_kv_reserve or 0,
    )


@per_object(entries=2 * SIZINGS_KEPT)  # a sizing serves as given and as a quantized variant
def gpu_fit_facts(knowledge: Knowledge, figures: SizingFigures, scenario: str, /) -> tuple[GpuFitFact, ...]:
    """The GPU-fit facts of one sizing, in catalog order: the same for every workload with this sizing,
    so built and validated once (facts are frozen). The engine still evaluates them in every session."""
    reference = next(f for f in figures.fits if f.gpu == knowledge.sizing.reference_gpu.gpu)
    return tuple(gpu_fit_fact(fit, figures, knowledge, scenario, reference) for fit in figures.fits)


def assert_gpu_fits(
    session: FactSession, figures: SizingFigures, knowledge: Knowledge, scenario: str
) -> list[Firing]:
    return [
        firing for fact in gpu_fit_facts(knowledge, figures, scenario) for firing in session.assert_fact(fact)
    ]


def sizing_rows(
    figures: SizingFigures, unsuitable: dict[str, list[str]], plans: dict[str, ReplicaPlan]
) -> tuple[GpuSizing, ...]:
    rows = []
    for fit in figures.fits:
        blocked = tuple(unsuitable.get(fit.gpu, ()))
        plan = None if blocked else plans.get(fit.gpu)
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
                kv_headroom_gb=fit.kv_headroom_gb,
                kv_tokens_capacity=fit.kv_tokens_capacity,
                not_recommended_by=blocked,
                replicas=plan.replicas if plan else None,
                gpus_total=plan.gpus if plan else None,
                requests_per_second_per_replica=plan.requests_per_second_per_replica if plan else None,
                output_tokens_per_second_per_replica=plan.output_tokens_per_second_per_replica
                if plan
                else None,
                utilization=plan.utilization if plan else None,
                time_to_first_token_ms=plan.time_to_first_token_ms if plan else None,
                time_per_output_token_ms=plan.time_per_output_token_ms if plan else None,
            )
        )
    return tuple(rows)


def size_result(
    figures: SizingFigures,
    model_id: str | None,
    firings: Sequence[Firing],
    knowledge: Knowledge,
    load: Load | None,
    plans: dict[str, ReplicaPlan],
    rulebook: Rulebook | None = None,
    fmt: Format = DEFAULT_FORMAT,
    findings: tuple[Finding, ...] | None = None,
) -> SizeResult:
    """The sizing part of a result; ``findings`` when the caller rendered them already."""
    rulebook = rulebook or load_rulebook()
    return SizeResult(
        model=model_id,
        params_b=figures.params_b,
        active_params_b=figures.active_params_b,
        precision=figures.precision,
        bytes_per_parameter=figures.bytes_per_parameter,
        weights_gb=figures.weights_gb,
        kv_bytes_per_token=figures.kv_bytes_per_token,
        kv_bytes_per_token_used=figures.kv_bytes_per_token_used,
        kv_estimated_from=figures.kv_estimated_from,
        context_tokens=figures.context_tokens,
        min_sequences_at_full_context=knowledge.throughput.concurrency.min_sequences_at_full_context,
        load=load,
        gpus=sizing_rows(figures, unsuitable_gpus(firings, rulebook), plans),
        findings=findings if findings is not None else findings_for(firings, rulebook, knowledge, fmt),
    )


class LoadInput(BaseModel):
    """The load ``size`` can be given to show replicas per GPU; fields left out take the defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    requests_per_day: int = Field(gt=0)
    avg_input_tokens: int = Field(gt=0)
    avg_output_tokens: int = Field(gt=0)
    load_pattern: str
    schedule: str


def size(
    *,
    precision: str,
    model_id: str | None = None,
    params_b: float | None = None,
    active_params_b: float | None = None,
    context_tokens: int | None = None,
    load_input: LoadInput | None = None,
    evaluator: Evaluator | None = None,
) -> SizeResult:
    """Card counts per GPU for one model, with the sizing and interconnect rules applied; with a load,
    the replicas each GPU needs for its peak."""
    knowledge = load_knowledge()
    catalog = knowledge.model(model_id) if model_id is not None else None
    total = params_b if params_b is not None else catalog.params_b  # type: ignore[union-attr]
    active = (
        active_params_b
        if active_params_b is not None
        else (catalog.active_params_b if catalog is not None and params_b is None else total)
    )
    defaults = knowledge.workload_default_values()
    context = context_tokens or int(defaults["context_tokens"])
    context = context_for(
        load_input.avg_input_tokens if load_input else 0,
        load_input.avg_output_tokens if load_input else 0,
        context,
        context_tokens is not None,
        catalog,
    )
    figures = size_model(knowledge, total, active, precision, catalog, context)
    load = None
    plans: dict[str, ReplicaPlan] = {}
    if load_input is not None:
        schedule = knowledge.schedule(load_input.schedule)
        load = workload_load(
            knowledge,
            load_input.requests_per_day,
            schedule,
            schedule.hours_per_month,
            load_input.load_pattern,
            load_input.avg_input_tokens,
            load_input.avg_output_tokens,
        )
        plans = plans_by_gpu(
            knowledge, figures, load, load_input.avg_input_tokens, load_input.avg_output_tokens
        )
    with (evaluator or rules_engine()).session() as session:
        firings = assert_gpu_fits(session, figures, knowledge, WORKLOAD_SCENARIO)
    return size_result(figures, model_id, firings, knowledge, load, plans)


# --- tco ---------------------------------------------------------------------------------------------


def tco(overrides: dict[str, float] | None = None, knowledge: Knowledge | None = None) -> TcoResult:
    """Own 8-GPU server cost per GPU-hour in three lines, and break-even utilization against every
    catalog offer of the same GPU. ``overrides`` replaces any ``ServerAssumptions`` field."""
    knowledge = knowledge or load_knowledge()
    server = knowledge.own_server()
    defaults = ServerAssumptions.from_server(server)
    overrides = {key: value for key, value in (overrides or {}).items() if value is not None}
    assumptions = defaults.model_copy(update=overrides)
    assumptions = ServerAssumptions.model_validate(assumptions.model_dump())
    cost = own_hardware_cost(assumptions)
    lines = per_gpu_hour(assumptions)
    break_even = tuple(
        BreakEven(
            provider=offer.provider,
            offer=offer.offer,
            gpu=offer.gpu,
            pricing=offer.pricing,
            usd_per_gpu_hour=offer.usd_per_gpu_hour,
            utilization=break_even_utilization(cost.total, offer.usd_per_gpu_hour),
            as_of=offer.as_of,
        )
        for offer in sorted(
            (o for o in knowledge.offers.offers if o.gpu == server.gpu),
            key=lambda o: (o.usd_per_gpu_hour, o.provider, o.offer),
        )
    )
    scenarios = tuple(
        TcoScenario(
            name=name,
            server_price_usd=price,
            residual=residual,
            usd_per_gpu_hour=per_gpu_hour(
                assumptions.model_copy(update={"server_price_usd": price, "residual": residual})
            ),
        )
        for name, price, residual in (
            ("low price", server.price_usd_low, assumptions.residual),
            ("high price", server.price_usd_high, assumptions.residual),
            ("residual value", assumptions.server_price_usd, server.residual_share_scenario),
        )
    )
    return TcoResult(
        server=server.id,
        gpu=server.gpu,
        server_price_usd=assumptions.server_price_usd,
        gpus_per_server=assumptions.gpus_per_server,
        months=assumptions.months,
        hours_per_month=assumptions.hours_per_month,
        hours_written_off=cost.hours_written_off,
        gpu_watts=assumptions.gpu_watts,
        power_overhead=assumptions.power_overhead,
        node_kw=cost.node_kw,
        usd_per_kwh=assumptions.usd_per_kwh,
        rack_usd_per_month=assumptions.rack_usd_per_month,
        residual=assumptions.residual,
        power_usd_per_month=cost.power_usd_per_month,
        server_usd_per_month=cost.server_usd_per_month,
        usd_per_gpu_hour=lines,
        break_even=break_even,
        scenarios=scenarios,
        overridden=tuple(sorted(overrides)),
        source=cite(server.source, knowledge),
        as_of=server.as_of,
    )


# --- recommend ---------------------------------------------------------------------------------------


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


def workload_summary(resolved: ResolvedWorkload) -> WorkloadSummary:
    fields = set(WorkloadSummary.model_fields) - {"model"}
    return WorkloadSummary(model=resolved.model_id, **{name: getattr(resolved, name) for name in fields})


def price_dates(
    knowledge: Knowledge, options: Sequence[Option], apis: Sequence[ApiCost]
) -> tuple[PriceDate, ...]:
    """The dated sources of every price the result shows: offers considered, API prices, the own-server
    lines and the exchange rate. Entries of one source and date are listed once."""
    sources = dated_sources(knowledge)
    used = {sources.offers[o.provider, o.offer, o.gpu] for o in options}
    used.update(sources.apis[a.api] for a in apis)
    used.update(sources.always)
    return tuple(sorted(used, key=lambda p: (p.as_of, p.document, p.used_for)))


@dataclass(frozen=True)
class DatedSources:
    """The dated source of every price in the knowledge base, one ``PriceDate`` per source, date and use."""

    offers: dict[tuple[str, str, str], PriceDate]
    """(provider, offer, GPU) -> its source."""
    apis: dict[str, PriceDate]
    always: tuple[PriceDate, ...]
    """The own-server lines and the exchange rate, which every result shows."""


@per_object
def dated_sources(knowledge: Knowledge) -> DatedSources:
    """The dated source of every offer and API price and of the lines every result shows, worked out
    once per knowledge base (a source's title: the document's, else the citation's first title)."""
    made: dict[tuple[str, dt.date, str], PriceDate] = {}

    def dated(citation: Citation, as_of: dt.date, used_for: str) -> PriceDate:
        document = citation.document or citation.url or ""
        key = (document, as_of, used_for)
        if key not in made:
            title = knowledge.document(citation.document).title if citation.document else citation.title
            made[key] = PriceDate(document=document, title=title or document, as_of=as_of, used_for=used_for)
        return made[key]

    server = knowledge.own_server()
    rate = knowledge.eur_to_usd()
    return DatedSources(
        offers={
            (o.provider, o.offer, o.gpu): dated(o.source, o.as_of, "GPU offers")
            for o in knowledge.offers.offers
        },
        apis={a.id: dated(a.source, a.as_of, "managed API prices") for a in knowledge.api_prices.apis},
        always=(
            dated(server.source, server.as_of, "own-server cost lines"),
            dated(rate.source, rate.as_of, "EUR/USD exchange rate"),
        ),
    )


@per_object
def residency_rule_ids(rulebook: Rulebook) -> frozenset[str]:
    return frozenset(rule.id for rule in rulebook.rules if rule.topic == "residency")


def derived_utilization(
    resolved: ResolvedWorkload, best: Option | None, plans: dict[str, ReplicaPlan], knowledge: Knowledge
) -> tuple[float, str]:
    """The utilization the rules read: the input's, else the load on the cheapest admitted option's
    replicas, else (no option) on the reference GPU's, else the load pattern's assumption."""
    if resolved.utilization is not None:
        return resolved.utilization, "input"
    if best is not None:
        return best.utilization, "derived"
    reference = plans.get(knowledge.sizing.reference_gpu.gpu)
    if reference is not None:
        return reference.utilization, "derived"
    return resolved.fallback_utilization(knowledge), "load_pattern_default"


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


@cache
def throughput_accuracy() -> ThroughputAccuracy:
    """The calibration band of the shipped knowledge base, computed once per process."""
    rows = calibration_rows(load_knowledge())
    low, high = error_band(rows)
    unchecked = tuple(
        UncheckedMeasurement(id=r.id, published=r.published, metric=r.metric, error=r.error)
        for r in rows
        if r.tolerance is None and r.error is not None
    )
    return ThroughputAccuracy(
        lowest_error=low,
        highest_error=high,
        measurements=sum(r.tolerance is not None for r in rows),
        unchecked=unchecked,
    )


@dataclass(frozen=True)
class Evaluation:
    """Everything one evaluation worked out: what checks judge a proposal against, and what the full
    result is built from."""

    knowledge: Knowledge
    rulebook: Rulebook
    resolved: ResolvedWorkload
    figures: SizingFigures
    plans: dict[str, ReplicaPlan]
    unsuitable: dict[str, list[str]]
    rules: list[Rule]
    resolution: Resolution
    decision: Decision
    server: OwnServer
    evaluated_on: dt.date
    firings: tuple[Firing, ...]
    """Every firing of the GPU-fit, workload and economics stages, in firing order."""
    load: Load
    priced: tuple[PricedListing, ...]
    """Every priced listing, cheapest first: the result's options are built from these."""
    best_listing: PricedListing | None
    """The listing of ``priced`` that ``best`` was made of."""
    best: Option | None
    apis: tuple[ApiCost, ...]
    compared_api: ApiCost | None
    own: OwnHardware


ProposalHook = Callable[[Evaluation], Fact]


def recommend(
    workload: Workload,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
    fmt: Format = DEFAULT_FORMAT,
) -> Recommendation:
    """The full decision for one workload. ``evaluated_on`` dates the evaluation (price ages);
    ``evaluator`` defaults to the process-wide durable-rules engine; ``knowledge`` to the shipped
    knowledge base (pass a modified copy for the user's own prices or a sweep; rule thresholds are
    compiled into the engine, so a copy with other thresholds needs its own evaluator); ``policy_dir``
    adds an organization's rules; ``fmt`` sets the language and currency of the finding texts."""
    return evaluate(workload, evaluated_on, evaluator, knowledge, policy_dir, fmt=fmt)[0]


def decide_workload(
    workload: Workload,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
) -> DecisionSummary:
    """The decision of ``recommend`` with the rules that fired, without rendering the findings or
    building the tables: for callers that show only the decision (batch tables, sweeps)."""
    evaluation, _ = evaluate_decision(workload, evaluated_on, evaluator, knowledge, policy_dir)
    return DecisionSummary(
        workload=workload.name,
        decision=evaluation.decision,
        fired_rules=tuple(rule.id for rule in evaluation.rules),
        attention=attention_rule_ids(evaluation.rules),
    )


def attention_rule_ids(rules: Sequence[Rule]) -> tuple[str, ...]:
    """The fired rules (in catalog order) whose findings need attention: critical or warning."""
    return tuple(rule.id for rule in rules if rule.severity in ATTENTION_SEVERITIES)


def evaluate(
    workload: Workload,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
    proposal: ProposalHook | None = None,
    fmt: Format = DEFAULT_FORMAT,
) -> tuple[Recommendation, list[Firing], Evaluation]:
    """``recommend``, plus the firings of a proposal fact built by ``proposal`` from the evaluation and
    asserted last in the same session."""
    evaluation, proposal_firings = evaluate_decision(
        workload, evaluated_on, evaluator, knowledge, policy_dir, proposal
    )
    return recommendation_from(evaluation, fmt), proposal_firings, evaluation


def evaluate_decision(
    workload: Workload,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
    proposal: ProposalHook | None = None,
) -> tuple[Evaluation, list[Firing]]:
    """The rules engine's part of a recommendation: every stage up to the decision, and the proposal
    stage of a check. Nothing here renders text."""
    knowledge = knowledge or load_knowledge()
    rulebook = rulebook_for(policy_dir)
    evaluator = evaluator or rules_engine(policy_dir)
    resolved = resolve_workload(workload, knowledge)
    model = resolved.model_config_entry
    tokens = (resolved.avg_input_tokens, resolved.avg_output_tokens)
    figures = size_model(
        knowledge,
        resolved.params_b,
        resolved.active_params_b,
        resolved.precision,
        model,
        resolved.context_tokens,
    )
    quantized_precision = knowledge.sizing.quantization_steps.steps.get(resolved.precision)
    quantized = (
        size_model(
            knowledge,
            resolved.params_b,
            resolved.active_params_b,
            quantized_precision,
            model,
            resolved.context_tokens,
        )
        if quantized_precision
        else None
    )
    load = workload_load_for(resolved, knowledge)
    plans = plans_by_gpu(knowledge, figures, load, *tokens)
    quantized_plans = plans_by_gpu(knowledge, quantized, load, *tokens) if quantized else {}
    apis = api_costs(knowledge, resolved)
    compared_api = next((a for a in apis if a.compared), None)
    hours = resolved.hours_per_month

    with evaluator.session() as session:
        # Stage 1: which GPUs may serve a replica, as given and one quantization step down.
        firings = assert_gpu_fits(session, figures, knowledge, WORKLOAD_SCENARIO)
        quantized_firings = (
            assert_gpu_fits(session, quantized, knowledge, QUANTIZED_SCENARIO) if quantized else []
        )
        # Stage 2: the workload's own constraints.
        firings += session.assert_fact(workload_fact(resolved, figures, knowledge))
        constraint_rules = fired_rules(firings, rulebook)
        unsuitable = unsuitable_gpus(firings, rulebook)
        pricing = preferred_pricing(constraint_rules)
        preferred = pricing[0] if pricing else None
        exclusions = rule_exclusions(knowledge, constraint_rules)
        priced = priced_listings(knowledge, unsuitable, exclusions, plans, hours)
        quantized_unsuitable = unsuitable_gpus(quantized_firings, rulebook)
        quantized_best = cheapest_option(
            priced_listings(knowledge, quantized_unsuitable, exclusions, quantized_plans, hours), preferred
        )
        server = select_own_server(knowledge, plans, unsuitable)
        alternatives = choose_alternatives(
            knowledge,
            server,
            priced,
            preferred,
            residency_rule_ids(rulebook),
            quantized_best,
            quantized_precision,
            quantized.weights_gb if quantized else 0.0,
        )
        utilization, source = derived_utilization(resolved, alternatives.best, plans, knowledge)
        resolved = resolved.model_copy(update={"utilization": utilization, "utilization_source": source})
        own = own_hardware_position(server, plans, unsuitable, resolved, alternatives.rent_against)
        # Stage 3: economics over the options the constraints left.
        # A rule that already ruled serverless out (residency, an organization's policy) keeps its
        # estimate out of the API comparison.
        serverless_ruled_out = "serverless" in resolve_ruled_out(constraint_rules)
        economics = economics_fact(
            knowledge,
            server,
            resolved,
            alternatives,
            compared_api,
            own,
            evaluated_on,
            serverless_ruled_out=serverless_ruled_out,
        )
        firings += session.assert_fact(economics)
        rules = fired_rules(firings, rulebook)
        resolution = resolve_deployment(rules)
        winner = next(p for p in resolution.proposals if p.status == "won")
        best = alternatives.best
        if best is not None:
            best = best.model_copy(update={"chosen": winner.deployment == "dedicated_cloud"})
        chosen = best if best is not None and best.chosen else None
        # The serverless estimate needs a dedicated price to scale; without an option there is none.
        serverless = economics.serverless_usd_per_month if alternatives.best is not None else None
        break_even = knowledge.threshold("serverless_break_even_utilization").value
        decision = decision_for(
            winner.deployment, winner.rule_id, chosen, compared_api, own, serverless, break_even
        )
        evaluation = Evaluation(
            knowledge=knowledge,
            rulebook=rulebook,
            resolved=resolved,
            figures=figures,
            plans=plans,
            unsuitable=unsuitable,
            rules=rules,
            resolution=resolution,
            decision=decision,
            server=server,
            evaluated_on=evaluated_on,
            firings=tuple(firings),
            load=load,
            priced=tuple(priced),
            best_listing=alternatives.best_listing,
            best=best,
            apis=apis,
            compared_api=compared_api,
            own=own,
        )
        # Stage 4 (check only): the proposal against everything above.
        proposal_firings = session.assert_fact(proposal(evaluation)) if proposal is not None else []
    return evaluation, proposal_firings


def recommendation_from(evaluation: Evaluation, fmt: Format = DEFAULT_FORMAT) -> Recommendation:
    """The full result of an evaluation: findings rendered in ``fmt``, sizing table, options, price
    dates and chart data."""
    e = evaluation
    knowledge, best, plans = e.knowledge, e.best, e.plans
    options = build_options(
        e.priced, (e.best_listing, best) if e.best_listing is not None and best is not None else None
    )
    gpu_fit_firings = [f for f in e.firings if f.fact["kind"] == "gpu_fit"]
    findings = findings_for(e.firings, e.rulebook, knowledge, fmt)
    # The GPU findings are the ones with a subject; rendering them twice would only cost time.
    gpu_findings = tuple(f for f in findings if f.subject is not None)
    return Recommendation(
        evaluated_on=e.evaluated_on,
        workload=workload_summary(e.resolved),
        decision=e.decision,
        resolution=e.resolution,
        sizing=size_result(
            e.figures,
            e.resolved.model_id,
            gpu_fit_firings,
            knowledge,
            e.load,
            plans,
            e.rulebook,
            fmt,
            gpu_findings,
        ),
        load=e.load,
        throughput_accuracy=throughput_accuracy(),
        replicas=best.replicas if best is not None else None,
        options=options,
        best_option=best,
        api_costs=e.apis,
        own_hardware=e.own,
        findings=findings,
        fired_rules=tuple(rule.id for rule in e.rules),
        price_dates=price_dates(knowledge, options, e.apis),
        charts=Charts(
            buy_versus_rent=buy_versus_rent(e.own, e.own.rent_usd_per_gpu_hour),
            api_versus_self_hosted=api_versus_self_hosted(
                e.compared_api,
                best,
                plans[best.gpu].requests_per_second_per_replica if best is not None else None,
                e.load,
                e.resolved.requests_per_day,
            ),
        ),
        exchange_rate_usd_per_eur=knowledge.eur_to_usd().rate,
        exchange_rate_as_of=knowledge.eur_to_usd().as_of,
    )


def decision_for(
    deployment: str,
    rule_id: str,
    chosen: Option | None,
    compared_api: ApiCost | None,
    own: OwnHardware,
    serverless_usd_per_month: float | None = None,
    serverless_break_even: float | None = None,
) -> Decision:
    if deployment == "dedicated_cloud" and chosen is not None:
        return Decision(
            deployment="dedicated_cloud",
            pricing=chosen.pricing,
            provider=chosen.provider,
            offer=chosen.offer,
            gpu=chosen.gpu,
            gpus=chosen.gpus,
            usd_per_month=chosen.usd_per_month,
            deciding_rule_id=rule_id,
        )
    if deployment == "own_hardware" and not own.applicable:
        # No catalog hardware holds the model: the decision names no server, count or price.
        return Decision(
            deployment="own_hardware",
            pricing=None,
            provider=None,
            offer=None,
            gpu=None,
            gpus=None,
            usd_per_month=None,
            deciding_rule_id=rule_id,
        )
    if deployment == "own_hardware":
        return Decision(
            deployment="own_hardware",
            pricing=None,
            provider=None,
            offer=own.server,
            gpu=own.gpu,
            gpus=own.nodes * own.gpus_per_server,
            usd_per_month=own.usd_per_month,
            deciding_rule_id=rule_id,
        )
    if deployment == "api":
        return Decision(
            deployment="api",
            pricing=None,
            provider=None,
            offer=compared_api.api if compared_api else None,
            gpu=None,
            gpus=None,
            usd_per_month=compared_api.usd_per_month if compared_api else None,
            deciding_rule_id=rule_id,
        )
    estimated = serverless_usd_per_month if deployment == "serverless" else None
    return Decision(
        deployment=deployment,  # type: ignore[arg-type]
        pricing=None,
        provider=None,
        offer=None,
        gpu=None,
        gpus=None,
        usd_per_month=estimated,
        cost_is_estimate=estimated is not None,
        estimate_break_even_utilization=serverless_break_even if estimated is not None else None,
        deciding_rule_id=rule_id,
    )
