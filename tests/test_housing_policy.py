"""An organization rule that excludes where own servers stand (the option field ``housing``) keeps buying
out where it excludes every catalog server that carries the workload: the recommendation does not buy
the default server it would fall back on, the memo says why buying is not compared, and a proposal to
buy such a server fails TCO021 naming the excluding rule (not the office rules it did not fire)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from gpu_advisor.cli import main

AS_OF = "2026-11-30"

WORKLOAD: dict[str, Any] = {
    "name": "constant-405b",
    "model": {"name": "llama-3.1-405b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 400000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 400,
    "load_pattern": "steady",
    "schedule": "always",
    "utilization": 0.9,
    "latency_sensitive": True,
    "company_country": "DE",
}
"""Busy around the clock: without a policy, the rules buy HGX H100 servers for it (TCO001)."""


def policy(tmp_path: Path, *housings: str) -> Path:
    directory = tmp_path / "policy"
    directory.mkdir()
    rule = {
        "id": "ORG301",
        "name": "no-servers-here",
        "topic": "tco",
        "severity": "warning",
        "fact": "workload",
        "when": [],
        "then": {"exclude_options": [{"field": "housing", "equals": h} for h in housings]},
        "title": "Policy: no servers of ours",
        "message": "The company buys no servers for inference.",
        "rationale": "No capital budget.",
        "source": {"document": "cloud-gpu-costs-2026", "section": "Fazit"},
    }
    (directory / "org.yaml").write_text(
        yaml.safe_dump({"schema_version": 1, "family": "ORG", "rules": [rule]}), encoding="utf-8"
    )
    return directory


def recommend(tmp_path: Path, *args: str) -> dict[str, Any]:
    path = tmp_path / "workload.yaml"
    path.write_text(yaml.safe_dump(WORKLOAD), encoding="utf-8")
    result = CliRunner().invoke(main, ["recommend", str(path), "--as-of", AS_OF, "--format", "json", *args])
    assert result.exit_code == 0, result.output
    parsed: dict[str, Any] = json.loads(result.output)
    return parsed


def test_without_a_policy_the_rules_buy_servers(tmp_path: Path) -> None:
    result = recommend(tmp_path)
    assert result["decision"]["deployment"] == "own_hardware"
    assert result["own_hardware"]["applicable"] is True
    assert result["own_hardware"]["housing_excluded_by"] == []


def test_a_policy_that_excludes_every_housing_keeps_buying_out(tmp_path: Path) -> None:
    result = recommend(tmp_path, "--policy", str(policy(tmp_path, "datacenter", "office")))
    assert result["decision"]["deployment"] == "dedicated_cloud"
    assert result["own_hardware"]["applicable"] is False
    assert result["own_hardware"]["housing_excluded_by"] == ["ORG301"]
    assert "TCO001" not in result["fired_rules"]


def test_excluding_the_datacenter_alone_keeps_out_the_servers_that_carry_405b(tmp_path: Path) -> None:
    """The catalog's office machine cannot carry the load; the HGX it falls back on is a datacenter server."""
    result = recommend(tmp_path, "--policy", str(policy(tmp_path, "datacenter")))
    assert result["own_hardware"]["server"] == "hgx-h100-8"
    assert result["own_hardware"]["housing_excluded_by"] == ["ORG301"]
    assert result["decision"]["deployment"] == "dedicated_cloud"


def test_the_memo_says_why_buying_is_not_compared(tmp_path: Path) -> None:
    path = tmp_path / "workload.yaml"
    path.write_text(yaml.safe_dump(WORKLOAD), encoding="utf-8")
    directory = str(policy(tmp_path, "datacenter"))
    memo = CliRunner().invoke(main, ["recommend", str(path), "--as-of", AS_OF, "--policy", directory])
    assert (
        "\nThe catalog's servers that carry this workload stand where the rules keep own hardware out "
        "(ORG301, under Why), so buying is not compared.\n"
    ) in memo.output
    assert "cannot serve this model" not in memo.output


def test_a_proposal_to_buy_the_excluded_server_fails_naming_the_policy(tmp_path: Path) -> None:
    proposal = {
        "workload": WORKLOAD,
        "proposal": {"name": "five HGX", "deployment": "own_hardware", "server": "hgx-h100-8", "servers": 5},
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump(proposal), encoding="utf-8")
    args = ["check", str(path), "--as-of", AS_OF, "--format", "json"]
    excluded = CliRunner().invoke(main, [*args, "--policy", str(policy(tmp_path, "datacenter"))])
    checks = {c["rule_id"]: c for c in json.loads(excluded.output)[0]["results"]}
    assert checks["TCO021"]["status"] == "fail"
    assert checks["TCO021"]["message"] == (
        "The proposal buys 5 datacenter servers (HGX H100 8-GPU), which stand where the rules keep this "
        "workload's own hardware out (ORG301); see gpu-advisor recommend for each rule's reason and whether "
        "its own hardware is costed elsewhere."
    )
    admitted = CliRunner().invoke(main, args)
    checks = {c["rule_id"]: c for c in json.loads(admitted.output)[0]["results"]}
    assert checks["TCO021"]["status"] == "pass"


