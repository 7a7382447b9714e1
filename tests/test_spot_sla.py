"""A provider's enterprise SLA does not cover its spot capacity: AWS, Azure and Google Cloud take spot
instances back when they need the capacity and commit no uptime for them (providers.yaml ``spot_sla``).
A business-critical workload's rentals must carry an SLA (PRV003 excludes the others, PRV009 fails a
proposal of one), so their spot offers are held to the spot verdict, not to the provider's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import knowledge_with, run

from gpu_advisor.cli import main
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from

# A business-critical nightly batch: PRC001 prefers spot for a batch, PRC030 leaves batches to it.
CRITICAL_BATCH = {
    "name": "critical-batch",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 100_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 500,
    "load_pattern": "batch",
    "batch_window_hours": 8,
    "business_critical": True,
    "company_country": "DE",
}
AZURE = {
    "name": "azure",
    "deployment": "dedicated_cloud",
    "provider": "azure",
    "gpu": "h100-sxm",
    "gpus": 8,
    "region": "US",
}


def test_the_spot_verdict_replaces_the_providers_for_spot_capacity_only() -> None:
    providers = {p.id: p for p in load_knowledge().providers.providers}
    for provider in ("aws", "azure", "gcp"):
        assert providers[provider].enterprise_sla is True
        assert providers[provider].sla_for("on_demand") is True
        assert providers[provider].sla_for("reserved") is True
        assert providers[provider].sla_for("spot") is False
    # A provider with no SLA has none for its spot capacity either; one whose SLA is unknown sells no spot.
    assert providers["vast"].sla_for("spot") is False
    assert providers["lambda"].sla_for("spot") is None
    # A provider with an SLA whose spot verdict the catalog lacks (it sells no spot; an overrides file may
    # add a spot offer of it): not established, not taken as covered.
    assert providers["coreweave"].enterprise_sla is True and providers["coreweave"].spot_sla is None
    assert providers["coreweave"].sla_for("spot") is None


def test_a_business_critical_workload_excludes_spot_but_not_the_same_providers_other_offers() -> None:
    options = run(CRITICAL_BATCH).options
    spot = [o for o in options if o.pricing == "spot"]
    assert {o.provider for o in spot} >= {"aws", "azure", "gcp"}
    assert all("PRV003" in o.excluded_by for o in spot)
    hyperscalers = [o for o in options if o.provider in ("aws", "azure", "gcp") and o.pricing != "spot"]
    assert hyperscalers and not any("PRV003" in o.excluded_by for o in hyperscalers)
    # Without business_critical, PRV003 does not fire and spot stays.
    relaxed = run({**CRITICAL_BATCH, "business_critical": False}).options
    assert not any("PRV003" in o.excluded_by for o in relaxed)


def check(tmp_path: Path, proposal: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump({"workload": CRITICAL_BATCH, "proposal": proposal}), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    (found,) = json.loads(result.output)
    return {item["rule_id"]: item for item in found["results"]}


def test_a_spot_proposal_of_a_provider_with_an_sla_fails_prv009_and_its_on_demand_one_does_not(
    tmp_path: Path,
) -> None:
    spot = check(tmp_path, {**AZURE, "offer": "nd-h100-v5-spot", "pricing": "spot"})["PRV009"]
    assert spot["status"] == "fail"
    assert spot["message"].startswith(
        "The workload is business-critical and azure publishes no enterprise SLA for its spot capacity, "
        "which it takes back when it needs it (its pages checked, providers.yaml);"
    )
    # The providers named as publishing one are named for what they sell at list price.
    assert "Amazon Web Services, Google Cloud" in spot["message"]
    on_demand = check(tmp_path, {**AZURE, "offer": "nd-h100-v5-on-demand", "pricing": "on_demand"})
    assert on_demand["PRV009"]["status"] == "pass"


def test_a_provider_with_an_sla_that_sells_spot_must_say_whether_it_covers_it(tmp_path: Path) -> None:
    from gpu_advisor.knowledge import KNOWLEDGE_DIR

    shipped = (KNOWLEDGE_DIR / "providers.yaml").read_text(encoding="utf-8")
    aws = shipped[shipped.index("  - id: aws\n") : shipped.index("  - id: azure\n")]
    block = aws[aws.index("    spot_sla:\n") :]
    directory = knowledge_with(tmp_path, "providers.yaml", block, "")
    with pytest.raises(KnowledgeError, match="entry 'aws': field spot_sla: missing, but it sells spot"):
        load_knowledge_from(directory)


ADDED_SPOT = """added_offers:
- provider: coreweave
  offer: cw-spot
  gpu: h100-sxm
  usd_per_gpu_hour: 0.9
  pricing: spot
  instance_gpus: [8]
  regions: [us]
  price_jurisdiction: US
  as_of: '2026-11-28'
"""


def test_an_added_spot_offer_of_a_provider_with_an_sla_is_not_taken_as_covered(tmp_path: Path) -> None:
    """CoreWeave publishes an SLA but sells no spot in the catalog: a spot offer of it added by an
    overrides file has no verdict of its own, so whether it is covered is not established (PRV011), and
    the Summary asks about its spot capacity, not about CoreWeave's SLA at large."""
    overrides = tmp_path / "rates.yaml"
    overrides.write_text(ADDED_SPOT, encoding="utf-8")
    workload = tmp_path / "w.yaml"
    workload.write_text(yaml.safe_dump(CRITICAL_BATCH), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["recommend", str(workload), "--as-of", "2026-11-30", "--overrides", str(overrides)]
    )
    assert result.exit_code == 0, result.output
    memo = " ".join(result.output.split())
    # Two 8-card instances, so that a lost one leaves the window's replicas (SIZ038).
    assert "16 × h100-sxm at coreweave (cw-spot, spot)" in memo
    assert (
        "Whether the chosen provider's SLA covers its spot capacity (coreweave) could not be established "
        "(PRV011): spot capacity is the provider's to take back;" in memo
    )
    assert "Whether the chosen provider, coreweave, publishes an enterprise SLA" not in memo
    # PRV011 names the providers by what is admitted of them: CoreWeave for its spot offer, though its SLA
    # for the capacity it sells at list price is established.
    assert (
        "the catalog could not check whether CoreWeave, Lambda, OVHcloud and STACKIT publish an uptime "
        "commitment with service credits for the GPU capacity they offer here:" in memo
    )
    assert (
        "The cheapest admitted rental, coreweave cw-spot (16 × h100-sxm) at $460/month, comes from one of "
        "them;" in memo
    )


def test_prv012_asks_about_the_spot_capacity_of_a_spot_proposal(tmp_path: Path) -> None:
    overrides = tmp_path / "rates.yaml"
    overrides.write_text(ADDED_SPOT, encoding="utf-8")
    proposal = {**AZURE, "provider": "coreweave", "offer": "cw-spot", "pricing": "spot", "gpu": "h100-sxm"}
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump({"workload": CRITICAL_BATCH, "proposal": proposal}), encoding="utf-8")
    args = ["check", str(path), "--as-of", "2026-11-30", "--format", "json", "--overrides", str(overrides)]
    result = CliRunner().invoke(main, args)
    (found,) = json.loads(result.output)
    (prv012,) = [r for r in found["results"] if r["rule_id"] == "PRV012"]
    assert (prv012["status"], prv012["message"]) == (
        "warn",
        "The workload is business-critical and whether coreweave publishes an enterprise SLA for its spot "
        "capacity could not be checked; ask for its SLA terms before relying on it.",
    )
