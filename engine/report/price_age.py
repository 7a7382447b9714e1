"""The dated sources of a result's prices, and the oldest price the decision could take: what the memo's
Risks line dates the prices by.

A price shown but not open to the workload does not age the decision: an option or API price a rule
excluded, an API price of a withdrawn product or too short for the requests, a route a rule ruled out.
The owned server's line counts where the decision buys it. Where the rules exclude every price, the
oldest of all shown prices stands."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from gpu_advisor.engine.domain.results import ApiCost, Option, PriceDate
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.report.sources import (
    API_PRICES,
    GPU_OFFERS,
    OWN_SERVER_LINES,
    SERVERLESS_PRICES,
    price_dates,
)


def dated_prices(evaluation: Evaluation, options: Sequence[Option]) -> dict[str, Any]:
    """The result's ``price_dates`` and ``oldest_open_price``."""
    e, market = evaluation, evaluation.market
    listed = [a for a in market.apis if a.listed]
    own = market.own.server if market.own.applicable else None
    dates = price_dates(e.knowledge, options, listed, market.own.costs, e.rules, e.serverless, own)
    ruled_out = set(e.resolution.ruled_out)
    return {
        "price_dates": dates,
        "oldest_open_price": oldest_open_price(
            options, listed, dates, ruled_out, owns=e.decision.deployment == "own_hardware"
        ),
    }


def oldest_open_price(
    options: Sequence[Option],
    apis: Sequence[ApiCost],
    dates: Sequence[PriceDate],
    ruled_out: set[str],
    owns: bool,
) -> dt.date:
    """The oldest date of the prices the decision could take (``apis``: the API prices shown)."""
    open_dates = [o.as_of for o in options if not o.excluded_by and route(o) not in ruled_out]
    if "api" not in ruled_out:
        open_dates += [
            a.as_of for a in apis if not a.excluded_by and a.withdrawn_on is None and a.exceeded_limit is None
        ]
    if owns:
        open_dates += [d.as_of for d in dates if d.used_for == OWN_SERVER_LINES]
    if open_dates:
        return min(open_dates)
    return min(d.as_of for d in dates if d.used_for in (GPU_OFFERS, SERVERLESS_PRICES, API_PRICES))


def route(option: Option) -> str:
    """The deployment a rule rules out to close the option's route: serverless, else a dedicated rental."""
    return "serverless" if option.pricing == "serverless" else "dedicated_cloud"
