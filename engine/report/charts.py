"""The data behind the memo's two charts, computed once so that the Mermaid charts in the memo, the PNG
files of ``--charts`` and the JSON result show the same numbers.

- Buy versus rent: the monthly cost of the own hardware (fixed, whatever its utilization) against the
  cost of renting the same busy card-hours at the compared offer's price; they cross at the break-even.
  Against a reservation, paid every calendar hour, both lines are flat and do not cross.
- API versus self-hosted: the monthly cost at other volumes of the same workload, per-token API against
  the self-hosted route the decision is about (the decided route; where the API is decided, the route it
  was weighed against), each point priced as an evaluation at that volume prices the route
  (``pipeline.volumes``): replicas sized as the decision's are, placed on the instances the offer sells, a
  batch spread over their cards and billed in the offer's increments; own servers as many as the volume
  needs. At the workload's volume the line is the decided (or compared) cost.

"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from gpu_advisor.engine.calc.listings import PricedListing
from gpu_advisor.engine.domain.chart_results import (
    SelfHostedLineFollows,
    SelfHostedLineKind,
    SelfHostedLineShape,
    ServerGrowth,
)
from gpu_advisor.engine.domain.own_costs import OwnHardware
from gpu_advisor.engine.domain.results import (
    ApiVersusSelfHosted,
    BuyVersusRent,
)
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.pipeline.volumes import MonthAt, RoutePoint, route_month_at
from gpu_advisor.engine.rulebook.details import ApiDetails

UTILIZATION_POINTS: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


VOLUME_POINTS: tuple[int, ...] = (
    1_000,
    3_000,
    10_000,
    30_000,
    100_000,
    300_000,
    1_000_000,
    3_000_000,
    10_000_000,
)


SECONDS_PER_HOUR = 3600

STEP_WIDTH = 1.02
"""Own servers are bought whole: the volume of the next one is found to within this factor."""


def buy_versus_rent(own: OwnHardware, rent_price: float | None) -> BuyVersusRent | None:
    if not own.applicable or not rent_price or own.break_even_utilization is None:
        return None
    cards = own.nodes * own.gpus_per_server
    calendar_hours = own.usd_per_month / (own.usd_per_gpu_hour.total * cards)
    committed = own.compared_billing == "committed" and own.rent_usd_per_month is not None
    return BuyVersusRent(
        utilization=UTILIZATION_POINTS,
        own_usd_per_month=tuple(own.usd_per_month for _ in UTILIZATION_POINTS),
        # A reservation bills every calendar hour whatever the utilization: a flat line like owning.
        rent_usd_per_month=tuple(
            (own.rent_usd_per_month or 0.0) if committed else u * cards * calendar_hours * rent_price
            for u in UTILIZATION_POINTS
        ),
        compared_with=own.compared_with or "",
        break_even_utilization=own.break_even_utilization,
        compared_billing="committed" if committed else "hourly",
    )


def volume_points(requests_per_day: int) -> tuple[int, ...]:
    return tuple(sorted({*VOLUME_POINTS, requests_per_day}))


LINE_KINDS: dict[str, SelfHostedLineKind] = {
    "dedicated_cloud": "dedicated_cloud",
    "own_hardware": "own_hardware",
    "serverless": "serverless",
}
"""The routes ``pipeline.volumes`` prices at other volumes (a mixed fleet is not one of them)."""


def line_kind(evaluation: Evaluation) -> tuple[SelfHostedLineKind, SelfHostedLineFollows, MonthAt | None]:
    """The route the self-hosted line prices: the decided one; for the API, the self-hosted route the
    rules weighed it against (``pipeline.api_comparison``); else (a mixed fleet, or no route priced)
    the cheapest rental. With the route's ``route_month_at``."""
    deployment = evaluation.decision.deployment
    follows: SelfHostedLineFollows = "decision"
    route: str = deployment
    if deployment == "api":
        details = evaluation.details["api"]
        route = details.self_hosted_kind if isinstance(details, ApiDetails) else ""
        follows = "api_comparison"
    kind = LINE_KINDS.get(route)
    month_at = route_month_at(evaluation, kind) if kind is not None else None
    if kind is not None and month_at is not None:
        return kind, follows, month_at
    return "dedicated_cloud", "cheapest_rental", route_month_at(evaluation, "dedicated_cloud")


def remembered(month_at: MonthAt) -> MonthAt:
    """``month_at`` working out each volume's point once: the search for the next server's step and for
    the loss it survives ask again for volumes the chart priced, or each other searched. Kept for one
    result only (a function of the evaluation, which no later one shares)."""
    points: dict[int, RoutePoint | None] = {}

    def at(volume: int) -> RoutePoint | None:
        if volume not in points:
            points[volume] = month_at(volume)
        return points[volume]

    return at


