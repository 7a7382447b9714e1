"""Stage 3, the market: the replicas every GPU needs (with the spares the rules asked for), every offer
and serverless product priced for the workload with the rules' exclusions, the cheapest admitted option
of each kind the economics rules compare, the own server carrying the load, the managed APIs, and the
busy share the load gives the best option. Python arithmetic only: the rules read the result in the
serverless and economics stages."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpu_advisor.engine.calc.api_costs import api_costs
from gpu_advisor.engine.calc.busy import load_on
from gpu_advisor.engine.calc.commitments import cheapest_as_billed
from gpu_advisor.engine.calc.fleet_billing import fleet_option
from gpu_advisor.engine.calc.fleets import (
    AutoscaledFleet,
    MixedFleet,
    OwnedBaseFleet,
    cheapest_mixed_fleet,
    cheapest_owned_base_fleet,
    price_autoscaled,
    replicas_by_hour,
    spare_cost,
)
from gpu_advisor.engine.calc.listings import PricedListing, cheapest_option, priced_listings
from gpu_advisor.engine.calc.own_hardware import (
    capped_servers,
    own_hardware_position,
    select_own_server,
    with_own_latency_cost,
)
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.server_costs import server_costs
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.domain.own_costs import OwnHardware
from gpu_advisor.engine.domain.results import ApiCost, Option
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.alternatives import (
    Alternatives,
    choose_alternatives,
    residency_rule_ids,
    with_latency_targets_cost,
    with_spare_cost,
)
from gpu_advisor.engine.pipeline.busy_shares import BusyShares, busy_share_on, derived_utilization, load_gpu
from gpu_advisor.engine.pipeline.capacity import (
    Capacity,
    ReplicaPlans,
    plan_for_throughput_alone,
    replica_plans,
)
from gpu_advisor.engine.pipeline.constraints import Constraints
from gpu_advisor.engine.pipeline.fit import GpuVerdicts
from gpu_advisor.engine.pipeline.serverless import ServerlessMarket, price_serverless
from gpu_advisor.engine.rulebook.conclusions import removed_deployments
from gpu_advisor.engine.rulebook.schema import Rulebook


@dataclass(frozen=True)
class Market:
    replicas: ReplicaPlans
    busy: BusyShares
    load: Load
    """The load with its busy share and requests in flight on the GPU ``load_gpu`` chooses."""
    time_utilization: float
    """What the serverless band reads: the load's busy share; where no GPU holds the model, the
    workload's utilization (stated, or the load pattern's assumption). Buy versus rent reads each owned
    replica's share (``busy_share_on``), this where no plan runs on the server's GPU."""
    rented_hours: float
    """The hours a month an hourly rental of a service is billed (``_rental_hours``): every offer here, the
    volume chart's points and a proposal's rental are priced for them."""
    serverless: ServerlessMarket
    priced: tuple[PricedListing, ...]
    """Every priced listing, cheapest first: the result's options are built from these."""
    alternatives: Alternatives
    server: OwnServer
    own: OwnHardware
    apis: tuple[ApiCost, ...]
    compared_api: ApiCost | None
    """The like-for-like API: a hosted open-weights model of the workload's size class."""
    mixed_fleet: MixedFleet | None = None
    mixed_option: Option | None = None
    """The cheapest mixed fleet (a reserved base, hourly instances for the busier hours) as an option."""
    autoscaled: AutoscaledFleet | None = None
    """The best option, where it is an hourly offer for a service, scaled hour by hour (DEP032)."""
    owned_base: OwnedBaseFleet | None = None
    """Owned servers for a base of replicas in every hour, hourly cards of their GPU for the busier hours
    (TCO022)."""

    @property
    def plans(self) -> dict[str, ReplicaPlan]:
        return self.replicas.plans

    def busy_share_on(self, gpu: str) -> float:
        """The busy share of each replica on ``gpu``, as the own node's utilization reads it
        (``busy_share_on``)."""
        return busy_share_on(self.busy, gpu, self.time_utilization)


