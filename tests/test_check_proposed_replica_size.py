"""A proposal of several replicas smaller than the recommendation's is judged on replicas of its own size:
the cards are split into whole replicas of the fewest cards that hold the model, and the cards the peak
needs are those such replicas need."""

from __future__ import annotations

from typing import Any

from helpers import EVALUATED_ON

from gpu_advisor.api import check, render_memo
from gpu_advisor.engine.apps.check.replica_size import replica_cards
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

# An Austrian law firm's contract analysis: 20,000-token documents, answers users wait for.
LEGAL: dict[str, Any] = {
    "name": "at-legal-analysis",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 3000,
    "avg_input_tokens": 20000,
    "avg_output_tokens": 1500,
    "context_tokens": 32768,
    "load_pattern": "variable",
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": True,
    "model_stable": True,
    "company_country": "AT",
}
SCALEWAY = {
    "name": "three pairs",
    "deployment": "dedicated_cloud",
    "provider": "scaleway",
    "offer": "h100-sxm-2-80g",
    "gpu": "h100-sxm",
    "pricing": "on_demand",
    "region": "fr-par-2",
}


def test_the_memos_throughput_plan_of_three_pairs_passes_as_three_pairs() -> None:
    """The memo offers three replicas of 2 x H100 for throughput alone (the latency targets plan larger
    ones): checked as proposed on Scaleway's 2-card instances, it is three instances at €3.3099 ($3.84)
    a card for the 264 paid hours, $6,082 (it was failed by NET004 as 4-card replicas no 2-card instance
    holds, billed as 8 cards, $8,109), and SIZ009 holds it to what 2-card replicas need."""
    memo = " ".join(render_memo(recommend(validate_workload(LEGAL, "test"), EVALUATED_ON)).split())
    assert "3 replicas of 2 × h100-sxm (6 GPUs in all, spares included) would carry the peak" in memo
    result = check({"workload": LEGAL, "proposal": {**SCALEWAY, "gpus": 6}}, EVALUATED_ON)
    statuses = {item.rule_id: item.status for item in result.results}
    assert (statuses["NET004"], statuses["SIZ009"]) == ("pass", "pass")
    assert "PRC013" not in statuses or statuses["PRC013"] == "pass"
    # €3.3099 a card-hour at $1.16 a euro (knowledge/exchange_rates.yaml).
    assert result.usd_per_month == round(6 * 3.3099 * 1.16 * 264, 2) == 6081.74
    # One pair alone is held to the recommendation's replicas: SIZ009 names what they need.
    single = check({"workload": LEGAL, "proposal": {**SCALEWAY, "gpus": 2}}, EVALUATED_ON)
    assert {i.rule_id: i.status for i in single.results}["SIZ009"] == "warn"


def test_the_cards_split_into_whole_replicas_the_offer_s_instances_hold() -> None:
    """The replica size is chosen the same way whatever the number of cards: the plan's (8) where the
    cards are whole replicas of it and an instance holds one; else the usual count (4) or the fewest
    that hold the model (2) that divides the cards and fits an instance; else the usual count where an
    instance holds it, or the fewest that fit, the rest idle; else the usual count within the cards."""
    result = recommend(validate_workload(LEGAL, "test"), EVALUATED_ON)
    fit = next(f for f in result.sizing.gpus if f.gpu == "h100-sxm")
    assert (fit.gpus_for_light_load, fit.gpus_with_kv_reserve) == (2, 4)
    counts = (1, 2, 4, 8, 16)
    grid = {
        (gpus, room): replica_cards(fit, gpus, 8, counts, room)  # type: ignore[arg-type]
        for gpus in (3, 5, 6, 8, 12, 16)
        for room in (2, 4, 8)
    }
    assert grid == {
        (3, 2): 2, (3, 4): 2, (3, 8): 2,
        (5, 2): 2, (5, 4): 4, (5, 8): 4,
        (6, 2): 2, (6, 4): 2, (6, 8): 2,
        (8, 2): 2, (8, 4): 4, (8, 8): 8,
        (12, 2): 2, (12, 4): 4, (12, 8): 4,
        (16, 2): 2, (16, 4): 4, (16, 8): 8,
    }  # fmt: skip


def test_eight_or_five_cards_on_two_card_instances_run_pairs() -> None:
    """On Scaleway's 2-card instances, 8 and 16 cards were held to 8-card replicas no instance holds
    (NET004 failed), and 5 cards to a 4-card one billed as 8 cards: they run pairs, the fifth card
    idle, and NET004 passes."""
    for gpus in (5, 8, 16):
        result = check({"workload": LEGAL, "proposal": {**SCALEWAY, "gpus": gpus}}, EVALUATED_ON)
        statuses = {item.rule_id: item.status for item in result.results}
        assert statuses["NET004"] == "pass", gpus
    five = check({"workload": LEGAL, "proposal": {**SCALEWAY, "gpus": 5}}, EVALUATED_ON)
    # Three 2-card instances hold the five cards: six billed.
    assert five.usd_per_month == round(6 * 3.3099 * 1.16 * 264, 2)


def test_cards_that_form_no_replica_on_an_offer_sold_by_the_card_bill_as_proposed() -> None:
    """Lambda sells the H100 one card an instance: no replica of this model (two cards at least) fits one,
    so NET004 fails the proposal, and five cards bill five, $4.29 for the 264 paid hours each (they were
    billed as two 4-card replicas' eight, and PRC013 told the proposal to take all eight)."""
    lambda_cards = {
        "name": "single cards",
        "deployment": "dedicated_cloud",
        "provider": "lambda",
        "offer": "1-gpu-plan",
        "gpu": "h100-sxm",
        "gpus": 5,
        "pricing": "on_demand",
        "region": "US",
    }
    result = check({"workload": LEGAL, "proposal": lambda_cards}, EVALUATED_ON)
    statuses = {item.rule_id: item.status for item in result.results}
    assert statuses["NET004"] == "fail"
    assert statuses.get("PRC013", "pass") == "pass"
    assert result.usd_per_month == round(5 * 4.29 * 264, 2)
