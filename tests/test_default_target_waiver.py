"""A latency-sensitive workload that states no latency target takes the documented defaults (the first
token within a second, 100 ms a token). Where no GPU the workload may have meets a default even for a
lone request, the default is waived (LAT010, LAT011): the workload is sized as if it stated no target for
that figure, instead of buying replicas to keep the fastest GPU's lone time at the peak (LAT003, which
still holds a target the workload states)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from helpers import invoke, run

RAG: dict[str, Any] = {
    "name": "contract-rag",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 5_000,
    "avg_input_tokens": 100_000,
    "avg_output_tokens": 800,
    "schedule": "workdays",
    "on_premises_required": True,
}


def test_a_default_no_gpu_meets_is_waived_and_the_workload_sized_without_it() -> None:
    waived = run(RAG)
    assert "LAT010" in waived.fired_rules
    assert not {"LAT003", "LAT007"} & set(waived.fired_rules)
    assert waived.workload.max_time_to_first_token_ms is None
    assert waived.workload.targets_waived == ("max_time_to_first_token_ms",)
    # Still a default: the workload did not state it.
    assert "max_time_to_first_token_ms" in waived.workload.defaults_used
    assert waived.workload.max_time_per_output_token_ms == 100
    # Priced exactly as the same workload stating no first-token target (null).
    without = run({**RAG, "max_time_to_first_token_ms": None})
    assert without.workload.targets_waived == ()
    assert "LAT010" not in without.fired_rules
    assert waived.decision == without.decision
    assert waived.options == without.options
    assert waived.sizing.gpus == without.sizing.gpus
    # Stated, the same second is kept as near as the fastest GPU can (LAT003), on three times the own
    # servers: $83,403 a month against $31,276.
    stated = run({**RAG, "max_time_to_first_token_ms": 1_000})
    assert {"LAT003", "LAT007"} <= set(stated.fired_rules) and "LAT010" not in stated.fired_rules
    assert round(waived.decision.usd_per_month) == 31_276
    assert round(stated.decision.usd_per_month) == 83_403


def test_the_waiver_names_the_default_and_how_far_the_fastest_misses_it() -> None:
    result = run(RAG)
    (finding,) = [f for f in result.findings if f.rule_id == "LAT010"]
    # Data that may not leave the building admits the own servers only: 8-card H100 nodes. One node is the
    # fastest (two nodes run a pipeline stage each, which does not shorten a lone prompt: as long, and the
    # fewer cards are named); 6,875 / 1,000 - 1 = 587 % over.
    assert finding.message == (
        "The workload states no time to the first token, and the default for a latency-sensitive service, "
        "1,000 ms, is out of reach for prompts of this length: even the fastest this workload may have, "
        "8 × h100-sxm, needs 6,875 ms for a lone prompt (587 % over). The default is not applied: the "
        "replicas are sized for the throughput, and the first token waits as long as the latency at the "
        "peak shows. Where the users need a limit, state one (max_time_to_first_token_ms; size "
        "--max-ttft-ms): the replicas are then sized to keep it, or to come as near it as the fastest GPU "
        "can."
    )


def test_no_waiver_where_a_gpu_meets_the_default() -> None:
    short = run({**RAG, "avg_input_tokens": 2_000})
    assert short.workload.max_time_to_first_token_ms == 1_000
    assert short.workload.targets_waived == ()
    assert "LAT010" not in short.fired_rules


def test_json_lists_the_waived_target_and_german_memo_says_it(tmp_path: Path) -> None:
    path = tmp_path / "rag.yaml"
    path.write_text(yaml.safe_dump(RAG), encoding="utf-8")
    result = invoke("recommend", str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    workload = json.loads(result.output)["workload"]
    assert workload["targets_waived"] == ["max_time_to_first_token_ms"]
    assert workload["max_time_to_first_token_ms"] is None
    memo = invoke("recommend", str(path), "--lang", "de").output
    assert "Das voreingestellte Ziel für das erste Token ist unerreichbar: nicht angewandt" in memo


def test_check_holds_a_proposal_to_the_targets_the_recommendation_keeps(tmp_path: Path) -> None:
    """The waived default does not fail a proposal sized for the throughput (LAT005 applies only to a
    target); the stated second does."""
    proposal = {"name": "own h100", "deployment": "own_hardware", "gpu": "h100-sxm", "gpus": 32}
    statuses = {}
    for target in (None, 1_000):
        workload = {**RAG, **({"max_time_to_first_token_ms": target} if target else {})}
        path = tmp_path / f"proposal-{target}.yaml"
        path.write_text(yaml.safe_dump({"workload": workload, "proposal": proposal}), encoding="utf-8")
        (checked,) = json.loads(invoke("check", str(path), "--format", "json").output)
        statuses[target] = {r["rule_id"]: r["status"] for r in checked["results"]}
    assert "LAT005" not in statuses[None]
    assert statuses[1_000]["LAT005"] == "fail"
