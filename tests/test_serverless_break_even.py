"""DEP018 says how much longer a serverless start could take before the scaling endpoint bills as much
as the route it beats: its cold starts are floors (the platform's start and the weights' load), and a
model server's own start-up (engine, CUDA graphs) adds to each one, billed."""

from __future__ import annotations

import pytest
from helpers import run

CONTRACT_CHECKER = {
    "name": "contract-checker-ft",
    "model": {"name": "qwen2.5-32b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 400,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 500,
    "load_pattern": "variable",
    "schedule": "workdays",
    "latency_sensitive": False,
    "company_country": "DE",
}
"""A fine-tuned 32B contract checker nobody waits for, 400 requests a working day: it scales to zero."""


def test_the_seconds_a_start_may_add_before_the_dedicated_route_bills_less() -> None:
    result = run(CONTRACT_CHECKER)
    assert result.decision.deciding_rule_id == "DEP018"
    option = result.serverless_option
    assert option is not None and option.serverless is not None and not option.serverless.kept_warm
    assert (option.provider, option.gpu, option.serverless.scale_usd_per_gpu_hour) == (
        "runpod",
        "l40s",
        1.908,
    )
    (message,) = [" ".join(f.message.split()) for f in result.findings if f.rule_id == "DEP018"]
    # ($428.74 - $151.56) a month over 5,554 starts at $1.908 an hour: 94 s more a start.
    starts = option.serverless.cold_starts_per_month + option.serverless.scale_ups_per_month
    assert round(starts) == 5554
    assert (428.74 - 151.56) / (starts * 1.908 / 3600) == pytest.approx(94, abs=0.5)
    assert (
        "$151.56/month (more where its starts take longer: about 94 s more a start bills as much as the "
        "other route; time a start of the model's server before relying on it), less than the cheapest "
        "other self-hosted route the rules weigh (ovhcloud l40s (1 × l40s)) at $428.74/month."
    ) in message


def test_no_break_even_where_an_instance_is_kept_warm() -> None:
    """A latency-sensitive service keeps an instance warm: its bill does not grow with start-up time,
    and the message says nothing of it."""
    result = run({**CONTRACT_CHECKER, "latency_sensitive": True})
    option = result.serverless_option
    assert option is not None and option.serverless is not None and option.serverless.kept_warm
    messages = [f.message for f in result.findings if f.rule_id in ("DEP018", "DEP019")]
    assert messages and not any("s more a start" in m for m in messages)
