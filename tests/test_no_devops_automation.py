"""A team without DevOps capacity (devops_capacity: false) was recommended plans that need automation of
its own: an office-hours tool on OVHcloud's hourly L40S at $572 a month, "released outside the 176 paid
hours ... by a script or a scheduler" (left running, $2,371), and RunPod Serverless with `Active workers` 2
in the paid hours and 0 outside them, created "as a load balancing endpoint", whose worker the team builds.
PRC036 prices hourly rentals kept every hour, PRC035 a serverless endpoint's kept instances running every
hour, and PRV031 excludes a product whose direct endpoint needs a worker of the team's own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from helpers import flat, run
from test_business_critical_mixed_fleet import CHAT as CRITICAL_CHAT

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.present.memo import render_memo

# An office tool: a 14B model of its own, 3,000 requests a day in office hours.
OFFICE_TOOL: dict[str, Any] = {
    "name": "office-tool",
    "model": {
        "params_b": 14,
        "precision": "bf16",
        "custom_weights": True,
        "attention_shape": {
            "num_hidden_layers": 48,
            "num_attention_heads": 40,
            "num_key_value_heads": 8,
            "head_dim": 128,
        },
    },
    "requests_per_day": 3000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 600,
    "load_pattern": "steady",
    "schedule": "office_hours",
    "latency_sensitive": True,
    "personal_data": False,
    "company_country": "DE",
    "devops_capacity": False,
}

# A 7B tool of its own with one instance, few requests: a serverless endpoint kept warm wins.
SMALL_TOOL: dict[str, Any] = {
    **OFFICE_TOOL,
    "name": "small-tool",
    "model": {
        "params_b": 7,
        "precision": "bf16",
        "custom_weights": True,
        "attention_shape": {
            "num_hidden_layers": 32,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "head_dim": 128,
        },
    },
    "requests_per_day": 300,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "min_replicas": 1,
}


def test_the_office_tool_is_priced_with_its_cards_kept_and_says_why() -> None:
    result = run(OFFICE_TOOL)
    assert {"PRC036", "PRC035", "PRV031"} <= set(result.fired_rules)
    assert "PRC023" not in result.fired_rules
    decision, best = result.decision, result.best_option
    assert best is not None and decision.deployment == "dedicated_cloud"
    # The month's reservation ($1.60 a card-hour) beats the hourly L40S kept every hour ($1.62).
    assert (best.provider, best.offer, best.pricing, best.gpus_rented) == (
        "ovhcloud",
        "l40s-monthly",
        "reserved",
        2,
    )
    assert round(decision.usd_per_month) == 2339
    hourly = next(o for o in result.options if (o.provider, o.offer) == ("ovhcloud", "l40s"))
    assert (hourly.billed_hours_per_month, round(hourly.usd_per_month)) == (730, 2371)
    summary = flat(render_memo(result).split("## Why")[0])
    assert (
        "Rentals paid by the hour are priced with their cards kept all 730 hours of the month, not released "
        "outside the 176 paid hours: releasing them every evening and renting them again every morning takes "
        "a script or a scheduler, which the team, without DevOps capacity, would have to build and run "
        "(PRC036)."
    ) in summary
    assert "by a script or a scheduler and rented again" not in summary


def test_the_serverless_options_keep_their_minimum_and_need_no_worker_of_the_teams_own() -> None:
    result = run(OFFICE_TOOL)
    runpod = [o for o in result.options if o.provider == "runpod" and o.pricing == "serverless"]
    assert runpod and all("PRV031" in o.excluded_by for o in runpod)
    so = result.serverless_option
    assert so is not None and so.provider == "huggingface"
    billing = so.serverless
    assert billing is not None and (billing.instances_kept, billing.kept_hours_per_month) == (2, 730)
    assert billing.kept_restarts_per_month == 0
    assert round(so.usd_per_month) == round(2 * 1.80 * 730)
    memo = flat(render_memo(result))
    assert (
        "The kept instances run, and are billed, in all 730 hours of the month, not only the 176 paid hours: "
        "the endpoint's minimum of running instances stays as it is set, because changing it on a schedule "
        "takes a script or a scheduler the team, without DevOps capacity, would have to build and run "
        "(PRC035)."
    ) in memo
    assert (
        "The bill assumes these settings of the endpoint, as Hugging Face Inference Endpoints names them: "
        "`Number of Replicas: Min` 2; `Number of Replicas: Max` at least 2, the instances at the peak."
    ) in memo
    assert "0 outside them" not in memo and "Create it as a load balancing endpoint" not in memo


def test_a_serverless_decision_says_its_instance_runs_every_hour() -> None:
    result = run(SMALL_TOOL)
    so = result.serverless_option
    assert result.decision.deployment == "serverless" and so is not None and so.chosen
    assert (so.provider, round(so.usd_per_month)) == ("huggingface", 584)
    summary = flat(render_memo(result).split("## Why")[0])
    assert (
        "The endpoint's kept instance is priced running all 730 hours of the month, not only the 176 paid "
        "hours: stopping it when they end and starting it when they begin means changing the endpoint's "
        "settings every day by a script or a scheduler, which the team, without DevOps capacity, would have "
        "to build and run (PRC035)."
    ) in summary
    (message,) = [f.message for f in result.findings if f.rule_id == "DEP018"]
    assert "with 1 kept warm in every hour of the month" in message


def test_users_who_can_wait_keep_runpods_ready_made_queue_based_worker() -> None:
    result = run({**OFFICE_TOOL, "latency_sensitive": False})
    assert "PRV031" not in result.fired_rules and "PRC035" in result.fired_rules
    runpod = [o for o in result.options if o.provider == "runpod" and o.pricing == "serverless"]
    assert runpod and not any("PRV031" in o.excluded_by for o in runpod)


@pytest.mark.parametrize("rule", ["PRC036", "PRC035", "PRV031"])
def test_a_team_with_devops_capacity_is_priced_as_before(rule: str) -> None:
    result = run({**OFFICE_TOOL, "devops_capacity": True})
    assert rule not in result.fired_rules
    assert "PRC023" in result.fired_rules
    assert result.best_option is not None and round(result.best_option.usd_per_month) == 572


# A law firm's 32B RAG of its own weights in office hours: hourly cards kept every hour (PRC036) cost more
# than AWS's three-year P5 reservation, which PRC037 sets against the rental bound by no term.
RAG_AT: dict[str, Any] = {
    "name": "rag-at",
    "model": {"name": "qwen2.5-32b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 1500,
    "avg_input_tokens": 22000,
    "avg_output_tokens": 2000,
    "schedule": "office_hours",
    "company_country": "AT",
    "devops_capacity": False,
}
PRC037_SAID = (
    "The cheapest rental, aws p5-reserved-3y-2026-09, is a reservation that binds for 36 months: $34,715 "
    "a month, about $1,249,734 committed in all, for a service paid for 176 of the 730 hours of a month "
    "(24 %). "
    "A reservation pays off against paying by the hour only where the paid hours are more than 49 % of the "
    "month's (PRC014); this one costs less than the hourly offers only because, without DevOps capacity, "
    "their cards are priced kept every hour as well (PRC036). The cheapest rental bound by no term, scaleway "
    "h100-sxm-8-80g (16 × h100-sxm), costs $42,900 a month kept every hour and can be ended at any time; "
    "with its cards released outside the paid hours, by a script or a scheduler, it would cost about "
    "$10,343, a reservation's bill being 3.4 times that. The commitment pays for hours the service does not "
    "use for all of its term: weigh it against the cost of having that release automated (devops_capacity: "
    "true prices the hourly offers so) before signing. (PRC037)\n"
)


def test_a_reservation_of_years_is_set_against_the_rental_bound_by_no_term() -> None:
    result = run(RAG_AT)
    best = result.best_option
    assert best is not None
    assert (best.provider, best.offer, best.gpus, round(best.usd_per_month)) == (
        "aws",
        "p5-reserved-3y-2026-09",
        16,
        34715,
    )
    assert "PRC037" in result.fired_rules
    memo = render_memo(result)
    assert PRC037_SAID in memo
    # Said in its place, not beside it a second time.
    assert "The reservation binds for 36 months" not in memo


def test_with_devops_capacity_an_hourly_rental_is_released_outside_the_paid_hours() -> None:
    result = run({**RAG_AT, "devops_capacity": True})
    best = result.best_option
    assert best is not None
    assert (best.provider, best.offer, best.pricing, round(best.usd_per_month)) == (
        "runpod",
        "community",
        "on_demand",
        4210,
    )
    assert "PRC037" not in result.fired_rules


# The citizens' chat of test_business_critical_mixed_fleet.py, not business-critical: with DevOps capacity
# a mix of 2 reserved and up to 7 hourly L40S at OVHcloud ($6,839 a month, worked out there) is decided.
CHAT: dict[str, Any] = {**CRITICAL_CHAT, "business_critical": False}


def test_around_the_clock_a_team_without_devops_capacity_gets_no_fleet_that_follows_the_load() -> None:
    """Starting hourly cards ahead of the day's curve and stopping them after it is an autoscaler or a
    schedule the team would build (PRC038): no mix is priced, and Hugging Face's endpoint, whose platform
    scales it, is decided at $7,695.01 (below the single-kind fleet's $12,147.52): 3,592.44 card-hours
    at 2.142 USD, in flight 3,523.88, idle 53.53 and starting 15.03, its instances following the same
    hourly replicas as the mix (9 at the busiest hours, with the 8B's refit 16-bit steps)."""
    mixed = run({**CHAT, "devops_capacity": True})
    assert mixed.decision.deployment == "hybrid" and "PRC038" not in mixed.fired_rules
    assert mixed.decision.usd_per_month == pytest.approx(6_839.29, abs=0.005)
    result = run({**CHAT, "devops_capacity": False})
    assert "PRC038" in result.fired_rules and "PRC036" not in result.fired_rules
    assert result.mixed_fleet is None and result.autoscaled_fleet is None
    assert (result.decision.deployment, result.decision.usd_per_month) == (
        "serverless",
        pytest.approx(7_695.01, abs=0.005),
    )
    chosen = result.serverless_option
    assert chosen is not None and chosen.serverless is not None
    assert (chosen.gpu, chosen.usd_per_gpu_hour, round(chosen.billed_hours_per_month, 2)) == (
        "l40s",
        2.142,
        3592.44,
    )
    assert result.decision.usd_per_month == pytest.approx(2.142 * chosen.billed_hours_per_month)
    summary = flat(render_memo(result).split("## Why")[0])
    assert (
        "No fleet that rents cards by the hour for its busier hours and releases them as the load falls is "
        "priced, a reserved base with hourly instances for the busier hours among them: starting and "
        "stopping them with the day's load takes an autoscaler or a schedule that the team, without DevOps "
        "capacity, would have to build and run (PRC038)."
    ) in summary


# A steady 70B service of its own in working hours, a request in flight in every paid hour.
BUSY_70B: dict[str, Any] = {
    "name": "busy-70b",
    "model": {"name": "llama-3.3-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 300_000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": False,
    "company_country": "DE",
    "devops_capacity": False,
}


def test_without_devops_capacity_a_busy_steady_service_is_still_not_serverless_and_says_what_that_costs() -> (
    None
):
    """A latency-sensitive workdays service busy in every paid hour: DEP024 holds for a team without DevOps
    capacity too, although its rentals are kept every hour, as Hugging Face's endpoint keeps a warm
    instance every hour too (PRC035: 2 kept, up to 5) and bills as a rental at its price: the Summary
    says what the rule gives up beside the three-year reservation PRC037 warns of ($17,357.41 -
    $10,300.25 = $7,057.16). Users who can wait for a start leave the endpoint stopping outside the paid
    hours, where the kept rentals bill, and DEP055 lets the prices decide
    (``test_an_office_hours_endpoint_that_stops_at_night_...``)."""
    result = run(BUSY_70B)
    assert "DEP024" in result.fired_rules and "PRC037" in result.fired_rules
    assert "DEP055" not in result.fired_rules
    best = result.best_option
    assert best is not None
    assert (result.decision.deployment, best.offer, round(best.usd_per_month, 2)) == (
        "dedicated_cloud",
        "p5-reserved-3y-2026-09",
        17_357.41,
    )
    assert (
        "The cheapest serverless option (Hugging Face Inference Endpoints, h200, $10,300 per month) is set "
        "aside by the rules (DEP024). It would cost $7,057 a month less than the recommendation: the rule, "
        "not the price, keeps it out (its finding says why)."
    ) in render_memo(result)


# A busy office-hours service whose users can wait for a start: a request in flight in every paid hour.
OFFICE_QWEN3: dict[str, Any] = {
    "name": "office-qwen3",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 40_000,
    "avg_input_tokens": 2000,
    "avg_output_tokens": 600,
    "load_pattern": "steady",
    "schedule": "office_hours",
    "latency_sensitive": False,
    "devops_capacity": False,
    "personal_data": True,
    "company_country": "DE",
}


def test_an_office_hours_endpoint_that_stops_at_night_is_weighed_on_its_price_against_kept_rentals() -> None:
    """Requests are in flight in every paid hour, but not around the clock: the team's rentals are billed
    all 730 hours (PRC036, $21,450.12 for Scaleway's 8 H100), while Hugging Face's endpoint scales to zero
    outside the 176 paid hours by itself and bills 376.2 instance-hours ($3,762.00). DEP024's premise, an
    endpoint that bills as a rental at its price, does not hold over the month: DEP055 says so, and the
    prices decide. With DevOps capacity the rental is released at night ($5,171.54) and DEP024 holds; with
    users who cannot wait, the endpoint keeps a warm instance every hour (PRC035: 1,638.02 hours,
    $16,380.17) and DEP024 holds too."""
    result = run(OFFICE_QWEN3)
    assert "DEP055" in result.fired_rules and "DEP024" not in result.fired_rules
    endpoint, rental = result.serverless_option, result.best_option
    assert endpoint is not None and rental is not None
    assert (result.decision.deployment, result.decision.provider, result.decision.gpu) == (
        "serverless",
        "huggingface",
        "a100-80gb",
    )
    assert (round(endpoint.usd_per_month, 2), round(rental.usd_per_month, 2)) == (3762.0, 21450.12)
    assert endpoint.billed_hours_per_month == pytest.approx(376.2, abs=0.05)
    assert rental.billed_hours_per_month == 730
    (message,) = [f.message for f in result.findings if f.rule_id == "DEP055"]
    assert (
        "so DEP024 does not set it aside, and the prices decide ($3,762.00/month against scaleway "
        "h100-sxm-8-80g (8 × h100-sxm) at $21,450.12/month). Requests are not in flight around the clock: "
        "the nights and days without service are the hours it does not bill. Two things keep it so: no "
        "request outside the paid hours, uptime probes and health checks included"
    ) in message
    summary = flat(render_memo(result).split("## Why")[0])
    assert (
        "The endpoint, by contrast, stops outside the paid hours by itself: the documents' rule of thumb "
        "that sets serverless aside for a service this busy in its paid hours (DEP024) assumes rentals "
        "released when those hours end, so the prices decide here (DEP055)."
    ) in summary
    (band,) = [f.message for f in result.findings if f.rule_id == "DEP012"]
    assert band.endswith(
        "The serverless endpoint priced here stops outside the paid hours, through which the team's rentals "
        "are kept (DEP055), so the priced comparison, not this line, is the one to read."
    )
    devops = run({**OFFICE_QWEN3, "devops_capacity": True})
    assert "DEP024" in devops.fired_rules and "DEP055" not in devops.fired_rules
    assert (devops.decision.deployment, round(devops.decision.usd_per_month or 0, 2)) == (
        "dedicated_cloud",
        5171.54,
    )
    waiting = run({**OFFICE_QWEN3, "latency_sensitive": True})
    assert "DEP024" in waiting.fired_rules and "DEP055" not in waiting.fired_rules
    kept = waiting.serverless_option
    assert kept is not None and round(kept.billed_hours_per_month or 0, 2) == 1638.02


def test_around_the_clock_the_busy_endpoint_stays_set_aside_whatever_the_team() -> None:
    """Served around the clock, the service has no unpaid hours: its rentals are kept every hour for the
    busier ones (PRC038), not through hours without service, so the endpoint would bill as a rental at its
    price, and DEP024 sets it aside (issue 14: a steady service with requests always in flight is never
    serverless)."""
    result = run({**OFFICE_QWEN3, "schedule": "always"})
    assert "DEP024" in result.fired_rules and "DEP055" not in result.fired_rules
    assert "PRC036" not in result.fired_rules and result.decision.deployment != "serverless"


@pytest.mark.parametrize(("schedule", "status"), [("office_hours", "pass"), ("always", "warn")])
def test_check_weighs_a_serverless_proposal_as_the_recommendation_does(schedule: str, status: str) -> None:
    """A proposal of the endpoint the office-hours service is recommended: DEP041 passes it; around the
    clock DEP024 sets serverless aside, and DEP041 warns."""
    proposal = {
        "name": "hf endpoint",
        "deployment": "serverless",
        "provider": "huggingface",
        "offer": "inference-endpoints",
        "gpu": "a100-80gb",
        "gpus": 4,
        "pricing": "serverless",
        "region": "aws-eu-west-1",
    }
    document = {"workload": {**OFFICE_QWEN3, "schedule": schedule}, "proposal": proposal}
    checked = check_document(ProposalDocument.model_validate(document), "p.yaml", 1, dt.date(2026, 12, 7))
    (item,) = [i for i in checked.results if i.rule_id == "DEP041"]
    assert item.status == status


def test_dep055_is_said_beside_an_endpoint_that_also_restarts_between_requests() -> None:
    """A 70B office-hours service at 19,000 requests a day: its endpoint also stops between requests once a
    month (DEP040), but what it does not bill is the unpaid hours, and DEP055 says what keeps it so, as at
    20,000 requests, where it restarts not once."""
    legal = {
        **OFFICE_QWEN3,
        "name": "legal-70b",
        "model": {"params_b": 70, "precision": "fp8", "custom_weights": True},
        "requests_per_day": 19_000,
        "avg_input_tokens": 2500,
        "avg_output_tokens": 500,
    }
    result = run(legal)
    assert {"DEP040", "DEP055"} <= set(result.fired_rules) and result.decision.deployment == "serverless"
    (message,) = [f.message for f in result.findings if f.rule_id == "DEP040"]
    assert "between requests 1 time a month" in message
    more = run({**legal, "requests_per_day": 20_000})
    assert "DEP055" in more.fired_rules and "DEP040" not in more.fired_rules
