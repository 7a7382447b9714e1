"""Each GPU provider's enterprise SLA verdict rests on its own page (knowledge/providers.yaml:
enterprise_sla with sla_source and sla_as_of), or is null where that page could not be read. PRV003
excludes for a business-critical workload only the providers known to publish none; PRV011 names the
admitted providers whose SLA is not established, and a proposal on one of them is warned (PRV012), not
failed (PRV009 cannot tell)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import knowledge_with, run

from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from

GDPR_CRITICAL: dict[str, Any] = {
    "name": "business-critical GDPR chat",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 400,
    "load_pattern": "variable",
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": True,
    "business_critical": True,
    "company_country": "DE",
}


def eu_providers(result: Any, *, admitted: bool) -> set[str]:
    """The providers with an EU option that some rule excluded by its SLA (admitted=False) or that no
    rule excluded at all (admitted=True)."""
    eu = [o for o in result.options if o.eu]
    if admitted:
        return {o.provider for o in eu if not o.excluded_by}
    return {o.provider for o in eu if "PRV003" in o.excluded_by}


def test_every_provider_verdict_is_sourced_and_dated_or_says_why_it_is_unknown() -> None:
    providers = {p.id: p for p in load_knowledge().providers.providers}
    verdicts = {p.id: p.enterprise_sla for p in providers.values()}
    assert {i for i, v in verdicts.items() if v is True} == {
        "aws",
        "azure",
        "gcp",
        "coreweave",
        "gmi",
        "scaleway",
    }
    # Hugging Face sells SLAs only under its Enterprise plan, at a custom price: the pay-as-you-go
    # compute the catalog prices has none.
    assert {i for i, v in verdicts.items() if v is False} == {"runpod", "vast", "modal", "huggingface"}
    assert {i for i, v in verdicts.items() if v is None} == {
        "lambda",
        "together",
        "ovhcloud",
        "stackit",
        "ionos",
        "verda",
        "hetzner",
    }
    for provider in providers.values():
        if provider.enterprise_sla is None:
            assert provider.sla_note, provider.id
        else:
            assert provider.sla_source is not None and provider.sla_source.url, provider.id
            assert provider.sla_as_of is not None, provider.id
    # Scaleway's Instances SLA names its GPU instances as the covered service.
    assert "CPU and GPU Instances" in (providers["scaleway"].sla_source.title or "")


def test_a_provider_verdict_without_its_source_is_refused_at_load(tmp_path: Path) -> None:
    copy = knowledge_with(
        tmp_path,
        "providers.yaml",
        '    enterprise_sla: true\n    sla_source: {url: "https://www.scaleway.com/en/virtual-instances/sla"',
        '    enterprise_sla: true\n    # sla_source: {url: "https://www.scaleway.com/en/virtual-instances/sla"',
    )
    with pytest.raises(KnowledgeError, match="sla_source"):
        load_knowledge_from(copy)


def test_an_unknown_verdict_without_a_note_is_refused_at_load(tmp_path: Path) -> None:
    copy = knowledge_with(
        tmp_path,
        "providers.yaml",
        '    enterprise_sla: null\n    sla_note: "STACKIT',
        ('    enterprise_sla: null\n    # sla_note: "STACKIT'),
    )
    with pytest.raises(KnowledgeError, match="sla_note"):
        load_knowledge_from(copy)


def test_a_business_critical_gdpr_workload_keeps_the_eu_providers_whose_sla_is_not_established() -> None:
    result = run(GDPR_CRITICAL)
    assert "PRV003" in result.fired_rules
    # Admitted in the EU: the hyperscalers and Scaleway (published SLAs), OVHcloud and STACKIT (not
    # established). RunPod's EU data centres are out, as RunPod publishes no SLA, and so is Hugging Face's
    # Ireland region: its list price carries none (SLAs come with its Enterprise plan).
    assert eu_providers(result, admitted=True) == {"aws", "azure", "gcp", "scaleway", "ovhcloud", "stackit"}
    assert eu_providers(result, admitted=False) == {"runpod", "huggingface"}
    (finding,) = [f for f in result.findings if f.rule_id == "PRV011"]
    assert finding.severity == "warning"
    assert "whether OVHcloud and STACKIT publish an uptime commitment" in finding.message


def test_without_business_criticality_neither_sla_rule_fires() -> None:
    result = run({**GDPR_CRITICAL, "business_critical": False})
    assert "PRV003" not in result.fired_rules
    assert "PRV011" not in result.fired_rules
    assert "runpod" in eu_providers(result, admitted=True)


def test_prv011_sets_the_cheapest_offer_beside_the_cheapest_one_with_an_enterprise_sla() -> None:
    """An 8B FP8 business-critical service with personal data: the cheapest admitted offer is OVHcloud's
    monthly L40S (SLA not established), 3 cards × 1.38 EUR × 1.16 USD per EUR (+ the 730 hours); Scaleway,
    which publishes an SLA, rents the same three L40S for more. The note names both and the difference."""
    workload = {
        **GDPR_CRITICAL,
        "model": {"name": "llama-3.1-8b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 300_000,
        "avg_output_tokens": 300,
        "load_pattern": "steady",
        "schedule": "always",
        # Its provider confirms the busier hours' cards: else no mixed fleet is priced (PRC034).
        "capacity_confirmed": True,
    }
    result = run(workload)
    admitted = [o for o in result.options if not o.excluded_by and o.serverless is None]
    cheapest = admitted[0]
    with_sla = next(o for o in admitted if o.provider == "scaleway")
    assert (cheapest.provider, cheapest.offer, cheapest.gpus) == ("ovhcloud", "l40s-monthly", 3)
    assert (with_sla.offer, with_sla.gpus) == ("l40s-48g", 3)
    assert cheapest.usd_per_month == pytest.approx(3 * 1.38 * 1.16 * 730, rel=0.003)
    (finding,) = [f for f in result.findings if f.rule_id == "PRV011"]
    extra = round((with_sla.usd_per_month / cheapest.usd_per_month - 1) * 100)
    assert finding.message.endswith(
        " The mixed fleet priced runs both its base and its busier hours at OVHcloud, also among them."
    )
    assert (
        " The cheapest admitted rental, ovhcloud l40s-monthly (3 × l40s) at"
        f" ${cheapest.usd_per_month:,.0f}/month, comes from one of them; the cheapest of a provider that"
        " publishes an enterprise SLA, scaleway l40s-48g (3 × l40s), its price listed on"
        f" {with_sla.as_of.isoformat()}, costs"
        f" ${with_sla.usd_per_month:,.0f}/month ({extra} % more)."
    ) in finding.message


def test_prv011_says_nothing_more_where_the_cheapest_offer_has_an_established_sla() -> None:
    """The 70B GDPR chat's cheapest admitted offer is Scaleway's, which publishes an SLA."""
    result = run(GDPR_CRITICAL)
    (finding,) = [f for f in result.findings if f.rule_id == "PRV011"]
    assert finding.message.endswith("Ask for their SLA terms before relying on one of them.")
