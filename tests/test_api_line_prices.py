"""DEP046: under the documents' 10,000 requests/day line a managed API is recommended because a
self-hosted GPU would idle while paid; a monthly batch billed for the hours its run takes does not idle,
and where such a route costs clearly less than the API (by at least ``saving_worth_mentioning``, 5 %), the
prices decide. The API is set aside on cost, not barred: the memo says it may still be used."""

from __future__ import annotations

import datetime as dt
from typing import Any

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo

AS_OF = dt.date(2026, 11, 30)
MONTHLY: dict[str, Any] = {
    "name": "monthly-batch",
    "model": {"name": "mixtral-8x7b", "precision": "fp8"},
    "requests_per_day": 100_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 400,
    "load_pattern": "batch",
    "batch_runs_per_month": 1,
    "company_country": "DE",
}


def decided(workload: dict[str, Any]) -> Any:
    return recommend(validate_workload(workload, "test"), AS_OF)


def test_a_monthly_batch_billed_for_its_run_is_self_hosted_where_it_costs_clearly_less() -> None:
    result = decided(MONTHLY)
    decision = result.decision
    assert (decision.deployment, decision.provider, decision.offer, decision.gpu, decision.gpus) == (
        "dedicated_cloud",
        "runpod",
        "community",
        "b200",
        1,
    )
    assert result.resolution.ruled_out["api"] == ("DEP046",)
    assert "api" not in result.resolution.barred
    # The API: one run of 100,000 requests x 1,900 tokens at DeepInfra's 0.54 USD per million, in and out.
    api = 100_000 * 1_900 * 0.54 / 1e6
    assert round(api, 2) == 102.60
    # The rental: RunPod bills per second at 5.98 USD an hour, for the run and the weights' load.
    best = result.best_option
    assert best is not None and best.usd_per_gpu_hour == 5.98
    assert round(decision.usd_per_month or 0, 6) == round(5.98 * best.billed_hours_per_month, 6)
    assert round(decision.usd_per_month or 0, 2) == 6.50
    saving = 1 - (decision.usd_per_month or 0) / api
    assert round(saving, 2) == 0.94
    memo = render_memo(result)
    assert (
        "3,287 requests/day (a day of the schedule on average, DEP034) is below the 10,000 line, where the "
        "documents point to a managed API as the cheapest route at low volume (DEP001). Priced, it is not: "
        "runpod community (1 × b200) at $6.50/month costs 94 % less than the API at $102.60/month, as the "
        "batch's cards are billed for the hours its runs take, not for a month of idling. The prices decide, "
        "as they do above the 100,000 line (DEP002, DEP011): the self-hosted route is recommended. The API "
        "stays the simpler route: it runs no instances of the team's own." in memo
    )
    assert (
        "The like-for-like managed API (Mixtral 8x7B Instruct (DeepInfra)) would cost $103 per month; the "
        "rules set it aside on cost or strategy (DEP046).\n" in memo
    )
    assert (
        "The rules set the managed APIs aside on cost or strategy (DEP046): the workload may use one, and "
        "the prices here are what it would pay." in memo
    )
    assert "ruled out for this workload (DEP046)" not in memo


def test_a_saving_under_five_percent_leaves_the_documents_line_standing() -> None:
    """Llama 3.3 70B: DeepInfra's API at 27.80 USD (100,000 x (1,500 x 0.10 + 400 x 0.32) / 1e6), the
    rented B200 at 26.51 USD: 4.6 % less, noise next to the price dates, so the API stays."""
    result = decided({**MONTHLY, "model": {"name": "llama-3.3-70b", "precision": "fp8"}})
    assert (result.decision.deployment, result.decision.deciding_rule_id) == ("api", "DEP001")
    api = 100_000 * (1_500 * 0.10 + 400 * 0.32) / 1e6
    assert round(result.decision.usd_per_month or 0, 2) == round(api, 2) == 27.80
    best = result.best_option
    assert best is not None and round(best.usd_per_month, 2) == 26.51
    assert 0 < 1 - best.usd_per_month / (result.decision.usd_per_month or 1) < 0.05
    assert "DEP046" not in result.fired_rules


def test_a_legal_bar_is_said_as_one() -> None:
    """Own weights bar every model API (DEP005, a bar): the resolution names it under ``barred``, and the
    memo keeps saying the workload may not use it."""
    result = decided({**MONTHLY, "model": {**MONTHLY["model"], "custom_weights": True}})
    assert result.resolution.barred["api"] == ("DEP005",)
    assert "DEP046" not in result.fired_rules
    assert "set aside on cost or strategy" not in render_memo(result)
