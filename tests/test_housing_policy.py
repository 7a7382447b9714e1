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
        "The proposal buys a datacenter server (HGX H100 8-GPU), which stands where the rules keep this "
        "workload's own hardware out (ORG301); see gpu-advisor recommend for each rule's reason and where "
        "its own hardware is costed, if anywhere."
    )
    admitted = CliRunner().invoke(main, args)
    checks = {c["rule_id"]: c for c in json.loads(admitted.output)[0]["results"]}
    assert checks["TCO021"]["status"] == "pass"
