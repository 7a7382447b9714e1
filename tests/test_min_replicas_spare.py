"""SIZ013/SIZ014: a stated min_replicas replaces the spare replica the rules add for a business-critical or
latency-sensitive service (SIZ010/SIZ011); where it leaves the cheapest rental without one, the memo says
so instead of dropping the spare silently."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.present.memo import render_memo

CLAIMS = {
    "name": "claims-assistant",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 300_000,
    "avg_input_tokens": 1200,
    "avg_output_tokens": 300,
    "business_critical": True,
}


def message(result: Recommendation, rule_id: str) -> str:
    return next(f.message for f in result.findings if f.rule_id == rule_id)


def test_a_minimum_that_removes_the_spare_of_a_business_critical_service_is_named() -> None:
    result = run({**CLAIMS, "min_replicas": 1})
    best = result.best_option
    assert best is not None and (best.provider, best.offer, best.gpus) == ("scaleway", "h100-sxm-2-80g", 4)
    # Two replicas of 2 x H100 carry the peak; min_replicas 1 adds none, so none is spare.
    assert (best.replicas, best.spare_replicas) == (2, 0)
    assert "SIZ013" in result.fired_rules and "SIZ010" not in result.fired_rules
    assert message(result, "SIZ013") == (
        "The workload sets min_replicas: 1, which turns off the spare replica a business-critical service "
        "gets (SIZ010): every plan, rented or owned, runs as many replicas as its peak needs or the minimum, "
        "whichever is more. The cheapest rental (scaleway h100-sxm-2-80g, 4 × h100-sxm) needs all its 2 "
        "replicas for the peak: a failed card or a rolling update leaves the peak unserved. Remove "
        "min_replicas so that every plan gets its spare, placed so that the loss of an instance leaves the "
        "peak (SIZ015), "
        "or set it above the peak's need (at least 3 for this rental), which covers a failed card, not a "
        "lost instance that carries several replicas."
    )


def test_a_minimum_above_the_peak_s_need_keeps_a_spare_and_the_rule_silent() -> None:
    result = run({**CLAIMS, "min_replicas": 3})
    best = result.best_option
    assert best is not None and (best.replicas, best.spare_replicas) == (3, 1)
    assert "SIZ013" not in result.fired_rules and "SIZ014" not in result.fired_rules


def test_without_a_minimum_the_rules_add_the_spare() -> None:
    result = run(CLAIMS)
    assert "SIZ010" in result.fired_rules and "SIZ013" not in result.fired_rules


def test_a_latency_sensitive_service_gets_the_warning_instead() -> None:
    result = run({**CLAIMS, "business_critical": False, "latency_sensitive": True, "min_replicas": 1})
    assert "SIZ014" in result.fired_rules and "SIZ013" not in result.fired_rules
    # A warning, counted and listed with the constraints the engineer must read.
    memo = render_memo(result)
    assert (
        "- **SIZ014** Latency-sensitive, but min_replicas leaves no spare replica: "
        in (memo.split("Constraints and warnings:")[1].split("### How the rules decided")[0])
    )
    assert "min_replicas: 1, which turns off the spare replica a latency-sensitive service gets (SIZ011)" in (
        message(result, "SIZ014")
    )