def next_server_at(
    requests_per_day: int, volumes: Sequence[int], month_at: MonthAt
) -> tuple[int, float] | None:
    """The highest volume the own servers of ``requests_per_day`` still hold, below the chart's first
    point above it that costs more, found by bisection on the volume's logarithm to within
    ``STEP_WIDTH`` and rounded down to three significant figures (the load's room to grow is never
    overstated). The chart's points alone draw a slope through the step (one server at 550,000 requests
    a day, two at 1,000,000); the memo says where it is. None where the next point is another server
    (a workstation outgrown by an HGX node), which is no one server more. With the volume, what the
    servers cost a month just beyond it. ``volumes``: the chart's, ascending (the workload's among them),
    priced as far as the first above the workload's that costs more."""
    now = month_at(requests_per_day)
    if now is None:
        return None
    above = next(
        (
            v
            for v in volumes
            if v > requests_per_day
            and (p := month_at(v)) is not None
            and p.usd_per_month != now.usd_per_month
        ),
        None,
    )
    if above is None:
        return None
    last, first = _last_held(
        requests_per_day, above, month_at, lambda p: p.usd_per_month == now.usd_per_month
    )
    beyond = month_at(first)
    if beyond is None or beyond.name != now.name:
        return None
    return _three_figures_down(last), beyond.usd_per_month


def loss_survived_up_to(requests_per_day: int, step: int | None, month_at: MonthAt) -> int | None:
    """The highest volume at which the own servers of ``requests_per_day`` still keep the peak's
    replicas through the loss of any one server (``ServerLoss.servers_short`` 0, the same servers),
    where that is below the next server's ``step`` (then the growth room the memo states is not the
    room a server's loss leaves); found as ``next_server_at`` finds the step. None where they do not
    survive it today, where a replica spans servers, and where the loss is survived up to the step."""
    now = month_at(requests_per_day)
    if now is None or now.servers_short != 0 or step is None:
        return None

    def survives(point: RoutePoint) -> bool:
        return point.usd_per_month == now.usd_per_month and point.servers_short == 0

    at_step = month_at(step)
    if at_step is not None and survives(at_step):
        return None
    last, _ = _last_held(requests_per_day, step, month_at, survives)
    return _three_figures_down(last)


def _last_held(
    low: int, high: int, month_at: MonthAt, holds: Callable[[RoutePoint], bool]
) -> tuple[int, int]:
    """Bisection on the volume's logarithm: the last volume from ``low`` (which holds) whose point
    ``holds``, and the first above it that does not, to within ``STEP_WIDTH`` or one request a day
    (whole volumes: at a few requests a day the middle rounds back to an end, and 2 % is below one)."""
    last, first = low, high
    while first / last > STEP_WIDTH and first - last > 1:
        middle = round(math.sqrt(last * first))
        point = month_at(middle)
        if point is not None and holds(point):
            last = middle
        else:
            first = middle
    return last, first


def _three_figures_down(volume: int) -> int:
    """Three significant figures, rounded down: the bisection places a step to within 2 %."""
    digits = len(str(volume)) - 3
    return volume if digits <= 0 else volume // 10**digits * 10**digits


def line_shape(kind: str, listing: PricedListing | None) -> SelfHostedLineShape:
    if kind == "own_hardware":
        return "servers"
    if kind == "serverless":
        return "serverless"
    assert listing is not None
    offer = listing.listing.offer
    if listing.plan.hours_per_day_running is None:
        return "replicas"
    if offer.billing == "committed":
        return "reserved"
    increment = offer.billing_increment_seconds
    return "batch_proportional" if increment is not None and increment < SECONDS_PER_HOUR else "batch_hours"


