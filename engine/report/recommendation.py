"""The full result of an evaluation: findings, sizing table, options, price dates, chart data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from gpu_advisor.engine.calc.batch_start_up import start_up_break_even
from gpu_advisor.engine.calc.calibration import (
    calibration_rows,
    error_band,
    latency_margin,
    latency_measured,
    mixture_of_experts_errors,
    own_runs_data_parallel,
    set_statistics,
)
from gpu_advisor.engine.calc.fleet_billing import autoscaled_billing
from gpu_advisor.engine.calc.latency import OperatingPoint
from gpu_advisor.engine.calc.listings import build_options
from gpu_advisor.engine.calc.performance import ReplicaPerformance, cached_prefix_tokens, replica_performances
from gpu_advisor.engine.calc.policy import Sizing
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.domain.accuracy import SizingPolicy, ThroughputAccuracy
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite, franc_rate
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.domain.results import (
    Charts,
    Finding,
    Option,
    PurchasesVat,
    Recommendation,
    ScaleToZero,
    SizeResult,
)
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.pipeline.foreign_reach import reached_providers
from gpu_advisor.engine.pipeline.serverless_option import serverless_option
from gpu_advisor.engine.report.charts import api_versus_self_hosted, buy_versus_rent, own_growth
from gpu_advisor.engine.report.findings import exclusion_routes, findings_for
from gpu_advisor.engine.report.other_routes import next_best_option, other_routes
from gpu_advisor.engine.report.price_age import dated_prices
from gpu_advisor.engine.report.sizing_rows import sizing_rows
from gpu_advisor.engine.report.sources import engine_start_source, start_cited
from gpu_advisor.engine.rulebook.conclusions import unsuitable_gpus
from gpu_advisor.engine.rulebook.details import ApiDetails, EconomicsDetails
from gpu_advisor.engine.rulebook.durable import Firing
from gpu_advisor.engine.rulebook.loading import load_rulebook
from gpu_advisor.engine.rulebook.schema import Rulebook


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
    performances: Mapping[str, ReplicaPerformance] | None = None,
    points: Mapping[str, OperatingPoint] | None = None,
    concurrency: int | None = None,
    admitted: str | None = None,
    own_weights: bool = False,
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
        weights_params_b=figures.weights_params_b,
        weights_layout=figures.weights_layout,
        sixteen_bit_checkpoint_gb=figures.sixteen_bit_checkpoint_gb,
        kv_bytes_per_token=figures.kv_bytes_per_token,
        kv_bytes_per_token_used=figures.kv_bytes_per_token_used,
        kv_estimated_from=figures.kv_estimated_from,
        kv_split_heads=figures.kv_split_heads,
        kv_latent=figures.kv_latent,
        card_counts=figures.card_counts,
        context_tokens=figures.context_tokens,
        # Where the engine caches no prefixes, none is computed once: the texts then say nothing of one.
        shared_prefix_tokens=cached_prefix_tokens(knowledge, figures),
        min_sequences_at_full_context=knowledge.throughput.concurrency.min_sequences_at_full_context,
        min_sequences_under_light_load=knowledge.throughput.concurrency.min_sequences_under_light_load,
        full_context_room_under_light_load=knowledge.throughput.concurrency.full_context_room_under_light_load,
        serving_engine=figures.serving_engine,
        kv_bytes_per_element=figures.kv_bytes_per_element,
        load=load,
        gpus=sizing_rows(
            knowledge,
            figures,
            unsuitable_gpus(firings, rulebook),
            plans,
            performances,
            points,
            concurrency,
            admitted,
            (model_id, own_weights),
        ),
        findings=findings if findings is not None else findings_for(firings, rulebook, knowledge, fmt),
    )


def sizing_policy_result(knowledge: Knowledge, sizing: Sizing, model: str | None) -> SizingPolicy:
    """How the replicas were sized, as a result says it: the headroom, the error band taken off, the
    spares and least replicas, and the latency margin of ``sizing``; whether ``model``'s measurements
    all ran with data-parallel attention."""
    return SizingPolicy(
        headroom_target_share=knowledge.throughput.headroom.target_share,
        estimate_error_taken_off=sizing.estimate_error_taken_off,
        spare_replicas=sizing.spare_replicas,
        min_replicas=sizing.min_replicas,
        latency_margin=sizing.latency_margin,
        latency_tail_share=knowledge.workload_defaults.latency_tail_share.value,
        model_runs_data_parallel=own_runs_data_parallel(knowledge, model),
        model_latency_measured=latency_measured(knowledge, model),
    )


@cache
def throughput_accuracy() -> ThroughputAccuracy:
    """The calibration band of the shipped knowledge base, computed once per process."""
    knowledge = load_knowledge()
    rows = calibration_rows(knowledge)
    low, high = error_band(rows)
    moe = [error for _, error in mixture_of_experts_errors(knowledge)]
    statistics = set_statistics(rows)
    held_out = {s.metric: s for s in statistics if s.split == "held_out"}
    fit = next(s for s in statistics if (s.split, s.metric) == ("fit", "throughput"))
    throughput = held_out["throughput"]
    return ThroughputAccuracy(
        lowest_error=low,
        highest_error=high,
        measurements=sum(r.tolerance is not None for r in rows),
        fit_measurements=fit.count,
        fit_mean_absolute_error=fit.mean_absolute_error,
        held_out_measurements=throughput.count,
        held_out_mean_absolute_error=throughput.mean_absolute_error,
        held_out_worst_error=throughput.worst_error,
        held_out_latency_mean_absolute_error=latency_margin(knowledge) or None,
        mixture_of_experts_measurements=len(moe),
        mixture_of_experts_mean_error=sum(moe) / len(moe) if moe else None,
        mixture_of_experts_lowest_error=min(moe, default=None),
        mixture_of_experts_highest_error=max(moe, default=None),
        measured_gpus=tuple(g.id for g in knowledge.gpus.gpus if any(r.gpu == g.id for r in rows)),
    )


def serverless_options(evaluation: Evaluation) -> tuple[Option, ...]:
    """Every priced serverless option, cheapest first; the best one as the decision marked it."""
    market, best = evaluation.market, evaluation.serverless
    return tuple(
        best
        if best is not None and priced is market.serverless.best
        else serverless_option(priced, market.busy.of(priced.listing.gpu.gpu))
        for priced in market.serverless.priced
    )


def with_serverless(dedicated: tuple[Option, ...], serverless: tuple[Option, ...]) -> tuple[Option, ...]:
    """Both kinds in one list, cheapest first (a stable merge: ties keep dedicated options first)."""
    return tuple(sorted((*dedicated, *serverless), key=lambda option: option.usd_per_month))


def _undercuts_recommendation(evaluation: Evaluation) -> bool:
    """The scaled fleet undercuts the recommendation, as DEP032's message says (worked out once the
    decision was settled, ``pipeline.economics_details.with_the_decision``)."""
    economics = evaluation.details["economics"]
    return isinstance(economics, EconomicsDetails) and economics.autoscaled_undercuts_recommendation


def _billing_increment(knowledge: Knowledge, option: Option) -> int | None:
    offer = knowledge.offer(option.provider, option.offer, option.gpu)
    return offer.billing_increment_seconds if offer is not None else None


def recommendation_from(evaluation: Evaluation, fmt: Format = DEFAULT_FORMAT) -> Recommendation:
    """The full result of an evaluation: findings rendered in ``fmt``, sizing table, options, price
    dates and chart data."""
    e = evaluation
    knowledge, best, market, capacity = e.knowledge, e.best, e.market, e.capacity
    best_listing = market.alternatives.best_listing
    dedicated = build_options(
        market.priced, (best_listing, best) if best_listing and best else None, market.busy.of_plan
    )
    options = with_serverless(dedicated, serverless_options(e))
    findings = findings_for(e.firings, e.rulebook, knowledge, fmt, e.details, exclusion_routes(e))
    # The GPU findings are the ones with a subject; rendering them twice would only cost time.
    gpu_findings = tuple(f for f in findings if f.subject is not None)
    # Beside a decided rental only: elsewhere the best rental is the one other_routes weighs.
    next_best = next_best_option(options, best) if best is not None and best.chosen else None
    volume_chart = api_versus_self_hosted(e)
    return Recommendation(
        evaluated_on=e.evaluated_on,
        workload=e.workload,
        decision=e.decision,
        resolution=e.resolution,
        sizing=size_result(
            capacity.figures,
            e.workload.model,
            e.verdicts.firings,
            knowledge,
            market.load,
            market.plans,
            e.rulebook,
            fmt,
            gpu_findings,
            performances={
                p.gpu: p
                for p in replica_performances(
                    knowledge, capacity.figures, e.workload.avg_input_tokens, e.workload.avg_output_tokens
                )
            },
            admitted=e.verdicts.admitted,
            own_weights=e.workload.custom_weights,
        ).model_copy(
            update={
                "input_tokens": e.workload.avg_input_tokens,
                "output_tokens": e.workload.avg_output_tokens,
                "attention_shape": e.workload.attention_shape,
                "max_time_to_first_token_ms": e.workload.max_time_to_first_token_ms,
                "max_time_per_output_token_ms": e.workload.max_time_per_output_token_ms,
                "default_targets_dropped": e.workload.default_targets_dropped,
            }
        ),
        load=market.load,
        throughput_accuracy=throughput_accuracy(),
        replicas=_chosen_replicas(best, e.mixed_fleet, e.serverless),
        options=options,
        best_option=best,
        serverless_option=e.serverless,
        mixed_fleet=e.mixed_fleet,
        autoscaled_fleet=autoscaled_billing(market.autoscaled, _undercuts_recommendation(e))
        if market.autoscaled
        else None,
        owned_base_usd_per_month=market.owned_base.usd_per_month if market.owned_base else None,
        # A batch's runs a month are set (a service has none).
        batch_start_up=start_up_break_even(
            options,
            best,
            e.workload.batch_runs_per_month,
            lambda o: _billing_increment(knowledge, o),
            e.resolution.ruled_out,
            # The window as the schedule cuts it (a 24-hour window on office hours is 8).
            capacity.load.hours_per_day,
        )
        if e.workload.batch_runs_per_month is not None
        else None,
        spot_interruption_overhead=knowledge.pricing_assumptions.spot_interruption.overhead,
        sizing_policy=sizing_policy_result(knowledge, market.replicas.sizing, e.workload.model),
        api_costs=market.apis,
        own_hardware=market.own.model_copy(
            update={"rent_below_utilization": knowledge.threshold("rent_below_utilization").value}
        ),
        findings=findings,
        fired_rules=tuple(rule.id for rule in e.rules),
        **dated_prices(e, options),
        engine_start=engine_start_source(
            knowledge,
            capacity.figures.serving_engine,
            (*options, e.serverless) if e.serverless is not None else options,
            cited=start_cited(e.rules),
        ),
        charts=Charts(
            buy_versus_rent=buy_versus_rent(market.own, market.own.rent_usd_per_gpu_hour),
            api_versus_self_hosted=volume_chart,
        ),
        own_growth=own_growth(e, volume_chart),
        saving_worth_mentioning=knowledge.threshold("saving_worth_mentioning").value,
        foreign_reach_providers=tuple(sorted(reached_providers(knowledge, e.workload.company_country))),
        exchange_rate_usd_per_eur=knowledge.eur_to_usd().rate,
        exchange_rate_as_of=knowledge.eur_to_usd().as_of,
        exchange_rate_assumed=knowledge.eur_to_usd().source.document == "gpu-advisor",
        **franc_rate(knowledge),
        own_server_gpus=tuple(dict.fromkeys(server.gpu for server in knowledge.own_hardware.servers)),
        **spot_notice(knowledge, best),
        next_best_option=next_best,
        other_routes=other_routes(
            e.decision, best, next_best, e.serverless, market.own, market.apis, e.resolution.ruled_out
        ),
        scale_to_zero=_scale_to_zero(e),
        purchases_vat=purchases_vat(knowledge),
    )


def _scale_to_zero(evaluation: Evaluation) -> ScaleToZero | None:
    """The serverless product scaling to zero that DEP031 and DEP048 price, as the api fact's details
    hold it (``pipeline.api_comparison``)."""
    api = evaluation.details.get("api")
    if not isinstance(api, ApiDetails) or not api.scale_to_zero_name:
        return None
    return ScaleToZero(
        name=api.scale_to_zero_name,
        usd_per_month=api.scale_to_zero_usd_per_month,
        cold_start_seconds=api.scale_to_zero_cold_start_seconds,
        cold_starts_per_month=api.scale_to_zero_starts_per_month,
    )


def purchases_vat(knowledge: Knowledge) -> PurchasesVat | None:
    """The VAT rate the knowledge base's prices include (``gross_prices.with_vat``); None: net."""
    rate = knowledge.vat_rates.applied
    if rate is None:
        return None
    return PurchasesVat(
        country=rate.country,
        rate=rate.rate,
        law=rate.law,
        source=cite(rate.source, knowledge),
        as_of=rate.as_of,
    )


def spot_notice(knowledge: Knowledge, best: Option | None) -> dict[str, Any]:
    """The best option's provider's spot notice, where the best option is spot."""
    notice = knowledge.provider(best.provider).spot_notice if best and best.pricing == "spot" else None
    return {
        "best_spot_notice_seconds": notice.seconds if notice else None,
        "best_spot_notice_up_to": notice.up_to if notice else False,
    }


def _chosen_replicas(best: Option | None, mixed: Option | None, serverless: Option | None) -> int | None:
    """The replicas of the chosen option: the mixed fleet's busiest hour's or the serverless product's
    where one of those is chosen, else the best rental's (chosen or not)."""
    chosen = next((o for o in (mixed, serverless) if o is not None and o.chosen), best)
    return chosen.replicas if chosen is not None else None
