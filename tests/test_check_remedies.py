"""A failing check says what would pass it, from the catalog listings the workload's rules leave
(``engine/apps/check/remedies.py``): RES005 the proposed provider's regions (or the other providers),
PRC007 the provider's offers without spot, PRV009 the providers that publish an enterprise SLA. An
organization's policy narrows them as it narrows the recommendation's options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main

WORKLOAD = {
    "name": "chat",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 200000,
    "personal_data": True,
    "company_country": "DE",
}


def message(tmp_path: Path, rule_id: str, proposal: dict[str, Any], *args: str, **workload: Any) -> str:
    """The message of ``rule_id``'s failure on the proposal (an H100 SXM rental unless it says else)."""
    document = {
        "workload": {**WORKLOAD, **workload},
        "proposal": {"deployment": "dedicated_cloud", "gpu": "h100-sxm", "gpus": 2, **proposal},
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json", "--soft-fail", *args])
    assert result.exit_code == 0, result.output
    (item,) = [i for i in json.loads(result.output)[0]["results"] if i["rule_id"] == rule_id]
    assert item["status"] == "fail"
    return str(item["message"])


def test_spot_for_a_latency_sensitive_service_names_the_same_gpu_without_spot(tmp_path: Path) -> None:
    """AWS's spot H100 is sold in the US; in the EU AWS sells the H100 only in Stockholm (on demand): its
    US offers are left out, as the GDPR rule (RES001) leaves them out of the recommendation."""
    text = message(
        tmp_path,
        "PRC007",
        {"provider": "aws", "offer": "p5-spot", "pricing": "spot", "region": "us-east-1"},
        latency_sensitive=True,
    )
    assert text.endswith(
        "which production inference that answers users cannot absorb. aws also lists h100-sxm without spot "
        "where the workload may run: p5-on-demand-stockholm."
    )


def test_spot_where_the_provider_sells_nothing_else_says_so(tmp_path: Path) -> None:
    """Vast.ai's H100 PCIe is spot only in the catalog (interruptible instances)."""
    text = message(
        tmp_path,
        "PRC007",
        {"provider": "vast", "offer": "spot", "gpu": "h100-pcie", "pricing": "spot"},
        latency_sensitive=True,
        personal_data=False,
    )
    assert text.endswith(
        "The catalog lists no offer of h100-pcie at vast without spot where the workload may run."
    )


def test_a_provider_without_sla_names_those_that_publish_one(tmp_path: Path) -> None:
    text = message(
        tmp_path,
        "PRV009",
        {"provider": "runpod", "pricing": "on_demand", "region": "eu-datacenters"},
        business_critical=True,
    )
    assert text.endswith(
        "the higher the demands on SLAs and location guarantees. Amazon Web Services, Microsoft Azure, "
        "Google Cloud, Scaleway publish one and sell h100-sxm where the workload may run."
    )


def test_the_company_policy_narrows_the_providers_named(tmp_path: Path) -> None:
    """ORG003 approves AWS, Google Cloud, Azure and OVHcloud only: Scaleway is no longer named."""
    text = message(
        tmp_path,
        "PRV009",
        {"provider": "runpod", "pricing": "on_demand", "region": "eu-datacenters"},
        "--policy",
        str(EXAMPLES_DIR / "org-policy"),
        business_critical=True,
    )
    assert text.endswith(
        "Amazon Web Services, Microsoft Azure, Google Cloud publish one and sell h100-sxm where the "
        "workload may run."
    )


def test_a_gpu_no_provider_with_sla_sells_where_the_workload_may_run_says_so(tmp_path: Path) -> None:
    """The catalog's B200 is sold by RunPod (variable locations, no SLA published) and Lambda (in the US,
    its SLA not established): no provider that publishes one sells it."""
    text = message(
        tmp_path,
        "PRV009",
        {"provider": "runpod", "gpu": "b200", "pricing": "on_demand", "region": "eu-datacenters"},
        business_critical=True,
    )
    assert text.endswith(
        "The catalog lists no provider that publishes one and sells b200 where the workload may run."
    )


def test_the_sla_providers_named_sell_instances_that_hold_a_replica(tmp_path: Path) -> None:
    """A business-critical 70B service runs replicas of 2 × H100 SXM: GMI Cloud publishes an SLA, but
    its H100 comes as single cards (NET003 excludes it), so PRV009 does not name it among those that
    would pass; the hyperscalers' 8-card instances and Scaleway's 2-card ones hold a replica."""
    text = message(
        tmp_path,
        "PRV009",
        {"provider": "runpod", "offer": "community", "pricing": "on_demand", "gpus": 6},
        model={"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        requests_per_day=300_000,
        personal_data=False,
        business_critical=True,
    )
    assert text.endswith(
        "Microsoft Azure, Amazon Web Services, Google Cloud, Scaleway publish one and sell h100-sxm where "
        "the workload may run."
    )


def test_a_mixed_fleets_spot_busier_hours_are_told_the_hourly_offers_beside_the_base(tmp_path: Path) -> None:
    """A hybrid on AWS's 3-year P5 reservation in us-east-1 with its busier hours on P5 spot: what replaces
    the spot is an hourly P5 offer in the base's jurisdiction. The reservations cannot carry the busier
    hours (refused as input), and Stockholm's on-demand P5 pairs with no base in the US (not priced)."""
    proposal = {
        "deployment": "hybrid",
        "provider": "aws",
        "offer": "p5-reserved-3y-2026-09",
        "gpus": 16,
        "pricing": "reserved",
        "region": "us-east-1",
        "peak_provider": "aws",
        "peak_offer": "p5-spot",
    }
    steady = {
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 3000000,
        "load_pattern": "steady",
        "latency_sensitive": True,
        "personal_data": False,
        "company_country": "US",
    }
    said = message(tmp_path, "PRC007", proposal, **steady)
    assert said.endswith(
        "aws also lists h100-sxm without spot where the workload may run: p5-on-demand-2026-09."
    )


def test_a_serverless_proposal_is_told_the_serverless_products_that_may_run_it(tmp_path: Path) -> None:
    """Modal's H200 runs in no region GDPR admits: the products that do are RunPod's and Hugging Face's
    serverless H200 in the EU, not OVHcloud's dedicated 8-card instance (a rental is no remedy for a
    serverless proposal)."""
    proposal = {"deployment": "serverless", "provider": "modal", "gpu": "h200", "gpus": 1}
    hr = {
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 40000,
        "avg_input_tokens": 1200,
        "avg_output_tokens": 300,
        "schedule": "workdays",
    }
    said = message(tmp_path, "RES005", proposal, **hr)
    assert said.endswith(
        "The catalog lists no region where modal sells h200 and the workload may run; RunPod, Hugging Face "
        "sell it there."
    )
