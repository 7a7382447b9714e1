"""The rules choose the self-hosted cost the API is compared with (a policy that rules serverless out
changes it), and kept-warm serverless instances are billed in the schedule's paid hours."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml
from helpers import EXAMPLES_DIR

from gpu_advisor import api
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import load_workload

RULE_OUT_SERVERLESS = {
    "schema_version": 1,
    "family": "ORG",
    "rules": [
        {
            "id": "ORG101",
            "name": "no-serverless",
            "topic": "deployment",
            "severity": "warning",
            "fact": "workload",
            "when": [],
            "then": {"rule_out": {"deployments": ["serverless"], "precedence": 100}},
            "title": "Company policy: no serverless endpoints",
            "message": "Serverless endpoints are not approved.",
            "rationale": "Procurement has no contract with a serverless provider.",
            "source": {"document": "cloud-gpu-costs-2026", "section": "Fazit"},
        }
    ],
}


def test_a_policy_that_rules_out_serverless_changes_the_cost_the_api_is_compared_with(tmp_path: Path) -> None:
    # The hosted API (the same model at 0.40 USD per million tokens) is compared with the cheapest
    # self-hosted route that stands: $7,300.80 a month (100,000 x 6,000 tokens x 30.42 days x $0.40 per
    # million) against serverless, then, with serverless ruled out by a policy, against the owned node.
    workload = {
        "name": "long prompts",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 100_000,
        "avg_input_tokens": 3000,
        "avg_output_tokens": 3000,
        "load_pattern": "variable",
        "latency_sensitive": False,
        # The documents' own (US) cost lines for the owned node.
        "company_country": "US",
    }
    free = api.recommend(workload, dt.date(2026, 11, 30))
    assert (free.decision.deployment, free.decision.deciding_rule_id) == ("api", "DEP003")
    assert free.serverless_option is not None and "DEP018" in free.fired_rules
    serverless_cost = free.serverless_option.usd_per_month
    dep003 = next(f for f in free.findings if f.rule_id == "DEP003")
    assert "The managed API at $7,300.80/month" in dep003.message
    assert f"${serverless_cost:,.2f}/month (serverless:" in dep003.message

    (tmp_path / "no-serverless.yaml").write_text(yaml.safe_dump(RULE_OUT_SERVERLESS), encoding="utf-8")
    bound = api.recommend(workload, dt.date(2026, 11, 30), policy_dir=tmp_path)
    assert bound.decision.deployment == "api"
    assert bound.resolution.ruled_out["serverless"] == ("ORG101",)
    # Without serverless the cheapest standing route is the owned 8-GPU nodes TCO001 proposes, cheaper
    # than the best rental.
    owned = bound.own_hardware.usd_per_month
    assert owned < bound.best_option.usd_per_month and "TCO001" in bound.fired_rules
    compared = [f for f in bound.findings if f.rule_id in ("DEP002", "DEP003", "DEP004", "DEP011")]
    assert [f.rule_id for f in compared] == ["DEP003"]
    assert all("serverless" not in f.message for f in compared)
    assert all(f"${owned:,.2f}/month (own hardware:" in f.message for f in compared)


def test_the_api_a_rule_ruled_out_is_not_weighed_as_a_route() -> None:
    """Own weights rule the API out (DEP005): the comparison rules stay silent and DEP005 decides; the
    summary still names the API's price as ruled out. DEP004 ("self-hosting costs less") decided such
    a workload, weighing a route that was never open."""
    result = recommend(load_workload(str(EXAMPLES_DIR / "hr-assistant.yaml")), dt.date(2026, 11, 30))
    assert result.workload.custom_weights
    assert result.resolution.ruled_out["api"] == ("DEP005",)
    assert result.decision.deciding_rule_id == "DEP005"
    assert not {"DEP002", "DEP003", "DEP004", "DEP011"} & set(result.fired_rules)


def test_kept_warm_instances_are_kept_in_the_paid_hours_of_the_schedule() -> None:
    """hr-assistant works on workdays (264 paid hours) and keeps two serverless instances warm (one and
    the spare of a business-critical service): they bill 2 x 264 hours, as a dedicated card is rented
    for the schedule, not 2 x 730 (1,460 hours before)."""
    result = recommend(load_workload(str(EXAMPLES_DIR / "hr-assistant.yaml")), dt.date(2026, 11, 30))
    assert result.workload.hours_per_month == 264
    option = next(
        o
        for o in result.options
        if (o.provider, o.offer, o.gpu, o.pricing) == ("runpod", "serverless", "h200", "serverless")
    )
    assert option.serverless is not None and option.serverless.kept_warm
    # Each kept instance also runs out the 5 s idle timeout (and half a 1 s billing step) after each of
    # the 22 days, and starts again before the next: RunPod's 2.3 s start and the 70B's FP8 checkpoint
    # (68.45B parameters at 1 byte and the 16-bit embedding and lm_head's 2.10B at 2 bytes: 72.65 GB) at
    # 2.5 GB/s, 29.06 s, and vLLM's 21.8 s start (53.16 s).
    start = 2.3 + 72.651346 / 2.5 + 21.8
    assert option.serverless.cold_start_seconds == pytest.approx(start) and round(start, 2) == 53.16
    assert option.billed_hours_per_month == pytest.approx(2 * 264 + 2 * 22 * (5 + 0.5 + start) / 3600)
