"""A serverless option pinned to data centres that promise no stock of its GPU (RunPod's EU data centres,
whose list shows each GPU's current stock): the price is the same as anywhere, the GPU may not be there.
Two personal-data decisions rested on B200 workers in RunPod's EU data centres without a word that none
is promised there."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from gpu_advisor.cli import main
from gpu_advisor.engine.calc.serverless import serverless_listings
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

# Own weights, light variable load, personal data: RunPod Serverless on one L4, in its EU data centres.
WORKLOAD = {
    "name": "own-weights",
    "model": {"name": "llama-3.1-8b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 3000,
    "load_pattern": "variable",
    "latency_sensitive": False,
    "personal_data": True,
}
LINE = (
    "RunPod Serverless promises no l4 workers in the data centres it is pinned to here: its list of them "
    "shows each GPU's current stock, which changes. Check it before relying on this option."
)


def recommend(tmp_path: Path, *args: str, workload: dict[str, object] = WORKLOAD) -> str:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    result = CliRunner().invoke(main, ["recommend", str(path), "--as-of", "2026-11-30", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_only_runpods_eu_data_centres_are_flagged() -> None:
    flagged = {(s.product.id, s.region) for s in serverless_listings(load_knowledge()) if s.stock_varies}
    assert flagged == {("serverless", "eu-datacenters")}


def test_the_summary_says_the_gpu_may_not_be_there(tmp_path: Path) -> None:
    memo = recommend(tmp_path)
    summary = memo.split("## Summary\n\n")[1].split("\n## ")[0].splitlines()
    assert summary[0].startswith(
        "Recommendation: **Serverless GPU endpoints**, RunPod Serverless, EU region, with 1 × l4"
    )
    assert summary[1] == LINE
    option = json.loads(recommend(tmp_path, "--format", "json"))["serverless_option"]
    assert (option["regions"], option["serverless"]["stock_varies"]) == (["eu-datacenters"], True)


def test_at_the_same_price_the_unpinned_pool_is_taken_where_no_rule_asks_for_the_pin(tmp_path: Path) -> None:
    """Without personal data nothing keeps the workload in the EU: RunPod's workers in any of its data
    centres cost the same and draw on its whole stock. The pinned region won the tie by its name before."""
    anywhere = {**WORKLOAD, "personal_data": False}
    memo = recommend(tmp_path, workload=anywhere)
    option = json.loads(recommend(tmp_path, "--format", "json", workload=anywhere))["serverless_option"]
    assert (option["regions"], option["serverless"]["stock_varies"]) == (["variable"], False)
    assert "promises no" not in memo


def test_check_says_it_of_a_proposal_in_the_pinned_region_only(tmp_path: Path) -> None:
    lines = {}
    for region in ("EU", "variable"):
        path = tmp_path / f"{region}.yaml"
        proposal = {
            "name": "p",
            "deployment": "serverless",
            "provider": "runpod",
            "offer": "serverless",
            "gpu": "l4",
            "gpus": 1,
            "pricing": "serverless",
            "region": region,
        }
        path.write_text(yaml.safe_dump({"workload": WORKLOAD, "proposal": proposal}), encoding="utf-8")
        result = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", "--show-all"])
        lines[region] = [line for line in result.output.splitlines() if line.startswith("  Priced ")]
    assert lines["EU"][0].endswith(
        " RunPod Serverless promises no l4 workers in the region's data centres: check their current stock "
        "before relying on it."
    )
    assert "promises no" not in lines["variable"][0]
