"""The Summary's serverless line says where its bill is for instances kept warm (a latency-sensitive
service cannot wait for a cold start, PRC011), not for the requests: 200 requests a day on two kept L40S
instances cost as much as an always-on rental."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

PROTOTYPE = {
    "name": "tiny-proto",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 200,
    "avg_input_tokens": 500,
    "avg_output_tokens": 200,
    "company_country": "DE",
}


def test_a_kept_warm_serverless_bill_says_so() -> None:
    result = run(PROTOTYPE)
    option = result.serverless_option
    assert option is not None and option.serverless is not None
    # One replica and the spare a latency-sensitive service gets (SIZ011), each an instance kept warm in
    # every one of the month's 730 hours: 1,460 instance-hours.
    assert option.serverless.instances_kept == 2
    assert round(option.billed_hours_per_month) == 1_460
    assert round(option.usd_per_month) == 1_945
    memo = " ".join(render_memo(result).split())
    assert (
        "The cheapest serverless option (RunPod Serverless, l40s) would cost $1,945 per month, with 2 "
        "instances kept warm in every paid hour for a service that cannot wait for a cold start (PRC011)."
        in memo
    )


def test_a_service_that_may_wait_scales_to_zero_and_says_nothing_of_warm_instances() -> None:
    result = run({**PROTOTYPE, "latency_sensitive": False})
    option = result.serverless_option
    assert option is not None and option.serverless is not None and option.serverless.instances_kept == 0
    memo = " ".join(render_memo(result).split())
    assert "kept warm in every paid hour for a service" not in memo
