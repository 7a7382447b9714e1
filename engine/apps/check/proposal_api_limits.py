"""A managed-API proposal held to the API's default limits, as ``recommend`` holds the compared API
(PRV015 to PRV018): the requests the workload keeps in flight and sends a minute (a service's busiest
minutes, a batch's window) against what the proposed API takes by default (PRV020 to PRV022)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.domain.results import ApiCost
from gpu_advisor.engine.pipeline.api_comparison import (
    api_limit_facts,
    minute_rate,
    minute_rate_facts,
    window_in_flight,
)
from gpu_advisor.engine.pipeline.evaluation import Evaluation


def proposal_limit_facts(api: ApiCost, evaluation: Evaluation) -> tuple[dict[str, Any], dict[str, Any]]:
    """The proposed API's default limits (as recommend's api fact carries the compared API's) and the
    workload's figures they are compared with; the rules state which are worked out."""
    market, resolved = evaluation.market, evaluation.workload
    window = window_in_flight(market, resolved, evaluation.knowledge)
    # A batch keeps at least its window's rate times a lone request's time in flight (unknown where no
    # GPU holds the model); a service its peak's.
    in_flight = window.in_flight if window is not None else None
    if not market.load.served_in_paid_hours:
        in_flight = market.load.requests_in_flight_peak
    facts = {
        **api_limit_facts(api),
        **minute_rate_facts(minute_rate(market, resolved, window)),
        "in_flight_known": in_flight is not None,
        "requests_in_flight_needed": float(in_flight or 0.0),
    }
    return facts, {"api_rate_limit_scope": api.rate_limit_scope}
