"""The data behind the memo's two charts, computed once so that the Mermaid charts in the memo, the PNG
files of ``--charts`` and the JSON result show the same numbers.

- Buy versus rent: the monthly cost of the own hardware (fixed, whatever its utilization) against the
  cost of renting the same busy card-hours at the compared offer's price; they cross at the break-even.
  Against a reservation, paid every calendar hour, both lines are flat and do not cross.
- API versus self-hosted: the monthly cost at other volumes of the same workload, per-token API against
  the replicas of the best rental that the volume's peak needs, sized as the decision's own are (headroom,
  latency targets, spares, the least replicas), so that at the workload's volume the line is the
  decision's cost; a batch, the replicas its work needs in its window, billed as the offer bills the
  hours they run.

"""

from __future__ import annotations

from collections.abc import Callable

from gpu_advisor.engine.calc.replicas import ReplicaPlan, Sizing, replicas_for_peak_rate
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.domain.results import ApiCost, ApiVersusSelfHosted, BuyVersusRent, Option, OwnHardware

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


def api_versus_self_hosted(
    api: ApiCost | None,
    best: Option | None,
    plan: ReplicaPlan | None,
    sizing: Sizing,
    load: Load,
    requests_per_day: int,
    batch_month: Callable[[float], float] | None = None,
) -> ApiVersusSelfHosted | None:
    """``batch_month``: a batch's monthly cost at a multiple of its work (``listings.batch_month_at``)."""
    if api is None or best is None or plan is None or requests_per_day <= 0:
        return None
    per_request = api.usd_per_month / requests_per_day
    per_replica = best.usd_per_month / best.replicas
    points = tuple(sorted({*VOLUME_POINTS, requests_per_day}))
    self_hosted = []
    for volume in points:
        if plan.hours_per_day_running is not None and batch_month is not None:
            cost = batch_month(volume / requests_per_day)
        else:
            peak = volume / (load.hours_per_day * SECONDS_PER_HOUR) * load.peak_factor
            cost = replicas_for_peak_rate(plan, sizing, peak) * per_replica
        self_hosted.append(cost)
    return ApiVersusSelfHosted(
        requests_per_day=points,
        api_usd_per_month=tuple(per_request * volume for volume in points),
        self_hosted_usd_per_month=tuple(self_hosted),
        api=api.name,
        self_hosted=f"{best.provider} {best.offer}, {best.gpus // best.replicas} × {best.gpu} per replica",
        self_hosted_provider=best.provider,
        self_hosted_offer=best.offer,
        self_hosted_gpu=best.gpu,
        self_hosted_cards_per_replica=best.gpus // best.replicas,
    )
