"""``check`` holds a proposal to what its GPU's replicas can be planned to, as ``recommend`` sizes them: a
workload target no card count meets even alone (or meets by less than the estimate's latency error) is
kept at a lone request's time plus that error. Before, the plan ``recommend`` itself sized failed LAT005
on the workload's 300 ms, with advice to add replicas that no number of replicas could follow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from gpu_advisor.cli import main

AS_OF = "2026-11-30"
# 20,000-token prompts: 8 B200 take 419 ms for a lone prompt, so 300 ms is out of reach.
RAG: dict[str, Any] = {
    "name": "rag300",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 50_000,
    "avg_input_tokens": 20_000,
    "avg_output_tokens": 400,
    "context_tokens": 32_768,
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 300,
    "company_country": "DE",
}


def lat005(tmp_path: Path, gpus: int) -> dict[str, Any]:
    proposal = {
        "deployment": "dedicated_cloud",
        "provider": "runpod",
        "offer": "community",
        "gpu": "b200",
        "gpus": gpus,
        "pricing": "on_demand",
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": RAG, "proposal": proposal}), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", AS_OF, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    (data,) = json.loads(result.output)
    return next(item for item in data["results"] if item["rule_id"] == "LAT005")


def test_the_recommended_plan_passes_and_a_thinner_one_fails_against_what_can_be_planned(
    tmp_path: Path,
) -> None:
    # recommend's B200 plan: 2 replicas of 8 for the peak (the check adds no spare of its own).
    assert lat005(tmp_path, 16)["status"] == "pass"
    # One replica of 8 carries the peak with a longer queue: above the 472 ms the B200 can be planned to.
    thin = lat005(tmp_path, 8)
    assert thin["status"] == "fail"
    message = " ".join(thin["message"].split())
    assert (
        "ms its replicas can be planned to (the workload's 300 ms lies below a lone prompt's time on"
        in message
    )
    assert (
        "b200 plus the estimate's mean latency error, so no number of replicas is planned to it)" in message
    )