def survey_market(
    resolved: ResolvedWorkload,
    capacity: Capacity,
    verdicts: GpuVerdicts,
    constraints: Constraints,
    knowledge: Knowledge,
    rulebook: Rulebook,
    sizing_knowledge: Knowledge | None = None,
    throughput_factor: float = 1.0,
) -> tuple[Market, ResolvedWorkload]:
    """The market for the workload, and the workload with its utilization settled; the replicas are
    planned on ``sizing_knowledge`` where given, for ``throughput_factor`` times the estimated rate
    (``evaluation.evaluate``)."""
    hours, days = resolved.hours_per_month, capacity.days_per_month
    rented_hours = _rental_hours(resolved, constraints, knowledge)
    sizing_on = sizing_knowledge or knowledge
    replicas = replica_plans(
        resolved,
        capacity,
        sizing_on,
        constraints.spare_replica,
        throughput_factor=throughput_factor,
        spread=constraints.spread_replicas,
        spread_runs=constraints.spread_batch_rentals,
    )
    plans = replicas.plans
    priced = priced_listings(
        knowledge,
        verdicts.unsuitable,
        verdicts.unsuitable_offers,
        constraints.exclusions,
        plans,
        rented_hours,
        days,
    )
    server, kept_out_by = select_own_server(
        knowledge, plans, verdicts.unsuitable, constraints.excluded_housings
    )

    # The best rental and the own server often share a GPU: its plan without targets is built once.
    @functools.cache
    def lean(gpu: str) -> ReplicaPlan | None:
        return plan_for_throughput_alone(
            resolved, capacity, sizing_on, replicas.sizing, gpu, throughput_factor
        )

    alternatives = _alternatives(
        capacity, replicas, priced, server, verdicts, constraints, knowledge, rulebook, lean, rented_hours
    )
    serverless = price_serverless(capacity, replicas, verdicts.unsuitable, constraints, knowledge, hours)
    busy = BusyShares(capacity, plans, hours)
    load = _settled_load(
        capacity, replicas, priced, alternatives, serverless, server, verdicts, constraints, knowledge, hours
    )
    resolved = derived_utilization(resolved, load, knowledge)
    time_utilization = load.busy_share if load.busy_share is not None else float(resolved.utilization or 0.0)
    own = own_hardware_position(
        server,
        server_costs(knowledge, server, resolved.company_country, resolved.on_premises_required),
        plans,
        verdicts.unsuitable,
        resolved,
        alternatives.rent_against,
        busy_share_on(busy, server.gpu, time_utilization),
        # Single-kind rentals only: a mixed fleet competes with owning by rules (TCO016, DEP025).
        cheapest_as_billed(priced),
        kept_out_by,
    )
    own = with_own_latency_cost(own, server, plans.get(server.gpu), lean).model_copy(
        update={
            "capped_servers": capped_servers(
                knowledge, plans, verdicts.unsuitable, constraints.excluded_housings, server
            )
        }
    )
    apis = api_costs(
        knowledge, resolved, constraints.api_exclusions, capacity.load.requests_share_in_paid_hours
    )
    # Cards kept every hour (PRC033, PRC034) are not released as the day's load falls: no fleet whose
    # hourly cards follow it is priced, neither a mixed fleet's busier hours nor an owned base's.
    held = constraints.keep_rentals_every_hour
    fleet = (
        None if held else mixed_fleet(capacity, replicas, priced, days, knowledge.calendar_hours_per_month())
    )
    market = Market(
        replicas=replicas,
        busy=busy,
        load=load,
        time_utilization=time_utilization,
        rented_hours=rented_hours,
        serverless=serverless,
        priced=tuple(priced),
        alternatives=alternatives,
        server=server,
        own=own,
        apis=apis,
        compared_api=next((a for a in apis if a.compared), None),
        mixed_fleet=fleet,
        mixed_option=mixed_option(fleet, capacity, replicas, constraints.spare_replica, days, knowledge),
        autoscaled=None if held else autoscaled(capacity, replicas, alternatives.best_listing, days),
        owned_base=None
        if held
        else owned_base_fleet(
            capacity,
            replicas,
            priced,
            own,
            server,
            days,
            knowledge.data_protection_region(resolved.company_country).upper(),
        ),
    )
    return market, resolved


def _alternatives(
    capacity: Capacity,
    replicas: ReplicaPlans,
    priced: list[PricedListing],
    server: OwnServer,
    verdicts: GpuVerdicts,
    constraints: Constraints,
    knowledge: Knowledge,
    rulebook: Rulebook,
    lean: Callable[[str], ReplicaPlan | None],
    hours: float,
) -> Alternatives:
    """The cheapest admitted option of each kind the economics rules compare, with what the latency
    targets and the spares a rule asked for cost on the best one."""
    days, preferred = capacity.days_per_month, constraints.preferred_pricing
    # Only the cheapest admitted quantized option is compared: the excluded ones are not priced.
    quantized_priced = priced_listings(
        knowledge,
        verdicts.quantized_unsuitable,
        verdicts.quantized_unsuitable_offers,
        constraints.exclusions,
        replicas.quantized_plans,
        hours,
        days,
        admitted_only=True,
    )
    quantized = capacity.quantized_figures
    alternatives = choose_alternatives(
        knowledge,
        server,
        priced,
        preferred,
        residency_rule_ids(rulebook),
        cheapest_option(quantized_priced, preferred),
        capacity.quantized_precision,
        quantized.weights_gb if quantized else 0.0,
    )
    alternatives = with_latency_targets_cost(alternatives, lean, hours, days, knowledge)
    if constraints.spare_replica:
        alternatives = with_spare_cost(alternatives, priced, replicas.plans, hours, days, knowledge)
    return alternatives


