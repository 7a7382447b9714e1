"""The pipeline: one workload through every stage to its decision.

1. ``defaults``: the workload completed from the catalog and the documented defaults;
2. ``capacity``: the model sized on every GPU, the load over the day;
3. ``fit``: the GPU-fit facts (which GPUs may serve a replica);
4. ``constraints``: the workload fact (residency, pricing and deployment constraints, spare replicas,
   warm serverless instances);
5. ``market``: the replicas every GPU needs, every offer and serverless product priced with the rules'
   exclusions, the busy share, the own server, the APIs;
6. ``economics``: the economics fact (buy versus rent, providers, pricing);
7. ``serverless``: the serverless fact (the priced serverless option against the cheapest other
   self-hosted route the rules left standing);
8. ``api``: the api fact (the managed API against the cheapest self-hosted route the rules left
   standing);
9. ``decision``: the proposals settled by precedence, and the decision fact (the route they settled on).

Each stage takes the typed results of the ones before and returns its own; the rule stages share one
engine session, since every rule matches one fact. Nothing here renders text.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import NamedTuple

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.gross_prices import with_vat
from gpu_advisor.engine.domain.results import Decision, Option, Resolution
from gpu_advisor.engine.domain.workload import ResolvedWorkload, WorkloadInput
from gpu_advisor.engine.pipeline.alternatives import residency_rule_ids
from gpu_advisor.engine.pipeline.api_comparison import weigh_api
from gpu_advisor.engine.pipeline.capacity import Capacity, plan_capacity
from gpu_advisor.engine.pipeline.constraints import (
    Constraints,
    admitted_gpus,
    apply_constraints,
    workload_facts,
    workload_firings,
)
from gpu_advisor.engine.pipeline.decision import settle, weigh_decision
from gpu_advisor.engine.pipeline.defaults import complete_workload
from gpu_advisor.engine.pipeline.economics import weigh_economics
from gpu_advisor.engine.pipeline.economics_details import with_the_decision
from gpu_advisor.engine.pipeline.fit import GpuVerdicts, judge_gpus
from gpu_advisor.engine.pipeline.market import Market, survey_market
from gpu_advisor.engine.pipeline.routes import BESIDE_SERVERLESS, cheapest_route
from gpu_advisor.engine.pipeline.serverless_weighing import weigh_serverless
from gpu_advisor.engine.rulebook.conclusions import dropping_firings, fired_rules
from gpu_advisor.engine.rulebook.details import ApiDetails, Details, EconomicsDetails, ServerlessDetails
from gpu_advisor.engine.rulebook.durable import Evaluator, FactSession, Firing
from gpu_advisor.engine.rulebook.facts import Fact
from gpu_advisor.engine.rulebook.schema import Rule, Rulebook


@dataclass(frozen=True)
class Evaluation:
    """What one evaluation worked out, stage by stage: what a check judges a proposal against, and what
    the full result is built from."""

    knowledge: Knowledge
    rulebook: Rulebook
    evaluated_on: dt.date
    workload: ResolvedWorkload
    """Completed, with the utilization the rules read."""
    facts: Fact
    """The workload's facts, asserted beside every fact about the workload."""
    capacity: Capacity
    verdicts: GpuVerdicts
    constraints: Constraints
    market: Market
    firings: tuple[Firing, ...]
    """Every firing of the GPU-fit, workload, economics, serverless, API and decision stages, in firing
    order."""
    rules: tuple[Rule, ...]
    """The rules that fired, in catalog order."""
    details: dict[str, Details]
    """Fact kind -> the details the messages of its rules show."""
    resolution: Resolution
    decision: Decision
    best: Option | None
    """The cheapest dedicated option no rule excluded, marked chosen where the decision is dedicated GPUs."""
    serverless: Option | None
    """The cheapest serverless option no rule excluded, marked chosen where the decision is serverless."""
    mixed_fleet: Option | None = None
    """The cheapest mixed fleet, marked chosen where the decision is hybrid."""


