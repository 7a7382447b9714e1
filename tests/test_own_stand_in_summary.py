"""An on-premises decision priced on the only datacenter server the catalog has says so in its Summary:
other GPUs would need fewer cards, and a replica over two servers needs a network the figure leaves
out (NET005)."""

from __future__ import annotations

from pathlib import Path

import yaml
from helpers import run

from gpu_advisor.engine.present.memo import render_memo

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def summary(memo: str) -> str:
    return " ".join(memo.split("## Summary", 1)[1].split("## Why", 1)[0].split())


def test_deepseek_on_h100_servers_names_the_unpriced_gpus_and_the_network() -> None:
    """DeepSeek-R1 FP8 (671 GB of weights) takes 16 H100 a replica, two HGX servers; an H200, B200 or
    MI300X replica is one 8-card server, but none of those servers is priced."""
    workload = yaml.safe_load((EXAMPLES / "deepseek-on-premises.yaml").read_text(encoding="utf-8"))
    result = run(workload)
    assert result.decision.deployment == "own_hardware"
    assert "NET005" in result.fired_rules
    rows = {row.gpu: row.gpus_total for row in result.sizing.gpus}
    assert rows["h100-sxm"] == 16 and rows["h200"] == rows["b200"] == rows["mi300x"] == 8
    text = summary(render_memo(result))
    assert (
        "That figure is for h100-sxm. The catalog prices no server of h200, b200, mi300x, on which the load "
        "needs fewer GPUs (from 8 against 16): get a quote for one before buying"
    ) in text
    assert "Each replica spans servers over InfiniBand" in text


def test_a_replica_within_one_server_names_no_network() -> None:
    """A 70B FP8 on premises: two 2-card H100 replicas (one the spare) in one HGX server, where an H200
    replica is one card; no replica spans servers, so NET005 is silent and the Summary names no network."""
    workload = {
        "name": "onprem-70b",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 5000,
        "on_premises_required": True,
        "company_country": "DE",
    }
    result = run(workload)
    assert result.decision.deployment == "own_hardware"
    assert "NET005" not in result.fired_rules
    text = summary(render_memo(result))
    assert (
        "no server of h100-nvl, h200, b200, mi300x, on which the load needs fewer GPUs (from 2 against 4)"
        in text
    )
    assert "spans servers" not in text
