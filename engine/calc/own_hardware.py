"""An owned server carrying the workload: which server, how many nodes, their busy share, the cost per
GPU-hour in its lines (the documents' capital, power and rack; colocation and staff at the company
country's defaults) and the break-even utilization against renting.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Literal

from gpu_advisor.engine.calc.commitments import AsBilled, option_billing
from gpu_advisor.engine.calc.costs import (
    OwnHardwareCost,
    ServerAssumptions,
    break_even_utilization,
    node_busy_share,
    own_hardware_cost,
)
from gpu_advisor.engine.calc.plan_variants import same_shape, throughput_alone, without_spares
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.server_costs import ServerCosts
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.own_costs import CappedServer, OwnHardware, ServerLoss, UsdPerGpuHour
from gpu_advisor.engine.domain.results import Option
from gpu_advisor.engine.domain.workload import ResolvedWorkload


def per_gpu_hour(assumptions: ServerAssumptions) -> UsdPerGpuHour:
    return hourly_lines(own_hardware_cost(assumptions))


def hourly_lines(cost: OwnHardwareCost) -> UsdPerGpuHour:
    return UsdPerGpuHour(
        capital=cost.capital,
        power=cost.power,
        rack=cost.rack,
        colocation=cost.colocation,
        staff=cost.staff,
        total=cost.total,
    )


def select_own_server(
    knowledge: Knowledge,
    plans: dict[str, ReplicaPlan],
    unsuitable: dict[str, list[str]],
    excluded_housings: Mapping[str, tuple[str, ...]],
) -> tuple[OwnServer, tuple[str, ...]]:
    """The first catalog server whose GPU carries the load within its ``max_servers`` and whose housing no
    rule excludes (``excluded_housings``: office, datacenter, each with the rules that exclude it); else
    the default. Beside it, where the default stands in an excluded housing: the rules that kept out a
    server that would carry the load (the workstation in the office and the node in the datacenter), else
    those that exclude the default's own housing; () where none excludes the server chosen.

    The catalog lists a single office card before the 8-GPU node, so a small model is costed on the
    card the documents recommend for it, not on a datacenter node."""
    kept_out: list[str] = []
    for server in knowledge.own_hardware.servers:
        if not carries(server, plans, unsuitable):
            continue
        if server.housing not in excluded_housings:
            return server, ()
        kept_out.extend(excluded_housings[server.housing])
    default = knowledge.own_server()
    if default.housing not in excluded_housings:
        return default, ()
    return default, tuple(dict.fromkeys(kept_out)) or excluded_housings[default.housing]


def capped_servers(
    knowledge: Knowledge,
    plans: dict[str, ReplicaPlan],
    unsuitable: dict[str, list[str]],
    excluded_housings: Mapping[str, tuple[str, ...]],
    chosen: OwnServer,
) -> tuple[CappedServer, ...]:
    """The catalog servers before ``chosen`` that hold the load's replicas on a GPU that suits the workload
    but on more machines than their ``max_servers``: what the memo says was passed over, and why. Not one
    whose housing a rule excludes (an office machine for a business-critical service): the rule says why."""
    capped = []
    for server in knowledge.own_hardware.servers:
        if server.id == chosen.id:
            break
        needed = machines_needed(server, plans, unsuitable)
        if server.housing in excluded_housings or needed is None or server.max_servers is None:
            continue
        if needed > server.max_servers:
            capped.append(
                CappedServer(
                    server=server.id,
                    server_name=server.name,
                    machines_needed=needed,
                    max_servers=server.max_servers,
                )
            )
    return tuple(capped)


def machines_needed(
    server: OwnServer, plans: dict[str, ReplicaPlan], unsuitable: dict[str, list[str]]
) -> int | None:
    """The machines of ``server`` that hold the load's replicas (``nodes_for``); None where its GPU holds
    none or does not suit the workload."""
    plan = plans.get(server.gpu)
    if plan is None or server.gpu in unsuitable:
        return None
    return nodes_for(plan, server)


def carries(server: OwnServer, plans: dict[str, ReplicaPlan], unsuitable: dict[str, list[str]]) -> bool:
    """``server``'s GPU holds the load's replicas and suits the workload, within the servers the catalog
    lets a workload buy of it (``max_servers``)."""
    needed = machines_needed(server, plans, unsuitable)
    return needed is not None and (server.max_servers is None or needed <= server.max_servers)


def nodes_for(plan: ReplicaPlan | None, server: OwnServer) -> int:
    """The servers that hold a plan's cards; where its replicas are spread over machines (a service's,
    SIZ015, or a business-critical batch's, SIZ038) and there are two or more, two at least, so that the
    spare does not share the others' node, and, where the rules add spares, as many as keep the peak's
    (a batch: the window's) replicas through the loss of any one with replicas on all their cards
    (``ServerLoss.servers_to_survive_loss``), as a rental's instances are placed."""
    nodes = max(1, math.ceil((plan.gpus if plan is not None else 0) / server.gpus_per_server))
    if plan is None or not (plan.spread or plan.spread_runs) or plan.replicas < 2:
        return nodes
    slots = server.gpus_per_server // plan.cards_per_replica if plan.cards_per_replica else 0
    # A replica larger than a server spans two (NET005): a lost server stops one replica.
    surviving = servers_to_survive(plan.replicas_for_peak, slots) if plan.spares_asked and slots else 0
    return max(nodes, 2, surviving)


def servers_to_survive(peak_replicas: int, slots: int) -> int:
    """The fewest servers of ``slots`` replicas each, full of replicas, that leave ``peak_replicas``
    when any one is lost."""
    return math.ceil(peak_replicas / slots) + 1


def servers_spreading(
    peak_replicas: int, cards_per_replica: int, server: OwnServer, named_replicas: int | None = None
) -> int:
    """The most servers that keep the peak's ``peak_replicas`` through the loss of any one and each hold
    a replica: as many as ``servers_to_survive`` with replicas on all their cards (the loss sentence of the
    memo's "Load and capacity"), or, for ``named_replicas`` (a proposal's named cards), no more than those
    replicas. 0 where a replica is larger than a server (a lost server stops it: NET005)."""
    slots = server.gpus_per_server // cards_per_replica if cards_per_replica else 0
    if slots == 0:
        return 0
    surviving = servers_to_survive(peak_replicas, slots)
    return surviving if named_replicas is None else min(named_replicas, surviving)


def left_after_a_loss(replicas: int, slots: int, servers: int) -> int:
    """The replicas left when the fullest of ``servers`` servers of ``slots`` replicas each, carrying
    ``replicas`` spread as evenly as they go, is lost."""
    return replicas - min(slots, math.ceil(replicas / servers))


def servers_needed(cards: int, server: OwnServer, plan: ReplicaPlan | None) -> int:
    """The servers a load of ``cards`` needs: those ``nodes_for`` buys for its ``plan`` (for replicas
    spread over machines, as many as keep the peak's replicas through the loss of any one); else whole
    servers for the cards (0 for none)."""
    if plan is None:
        return math.ceil(cards / server.gpus_per_server)
    return nodes_for(plan, server)


def server_loss(plan: ReplicaPlan | None, server: OwnServer, nodes: int) -> ServerLoss | None:
    """What losing one of ``nodes`` servers takes from ``plan``'s replicas, spread evenly over them; None
    where a replica is larger than a server (it spans two: the network between them is NET005's)."""
    if plan is None or not plan.cards_per_replica:
        return None
    slots = server.gpus_per_server // plan.cards_per_replica
    if slots == 0:
        return None
    per_server = min(slots, math.ceil(plan.replicas / nodes))
    idle = max(0, nodes * slots - plan.replicas)
    with_idle = plan.replicas + idle
    left_with_idle = left_after_a_loss(with_idle, slots, nodes)
    peak = plan.replicas - plan.spare_replicas
    to_survive = servers_to_survive(peak, slots)
    return ServerLoss(
        replicas=plan.replicas,
        peak_replicas=peak,
        spare_replicas=plan.spare_replicas,
        cards_per_replica=plan.cards_per_replica,
        replicas_per_server_max=per_server,
        idle_card_replicas=idle,
        replicas_left=left_after_a_loss(plan.replicas, slots, nodes),
        replicas_left_with_idle=left_with_idle,
        servers_to_survive_loss=to_survive,
        # Servers full of replicas (the idle cards running them too): what survives is whole servers'.
        servers_short=max(0, to_survive - nodes),
    )


def power_at_busy_share(rated: float, busy_share: float, idle_share: float) -> float:
    """The power line ``rated`` (every card at its rated draw in every hour) with the hours the cards are
    busy at that draw and the others at ``idle_share`` of it."""
    return rated * (busy_share + idle_share * (1 - busy_share))


def idle_cards_keep_the_peak(loss: ServerLoss | None, nodes: int) -> bool:
    """As planned with a spare, the fullest of ``nodes`` servers lost leaves fewer than the peak's
    replicas, and the replicas the idle cards hold make up for it (no server more is needed): those cards
    are not idle (SIZ032). Without a spare (min_replicas) the idle cards are not counted on."""
    return bool(
        loss
        and loss.spare_replicas
        and nodes > 1
        and loss.servers_short == 0
        and loss.replicas_left < loss.peak_replicas
    )


def own_hardware_position(
    server: OwnServer,
    priced: ServerCosts,
    plans: dict[str, ReplicaPlan],
    unsuitable: dict[str, list[str]],
    resolved: ResolvedWorkload,
    rent_against: Option | None,
    busy_share: float,
    cheapest: AsBilled | None,
    housing_excluded_by: tuple[str, ...] = (),
) -> OwnHardware:
    """The selected own server carrying this workload: nodes, node utilization, monthly cost, break-even,
    and the rentals it is compared with, each at its monthly bill (``commitments``): the compared offer
    and ``cheapest``, the admitted rental whose bill is the least.

    Node utilization counts the whole node: busy card-hours of the cards the workload needs, divided by
    all cards' calendar hours, so idle cards of a node bought for a smaller replica count against it. A
    card is busy in the hours a request is in flight on its replica (``busy_share``: each replica's on
    the server's GPU, requests sent to an idle replica whenever one is idle, the spares among them).
    ``priced``:
    the server at the company country's defaults (``server_costs``), with the share of its rated power an
    idle server draws, for the cost at the busy share beside the costed one (TCO028).
    ``housing_excluded_by``: the rules whose exclusions keep ``server`` out of where it stands (the
    default server ``select_own_server`` falls back to where every server that carries the load is
    excluded): buying is then not applicable.
    """
    assumptions = priced.assumptions
    cost = server_cost(assumptions, None, 0.0)
    plan = plans.get(server.gpu)
    applicable = plan is not None and server.gpu not in unsuitable and not housing_excluded_by
    gpus_needed = plan.gpus if plan is not None else 0
    nodes = nodes_for(plan, server)
    node_utilization = node_busy_share(
        gpus_needed, busy_share, resolved.hours_per_month, nodes * server.gpus_per_server, server
    )
    power = nodes * cost.power_usd_per_month
    return OwnHardware(
        power_usd_per_month=power,
        usd_per_month_at_busy_share=nodes * cost.server_usd_per_month
        - power
        + power_at_busy_share(power, node_utilization, priced.costs.idle_power_share),
        replicas=plan.replicas if plan is not None else 0,
        spare_replicas=plan.spare_replicas if plan is not None else 0,
        spare_servers=nodes - nodes_for(without_spares(plan), server) if plan is not None else 0,
        replica_busy_share=busy_share,
        applicable=applicable,
        housing_excluded_by=housing_excluded_by,
        server=server.id,
        server_name=server.name,
        gpus_per_server=server.gpus_per_server,
        gpu=server.gpu,
        nodes=nodes,
        gpus_needed=gpus_needed,
        node_utilization=node_utilization,
        usd_per_gpu_hour=hourly_lines(cost),
        usd_per_month=nodes * cost.server_usd_per_month,
        break_even_utilization=(
            break_even_utilization(cost.total, rent_against.usd_per_gpu_hour) if rent_against else None
        ),
        compared_with=f"{rent_against.provider}/{rent_against.offer}" if rent_against else None,
        rent_usd_per_gpu_hour=rent_against.usd_per_gpu_hour if rent_against else None,
        break_even_low_price=scenario(assumptions, rent_against, "server_price_usd", server.price_usd_low),
        break_even_high_price=scenario(assumptions, rent_against, "server_price_usd", server.price_usd_high),
        break_even_residual=scenario(assumptions, rent_against, "residual", server.residual_share_scenario),
        server_price_usd_low=server.price_usd_low,
        server_price_usd_high=server.price_usd_high,
        residual_share_scenario=server.residual_share_scenario,
        capital_usd_per_month=cost.capital_usd_per_month,
        server_price_usd=assumptions.server_price_usd,
        capital_usd=nodes * assumptions.server_price_usd,
        residual=assumptions.residual,
        costs=priced.costs,
        write_off_months=assumptions.months,
        compared_billing=option_billing(rent_against) if rent_against else None,
        compared_commitment_months=rent_against.commitment_months if rent_against else None,
        rent_gpus_rented=rent_against.gpus_rented if rent_against else None,
        rent_usd_per_month=rent_against.usd_per_month if rent_against else None,
        rent_usd_per_month_same_hours=rent_against.usd_per_month if rent_against else None,
        rent_billed_hours_per_month=rent_against.billed_hours_per_month if rent_against else None,
        cheapest_same_hours=cheapest.name if cheapest else None,
        cheapest_same_hours_billing=cheapest.billing if cheapest else None,
        cheapest_same_hours_usd_per_month=cheapest.usd_per_month if cheapest else None,
        cheapest_billed_hours_per_month=cheapest.billed_hours_per_month if cheapest else None,
        server_loss=server_loss(plan, server, nodes) if applicable else None,
        kwh_per_year=nodes * priced.costs.node_kw * priced.costs.hours_per_month * 12,
        financing_usd_per_month=nodes
        * financing_usd_per_month(
            assumptions.server_price_usd,
            assumptions.residual,
            assumptions.months,
            priced.costs.borrowing_rate_per_year,
        )
        if priced.costs.borrowing_rate_per_year
        else None,
    )


def with_own_latency_cost(
    own: OwnHardware,
    server: OwnServer,
    planned: ReplicaPlan | None,
    lean: Callable[[str], ReplicaPlan | None],
) -> OwnHardware:
    """``own`` with what the latency targets cost at least on its servers (``planned``: the plan they
    carry): the servers that hold the plan throughput alone chooses on the server's GPU (``lean``), at
    the same cost per server (another server may hold the smaller plan for less); unchanged where the
    server does not apply or the targets add no server."""
    if not own.applicable or planned is None:
        return own
    plan = lean(server.gpu)
    if plan is None or same_shape(plan, planned):
        return own
    nodes = nodes_for(plan, server)
    if nodes >= own.nodes:
        return own
    per_node = own.usd_per_month / own.nodes
    alone = throughput_alone(plan, nodes * per_node, servers=nodes)
    return own.model_copy(
        update={"throughput_alone": alone, "latency_targets_usd_per_month": (own.nodes - nodes) * per_node}
    )


def scenario(
    assumptions: ServerAssumptions, rent_against: Option | None, field: ServerScenario, value: float
) -> float | None:
    return break_even_at(assumptions, rent_against.usd_per_gpu_hour, field, value) if rent_against else None


ServerScenario = Literal["server_price_usd", "residual"]
"""The own-server assumptions the documents vary: the price range and a residual value."""


def break_even_at(
    assumptions: ServerAssumptions,
    rent_price: float | None,
    field: ServerScenario | None = None,
    value: float = 0.0,
) -> float:
    """Break-even utilization against ``rent_price``, with one server assumption changed when ``field``
    is given."""
    if not rent_price:
        return 0.0
    return break_even_utilization(server_cost(assumptions, field, value).total, rent_price)


@per_object
def server_cost(
    assumptions: ServerAssumptions, field: ServerScenario | None, value: float
) -> OwnHardwareCost:
    """An own card's cost per calendar hour, with one assumption changed when ``field`` is given: the
    same for every workload of a country, so worked out once per server, country and change."""
    if field is not None:
        assumptions = assumptions.model_copy(update={field: value})
    return own_hardware_cost(assumptions)


def financing_usd_per_month(price: float, residual: float, months: int, rate_per_year: float) -> float:
    """What borrowing a server's ``price`` adds a month to its straight-line capital line: a loan repaid in
    ``months`` equal payments at ``rate_per_year`` (monthly compounding), the ``residual`` share of the
    price left to repay at the end from its resale, against ``price`` x (1 - ``residual``) / ``months``."""
    r = rate_per_year / 12
    balloon = price * residual / (1 + r) ** months
    payment = (price - balloon) * r / (1 - (1 + r) ** -months)
    return payment - price * (1 - residual) / months
