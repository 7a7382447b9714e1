"""The pipeline: a workload through every stage to its decision."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from gpu_advisor.engine.calc.api_costs import api_costs
from gpu_advisor.engine.calc.listings import PricedListing, cheapest_option, priced_listings
from gpu_advisor.engine.calc.load import workload_load
from gpu_advisor.engine.calc.own_hardware import own_hardware_position, select_own_server
from gpu_advisor.engine.calc.replicas import ReplicaPlan, plans_by_gpu
from gpu_advisor.engine.calc.sizing import SizingFigures, size_model
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.domain.results import ApiCost, Decision, Option, OwnHardware, Resolution
from gpu_advisor.engine.domain.workload import ResolvedWorkload, Workload
from gpu_advisor.engine.pipeline.constraints import rule_exclusions, workload_fact
from gpu_advisor.engine.pipeline.defaults import resolve_workload
from gpu_advisor.engine.pipeline.economics import (
    choose_alternatives,
    derived_utilization,
    economics_fact,
    residency_rule_ids,
)
from gpu_advisor.engine.pipeline.engines import rulebook_for, rules_engine
from gpu_advisor.engine.pipeline.fit import QUANTIZED_SCENARIO, WORKLOAD_SCENARIO, assert_gpu_fits
from gpu_advisor.engine.rulebook.conclusions import (
    fired_rules,
    preferred_pricing,
    resolve_deployment,
    resolve_ruled_out,
    unsuitable_gpus,
)
from gpu_advisor.engine.rulebook.durable import Evaluator, Firing
from gpu_advisor.engine.rulebook.facts import Fact
from gpu_advisor.engine.rulebook.schema import Rule, Rulebook


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
