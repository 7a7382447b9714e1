"""A savings plan binds the bill and reserves no instances (AWS's documentation): a business-critical
service whose cheapest rental is one is told to reserve the instances beside it (PRC026), one whose
mixed fleet stands on one is told the same of the fleet's base (PRC028), and a proposal of one is warned
(PRC027, in tests/scenarios/proposals.yaml)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from helpers import provider_policy

from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import validate_workload

CHAT = {
    "name": "critical-chat",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 3_000_000,
    "load_pattern": "steady",
    "latency_sensitive": True,
}
AWS_ONLY = provider_policy(
    "aws-only",
    "{field: provider, not_in: [aws]}",
    "Company policy: AWS only",
    "Procurement has a framework contract with AWS alone.",
)
EVALUATED = dt.date(2026, 12, 6)


def _recommend(tmp_path: Path, business_critical: bool) -> tuple[str, list[str], str]:
    (tmp_path / "aws-only.yaml").write_text(AWS_ONLY, encoding="utf-8")
    workload = validate_workload({**CHAT, "business_critical": business_critical}, "test")
    result = recommend(workload, EVALUATED, policy_dir=str(tmp_path))
    (best,) = [o for o in result.options if o.chosen] or [
        min((o for o in result.options if not o.excluded_by), key=lambda o: o.usd_per_month)
    ]
    messages = [f.message for f in result.findings if f.rule_id == "PRC026"]
    return best.offer, list(result.fired_rules), messages[0] if messages else ""


def test_the_savings_plans_carry_the_capacity_terms_and_nothing_else_does() -> None:
    knowledge = load_knowledge()
    marked = sorted(o.key for o in knowledge.offers.offers if o.capacity_not_reserved is not None)
    assert marked == ["aws/p5-reserved-1y-2026-09/h100-sxm", "aws/p5-reserved-3y-2026-09/h100-sxm"]


def test_a_business_critical_service_on_a_savings_plan_is_told_to_reserve_the_instances(
    tmp_path: Path,
) -> None:
    offer, fired, message = _recommend(tmp_path, business_critical=True)
    assert offer == "p5-reserved-3y-2026-09"
    assert "PRC026" in fired
    # 3,000,000 requests a day need two 8-card P5 instances of the three-year plan.
    assert message == (
        "The cheapest rental, aws p5-reserved-3y-2026-09, is a commitment of 36 months that reserves no "
        "instances: its 16 h100-sxm cards run as on-demand instances at the plan's rate, and an instance "
        "that fails, or one the service adds, starts only where the provider has one free. For a "
        "business-critical service reserve them beside it with On-Demand Capacity Reservations (billed at "
        "the on-demand rate while unused, nothing beyond the instance while one runs in them; the savings "
        "plan's rate applies to them), as the provider documents "
        "(https://docs.aws.amazon.com/wellarchitected/latest/sap-lens/best-practice-18-1.html; "
        "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-pricing-billing.html)."
    )


def test_a_service_that_is_not_business_critical_is_not_told(tmp_path: Path) -> None:
    offer, fired, _ = _recommend(tmp_path, business_critical=False)
    assert offer == "p5-reserved-3y-2026-09"
    assert "PRC026" not in fired


# A team's negotiated rates on AWS's current savings-plan rows (the documents' 1.90 and 2.10 USD): the
# rows keep what AWS documents of them, a billing commitment that reserves no instances.
NEGOTIATED_SAVINGS_PLANS = """\
offers:
  - {provider: aws, offer: p5-reserved-1y-2026-09, gpu: h100-sxm, usd_per_gpu_hour: 2.10}
  - {provider: aws, offer: p5-reserved-3y-2026-09, gpu: h100-sxm, usd_per_gpu_hour: 1.90}
as_of: 2026-11-28
"""
# 5,000,000 requests a day: 8 to 10 two-card replicas by hour with the spare, placed to survive the loss of
# an instance (the scenario "a reserved base with hourly peaks undercuts owning" in
# tests/scenarios/workloads.yaml): two reserved P5 for eight replicas every hour, Lambda's hourly H100 for
# the rest.
MIXED = {
    "name": "critical-mixed",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 5_000_000,
    "avg_input_tokens": 300,
    "avg_output_tokens": 150,
    "load_pattern": "steady",
    "utilization": 0.7,
    "latency_sensitive": True,
}


def _mixed(tmp_path: Path, business_critical: bool) -> tuple[str, list[str], str]:
    rates = tmp_path / "rates.yaml"
    rates.write_text(NEGOTIATED_SAVINGS_PLANS, encoding="utf-8")
    knowledge = knowledge_with_overrides(str(rates), EVALUATED)
    # A business-critical service's provider confirms the busier hours' cards: else no mix is priced
    # (PRC034).
    critical = {"business_critical": True, "capacity_confirmed": True} if business_critical else {}
    workload = validate_workload({**MIXED, "business_critical": False, **critical}, "test")
    result = recommend(workload, EVALUATED, knowledge=knowledge)
    messages = [f.message for f in result.findings if f.rule_id == "PRC028"]
    return result.decision.deployment, list(result.fired_rules), messages[0] if messages else ""


def test_a_business_critical_mixed_fleet_on_a_savings_plan_is_told_to_reserve_its_base(
    tmp_path: Path,
) -> None:
    deployment, fired, message = _mixed(tmp_path, business_critical=True)
    assert deployment == "hybrid"
    # The cheapest single-kind rental, priced beside the mix, is the same savings plan: PRC026 says so of
    # it, apart from the decision.
    assert "PRC028" in fired and "PRC026" in fired
    assert message == (
        "The mixed fleet's base, aws p5-reserved-3y-2026-09, is a commitment of 36 months that reserves no "
        "instances: its 16 h100-sxm cards run as on-demand instances at the plan's rate, and an instance of "
        "the base that fails starts again only where the provider has one free, as the busier hours' "
        "instances do. For a business-critical service reserve the base's instances beside it with "
        "On-Demand Capacity Reservations (billed at the on-demand rate while unused, nothing beyond the "
        "instance while one runs in them; the savings plan's rate applies to them), as the provider "
        "documents (https://docs.aws.amazon.com/wellarchitected/latest/sap-lens/best-practice-18-1.html; "
        "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-pricing-billing.html)."
    )


def test_a_mixed_fleet_of_a_service_that_is_not_business_critical_is_not_told(tmp_path: Path) -> None:
    """Without the replicas a lost instance takes, two owned servers undercut the same mix ($22,015
    against $23,735), which stays priced beside them: PRC028 speaks of no route."""
    deployment, fired, _ = _mixed(tmp_path, business_critical=False)
    assert deployment == "own_hardware" and "DEP025" not in fired
    assert "PRC028" not in fired
