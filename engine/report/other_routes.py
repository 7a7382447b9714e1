"""The routes the decision did not take that no rule rules out, each with its monthly cost.

The memo reads them where a figure depends on what else still stands: the price at which a stale list
price stops deciding (KNB001), and what an office purchase leads the cheapest other self-hosted route by.
A route stands where no fired rule rules it out (``Resolution.ruled_out``), as the decision's own
settlement reads it; a route no rule proposes still counts, as the rules that propose a route on cost
would propose it once the decided route cost more. A mixed fleet is not among them: it is chosen among
every reservation and hourly offer, not as one route.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gpu_advisor.engine.domain.options import Option
from gpu_advisor.engine.domain.own_costs import OwnHardware
from gpu_advisor.engine.domain.results import ApiCost, Decision, OtherRoute


def next_best_option(options: Sequence[Option], best: Option | None) -> Option | None:
    """The first dedicated offer after the best one that no rule excluded (``options`` are cheapest
    first): another offer, not the best one in another region at the same price."""
    same = (best.provider, best.offer, best.gpu) if best is not None else None
    return next(
        (
            o
            for o in options
            if not o.excluded_by
            and o.pricing != "serverless"
            and not o.chosen
            and (o.provider, o.offer, o.gpu) != same
        ),
        None,
    )


def other_routes(
    decision: Decision,
    best: Option | None,
    next_best: Option | None,
    serverless: Option | None,
    own: OwnHardware,
    apis: Sequence[ApiCost],
    ruled_out: Mapping[str, Sequence[str]],
) -> tuple[OtherRoute, ...]:
    """Cheapest first; a tie keeps the order rental, own servers, serverless, API."""
    taken = decision.deployment
    routes: list[OtherRoute] = []
    rental = None
    if best is not None and best.chosen:
        # The decided route is the best rental: the rental beside it is the next best offer.
        rental = next_best
    elif best is not None and taken != "dedicated_cloud" and "dedicated_cloud" not in ruled_out:
        # The best rental and the best serverless option are the cheapest no rule excluded: a route the
        # rules rule out is the only way they do not stand.
        rental = best
    if rental is not None:
        routes.append(
            OtherRoute(
                kind="dedicated_cloud",
                usd_per_month=rental.usd_per_month,
                name=rental.offer,
                provider=rental.provider,
                gpu=rental.gpu,
                count=rental.gpus,
            )
        )
    if taken != "own_hardware" and own.applicable and own.usd_per_month and "own_hardware" not in ruled_out:
        routes.append(
            OtherRoute(
                kind="own_hardware", usd_per_month=own.usd_per_month, name=own.server_name, count=own.nodes
            )
        )
    if (
        taken != "serverless"
        and serverless is not None
        and serverless.serverless is not None
        and "serverless" not in ruled_out
    ):
        routes.append(
            OtherRoute(
                kind="serverless", usd_per_month=serverless.usd_per_month, name=serverless.serverless.name
            )
        )
    compared = next((api for api in apis if api.compared), None)
    if taken != "api" and compared is not None and "api" not in ruled_out:
        routes.append(OtherRoute(kind="api", usd_per_month=compared.usd_per_month, name=compared.name))
    return tuple(sorted(routes, key=lambda route: route.usd_per_month))
