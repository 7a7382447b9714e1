"""What the spare replica the rules add costs, said beside the decision (a walkthrough's 405B legal
assistant, 40 requests a day, paid twice for its kept-warm spare without being told): the option's bill
less that of the same offer without the spare, worked out here from the catalog's prices."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from helpers import EVALUATED_ON, EXAMPLES_DIR, flat, invoke, read_example, run

from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.pipeline.alternatives import with_spare_cost
from gpu_advisor.engine.present.memo import render_memo

# Own weights rule the managed API out: three single-H200 replicas at RunPod community, one the spare.
CHAT: dict[str, Any] = {
    "name": "chat-70b-own-weights",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 1_000_000,
    "load_pattern": "steady",
    "latency_sensitive": True,
}

# A few dozen long requests a day on 405B weights of its own, in office hours: Hugging Face's
# H200 endpoints, four cards an instance, one kept warm for the peak and one for the spare.
LEGAL: dict[str, Any] = {
    "name": "legal-research",
    "model": {"name": "llama-3.1-405b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 40,
    "avg_input_tokens": 12_000,
    "avg_output_tokens": 1_500,
    "context_tokens": 32_768,
    "load_pattern": "variable",
    "schedule": "office_hours",
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 5_000,
    "personal_data": True,
    "company_country": "DE",
}


def test_a_dedicated_spare_is_priced_as_its_offer_bills_it() -> None:
    r = run(CHAT)
    best = r.best_option
    assert best is not None and best.chosen
    assert (best.provider, best.offer, best.gpu, best.replicas, best.spare_replicas) == (
        "runpod",
        "community",
        "h200",
        3,
        1,
    )
    # One H200 at $3.59 an hour, 730 hours a month.
    assert best.spare_usd_per_month is not None and round(best.spare_usd_per_month, 2) == round(3.59 * 730, 2)
    assert (
        "The spare replica the rules add (SIZ011) costs $2,621 of the $7,862 a month at runpod community, "
        "set against runpod's cheapest bill without it; min_replicas: 1 leaves it out, and a failed "
        "instance or an update then takes part of the peak's capacity with it."
    ) in flat(render_memo(r))


def test_a_kept_warm_serverless_spare_is_half_of_a_sporadic_bill() -> None:
    r = run(LEGAL)
    so = r.serverless_option
    assert r.decision.deployment == "serverless" and so is not None and so.chosen
    # Two instances of 4 H200 kept warm in the 176 paid hours at $5.00 a GPU-hour; one is the spare.
    # Paused at each of the 22 days' end, each stops at once (half a 60 s billing step rounds its day)
    # and starts again before the next: the platform's 120 s, the 405B's FP8 checkpoint (401.65B
    # parameters at 1 byte and the 16-bit embedding and lm_head, 2 x 128,256 x 16,384 x 2 bytes: 410.05 GB)
    # at 2.5 GB/s, 164.02 s, and vLLM's 21.8 s start (305.82 s): 4 x (176 + 22 x 335.82 / 3,600) x $5.00 =
    # $3,561.04 an instance, $7,122.09 the two.
    start = 120 + 410.052693 / 2.5 + 21.8
    assert so.serverless is not None and so.serverless.cold_start_seconds == pytest.approx(start)
    one = 4 * (176 + 22 * (30 + start) / 3600) * 5.0
    assert so.usd_per_month == pytest.approx(2 * one)
    assert so.spare_usd_per_month == pytest.approx(one)
    assert (
        "The spare replica the rules add (SIZ011) costs $3,561 of the $7,122 a month at Hugging Face "
        "Inference Endpoints, as it bills it;"
    ) in flat(render_memo(r))


def test_nothing_is_said_where_the_workload_sets_its_own_replicas() -> None:
    """min_replicas given: no rule adds a spare (SIZ011 does not fire), and the replicas are the team's."""
    r = run({**CHAT, "min_replicas": 3})
    assert "SIZ011" not in r.fired_rules
    assert "spare replica the rules add" not in render_memo(r)


def test_a_spare_whole_instances_bill_anyway_costs_nothing() -> None:
    """Three replicas of 2 × H100 on AWS's 8-card P5 (its only size): without the spare, two replicas
    still take one whole instance, billed the same, and AWS sells no smaller instance at that pricing, so
    the spare adds nothing to the bill and nothing is said of it."""
    evaluation = evaluate_workload(validate_workload(CHAT, "chat"), EVALUATED_ON)
    p5 = next(
        p
        for p in evaluation.market.priced
        if (p.listing.offer.provider, p.listing.offer.offer) == ("aws", "p5-reserved-3y-2026-09")
    )
    assert (p5.plan.cards_per_replica, p5.plan.replicas, p5.plan.spare_replicas) == (2, 3, 1)
    assert p5.rental.gpus_rented == 8
    alternatives = replace(evaluation.market.alternatives, best_listing=p5)
    knowledge = evaluation.knowledge
    hours, days = evaluation.workload.hours_per_month, evaluation.workload.days_per_month
    priced = evaluation.market.priced
    plans = evaluation.market.replicas.plans
    assert with_spare_cost(alternatives, priced, plans, hours, days, knowledge) is alternatives


