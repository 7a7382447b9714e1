"""``check`` holds a batch proposal to its window: the day's work over the proposed replicas' estimated
throughput is the hours a run takes (SIZ019 fails a run longer than the window), and SIZ009 says in a
batch's terms what the recommendation sizes for. Before, a 16-card proposal that needs 11.4 h for a
10-hour window passed with SIZ009's service warning ("the busiest minutes fill at most 70 %")."""

from __future__ import annotations

import datetime as dt
from typing import Any

from helpers import merged
from test_check import CASES

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 11, 30)
CASE = next(c for c in CASES["cases"] if c["name"] == "a batch whose run overruns its window")


def checked(gpus: int) -> dict[str, Any]:
    document = {
        "workload": merged(CASES["base_workload"], CASE["workload"]),
        "proposal": merged(CASES["base_proposal"], {**CASE["proposal"], "gpus": gpus}),
    }
    result = check_document(ProposalDocument.model_validate(document), "case.yaml", 1, EVALUATED_ON)
    return {item.rule_id: item for item in result.results}


def test_a_run_on_too_few_cards_overruns_the_window_by_the_hours_worked_out() -> None:
    workload = validate_workload(merged(CASES["base_workload"], CASE["workload"]), "test")
    plan = evaluate_workload(workload, EVALUATED_ON).market.plans["h100-sxm"]
    assert (plan.cards_per_replica, plan.gpus_for_peak) == (2, 20)
    # 2,000,000 requests over 8 replicas at the estimated rate each.
    hours = 2_000_000 / (8 * plan.requests_per_second_per_replica) / 3600
    assert f"{hours:.1f}" == "11.4"
    results = checked(16)
    assert results["SIZ019"].status == "fail"
    assert results["SIZ019"].message == (
        "On 16 × h100-sxm (8 replicas of 2 cards) a run of the day's work takes about 11.4 h at the "
        "estimated throughput, more than its 10-hour window, even if the estimate is right. About 20 cards "
        "of this GPU finish it in time with the estimate's error band taken off; a run that overruns its "
        "window also bills the hours beyond it."
    )
    assert results["SIZ009"].message == (
        "16 × h100-sxm hold the weights, but the day's work needs about 20 cards of this GPU to finish a "
        "run within its 10-hour window with the estimate's error band taken off. On the proposed cards a "
        "run takes about 11.4 h at the estimated throughput."
    )


def test_cards_beyond_whole_replicas_finish_nothing_sooner() -> None:
    # 17 cards hold 8 replicas of 2, as 16 do: the seventeenth idles.
    assert "takes about 11.4 h" in checked(17)["SIZ019"].message
    # 19 cards: 9 replicas, 11.4 x 8 / 9 = 10.1 h, still over the window.
    assert "takes about 10.1 h" in checked(19)["SIZ019"].message
    assert checked(20)["SIZ019"].status == "pass"
