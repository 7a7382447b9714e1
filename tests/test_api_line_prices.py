"""DEP046 and DEP047: under the documents' 10,000 requests/day line a managed API is recommended because a
self-hosted GPU would idle while paid and running it is effort. A monthly batch billed for the hours its
run takes does not idle: where such a route costs clearly less than the model's own API price (at least
``saving_worth_mentioning``, 5 %) and the saving exceeds the staff share the own-hardware line counts for
operating one server, the prices decide (DEP046); where the prices disagree with the line but something
weighs against the cheaper route, the memo says so and the line stands (DEP047). The API is set aside on
cost, not barred: the memo says it may still be used."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest
from helpers import run_waves, wave_seconds

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo

AS_OF = dt.date(2026, 11, 30)
MONTHLY: dict[str, Any] = {
    "name": "monthly-batch",
    "model": {"name": "mixtral-8x7b", "precision": "fp8"},
    "requests_per_day": 300_000,
    "avg_input_tokens": 3_000,
    "avg_output_tokens": 400,
    "load_pattern": "batch",
    "batch_runs_per_month": 1,
    "company_country": "DE",
}
# 5 % of a German DevOps engineer's 52,200 EUR a year, at 1.16 USD per EUR, a month.
STAFF = 52_200 * 1.16 * 0.05 / 12


def decided(workload: dict[str, Any]) -> Any:
    return recommend(validate_workload(workload, "test"), AS_OF)


def test_a_monthly_batch_whose_saving_pays_its_running_is_self_hosted() -> None:
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
    # The API: one run of 300,000 requests x 3,400 tokens at DeepInfra's 0.54 USD per million, in and out.
    api = 300_000 * 3_400 * 0.54 / 1e6
    assert round(api, 2) == 550.80
    # The rental: RunPod bills per second at 5.98 USD an hour, for the run, the weights' load and vLLM's 21.8
    # s start: one B200 holds 273 requests at once (192 GB x 0.9 less the FP8 checkpoint's 46.96 GB, 46.44B
    # parameters x 1 byte and the 16-bit embedding and lm_head, 2 x 32,000 x 4,096 x 2 bytes, and vLLM's
    # 3.5 GiB leave 122.08 GB, 273.9 requests of 3,400 tokens x 131,072 bytes; each request's first token
    # from its prompt's pass, 399 decode steps of its 400 tokens, each step reading at 0.86 of the
    # bandwidth), so the 300,000 run in 1,098 full waves of 20.960 s and one of 246, 19.395 s: 23,033.2 s;
    # with the 59.16 s start, 23,093 s, 6.41 hours, 38.36 USD.
    best = result.best_option
    assert best is not None and best.usd_per_gpu_hour == 5.98
    row = next(g for g in result.sizing.gpus if g.gpu == "b200")
    full = 273 / row.requests_per_second_per_replica
    last = wave_seconds(246, "mixtral-8x7b", "fp8", "b200", 1, (3_000, 400))
    assert (row.concurrent_requests, run_waves(300_000, 1, 273)) == (273, (1098, 246))
    assert (round(full, 3), round(last, 3)) == (20.960, 19.395)
    assert best.hours_per_day_running == pytest.approx((1098 * full + last) / 3600)
    assert row.run_start_hours is not None and round(row.run_start_hours * 3600, 2) == 59.16
    assert math.ceil(1098 * full + last + row.run_start_hours * 3600) == 23_093
    assert best.billed_hours_per_month == pytest.approx(23_093 / 3600)
    rental = 5.98 * best.billed_hours_per_month
    assert round(decision.usd_per_month or 0, 6) == round(rental, 6)
    assert round(rental, 2) == 38.36 and round(api - rental, 2) == 512.44
    assert round(STAFF, 2) == 252.30 and api - rental > STAFF
    memo = render_memo(result)
    assert (
        "The self-hosted route saves $512.44 a month against the model's own API price (DEP047), more than "
        "the $252.30 a month the own-hardware line counts for the staff that operates one server; it binds "
        "no term, and the team has the DevOps capacity to run it (devops_capacity left at its default, yes: "
        "state it, as no would keep the API). The prices decide, as they do above the "
        "100,000 line (DEP002, DEP011): runpod community (1 × b200) is recommended. The API stays the "
        "simpler route: the team runs no instances of its own." in memo
    )
    assert (
        "9,862 requests/day (a day of the schedule on average, DEP034) is below the 10,000 line, where the "
        "documents point to a managed API as the cheapest route at low volume (DEP001). Priced, runpod "
        "community (1 × b200) costs $38.36/month, 93 % ($512.44) less than the API at $550.80/month, as the "
        "batch's cards are billed for the hours its runs take. Running it takes staff beside its bill: the "
        "own-hardware line counts $252.30 a month for operating one server." in memo
    )
    assert (
        "The like-for-like managed API (Mixtral 8x7B Instruct (DeepInfra)) would cost $551 per month; the "
        "rules set it aside on cost or strategy (DEP046).\n" in memo
    )
    assert "| DEP001 | Managed API | 50 | set aside (DEP046) |" in memo
    # Why says what left the baseline rule to decide, and that the API was set aside, not barred.
    assert (
        "Deciding rule: **DEP010** (Baseline: dedicated cloud GPUs).\n"
        "Renting dedicated cloud GPUs is the baseline self-hosted route; the cheapest eligible option costs "
        "$38.36/month.\n"
        "DEP001 proposed a managed API at a higher precedence (50); set aside on cost or strategy by DEP046 "
        "(Under the API line, self-hosting saves more than running it takes: the prices decide).\n" in memo
    )
    assert "It runs once a month, on the day its work comes.\n" in memo
    assert "Not followed: the deployment it proposes is set aside by DEP046, on cost or strategy." in memo
    assert (
        "The rules set the managed APIs aside on cost or strategy (DEP046): the workload may use one, and "
        "the prices here are what it would pay." in memo
    )
    assert "ruled out for this workload (DEP046)" not in memo


def test_a_saving_below_the_staff_of_running_it_leaves_the_line_standing() -> None:
    """A third of the volume, 100,000 requests of 1,500 in and 400 out: the API bills $102.60 a run, the
    B200 $6.50, a saving of $96.10, less than the $252.30 of staff: DEP047 says so, the API stays."""
    result = decided({**MONTHLY, "requests_per_day": 100_000, "avg_input_tokens": 1_500})
    assert (result.decision.deployment, result.decision.deciding_rule_id) == ("api", "DEP001")
    api = 100_000 * 1_900 * 0.54 / 1e6
    assert round(result.decision.usd_per_month or 0, 2) == round(api, 2) == 102.60
    assert "DEP046" not in result.fired_rules
    (finding,) = [f for f in result.findings if f.rule_id == "DEP047"]
    assert finding.message.endswith(
        "Running it takes staff beside its bill: the own-hardware line counts $252.30 a month for operating "
        "one server, no less than the saving."
    )


def test_a_saving_under_five_percent_says_nothing() -> None:
    """Llama 3.3 70B: DeepInfra's API at 27.80 USD (100,000 x (1,500 x 0.10 + 400 x 0.32) / 1e6), the
    rented B200 at 27.04 USD: 2.7 % less, noise next to the price dates."""
    result = decided(
        {
            **MONTHLY,
            "model": {"name": "llama-3.3-70b", "precision": "fp8"},
            "requests_per_day": 100_000,
            "avg_input_tokens": 1_500,
        }
    )
    assert (result.decision.deployment, result.decision.deciding_rule_id) == ("api", "DEP001")
    api = 100_000 * (1_500 * 0.10 + 400 * 0.32) / 1e6
    assert round(result.decision.usd_per_month or 0, 2) == round(api, 2) == 27.80
    best = result.best_option
    assert best is not None and round(best.usd_per_month, 2) == 27.04
    assert not {"DEP046", "DEP047"} & set(result.fired_rules)


def test_a_team_without_devops_capacity_keeps_the_api() -> None:
    result = decided({**MONTHLY, "devops_capacity": False})
    assert result.decision.deployment == "api"
    (finding,) = [f for f in result.findings if f.rule_id == "DEP047"]
    assert finding.message.endswith("The team has no DevOps capacity to run it.")


def test_a_legal_bar_is_said_as_one() -> None:
    """Own weights bar every model API (DEP005, a bar): the resolution names it under ``barred``, and the
    memo says the API is ruled out for the workload."""
    result = decided({**MONTHLY, "model": {**MONTHLY["model"], "custom_weights": True}})
    assert result.resolution.barred["api"] == ("DEP005",)
    memo = render_memo(result)
    assert (
        "The like-for-like managed API (Mixtral 8x7B Instruct (DeepInfra), $551 per month) is ruled out for "
        "this workload (DEP005).\n" in memo
    )
    assert "set aside on cost or strategy" not in memo
    # The deciding rule is the bar itself: Why names the line it overrode, without repeating its title.
    assert (
        "DEP001 proposed a managed API at a higher precedence (50); ruled out by DEP005.\n\nThe chosen offer"
        in memo
    )


def test_a_stated_devops_capacity_is_not_called_a_default() -> None:
    result = decided({**MONTHLY, "devops_capacity": True})
    (finding,) = [f for f in result.findings if f.rule_id == "DEP046"]
    assert "the team has the DevOps capacity to run it. The prices decide" in finding.message
    assert "left at its default" not in finding.message