def test_replicas_a_stated_min_replicas_adds_are_not_priced_as_a_spare() -> None:
    """The nightly batch with min_replicas: 6 runs more replicas than its window needs, but no rule adds
    them (SIZ010 and SIZ011 are for services): a batch's work is fixed, fewer replicas run it longer for
    about the same bill, and the replicas are the team's own choice. No spare cost is set against it."""
    batch = read_example(EXAMPLES_DIR / "nightly-batch.yaml")
    r = run({**batch, "min_replicas": 6})
    assert not {"SIZ010", "SIZ011"} & set(r.fired_rules)
    assert r.best_option is not None and r.best_option.replicas >= 6
    assert r.best_option.spare_usd_per_month is None
    assert r.serverless_option is None or r.serverless_option.spare_usd_per_month is None


def test_kept_instances_of_a_service_served_around_the_clock_never_restart() -> None:
    """Paid for 400 of the month's hours, a service whose requests come around the clock keeps its
    instances running: nothing says when they would stop, so no daily restart is priced. In office hours
    each of the two restarts on each of the 22 days."""
    around = run({**LEGAL, "name": "legal-always", "schedule": "always", "hours_per_month": 400})
    office = run(LEGAL)
    assert around.serverless_option is not None and office.serverless_option is not None
    assert around.serverless_option.serverless.kept_warm
    assert around.serverless_option.serverless.kept_restarts_per_month == 0
    assert office.serverless_option.serverless.kept_restarts_per_month == 2 * 22


def test_deployment_advice_counts_the_kept_instances_run_on_and_starts() -> None:
    """DEP018's hours add up to what is billed: on RunPod the HR assistant's two kept instances run on
    after each workday as the product scales to zero (in the idle hours) and start again each morning
    (2 x 22 x 53.16 s / 3,600 = 0.65 h; the run-on's 5 + 0.5 s are idle); on Hugging Face a paused endpoint
    stops at once, so only its starts are named."""
    hr = read_example(EXAMPLES_DIR / "hr-assistant.yaml")
    result = run(hr)
    option = result.serverless_option
    assert option is not None and option.serverless is not None
    billing = option.serverless
    busy, idle, cold = (
        billing.busy_hours_per_month,
        billing.idle_hours_per_month,
        billing.cold_start_hours_per_month,
    )
    # The three parts are the 529 billed hours, and the starts are the kept instances' mornings.
    assert busy + idle + cold == pytest.approx(option.billed_hours_per_month) == pytest.approx(529, abs=0.5)
    # A start: RunPod's 2.3 s, the 70B's FP8 checkpoint (68.45B parameters at 1 byte and the 16-bit
    # embedding and lm_head's 2.10B at 2 bytes: 72.65 GB) at 2.5 GB/s, and vLLM's 21.8 s: 53.16 s. The
    # 2 x 22 starts are 0.0103 h longer than at 52.32 s, billed at RunPod's $5.58 flex price: $0.06 more.
    start = 2.3 + 72.651346 / 2.5 + 21.8
    assert cold == pytest.approx(2 * 22 * start / 3600, rel=0.01) == pytest.approx(0.65, abs=0.005)
    # A request's first token comes from its prompt's pass and its 299 others from decode steps, each reading
    # 70.55 GB of the FP8 checkpoint (all but the 16-bit embedding's 2.10 GB) at 0.86 of the bandwidth: on the
    # one-card H200 instance it takes 8.41 s at 16:00 (8.36 s with 300 steps at 0.87, 8.32 s at 70 GB), and
    # the kept hours have one in flight 516.4 hours, 11.6 idle (516.2 and 11.9 with 300 steps at 0.87; 516.0
    # and 12.1 at 70 GB; 516.5 and 11.6 before the all-reduces' share by message size and the refit).
    assert (busy, idle) == (pytest.approx(516.4, abs=0.05), pytest.approx(11.6, abs=0.05))
    english = flat(render_memo(result))
    assert (
        f"({busy:.0f} of them serving requests, {idle:.1f} idle with 2 kept warm in every paid hour and "
        "running on after each served day as it scales to zero, 0.65 in their starts): $2,360.99/month"
        in english
    )
    german = flat(invoke("recommend", str(EXAMPLES_DIR / "hr-assistant.yaml"), "--lang", "de").output)
    idle_de = f"{idle:.1f}".replace(".", ",")
    assert (
        f"{idle_de} im Leerlauf, 0,65 in den Starts der warm gehaltenen Instanzen; 2 Instanzen werden in "
        "jeder bezahlten Stunde warm gehalten und laufen nach jedem bedienten Tag bis zum Skalieren auf null "
        "weiter): 2.360,99 $ pro Monat" in german
    )
    # The legal assistant's 2 x 22 starts of 305.82 s (120 s, 410.05 GB at 2.5 GB/s and 21.8 s) are 3.74
    # hours, and its bill twice the kept instance worked out above; a lone request's 1,499 decode steps read
    # 405.85 GB of the checkpoint (all but the 16-bit embedding's 4.20 GB), at 0.86 of the bandwidth (55.46 s
    # a request), so its requests are in flight 13.29 hours (13.20 with 1,500 steps at 0.87, 55.06 s a
    # request; 13.18 at the nominal 405 GB; 13.36 before the all-reduces' share by message size and the
    # refit).
    legal = flat(render_memo(run(LEGAL)))
    assert (
        "(13.3 of them serving requests, 339 idle with 2 kept warm in every paid hour, 3.74 in their "
        "starts): $7,122.09/month" in legal
    )
