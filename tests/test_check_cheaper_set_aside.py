"""DEP041 warns of a proposal the rules set aside on cost or strategy; where the proposal costs less than
the recommendation, it says that the rule, not the price, sets it aside (a budget holder read "too
expensive" into it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from test_housing_policy import WORKLOAD as CONSTANT_405B

from gpu_advisor.cli import main

HR: dict[str, Any] = {
    "name": "hr-assistant",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 40000,
    "avg_input_tokens": 1200,
    "avg_output_tokens": 300,
    "schedule": "workdays",
    "personal_data": True,
    "company_country": "DE",
}
"""A steady service: DEP024 sets serverless aside, although RunPod's EU H200 bills less than the rental."""

CHEAPER = (
    " The proposal costs less than the recommendation: the rule, not the price, sets it aside "
    "(gpu-advisor recommend gives its reason)."
)


def dep041(tmp_path: Path, proposal: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": HR, "proposal": proposal}), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    (checked,) = json.loads(result.output)
    (item,) = [i for i in checked["results"] if i["rule_id"] == "DEP041"]
    return checked, item


def test_a_cheaper_serverless_proposal_is_told_the_rule_not_the_price_sets_it_aside(tmp_path: Path) -> None:
    proposal = {"deployment": "serverless", "provider": "runpod", "gpu": "h200", "gpus": 1, "region": "EU"}
    checked, item = dep041(tmp_path, proposal)
    assert checked["usd_per_month"] < checked["recommendation"]["usd_per_month"]
    assert item["status"] == "warn"
    assert CHEAPER in item["message"]


def test_a_dearer_one_is_not(tmp_path: Path) -> None:
    proposal = {
        "deployment": "serverless",
        "provider": "huggingface",
        "gpu": "h200",
        "gpus": 8,
        "region": "EU",
    }
    checked, item = dep041(tmp_path, proposal)
    assert item["status"] == "warn"
    assert checked["usd_per_month"] > checked["recommendation"]["usd_per_month"]
    assert CHEAPER not in item["message"]


def test_a_proposal_too_small_for_the_peak_is_not_called_cheaper(tmp_path: Path) -> None:
    """Two HGX H100 for a 405B service that needs 40 cards (TCO003 sets buying aside, as the model is not
    stable): it bills less than the rental because it holds a fraction of the load, not because the rule
    weighs it wrongly."""
    workload = {**CONSTANT_405B, "model_stable": False}
    proposal = {"deployment": "own_hardware", "server": "hgx-h100-8", "servers": 2}
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": workload, "proposal": proposal}), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    (checked,) = json.loads(result.output)
    items = {i["rule_id"]: i for i in checked["results"]}
    assert checked["usd_per_month"] < checked["recommendation"]["usd_per_month"]
    assert items["DEP041"]["status"] == "warn"
    assert items["SIZ009"]["status"] in ("warn", "fail")
    assert CHEAPER not in items["DEP041"]["message"]
