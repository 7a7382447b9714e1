"""``check`` holds a batch proposal to its window: the day's work over the proposed replicas' estimated
throughput is the hours a run takes (SIZ019 fails a run longer than the window), and SIZ009 says in a
batch's terms what the recommendation sizes for; on spot, with the work redone after interruptions. Before,
a 16-card proposal that needs 11.4 h for a 10-hour window passed with SIZ009's service warning ("the
busiest minutes fill at most 70 %")."""

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
    """P5 spot: 5 % of the work is redone after interruptions, so a run takes 1.05 times the hours the
    estimated throughput gives, and the cards that keep the window are sized for that too."""
    workload = validate_workload(merged(CASES["base_workload"], CASE["workload"]), "test")
    plan = evaluate_workload(workload, EVALUATED_ON).market.plans["h100-sxm"]
    assert (plan.cards_per_replica, plan.gpus_for_peak) == (2, 20)
    # 2,000,000 requests over 8 replicas at the estimated rate each, 5 % of it redone.
    hours = 2_000_000 / (8 * plan.requests_per_second_per_replica) / 3600
    assert (f"{hours:.1f}", f"{hours * 1.05:.1f}") == ("11.7", "12.3")
    # With the rework, the window needs 8 x 11.68 / 10 x 1.05 x 1.0574 = 10.38 replicas with the error
    # band taken off: 11 of 2 cards. 133 sequences decoding (beside 72.65 GB of FP8 weights, the 16-bit
    # embedding and lm_head among them) bring 997.5 prompt tokens a step, so 0.665 of the steps carry a
    # 1,500-token prompt: a pass of 1,633 tokens, 13.4 million elements, reaches 0.37 of the link on 2
    # cards, below the one share of 0.41; the other steps' 133 tokens, 1.1 million elements, reach 0.72:
    # a run takes 11.7 h, not 11.4.
    assert round(8 * hours / 10 * 1.05 * 1.0574, 2) == 10.38
    results = checked(16)
    assert results["SIZ019"].status == "fail"
    assert results["SIZ019"].message == (
        "On 16 × h100-sxm (8 replicas of 2 cards) a run of the day's work takes about 12.3 h at the "
        "estimated throughput, its start included (the weights' load and the engine's), and the work redone "
        "after spot interruptions, more than its 10-hour window, even if the estimate is right. About 22 "
        "cards of this GPU finish it in time with the estimate's error band taken off; a run that overruns "
        "its window also bills the hours beyond it."
    )
    assert results["SIZ009"].message == (
        "16 × h100-sxm hold the weights, but the day's work needs about 22 cards of this GPU to finish a "
        "run within its 10-hour window with the estimate's error band taken off. On the proposed cards a "
        "run takes about 12.3 h at the estimated throughput, its start included (the weights' load and the "
        "engine's), and the work redone after spot interruptions."
    )


def test_cards_beyond_whole_replicas_finish_nothing_sooner() -> None:
    # 17 cards hold 8 replicas of 2, as 16 do: the seventeenth idles.
    assert "takes about 12.3 h" in checked(17)["SIZ019"].message
    # 19 cards: 9 replicas, 11.68 x 8 / 9 x 1.05 = 10.9 h, still over the window.
    assert "takes about 10.9 h" in checked(19)["SIZ019"].message
    # 20 cards finish within it (9.8 h), but only 22 keep it with the error band taken off.
    assert (checked(20)["SIZ019"].status, checked(20)["SIZ009"].status) == ("pass", "warn")
    assert checked(22)["SIZ009"].status == "pass"


NIGHTLY_8B = {
    "name": "nightly",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 20_000_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 200,
    "load_pattern": "batch",
    "latency_sensitive": False,
    "batch_window_hours": 6,
    "company_country": "US",
}


def check_of(workload: dict[str, Any], proposal: dict[str, Any]) -> dict[str, Any]:
    document = ProposalDocument.model_validate({"workload": workload, "proposal": proposal})
    result = check_document(document, "case.yaml", 1, EVALUATED_ON)
    return {item.rule_id: item for item in result.results}


def test_an_owned_run_longer_than_a_day_never_catches_up_and_bills_nothing_more() -> None:
    # One HGX server, 8 single-card replicas: the night's 20 million requests take 46 hours. Its cost is
    # the same whatever the run takes, so no "bills the hours beyond it".
    found = check_of(
        NIGHTLY_8B, {"name": "one node", "deployment": "own_hardware", "gpu": "h100-sxm", "servers": 1}
    )
    assert found["SIZ019"].message == (
        "On 8 × h100-sxm (8 replicas of 1 card) a run of the day's work takes about 45.5 h at the estimated "
        "throughput, its start included (the weights' load and the engine's), more than its 6-hour window, "
        "even if the estimate is right, and more than a day: runs "
        "every day would never catch up with their work. About 65 cards of this GPU finish it in time with "
        "the estimate's error band taken off."
    )
    # Run weekly, the same run is late, not behind for good: the next run starts a week later.
    weekly = check_of(
        {**NIGHTLY_8B, "batch_runs_per_month": 4.35},
        {"name": "one node", "deployment": "own_hardware", "gpu": "h100-sxm", "servers": 1},
    )
    assert weekly["SIZ019"].message == (
        "On 8 × h100-sxm (8 replicas of 1 card) a run of its work takes about 45.5 h at the estimated "
        "throughput, its start included (the weights' load and the engine's), more than its 6-hour window, "
        "even if the estimate is right. About 65 cards of this GPU "
        "finish it in time with the estimate's error band taken off."
    )
    # On one card the weekly run takes 365 hours, more than the 168 (24 x 30.42 / 4.35) to the next run.
    one_card = check_of(
        {**NIGHTLY_8B, "batch_runs_per_month": 4.35},
        {"name": "one card", "deployment": "own_hardware", "gpu": "h100-sxm", "gpus": 1},
    )
    assert (
        "and more than the 168 hours from one run's start to the next: the runs would never catch up with "
        "their work."
    ) in (one_card["SIZ019"].message or "")


def test_a_serverless_batch_starts_the_instances_its_window_needs() -> None:
    # Modal starts as many instances as the window needs (the check prices it so): one proposed card is
    # one instance's, not the run's.
    proposal = {
        "name": "modal",
        "deployment": "serverless",
        "provider": "modal",
        "gpu": "h100-sxm",
        "gpus": 1,
    }
    assert "SIZ019" not in check_of({**NIGHTLY_8B, "requests_per_day": 2_000_000}, proposal)
