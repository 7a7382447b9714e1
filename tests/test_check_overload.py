"""``check`` fails replicas that serve fewer requests than the busiest hour brings (SIZ021), whatever
latency the workload accepts: before, two H100 for three million requests a day of a service with no
latency target passed with SIZ009's warning, and the cost comparison showed the proposal as a saving."""

from __future__ import annotations

import datetime as dt
from typing import Any

from helpers import merged
from test_check import CASES

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 11, 30)
CASE = next(
    c
    for c in CASES["cases"]
    if c["name"] == "replicas that serve fewer requests than the busiest hour brings"
)
WORKLOAD = merged(CASES["base_workload"], CASE["workload"])


def checked(gpus: int) -> dict[str, Any]:
    document = {
        "workload": WORKLOAD,
        "proposal": merged(CASES["base_proposal"], {**CASE["proposal"], "gpus": gpus}),
    }
    result = check_document(ProposalDocument.model_validate(document), "case.yaml", 1, EVALUATED_ON)
    return {item.rule_id: item for item in result.results}


def test_replicas_short_of_the_busiest_hour_fail_by_the_rates_worked_out() -> None:
    evaluation = evaluate_workload(validate_workload(WORKLOAD, "test"), EVALUATED_ON)
    plan = evaluation.market.plans["h100-sxm"]
    load = evaluation.capacity.load
    assert plan.cards_per_replica == 2
    # Three million requests a day around the clock, the steady profile's busiest hour on top.
    average = 3_000_000 / 86_400
    assert round(load.average_requests_per_second, 4) == round(average, 4)
    # The steady profile's busiest hour over its average hour.
    hourly = load_knowledge().load_profile("steady").hourly
    busiest = average * max(hourly) / (sum(hourly) / len(hourly))
    assert round(load.busiest_hour_requests_per_second, 6) == round(busiest, 6)
    one_replica = plan.requests_per_second_per_replica
    # Even the average hour brings more than one replica serves.
    assert one_replica < average < busiest
    results = checked(2)
    assert results["SIZ021"].status == "fail"
    assert results["SIZ021"].message == (
        f"The busiest hour brings {busiest:,.2f} requests/s on average; on the proposed 2 × h100-sxm, 1 "
        f"replica of 2 cards serves about {one_replica:,.2f} requests/s at the estimated throughput, before "
        "its error band is taken off: for that hour the queue grows by the difference every second, and "
        f"every request behind it waits longer than the one before. About {plan.gpus_for_peak} cards of this "
        "GPU carry the peak with headroom."
    )


def test_replicas_that_serve_the_busiest_hour_pass() -> None:
    evaluation = evaluate_workload(validate_workload(WORKLOAD, "test"), EVALUATED_ON)
    plan = evaluation.market.plans["h100-sxm"]
    busiest = evaluation.capacity.load.busiest_hour_requests_per_second
    # The fewest whole replicas whose estimated rate reaches the busiest hour's.
    replicas = next(n for n in range(1, 100) if n * plan.requests_per_second_per_replica >= busiest)
    assert checked(2 * replicas)["SIZ021"].status == "pass"
    assert checked(2 * (replicas - 1))["SIZ021"].status == "fail"
