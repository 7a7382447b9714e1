"""The advisor: workload facts in, a justified decision out.

The flow for ``recommend``: complete the workload from the knowledge base, size the model on every GPU,
assert the facts into the rules engine stage by stage (GPU fit, workload constraints, economics), carry
out the fired rules' conclusions and settle conflicts by declared precedence. ``size`` and ``tco`` are
the first two steps on their own.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from .adapter import Evaluator, Firing, RulesEngine
from .costs import (
    ServerAssumptions,
    api_usd_per_month,
    break_even_utilization,
    own_hardware_cost,
    rent,
)
from .facts import EconomicsFact, GpuFitFact, WorkloadFact
from .knowledge import Citation, Knowledge, Offer, load_knowledge
from .resolution import (
    excluded_by,
    fired_rules,
    option_filters,
    preferred_pricing,
    resolve_deployment,
    unsuitable_gpus,
)
from .result import (
    ApiCost,
    BreakEven,
    Decision,
    Finding,
    GpuSizing,
    Option,
    OwnHardware,
    PriceDate,
    Recommendation,
    SizeResult,
    TcoResult,
    TcoScenario,
    UsdPerGpuHour,
    WorkloadSummary,
)
from .rulebook import Rule, Rulebook, load_rulebook
from .sizing import GpuFit, SizingFigures, size_model
from .text import render_message
from .workload import ResolvedWorkload, Workload, resolve_workload


@cache
def rules_engine() -> RulesEngine:
    """The process-wide engine: durable-rules hosts are built once, then reused for every evaluation."""
    return RulesEngine(load_rulebook(), load_knowledge().threshold_values())


# --- citations and findings --------------------------------------------------------------------------


def cite(citation: Citation, knowledge: Knowledge) -> str:
    if citation.document is not None:
        document = knowledge.document(citation.document)
        return f"{document.title} ({document.as_of.isoformat()}), {citation.section}"
    return f"{citation.title or citation.url} <{citation.url}>" if citation.title else str(citation.url)


def message_context(fact: dict[str, Any], knowledge: Knowledge) -> dict[str, Any]:
    return {**fact, "t": knowledge.threshold_values(), "k": {"server": knowledge.own_server()}}


def findings_for(firings: Sequence[Firing], rulebook: Rulebook, knowledge: Knowledge) -> tuple[Finding, ...]:
    """One finding per firing, in catalog order of the rules (firing order within a rule)."""
    order = {rule_id: index for index, rule_id in enumerate(rulebook.ids)}
    ordered = sorted(enumerate(firings), key=lambda pair: (order[pair[1].rule_id], pair[0]))
    findings = []
    for _, firing in ordered:
        rule = rulebook.rule(firing.rule_id)
        findings.append(
            Finding(
                rule_id=rule.id,
                subject=str(firing.fact["gpu"]) if rule.fact == "gpu_fit" else None,
                topic=rule.topic,
                severity=rule.severity,
                title=rule.title,
                message=render_message(rule.message, message_context(dict(firing.fact), knowledge)),
                rationale=" ".join(rule.rationale.split()),
                source=cite(rule.source, knowledge),
            )
        )
    return tuple(findings)


# --- size --------------------------------------------------------------------------------------------


def gpu_fit_fact(fit: GpuFit, weights_gb: float) -> GpuFitFact:
    return GpuFitFact(
        gpu=fit.gpu,
        interconnect=fit.interconnect,
        segment=fit.segment,
        memory_gb=float(fit.memory_gb),
        weights_gb=float(weights_gb),
        gpus_for_weights=fit.gpus_for_weights or 0,
        gpus_with_kv_reserve=fit.gpus_with_kv_reserve or 0,
        multi_card=fit.multi_card,
        fits=fit.gpus_with_kv_reserve is not None,
    )


def sizing_rows(figures: SizingFigures, unsuitable: dict[str, list[str]]) -> tuple[GpuSizing, ...]:
    rows = []
    for fit in figures.fits:
        blocked = tuple(unsuitable.get(fit.gpu, ()))
        rows.append(
            GpuSizing(
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
            )
        )
    return tuple(rows)


def size_result(
    figures: SizingFigures, model_id: str | None, firings: Sequence[Firing], knowledge: Knowledge
) -> SizeResult:
    rulebook = load_rulebook()
    return SizeResult(
        model=model_id,
        params_b=figures.params_b,
        active_params_b=figures.active_params_b,
        precision=figures.precision,
        bytes_per_parameter=figures.bytes_per_parameter,
        weights_gb=figures.weights_gb,
        kv_bytes_per_token=figures.kv_bytes_per_token,
        gpus=sizing_rows(figures, unsuitable_gpus(firings, rulebook)),
        findings=findings_for(firings, rulebook, knowledge),
    )


def size(
    *,
    precision: str,
    model_id: str | None = None,
    params_b: float | None = None,
    active_params_b: float | None = None,
    evaluator: Evaluator | None = None,
) -> SizeResult:
    """Card counts per GPU for one model, with the sizing and interconnect rules applied."""
    knowledge = load_knowledge()
    catalog = knowledge.model(model_id) if model_id is not None else None
    total = params_b if params_b is not None else catalog.params_b  # type: ignore[union-attr]
    active = (
        active_params_b
        if active_params_b is not None
        else (catalog.active_params_b if catalog is not None and params_b is None else total)
    )
    figures = size_model(knowledge, total, active, precision, catalog)
    with (evaluator or rules_engine()).session() as session:
        firings = [
            f for fit in figures.fits for f in session.assert_fact(gpu_fit_fact(fit, figures.weights_gb))
        ]
    return size_result(figures, model_id, firings, knowledge)


# --- tco ---------------------------------------------------------------------------------------------


def per_gpu_hour(assumptions: ServerAssumptions) -> UsdPerGpuHour:
    cost = own_hardware_cost(assumptions)
    return UsdPerGpuHour(capital=cost.capital, power=cost.power, rack=cost.rack, total=cost.total)


def tco(overrides: dict[str, float] | None = None) -> TcoResult:
    """Own 8-GPU server cost per GPU-hour in three lines, and break-even utilization against every
    catalog offer of the same GPU. ``overrides`` replaces any ``ServerAssumptions`` field."""
    knowledge = load_knowledge()
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


def workload_fact(resolved: ResolvedWorkload, weights_gb: float, knowledge: Knowledge) -> WorkloadFact:
    restricted = {c.country for c in knowledge.export_control.restricted_countries}
    return WorkloadFact(
        requests_per_day=resolved.requests_per_day,
        load_pattern=resolved.load_pattern,
        schedule=resolved.schedule,
        hours_per_month=float(resolved.hours_per_month),
        utilization=float(resolved.utilization),
        latency_sensitive=resolved.latency_sensitive,
        personal_data=resolved.personal_data,
        on_premises_required=resolved.on_premises_required,
        model_stable=resolved.model_stable,
        custom_weights=resolved.custom_weights,
        company_country=resolved.company_country,
        export_restricted_country=resolved.company_country in restricted,
        precision=resolved.precision,
        params_b=float(resolved.params_b),
        active_params_b=float(resolved.active_params_b),
        is_moe=resolved.is_moe,
        weights_gb=float(weights_gb),
    )


def option_attributes(offer: Offer, knowledge: Knowledge) -> dict[str, Any]:
    provider = knowledge.provider(offer.provider)
    gpu = knowledge.gpu(offer.gpu)
    return {
        "eu": knowledge.offer_is_eu(offer),
        "pricing": offer.pricing,
        "interconnect": gpu.interconnect,
        "provider_kind": provider.kind,
        "enterprise_sla": provider.enterprise_sla,
        "segment": gpu.segment,
    }


def build_options(
    knowledge: Knowledge,
    figures: SizingFigures,
    unsuitable: dict[str, list[str]],
    rules: Sequence[Rule],
    replicas: int,
    hours_per_month: float,
) -> list[Option]:
    """Every catalog offer whose GPU can hold the model, priced for this workload, with the IDs of the
    rules that exclude it. Nothing is chosen yet."""
    fits = {fit.gpu: fit for fit in figures.fits}
    filters = option_filters(rules)
    options = []
    for offer in knowledge.offers.offers:
        fit = fits[offer.gpu]
        if fit.gpus_with_kv_reserve is None:
            continue
        attributes = option_attributes(offer, knowledge)
        gpus = fit.gpus_with_kv_reserve * replicas
        rental = rent(offer, gpus, hours_per_month, knowledge.schedule("always").hours_per_month)
        options.append(
            Option(
                provider=offer.provider,
                offer=offer.offer,
                gpu=offer.gpu,
                gpus=gpus,
                gpus_rented=rental.gpus_rented,
                replicas=replicas,
                usd_per_gpu_hour=offer.usd_per_gpu_hour,
                usd_per_hour=rental.usd_per_hour,
                billed_hours_per_month=rental.billed_hours_per_month,
                usd_per_month=rental.usd_per_month,
                eu=attributes["eu"],
                jurisdictions=tuple(sorted(set(knowledge.offer_jurisdictions(offer)))),
                pricing=offer.pricing,
                interconnect=attributes["interconnect"],
                provider_kind=attributes["provider_kind"],
                enterprise_sla=attributes["enterprise_sla"],
                chosen=False,
                excluded_by=tuple(unsuitable.get(offer.gpu, [])) + tuple(excluded_by(attributes, filters)),
                as_of=offer.as_of,
                source=cite(offer.source, knowledge),
            )
        )
    return sorted(options, key=option_order)


def option_order(option: Option) -> tuple[Any, ...]:
    return (option.usd_per_month, option.provider, option.offer, option.gpu)


def best_option(
    options: Sequence[Option], preferred: tuple[str, str] | None, gpu: str | None = None
) -> Option | None:
    """The cheapest eligible option, within the preferred pricing kind when any eligible option has it."""
    eligible = [o for o in options if not o.excluded_by and (gpu is None or o.gpu == gpu)]
    if preferred is not None:
        within = [o for o in eligible if o.pricing == preferred[0]]
        eligible = within or eligible
    return min(eligible, key=option_order, default=None)


def api_costs(knowledge: Knowledge, resolved: ResolvedWorkload) -> tuple[ApiCost, ...]:
    usd_per_eur = knowledge.eur_to_usd().rate
    costs = []
    for api in knowledge.api_prices.apis:
        monthly = api_usd_per_month(
            api,
            resolved.requests_per_day,
            resolved.days_per_month,
            resolved.avg_input_tokens,
            resolved.avg_output_tokens,
            usd_per_eur,
        )
        requests = resolved.requests_per_day * resolved.days_per_month
        costs.append(
            ApiCost(
                api=api.id,
                name=api.name,
                kind=api.kind,
                currency=api.currency,
                usd_per_month=monthly,
                usd_per_request=monthly / requests if requests else 0.0,
                as_of=api.as_of,
                compared=api.kind == "open_weights_hosted",
            )
        )
    return tuple(costs)


def own_hardware_position(
    knowledge: Knowledge,
    figures: SizingFigures,
    unsuitable: dict[str, list[str]],
    resolved: ResolvedWorkload,
    replicas: int,
    rent_against: Option | None,
) -> OwnHardware:
    server = knowledge.own_server()
    assumptions = ServerAssumptions.from_server(server)
    cost = own_hardware_cost(assumptions)
    fit = next(f for f in figures.fits if f.gpu == server.gpu)
    applicable = fit.gpus_with_kv_reserve is not None and server.gpu not in unsuitable
    gpus_needed = (fit.gpus_with_kv_reserve or 0) * replicas
    nodes = max(1, math.ceil(gpus_needed / server.gpus_per_server))
    busy_gpu_hours = gpus_needed * resolved.utilization * resolved.hours_per_month
    node_utilization = busy_gpu_hours / (nodes * server.gpus_per_server * server.hours_per_month)
    return OwnHardware(
        applicable=applicable,
        server=server.id,
        gpu=server.gpu,
        nodes=nodes,
        gpus_needed=gpus_needed,
        node_utilization=node_utilization,
        usd_per_gpu_hour=per_gpu_hour(assumptions),
        usd_per_month=nodes * cost.server_usd_per_month,
        break_even_utilization=(
            break_even_utilization(cost.total, rent_against.usd_per_gpu_hour) if rent_against else None
        ),
        compared_with=f"{rent_against.provider}/{rent_against.offer}" if rent_against else None,
    )


def economics_fact(
    resolved: ResolvedWorkload,
    best: Option | None,
    compared_api: ApiCost | None,
    own: OwnHardware,
    rent_against: Option | None,
    evaluated_on: dt.date,
    server_gpus: int,
) -> EconomicsFact:
    return EconomicsFact(
        requests_per_day=resolved.requests_per_day,
        load_pattern=resolved.load_pattern,
        utilization=float(resolved.utilization),
        model_stable=resolved.model_stable,
        on_premises_required=resolved.on_premises_required,
        has_eligible_option=best is not None,
        best_option_usd_per_month=float(best.usd_per_month) if best else 0.0,
        best_option_price_age_days=(evaluated_on - best.as_of).days if best else 0,
        api_priced=compared_api is not None,
        api_usd_per_month=float(compared_api.usd_per_month) if compared_api else 0.0,
        own_hardware_applicable=own.applicable,
        own_usd_per_month=float(own.usd_per_month),
        own_usd_per_gpu_hour=float(own.usd_per_gpu_hour.total),
        rent_usd_per_gpu_hour=float(rent_against.usd_per_gpu_hour) if rent_against else 0.0,
        break_even_utilization=float(own.break_even_utilization or 0.0),
        node_utilization=float(own.node_utilization),
        node_has_idle_gpus=own.gpus_needed < own.nodes * server_gpus,
        replica_gpus_on_server_gpu=own.gpus_needed,
        server_gpus=server_gpus,
    )


def workload_summary(resolved: ResolvedWorkload) -> WorkloadSummary:
    return WorkloadSummary(
        name=resolved.name,
        model=resolved.model_id,
        params_b=resolved.params_b,
        active_params_b=resolved.active_params_b,
        precision=resolved.precision,
        custom_weights=resolved.custom_weights,
        requests_per_day=resolved.requests_per_day,
        avg_input_tokens=resolved.avg_input_tokens,
        avg_output_tokens=resolved.avg_output_tokens,
        context_tokens=resolved.context_tokens,
        load_pattern=resolved.load_pattern,
        schedule=resolved.schedule,
        hours_per_month=resolved.hours_per_month,
        days_per_month=resolved.days_per_month,
        utilization=resolved.utilization,
        utilization_source=resolved.utilization_source,
        latency_sensitive=resolved.latency_sensitive,
        personal_data=resolved.personal_data,
        on_premises_required=resolved.on_premises_required,
        model_stable=resolved.model_stable,
        company_country=resolved.company_country,
        defaults_used=resolved.defaults_used,
    )


def price_dates(
    knowledge: Knowledge, options: Sequence[Option], apis: Sequence[ApiCost]
) -> tuple[PriceDate, ...]:
    """The dated sources of every price the result shows: offers considered, API prices, the own-server
    lines and the exchange rate. Entries of one source and date are listed once."""
    considered = {(o.provider, o.offer, o.gpu) for o in options}
    entries: list[tuple[Citation, dt.date, str]] = [
        (o.source, o.as_of, "GPU offers")
        for o in knowledge.offers.offers
        if (o.provider, o.offer, o.gpu) in considered
    ]
    entries += [
        (a.source, a.as_of, "managed API prices")
        for a in knowledge.api_prices.apis
        if a.id in {x.api for x in apis}
    ]
    server = knowledge.own_server()
    rate = knowledge.eur_to_usd()
    entries += [
        (server.source, server.as_of, "own-server cost lines"),
        (rate.source, rate.as_of, "EUR/USD exchange rate"),
    ]
    used: dict[tuple[str, dt.date, str], PriceDate] = {}
    for citation, as_of, used_for in entries:
        document = citation.document or citation.url or ""
        title = (
            knowledge.document(citation.document).title if citation.document else (citation.title or document)
        )
        used.setdefault(
            (document, as_of, used_for),
            PriceDate(document=document, title=title, as_of=as_of, used_for=used_for),
        )
    return tuple(sorted(used.values(), key=lambda p: (p.as_of, p.document, p.used_for)))


def recommend(
    workload: Workload, evaluated_on: dt.date, evaluator: Evaluator | None = None
) -> Recommendation:
    """The full decision for one workload. ``evaluated_on`` dates the evaluation (price ages);
    ``evaluator`` defaults to the process-wide durable-rules engine."""
    knowledge = load_knowledge()
    rulebook = load_rulebook()
    resolved = resolve_workload(workload, knowledge)
    figures = size_model(
        knowledge,
        resolved.params_b,
        resolved.active_params_b,
        resolved.precision,
        resolved.model_config_entry,
    )
    replicas = 1
    server = knowledge.own_server()
    apis = api_costs(knowledge, resolved)
    compared_api = next((a for a in apis if a.compared), None)

    with (evaluator or rules_engine()).session() as session:
        firings: list[Firing] = []
        for fit in figures.fits:
            firings += session.assert_fact(gpu_fit_fact(fit, figures.weights_gb))
        firings += session.assert_fact(workload_fact(resolved, figures.weights_gb, knowledge))

        constraint_rules = fired_rules(firings, rulebook)
        unsuitable = unsuitable_gpus(firings, rulebook)
        preferred = preferred_pricing(constraint_rules)
        options = build_options(
            knowledge, figures, unsuitable, constraint_rules, replicas, resolved.hours_per_month
        )
        best = best_option(options, preferred)
        rent_against = best_option(options, preferred, gpu=server.gpu)
        own = own_hardware_position(knowledge, figures, unsuitable, resolved, replicas, rent_against)
        firings += session.assert_fact(
            economics_fact(
                resolved, best, compared_api, own, rent_against, evaluated_on, server.gpus_per_server
            )
        )

    rules = fired_rules(firings, rulebook)
    resolution = resolve_deployment(rules)
    winner = next(p for p in resolution.proposals if p.status == "won")
    if best is not None:
        best = best.model_copy(update={"chosen": winner.deployment == "dedicated_cloud"})
        options = [best if option_order(o) == option_order(best) else o for o in options]
    chosen = best if best is not None and best.chosen else None
    decision = decide(winner.deployment, winner.rule_id, chosen, compared_api, own, server.gpus_per_server)

    return Recommendation(
        evaluated_on=evaluated_on,
        workload=workload_summary(resolved),
        decision=decision,
        resolution=resolution,
        sizing=size_result(
            figures, resolved.model_id, [f for f in firings if f.fact["kind"] == "gpu_fit"], knowledge
        ),
        replicas=replicas,
        options=tuple(options),
        best_option=best,
        api_costs=apis,
        own_hardware=own,
        findings=findings_for(firings, rulebook, knowledge),
        fired_rules=tuple(rule.id for rule in rules),
        price_dates=price_dates(knowledge, options, apis),
        exchange_rate_usd_per_eur=knowledge.eur_to_usd().rate,
        exchange_rate_as_of=knowledge.eur_to_usd().as_of,
    )


def decide(
    deployment: str,
    rule_id: str,
    chosen: Option | None,
    compared_api: ApiCost | None,
    own: OwnHardware,
    server_gpus: int,
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
    if deployment == "own_hardware":
        return Decision(
            deployment="own_hardware",
            pricing=None,
            provider=None,
            offer=own.server,
            gpu=own.gpu,
            gpus=own.nodes * server_gpus,
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
    return Decision(
        deployment=deployment,  # type: ignore[arg-type]
        pricing=None,
        provider=None,
        offer=None,
        gpu=None,
        gpus=None,
        usd_per_month=None,
        deciding_rule_id=rule_id,
    )
