"""check works out a proposal's latency the way recommend states it: the peak on the replicas beside the
spares the rules ask for (LAT013, LAT014), beside the peak on all of them (LAT005, LAT006). The recommended
fleet proposed as it is gets the figures its memo gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.cli import main


def test_the_recommended_fleet_gets_the_memos_latency_in_check(tmp_path: Path) -> None:
    workload = read_example(EXAMPLES_DIR / "public-chat.yaml")
    row = next(g for g in run(workload).sizing.gpus if g.gpu == "h200")
    # Two replicas for the peak and the spare of a latency-sensitive service (SIZ011).
    assert (row.replicas, row.spare_replicas, row.cards_per_replica) == (3, 1, 1)
    proposal = {
        "deployment": "dedicated_cloud",
        "provider": "runpod",
        "offer": "community",
        "gpu": "h200",
        "gpus": 3,
        "pricing": "on_demand",
    }
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump({"workload": workload, "proposal": proposal}), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    (data,) = json.loads(result.output)
    evidence = {item["rule_id"]: item["evidence"] for item in data["results"]}
    # The checks of a replica lost at the peak read the memo's figures: the two replicas beside the spare.
    assert evidence["LAT013"]["replica_lost_at_peak"] is True
    assert evidence["LAT013"]["time_to_first_token_at_peak_ms"] == pytest.approx(row.time_to_first_token_ms)
    assert evidence["LAT014"]["time_per_output_token_at_peak_ms"] == pytest.approx(
        row.time_per_output_token_ms
    )
    # LAT005 and LAT006 read the peak spread over all three, sooner than over two.
    assert evidence["LAT005"]["time_to_first_token_intact_ms"] < row.time_to_first_token_ms
    assert evidence["LAT006"]["time_per_output_token_intact_ms"] < row.time_per_output_token_ms
