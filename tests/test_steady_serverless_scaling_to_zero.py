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
    # The L40S worker, up through most office hours (its idle tails and starts counted), runs cheaper as
    # an active worker ($1.332 an hour) than as a flex one ($1.908): 176 paid hours x 1.332, and its
    # run-on each evening (5 s and half a 1 s step) and restart each morning (RunPod's 2.3 s, the 32B's
    # FP8 checkpoint, 31.20B parameters at 1 byte and the 16-bit embedding and lm_head, 2 x 152,064 x
    # 5,120 x 2 bytes: 34.32 GB at 2.5 GB/s, 13.73 s, and vLLM's 21.8 s: 37.83 s) on the 22 days at the
    # flex price: 176 x 1.332 + 22 x 43.33 s / 3,600 = 0.2648 h x 1.908, $234.94.
    (band,) = [f.message for f in result.findings if f.rule_id == "DEP012"]
    assert " ".join(band.split()).endswith(
        "an endpoint that would hardly ever scale to zero. The serverless endpoint priced here would stop "
        "between requests as it scales with the load, and runs cheaper kept at its lower price for instances "
        "that run always, so the priced comparison, not this line, is the one to read."
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
    assert option.serverless.kept_for_price == 1
    start = 2.3 + 34.317135 / 2.5 + 21.8
    assert option.billed_hours_per_month == pytest.approx(176 + 22 * (5 + 0.5 + start) / 3600)
    assert option.usd_per_month == pytest.approx(176 * 1.332 + (option.billed_hours_per_month - 176) * 1.908)
    assert round(option.usd_per_month, 2) == 234.94
    # A worker that scales (the A100, dearer still): the billed hours split into work, idle tails and
    # starts, and add up to the bill.
    (scaling,) = [
        o for o in result.options if (o.provider, o.gpu, o.regions) == ("runpod", "a100-80gb", ("variable",))
    ]
    billing = scaling.serverless
    assert billing is not None and not billing.kept_warm and billing.cold_starts_per_month > 8_000
    parts = billing.busy_hours_per_month + billing.idle_hours_per_month + billing.cold_start_hours_per_month
    assert parts == pytest.approx(scaling.billed_hours_per_month)
    assert scaling.usd_per_month == pytest.approx(scaling.billed_hours_per_month * scaling.usd_per_gpu_hour)
    # Every start from zero follows an up period that ended with the idle timeout run out.
    tails = billing.cold_starts_per_month * billing.idle_timeout_seconds / 3600
    assert billing.idle_hours_per_month >= tails
    assert billing.cold_start_hours_per_month == pytest.approx(
        billing.cold_starts_per_month * billing.cold_start_seconds / 3600
    )
    assert 0 < billing.starts_between_requests_per_month < billing.cold_starts_per_month
    # The day's first start opens each of the month's served days; every other start follows a gap.
    assert billing.cold_starts_per_month - billing.starts_between_requests_per_month == pytest.approx(
        result.workload.days_per_month, abs=1
    )
    memo = " ".join(render_memo(result).split())
    assert (
        "But the band's reason, an endpoint that never scales to zero, does not hold here: RunPod Serverless "
        "(variable, 1 × l40s) would stop and start from zero between requests" in memo
    )
    assert (
        "as it scales with the load; keeping 1 instance running through the served hours at its lower price "
        f"for instances that run always bills less, and no request waits for a start: "
        f"{option.billed_hours_per_month:.0f} instance-hours" in memo
    )
    assert "The prices decide." in memo


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
    hour, so an endpoint that scales with the load starts once each morning and, with Modal's 60 s idle
    timeout, never stops between requests (DEP040 once counted the mornings as stops)."""
    hr = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
    result = run({**hr, "latency_sensitive": False})
    assert result.load.busy_share >= 0.5
    (modal,) = [o for o in result.options if (o.provider, o.gpu) == ("modal", "h200")]
    assert modal.serverless is not None and not modal.serverless.kept_warm
    assert modal.serverless.starts_between_requests_per_month == 0
    assert modal.serverless.cold_starts_per_month == pytest.approx(result.workload.days_per_month, abs=1)


def test_an_instance_kept_for_the_price_is_judged_as_the_endpoint_would_scale() -> None:
    """The same assistant at RunPod: its 5 s idle timeout stops a scaling worker between requests 5 times
    a month (5.35: each decode step reads the 70B's exact 70.55 GB at 0.86 of the H200's bandwidth, 299
    steps a request, as its prompt's pass yields the first of its 300 tokens; at 0.87 and 300 steps a
    request took a little less and more gaps outlasted it and the timeout, 5.56, said as 6), so the
    band's reason (an endpoint that never scales to zero) does not hold and the
    prices decide (DEP040, not DEP024), but busy through the working hours the worker runs cheaper as an
    active one, restarted each of the 22 working days: no request waits for a start, as DEP040 then
    says."""
    hr = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
    result = run({**hr, "latency_sensitive": False})
    option = result.serverless_option
    assert option is not None and option.serverless is not None and option.provider == "runpod"
    billing = option.serverless
    assert (billing.kept_warm, billing.instances_kept, billing.kept_for_price) == (True, 1, 1)
    assert billing.starts_between_requests_per_month == 0 and billing.cold_starts_per_month == 0
    assert billing.kept_restarts_per_month == pytest.approx(result.workload.days_per_month)
    assert "DEP040" in result.fired_rules and "DEP024" not in result.fired_rules
    (dep040,) = [f.message for f in result.findings if f.rule_id == "DEP040"]
    assert (
        "would stop and start from zero between requests 5 times a month as it scales with the load; keeping "
        "1 instance running through the served hours at its lower price for instances that run always bills "
        "less, and no request waits for a start: 264 instance-hours" in " ".join(dep040.split())
    )
    assert "makes a request wait" not in dep040