def _settled_load(
    capacity: Capacity,
    replicas: ReplicaPlans,
    priced: list[PricedListing],
    alternatives: Alternatives,
    serverless: ServerlessMarket,
    server: OwnServer,
    verdicts: GpuVerdicts,
    constraints: Constraints,
    knowledge: Knowledge,
    hours: float,
) -> Load:
    """The load with its busy share and requests in flight on the GPU and route ``load_gpu`` chooses
    (the load as planned where no GPU holds the model)."""
    plans = replicas.plans
    chosen = load_gpu(
        alternatives.best,
        serverless,
        plans,
        knowledge,
        # A route whose proposal outranks its rule-outs still stands (on-premises servers against a
        # policy's rule-out of buying at a lower precedence).
        removed_deployments(constraints.rules),
        server,
        priced,
        verdicts.unsuitable,
    )
    if chosen is None:
        return capacity.load
    gpu, route = chosen
    # The best rental's own plan where the load is the rental's: a batch on whole instances runs on every
    # replica they hold (``batch_on_instances``). Another route on the same GPU has its own plan.
    best = alternatives.best_listing
    plan = best.plan if route == "rental" and best is not None and best.plan.gpu == gpu else plans[gpu]
    return load_on(plan, capacity.load, capacity.traffic, capacity.days_per_month, hours, route)


def _rental_hours(resolved: ResolvedWorkload, constraints: Constraints, knowledge: Knowledge) -> float:
    """The hours a month an hourly rental of a service is billed: the paid hours, or every calendar hour
    where a rule keeps the cards through the others (PRC033; around the clock, PRC034, the paid hours
    where they are more). A batch bills its runs, a reservation every calendar hour, whatever this says
    (``costs.billed_hours``)."""
    if constraints.keep_rentals_every_hour:
        return max(resolved.hours_per_month, knowledge.calendar_hours_per_month())
    return resolved.hours_per_month


def mixed_option(
    fleet: MixedFleet | None,
    capacity: Capacity,
    replicas: ReplicaPlans,
    spare_replica: bool,
    days: float,
    knowledge: Knowledge,
) -> Option | None:
    """The mixed fleet as an option, with what the spare replicas a rule adds cost on it
    (``spare_replica``: SIZ010, SIZ011; not replicas a stated min_replicas adds)."""
    if fleet is None:
        return None
    calendar = knowledge.calendar_hours_per_month()
    option = fleet_option(fleet, calendar)
    if not spare_replica or not fleet.base.plan.spare_replicas:
        return option
    cost = spare_cost(fleet, capacity.traffic, capacity.load, replicas.sizing, days, calendar)
    return option.model_copy(update={"spare_usd_per_month": cost}) if cost else option


def autoscaled(
    capacity: Capacity, replicas: ReplicaPlans, best: PricedListing | None, days: float
) -> AutoscaledFleet | None:
    """The best option scaled hour by hour, where it is an hourly offer carrying a service (a batch runs
    its own hours already; a reservation bills every hour whatever runs)."""
    if (
        best is None
        or best.listing.offer.billing == "committed"
        or best.plan.hours_per_day_running is not None
    ):
        return None
    # The GPU's plan, not the best option's as run: that one carries the replicas a lost instance of its
    # fixed fleet takes (``listings.with_loss_spares``), which each hour's placement adds for itself.
    plan = replicas.plans.get(best.listing.offer.gpu, best.plan)
    hours = replicas_by_hour(plan, capacity.traffic, capacity.load, replicas.sizing)
    return price_autoscaled(best, hours, capacity.traffic, days)


def mixed_fleet(
    capacity: Capacity, replicas: ReplicaPlans, priced: Sequence[PricedListing], days: float, calendar: float
) -> MixedFleet | None:
    """The cheapest mixed fleet on a GPU some admitted reservation offers (a service's plans only)."""
    reserved = {
        p.listing.offer.gpu for p in priced if not p.excluded_by and p.listing.offer.billing == "committed"
    }
    hours_of = {
        gpu: replicas_by_hour(plan, capacity.traffic, capacity.load, replicas.sizing)
        for gpu, plan in replicas.plans.items()
        if gpu in reserved and plan.hours_per_day_running is None
    }
    admitted = [p for p in priced if not p.excluded_by]
    return (
        cheapest_mixed_fleet(admitted, admitted, hours_of, capacity.traffic, days, calendar)
        if hours_of
        else None
    )


def owned_base_fleet(
    capacity: Capacity,
    replicas: ReplicaPlans,
    priced: Sequence[PricedListing],
    own: OwnHardware,
    server: OwnServer,
    days: float,
    home: str,
) -> OwnedBaseFleet | None:
    """The cheapest owned base with hourly cards for the busier hours, on the own server's GPU, where a
    service runs on it and an hourly offer of that GPU is admitted in the jurisdiction the servers stand in
    (``home``: the company's, as a mixed fleet keeps its base and peak in one place)."""
    plan = replicas.plans.get(server.gpu)
    if not own.applicable or plan is None or plan.hours_per_day_running is not None:
        return None
    hourly = [
        p
        for p in priced
        if not p.excluded_by
        and p.listing.offer.gpu == server.gpu
        and p.listing.offer.billing != "committed"
        and p.listing.jurisdiction == home
    ]
    hours = replicas_by_hour(plan, capacity.traffic, capacity.load, replicas.sizing)
    return cheapest_owned_base_fleet(
        own.usd_per_month / own.nodes,
        server.gpus_per_server,
        server.max_servers,
        plan,
        hours,
        hourly,
        capacity.traffic,
        days,
    )