def evaluate(
    workload: WorkloadInput,
    evaluated_on: dt.date,
    knowledge: Knowledge,
    rulebook: Rulebook,
    evaluator: Evaluator,
    sizing_knowledge: Knowledge | None = None,
    fit_evaluator: Evaluator | None = None,
    throughput_factor: float = 1.0,
) -> Evaluation:
    """``sizing_knowledge``: a knowledge base that differs from ``knowledge`` in prices only (a scenario's
    copy is priced apart from the shipped base); the capacity and GPU-fit stages, which read no price, use
    it, so that what they work out once per knowledge base is shared across the copies.
    ``fit_evaluator``: the GPU-fit stage's, where ``evaluator`` is a scenario's with its drawn thresholds
    (the GPU-fit rules read none of them, so their firings stay shared). ``throughput_factor``: the
    replicas carry that many times the estimated rate (a scenario's drawn error of the estimate). A
    workload that cannot recover input VAT is priced on ``with_vat``'s copy of ``knowledge``."""
    resolved = complete_workload(workload, knowledge)
    if not resolved.input_vat_recoverable:
        # Every purchase priced with the company country's VAT, in this one copy (``with_vat``), which
        # differs from ``knowledge`` in prices only.
        priced = with_vat(knowledge, resolved.company_country)
        sizing_knowledge, knowledge = sizing_knowledge or knowledge, priced
    dropping: tuple[Firing, ...] = ()
    # A default latency target no GPU the workload may have can be planned to is not held (LAT010,
    # LAT011): the workload is evaluated again without it as a target (it only chooses the cards), the
    # rules that dropped it kept among its firings. Each round drops at least one of the two targets, so
    # there are at most three.
    while True:
        outcome = _evaluate(
            resolved,
            evaluated_on,
            knowledge,
            rulebook,
            evaluator,
            sizing_knowledge,
            fit_evaluator,
            throughput_factor,
            dropping,
        )
        if isinstance(outcome, Evaluation):
            return outcome
        resolved, dropping = outcome.applied_to(resolved), outcome.firings


@dataclass(frozen=True)
class DroppedTargets:
    """The GPU-fit stage's rules dropped default latency targets (``GpuVerdicts.dropped``)."""

    fields: tuple[str, ...]
    firings: tuple[Firing, ...]
    """The firings of the rules that dropped them, and of those that dropped one before."""

    def applied_to(self, resolved: ResolvedWorkload) -> ResolvedWorkload:
        dropped = (*resolved.default_targets_dropped, *self.fields)
        return resolved.model_copy(update={**dict.fromkeys(self.fields), "default_targets_dropped": dropped})