def test_every_rule_that_kept_a_server_out_is_named(tmp_path: Path) -> None:
    """A business-critical 8B service: TCO018 keeps the workstation out of the office, the policy the HGX
    out of the datacenter; both are why no server is costed."""
    critical = {**WORKLOAD, "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "business_critical": True}
    path = tmp_path / "critical.yaml"
    path.write_text(yaml.safe_dump({**critical, "requests_per_day": 20000}), encoding="utf-8")
    args = ["recommend", str(path), "--as-of", AS_OF, "--format", "json"]
    own = json.loads(
        CliRunner().invoke(main, [*args, "--policy", str(policy(tmp_path, "datacenter"))]).output
    )
    # In the catalog's order of the servers they kept out: the workstation, then the node.
    assert own["own_hardware"]["housing_excluded_by"] == ["TCO018", "ORG301"]
    assert own["own_hardware"]["applicable"] is False


def test_a_rule_that_kept_out_only_servers_too_small_for_the_load_is_not_named(tmp_path: Path) -> None:
    """A business-critical 405B service: TCO018 keeps the office workstation out, which could not hold
    405B anyway; only the policy kept out a server that carries it."""
    path = tmp_path / "critical.yaml"
    path.write_text(yaml.safe_dump({**WORKLOAD, "business_critical": True}), encoding="utf-8")
    args = ["recommend", str(path), "--as-of", AS_OF, "--format", "json"]
    own = json.loads(
        CliRunner().invoke(main, [*args, "--policy", str(policy(tmp_path, "datacenter"))]).output
    )
    assert "TCO018" in own["fired_rules"]
    assert own["own_hardware"]["housing_excluded_by"] == ["ORG301"]


ON_PREMISES: dict[str, Any] = {
    "name": "onprem-8b",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 3000,
    "schedule": "office_hours",
    "personal_data": True,
    "on_premises_required": True,
    "company_country": "DE",
}
"""Data that may not leave the building (DEP006): own hardware whatever the price."""


def test_own_hardware_required_where_every_server_is_excluded_says_the_two_conflict(tmp_path: Path) -> None:
    path = tmp_path / "onprem.yaml"
    path.write_text(yaml.safe_dump({**ON_PREMISES, "requests_per_day": 400000}), encoding="utf-8")
    args = ["recommend", str(path), "--as-of", AS_OF, "--policy", str(policy(tmp_path, "datacenter"))]
    memo = CliRunner().invoke(main, args).output
    assert (
        "Recommendation: **Own hardware**, but the catalog's servers that carry this workload stand where "
        "the rules keep own hardware out (ORG301, under Why), so no server is priced: the rules that require "
        "own hardware and those that exclude where it may stand conflict; settle which one yields before "
        "buying.\n"
    ) in memo
    assert "No server in the catalog holds this model" not in memo


def test_the_volume_chart_prices_no_excluded_server(tmp_path: Path) -> None:
    """The office workstation carries 3,000 requests a day; from a million, only the HGX would: a
    datacenter server the policy excludes, so those volumes are unpriced, not priced on it."""
    path = tmp_path / "onprem.yaml"
    path.write_text(yaml.safe_dump(ON_PREMISES), encoding="utf-8")
    args = ["recommend", str(path), "--as-of", AS_OF, "--format", "json"]
    chart = json.loads(CliRunner().invoke(main, args).output)["charts"]["api_versus_self_hosted"]
    assert "HGX H100 8-GPU" in chart["self_hosted_servers"]
    assert chart["self_hosted_unpriced"] == []
    excluded = CliRunner().invoke(main, [*args, "--policy", str(policy(tmp_path, "datacenter"))])
    chart = json.loads(excluded.output)["charts"]["api_versus_self_hosted"]
    assert set(chart["self_hosted_servers"]) == {"RTX 5090 workstation"}
    assert chart["self_hosted_unpriced"] == [1000000, 3000000, 10000000]
    assert chart["self_hosted_unpriced_excluded_by"] == ["ORG301"]
    memo = CliRunner().invoke(main, [*args[:-2], "--policy", str(tmp_path / "policy")]).output
    assert (
        "own hardware (RTX 5090 workstation) has no price at 1,000,000, 3,000,000, 10,000,000 requests a "
        "day, which need a server the rules keep out of where it stands (ORG301): those volumes are left "
        "out.\n"
    ) in memo


def test_a_rental_proposal_under_a_housing_policy_is_checked(tmp_path: Path) -> None:
    """The policy's exclusion is on a field rentals have not: it neither excludes the rental nor stops the
    check (it raised KeyError: 'housing')."""
    proposal = {
        "workload": WORKLOAD,
        "proposal": {
            "name": "rent",
            "deployment": "dedicated_cloud",
            "provider": "runpod",
            "offer": "community",
            "gpu": "h200",
            "gpus": 24,
        },
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump(proposal), encoding="utf-8")
    args = ["check", str(path), "--as-of", AS_OF, "--format", "json"]
    result = CliRunner().invoke(main, [*args, "--policy", str(policy(tmp_path, "datacenter"))])
    assert result.exit_code == 0, result.output
    checks = {c["rule_id"]: c["status"] for c in json.loads(result.output)[0]["results"]}
    # DEP049 fails a rental the company's option rules exclude: this one they do not.
    assert (checks["DEP049"], checks["DEP016"]) == ("pass", "pass")
