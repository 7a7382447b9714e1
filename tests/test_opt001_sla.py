"""OPT001 points a business-critical service at the quantized model's cheapest rental: where that
rental's provider has no established SLA and the rental of the model as given has one, it says so, as
PRV011 says of the admitted providers (it pointed a German business-critical Mixtral from Scaleway, which
publishes an SLA, to OVHcloud without a word)."""

from __future__ import annotations

from typing import Any

from helpers import EVALUATED_ON, run

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import validate_workload

CAVEAT = "Whether its provider publishes an uptime commitment for its GPU compute is not established (PRV011)"
MIXTRAL: dict[str, Any] = {
    "name": "critical-mixtral",
    "model": {"name": "mixtral-8x7b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 300_000,
    "business_critical": True,
    "personal_data": True,
    "company_country": "DE",
}


def opt001(**changes: Any) -> str:
    result = recommend(validate_workload({**MIXTRAL, **changes}, "test"), EVALUATED_ON)
    return " ".join(next(f.message for f in result.findings if f.rule_id == "OPT001").split())


def test_a_quantized_rental_without_an_established_sla_is_named_for_a_business_critical_service() -> None:
    providers = {p.id: p.enterprise_sla for p in load_knowledge().providers.providers}
    assert (providers["scaleway"], providers["ovhcloud"]) == (True, None)
    message = opt001()
    assert (
        "fit ovhcloud a100-monthly (2 × a100-80gb-pcie) at $2,552/month instead of scaleway h100-sxm-2-80g "
        "(4 × h100-sxm) at $11,211/month, the cheapest rental of the model as given. " + CAVEAT
    ) in message
    # Not business-critical: the SLA is no criterion, and OPT001 names none.
    assert CAVEAT not in opt001(business_critical=False)


def test_no_caveat_where_the_rental_as_given_has_no_established_sla_either() -> None:
    # Llama 3.1 8B: OVHcloud's L40S as given, its L4 quantized; PRV011 names OVHcloud for both.
    message = opt001(
        model={"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True}, requests_per_day=500_000
    )
    assert "fit ovhcloud l4-monthly" in message and "instead of ovhcloud l40s-monthly" in message
    assert CAVEAT not in message


CH_SAAS = {
    "name": "ch-saas-eu-customers",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 80_000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 500,
    "load_pattern": "variable",
    "schedule": "always",
    "personal_data": True,
    "personal_data_region": "eu",
    "company_country": "CH",
}


def test_a_quantized_rental_dearer_than_the_recommended_server_says_it_compares_rentals_only() -> None:
    """Own hardware at $11,214 a month is the recommendation; quantized to INT4 the best rental falls from
    $21,450 to $16,817, still above it. OPT001 read as if the quantization could change the decision."""
    result = run(CH_SAAS)
    assert (result.decision.deployment, round(result.decision.usd_per_month or 0)) == ("own_hardware", 11_214)
    (message,) = [" ".join(f.message.split()) for f in result.findings if f.rule_id == "OPT001"]
    assert (
        "the cheapest rental of the model as given. The recommendation, own hardware at $11,214/month, still "
        "costs less: this compares rentals on one offer only."
    ) in message
