"""Whose GPU the load's busy share is worked out on, and the busy shares of every GPU's plan: the
market stage's time-based utilization (``calc.busy``), which the serverless band and buy versus rent
read."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from gpu_advisor.engine.calc.busy import busy_share
from gpu_advisor.engine.calc.listings import PricedListing
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.load import BusyShareRoute, Load
from gpu_advisor.engine.domain.results import Option
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.capacity import Capacity
from gpu_advisor.engine.pipeline.serverless import ServerlessMarket


class BusyShares:
    """The busy share on each GPU's plan, worked out when first asked for (it sums over the day's hours):
    of the fleet (``of``: a request in flight on any replica) and of each replica (``of_replica``)."""

    def __init__(self, capacity: Capacity, plans: dict[str, ReplicaPlan], paid_hours: float) -> None:
        self._capacity, self._plans, self._paid = capacity, plans, paid_hours
        self._found: dict[tuple[str, bool], float] = {}

    def of(self, gpu: str) -> float | None:
        return self._share(gpu, False)

    def of_replica(self, gpu: str) -> float | None:
        return self._share(gpu, True)

    def of_plan(self, plan: ReplicaPlan) -> float | None:
        """The fleet's busy share on an option's own ``plan``: a batch's running hours, which are the
        option's (whole instances may run more replicas than its GPU's sizing plan, for fewer hours); a
        service's its GPU's (a request in flight on any replica does not depend on how many there are)."""
        if plan.hours_per_day_running is None:
            return self.of(plan.gpu)
        c = self._capacity
        return busy_share(plan, c.load, c.traffic, c.days_per_month, self._paid)

    def _share(self, gpu: str, per_replica: bool) -> float | None:
        found = self._found.get((gpu, per_replica))
        if found is None:
            plan = self._plans.get(gpu)
            if plan is None:
                return None
            c = self._capacity
            found = self._found[gpu, per_replica] = busy_share(
                plan, c.load, c.traffic, c.days_per_month, self._paid, per_replica
            )
        return found


def busy_share_on(busy: BusyShares, gpu: str, time_utilization: float) -> float:
    """The busy share of each of ``gpu``'s replicas, requests sent to an idle replica whenever one is
    idle (``calc.traffic.busy_replicas``); the load's own where no plan on it gives one. An owned node's
    cards are busy when their own replica is, not whenever any replica of the fleet is: counting the
    fleet's share on every card made a spare replica's cards as busy as the fleet."""
    share = busy.of_replica(gpu)
    return share if share is not None else time_utilization


def load_gpu(
    best: Option | None,
    serverless: ServerlessMarket,
    plans: dict[str, ReplicaPlan],
    knowledge: Knowledge,
    ruled_out: Collection[str],
    server: OwnServer,
    priced: Sequence[PricedListing] = (),
    unsuitable: Collection[str] = (),
) -> tuple[str, BusyShareRoute] | None:
    """The GPU whose service time the load's busy share uses, and whose it is: of the routes the
    workload's rules leave standing (``ruled_out``: deployment -> rules), the best rental's, else the
    best serverless option's, else the own server's (where the data must stay in the building, the busy
    share is the own cards'); where the rules leave none of them, the best rental's or serverless
    option's all the same, else the reference GPU's where it holds the model, else the GPU of the
    cheapest rental ``priced`` (cheapest first) though rules leave no option standing, preferably one
    not ``unsuitable`` for the model: a GPU the catalog rents holds the model, so the utilization is
    worked out on it, not assumed."""
    Route = tuple[str, BusyShareRoute]
    rental: Route | None = (best.gpu, "rental") if best is not None else None
    hosted: Route | None = (serverless.best.listing.gpu.gpu, "serverless") if serverless.best else None
    own: Route | None = (server.gpu, "own_hardware") if server.gpu in plans else None
    standing: tuple[Route | None, ...] = (
        rental if "dedicated_cloud" not in ruled_out else None,
        hosted if "serverless" not in ruled_out else None,
        own if "own_hardware" not in ruled_out else None,
        (rental[0], "ruled_out") if rental else None,
        (hosted[0], "ruled_out") if hosted else None,
    )
    chosen = next((route for route in standing if route is not None), None)
    if chosen is not None:
        return chosen
    reference = knowledge.sizing.reference_gpu.gpu
    if reference in plans:
        return reference, "reference"
    gpus = [listing.listing.offer.gpu for listing in priced]
    cheapest = next((gpu for gpu in gpus if gpu not in unsuitable), gpus[0] if gpus else None)
    return (cheapest, "excluded") if cheapest is not None else None


def derived_utilization(resolved: ResolvedWorkload, load: Load, knowledge: Knowledge) -> ResolvedWorkload:
    """The workload with the utilization the rules read: the input's, else the load's busy share (the
    time-based utilization), else (no GPU holds the model) the load pattern's assumption."""
    if resolved.utilization is not None:
        return resolved
    if load.busy_share is not None:
        utilization, source = load.busy_share, "derived"
    else:
        utilization, source = resolved.fallback_utilization(knowledge), "load_pattern_default"
    return resolved.model_copy(update={"utilization": utilization, "utilization_source": source})