def api_versus_self_hosted(evaluation: Evaluation) -> ApiVersusSelfHosted | None:
    """The managed API against the self-hosted route the decision is about (``line_kind``), at the
    volumes of ``VOLUME_POINTS`` and the workload's own, each point priced as the route is priced at
    that volume (``pipeline.volumes``)."""
    market, decision = evaluation.market, evaluation.decision
    api, requests_per_day = market.compared_api, evaluation.workload.requests_per_day
    if api is None or requests_per_day <= 0:
        return None
    kind, follows, route_month = line_kind(evaluation)
    if route_month is None:
        return None
    month_at = remembered(route_month)
    volumes = volume_points(requests_per_day)
    priced = [(volume, month_at(volume)) for volume in volumes]
    growth = server_growth(evaluation, volumes, month_at) if kind == "own_hardware" else ServerGrowth()
    hosted = [point for _, point in priced if point is not None]
    points = tuple(volume for volume, point in priced if point is not None)
    per_request = api.usd_per_month / requests_per_day
    best, serverless, own = market.alternatives.best_listing, market.serverless.best, market.own
    if kind == "own_hardware":
        provider, offer, gpu, cards = "", own.server_name, own.gpu, 0
        label = f"own hardware ({own.server_name})"
    elif kind == "serverless":
        assert serverless is not None
        provider, offer = serverless.listing.product.provider, serverless.listing.product.name
        gpu, cards = serverless.listing.gpu.gpu, serverless.plan.cards_per_replica
        label = f"{offer}, {cards} × {gpu} per replica"
    else:
        assert best is not None
        listed = best.listing.offer
        provider, offer, gpu, cards = listed.provider, listed.offer, listed.gpu, best.plan.cards_per_replica
        label = f"{provider} {offer}, {cards} × {gpu} per replica"
    ruled_out = evaluation.resolution.ruled_out.get("api", ()) if decision.deployment != "api" else ()
    unpriced = tuple(volume for volume, point in priced if point is None)
    return ApiVersusSelfHosted(
        requests_per_day=points,
        # At the workload's own volume, the API's own figure (the decision's, where the API is decided).
        api_usd_per_month=tuple(
            api.usd_per_month if volume == requests_per_day else per_request * volume for volume in points
        ),
        self_hosted_usd_per_month=tuple(point.usd_per_month for point in hosted),
        api=api.name,
        self_hosted=label,
        self_hosted_provider=provider,
        self_hosted_offer=offer,
        self_hosted_gpu=gpu,
        self_hosted_cards_per_replica=cards,
        self_hosted_kind=kind,
        self_hosted_follows=follows,
        self_hosted_shape=line_shape(kind, best),
        self_hosted_servers=tuple(point.name for point in hosted) if kind == "own_hardware" else (),
        decided=decision.deployment,
        decided_usd_per_month=decision.usd_per_month
        if follows == "cheapest_rental" and decision.deployment != "api"
        else None,
        api_ruled_out_by=ruled_out,
        api_barred=bool(ruled_out) and bool(evaluation.resolution.barred.get("api")),
        self_hosted_unpriced=unpriced,
        self_hosted_unpriced_excluded_by=tuple(
            dict.fromkeys(
                rule for rules in evaluation.constraints.excluded_housings.values() for rule in rules
            )
        )
        if unpriced and kind == "own_hardware"
        else (),
        self_hosted_next_step_requests_per_day=growth.next_step_requests_per_day,
        self_hosted_next_step_usd_per_month=growth.next_step_usd_per_month,
        self_hosted_next_step_servers=growth.next_step_servers,
        self_hosted_next_step_resolution=growth.next_step_resolution,
        self_hosted_loss_survived_requests_per_day=growth.loss_survived_requests_per_day,
    )


def server_growth(evaluation: Evaluation, volumes: Sequence[int], month_at: MonthAt) -> ServerGrowth:
    """How far the load may grow on the own servers priced at the chart's volumes (``volumes``, by the
    own route's ``month_at``, ``remembered``) before one more is needed, and through the loss of one."""
    requests_per_day, own = evaluation.workload.requests_per_day, evaluation.market.own
    next_step = next_server_at(requests_per_day, volumes, month_at)
    if next_step is None:
        return ServerGrowth()
    step, beyond = next_step
    server_month = own.usd_per_month / own.nodes if own.nodes and own.usd_per_month else 0.0
    return ServerGrowth(
        next_step_requests_per_day=step,
        next_step_usd_per_month=beyond,
        next_step_servers=round((beyond - own.usd_per_month) / server_month) if server_month else 0,
        next_step_resolution=STEP_WIDTH - 1,
        loss_survived_requests_per_day=loss_survived_up_to(requests_per_day, step, month_at),
    )


def own_growth(evaluation: Evaluation, chart: ApiVersusSelfHosted | None) -> ServerGrowth | None:
    """Where the decision buys own servers: the chart's growth figures where it draws them, else the same
    worked out at the chart's volumes (no managed API is compared, so no chart is drawn)."""
    if evaluation.decision.deployment != "own_hardware" or evaluation.workload.requests_per_day <= 0:
        return None
    if (
        chart is not None
        and chart.self_hosted_kind == "own_hardware"
        and chart.self_hosted_follows == "decision"
    ):
        return ServerGrowth(
            next_step_requests_per_day=chart.self_hosted_next_step_requests_per_day,
            next_step_usd_per_month=chart.self_hosted_next_step_usd_per_month,
            next_step_servers=chart.self_hosted_next_step_servers,
            next_step_resolution=chart.self_hosted_next_step_resolution,
            loss_survived_requests_per_day=chart.self_hosted_loss_survived_requests_per_day,
        )
    month_at = route_month_at(evaluation, "own_hardware")
    if month_at is None:
        return None
    # Only the volumes the growth figures read are priced: no chart shows the others.
    return server_growth(
        evaluation, volume_points(evaluation.workload.requests_per_day), remembered(month_at)
    )