def _evaluate(
    resolved: ResolvedWorkload,
    evaluated_on: dt.date,
    knowledge: Knowledge,
    rulebook: Rulebook,
    evaluator: Evaluator,
    sizing_knowledge: Knowledge | None,
    fit_evaluator: Evaluator | None,
    throughput_factor: float,
    dropping: tuple[Firing, ...] = (),
) -> Evaluation | DroppedTargets:
    """``evaluate`` of a completed workload; ``DroppedTargets`` where the rules drop a default latency target
    (``dropping``: the firings of those that dropped one already)."""
    sized_by = sizing_knowledge or knowledge
    capacity = plan_capacity(resolved, sized_by)
    facts = workload_facts(resolved, knowledge)
    # The workload's own rules first: the GPUs they admit are the ones the latency rules compare with. The
    # GPU-fit stage opens a session of its own inside this one where its firings are not kept yet.
    with evaluator.session() as session:
        own = workload_firings(
            session,
            facts,
            capacity.figures,
            knowledge,
            rulebook,
            capacity.cards,
            resolved.reasoning,
            resolved.model or "",
        )
        admitted = admitted_gpus(knowledge, own, rulebook)
        verdicts = judge_gpus(fit_evaluator or evaluator, capacity, sized_by, rulebook, resolved, admitted)
        dropped = tuple(field for field in verdicts.dropped if field not in resolved.default_targets_dropped)
        if dropped:
            return DroppedTargets(dropped, (*dropping, *dropping_firings(verdicts.firings, rulebook)))
        verdicts = replace(verdicts, firings=(*dropping, *verdicts.firings))
        constraints = apply_constraints(own, verdicts, knowledge, rulebook)
        market, resolved = survey_market(
            resolved,
            capacity,
            verdicts,
            constraints,
            knowledge,
            rulebook,
            sizing_knowledge,
            throughput_factor,
        )
        weighed = _weigh(
            session,
            facts,
            resolved,
            capacity,
            market,
            (*verdicts.firings, *constraints.firings),
            constraints,
            knowledge,
            rulebook,
            evaluated_on,
        )
        settlement = settle(
            fired_rules((*verdicts.firings, *constraints.firings, *weighed.firings), rulebook), market
        )
        decided, route = weigh_decision(
            session, facts, settlement, market, knowledge, resolved.company_country
        )
    firings = (*verdicts.firings, *constraints.firings, *weighed.firings, *decided)
    rules = tuple(fired_rules(firings, rulebook))
    economics = with_the_decision(
        weighed.economics, settlement.decision, knowledge.threshold("saving_worth_mentioning").value
    )
    return Evaluation(
        knowledge=knowledge,
        rulebook=rulebook,
        evaluated_on=evaluated_on,
        workload=resolved,
        facts=facts,
        capacity=capacity,
        verdicts=verdicts,
        constraints=constraints,
        market=market,
        firings=firings,
        rules=rules,
        details={
            "serverless": weighed.serverless,
            "economics": economics,
            "api": weighed.api,
            "decision": route,
        },
        resolution=settlement.resolution,
        decision=settlement.decision,
        best=settlement.best,
        serverless=settlement.serverless,
        mixed_fleet=settlement.mixed_fleet,
    )


class Weighed(NamedTuple):
    """What the economics, serverless and API stages concluded."""

    firings: tuple[Firing, ...]
    """Their firings, in firing order."""
    economics: EconomicsDetails
    serverless: ServerlessDetails
    api: ApiDetails


def _weigh(
    session: FactSession,
    facts: Fact,
    resolved: ResolvedWorkload,
    capacity: Capacity,
    market: Market,
    before: tuple[Firing, ...],
    constraints: Constraints,
    knowledge: Knowledge,
    rulebook: Rulebook,
    evaluated_on: dt.date,
) -> Weighed:
    """The economics, serverless and API stages in that order, each reading the rules fired before it
    (``before``: the GPU-fit and constraint stages')."""
    economic_firings, economics = weigh_economics(
        session,
        facts,
        resolved,
        market,
        knowledge,
        evaluated_on,
        constraints.ruled_out.get("own_hardware", ()),
    )
    so_far = fired_rules((*before, *economic_firings), rulebook)
    serverless_firings, serverless = weigh_serverless(
        session,
        facts,
        market.serverless,
        cheapest_route(market, so_far, BESIDE_SERVERLESS),
        market.time_utilization,
        capacity.figures.weights_gb,
        market.own.costs.country if market.own.costs.staff_uncosted else "",
        residency_rule_ids(rulebook),
        rulebook,
        lambda provider: knowledge.provider(provider).enterprise_sla,
        constraints.keep_rentals_without_automation,
    )
    so_far = fired_rules((*before, *economic_firings, *serverless_firings), rulebook)
    api_firings, api = weigh_api(
        session,
        facts,
        market,
        knowledge,
        so_far,
        evaluated_on,
        resolved,
    )
    return Weighed((*economic_firings, *serverless_firings, *api_firings), economics, serverless, api)
