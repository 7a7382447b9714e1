"""A steady service with a request in flight most of its paid hours is above the documents' serverless
band; DEP024 rules serverless out there on the premise that its endpoint would hardly ever scale to zero.
Where the endpoint as priced does start from zero between requests (no instance kept warm, gaps longer
than the idle timeout), the premise fails: DEP024 stays silent, DEP040 says so, and the prices decide."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from helpers import EXAMPLES_DIR, run

from gpu_advisor.engine.present.memo import render_memo

# An internal tool in office hours: 1,500 requests a day on a 32B model with own weights, users who can
# wait. Each request takes about 15 s on one L40S, so one is in flight about half the time, but the
# gaps between them are mostly longer than RunPod's 5-second idle timeout.
OFFICE_TOOL: dict[str, Any] = {
    "name": "office-tool",
    "model": {"name": "qwen2.5-32b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 1_500,
    "avg_input_tokens": 1_000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "office_hours",
    "latency_sensitive": False,
    "company_country": "DE",
}


def test_an_endpoint_that_scales_to_zero_is_priced_not_ruled_out() -> None:
    result = run(OFFICE_TOOL)
    assert result.load.busy_share >= 0.5  # above the band's top (serverless_utilization_high)
    assert "DEP024" not in result.fired_rules
    assert {"DEP012", "DEP018", "DEP040"} <= set(result.fired_rules)
    (band,) = [f.message for f in result.findings if f.rule_id == "DEP012"]
    assert band.endswith(
        "an endpoint that would hardly ever scale to zero. The serverless endpoint priced here does stop "
        "between requests, so the priced comparison, not this line, is the one to read."
    )
    decision, option, best = result.decision, result.serverless_option, result.best_option
    assert (decision.deployment, decision.provider, decision.gpu, decision.deciding_rule_id) == (
        "serverless",
        "runpod",
        "l40s",
        "DEP018",
    )
    assert option is not None and best is not None and option.serverless is not None
    assert option.usd_per_month < best.usd_per_month
    billing = option.serverless
    assert not billing.kept_warm and billing.cold_starts_per_month > 9_000
    # The billed hours split into work, idle tails and starts, and add up to the bill.
    parts = billing.busy_hours_per_month + billing.idle_hours_per_month + billing.cold_start_hours_per_month
    assert parts == pytest.approx(option.billed_hours_per_month)
    assert option.usd_per_month == pytest.approx(option.billed_hours_per_month * option.usd_per_gpu_hour)
    # Every start from zero follows an up period that ended with the idle timeout run out.
    tails = billing.cold_starts_per_month * billing.idle_timeout_seconds / 3600
    assert billing.idle_hours_per_month >= tails
    assert billing.cold_start_hours_per_month == pytest.approx(
        billing.cold_starts_per_month * billing.cold_start_seconds / 3600
    )
    memo = " ".join(render_memo(result).split())
    assert 0 < billing.starts_between_requests_per_month < billing.cold_starts_per_month
    # The day's first start opens each of the month's served days; every other start follows a gap.
    assert billing.cold_starts_per_month - billing.starts_between_requests_per_month == pytest.approx(
        result.workload.days_per_month, abs=1
    )
    between = f"{round(billing.starts_between_requests_per_month):,}"
    assert (
        "But the band's reason, an endpoint that never scales to zero, does not hold here: RunPod Serverless "
        f"(eu-datacenters, 1 × l40s) would stop and start from zero between requests {between} times a "
        f"month and bill {option.billed_hours_per_month:.0f} instance-hours "
        f"({billing.busy_hours_per_month:.3g} of them serving requests), "
        f"${option.usd_per_month:,.2f}/month, less "
        "than the cheapest other self-hosted route the rules weigh (ovhcloud l40s (1 × l40s)) at "
        f"${best.usd_per_month:,.2f}/month. "
        "The prices decide; each start from zero makes a request wait at least 15.1 s." in memo
    )


def test_a_warm_endpoint_never_scales_to_zero_and_the_rule_holds() -> None:
    """The same tool for users who cannot wait for a start: an instance is kept warm, so the endpoint
    bills every paid hour, and DEP024 rules serverless out as the documents say."""
    result = run({**OFFICE_TOOL, "latency_sensitive": True})
    assert result.load.busy_share >= 0.5
    assert "DEP024" in result.fired_rules and "DEP040" not in result.fired_rules
    assert result.decision.deployment == "dedicated_cloud"
    memo = " ".join(render_memo(result).split())
    assert (
        "the serverless endpoint, as priced, never scales to zero between requests in the paid hours (an "
        "instance is kept warm for a latency-sensitive service), and what it bills is then a rental" in memo
    )


def test_the_days_first_start_is_not_a_stop_between_requests() -> None:
    """The HR assistant of the examples, for users who can wait: requests are in flight in every working
    hour, so the endpoint starts once each morning and never stops between requests. DEP024's premise
    holds and it rules serverless out; DEP040 stays silent (it once counted the mornings as stops). The
    instance is busy through the working hours, so RunPod bills it as an active worker, started again
    each of the 22 working days, not as a flex worker starting from zero."""
    hr = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
    result = run({**hr, "latency_sensitive": False})
    assert result.load.busy_share >= 0.5
    option = result.serverless_option
    assert option is not None and option.serverless is not None
    billing = option.serverless
    assert (billing.kept_warm, billing.instances_kept, billing.kept_for_price) == (True, 1, 1)
    assert billing.starts_between_requests_per_month == 0 and billing.cold_starts_per_month == 0
    assert billing.kept_restarts_per_month == pytest.approx(result.workload.days_per_month)
    assert "DEP024" in result.fired_rules and "DEP040" not in result.fired_rules
    assert result.decision.deployment == "dedicated_cloud"
    (band,) = [f.message for f in result.findings if f.rule_id == "DEP012"]
    assert band.endswith("an endpoint that would hardly ever scale to zero.")
