"""LAT001 and LAT002 tell a GPU that misses a latency target from a target no GPU meets, by a GPU that meets
it. That GPU must be one the workload may have: an option its rules admit runs on it. DeepSeek-R1 with
30,000-token prompts for a German company on AWS, Google Cloud, Azure and OVHcloud only: every H100 and
H200 was "not recommended" because 8 × B200 meets the one-second first-token target, though none of those
providers sells a B200; no GPU admitted meets the target, so LAT003 applies (each GPU's replicas keep a
lone prompt's time plus the estimate's latency error, and the memo says by how much the fastest
misses)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Any

from helpers import EXAMPLES_DIR, run
from test_message_wording import QWEN_32B

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

AS_OF = dt.date(2026, 11, 30)
R1_RAG: dict[str, Any] = {
    "name": "r1-rag",
    "model": {"name": "deepseek-r1", "precision": "fp8"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 30_000,
    "avg_output_tokens": 1_000,
    "context_tokens": 65_536,
    "load_pattern": "variable",
    "company_country": "DE",
    # Stated: a default no GPU the workload may have meets would be waived (LAT010), not kept near.
    "max_time_to_first_token_ms": 1_000,
}


def messages(result: Any, rule_id: str) -> list[str]:
    return [f.message for f in result.findings if f.rule_id == rule_id]


def test_a_gpu_the_workload_may_have_is_the_witness(tmp_path: Path) -> None:
    # Every provider admitted: a B200 is rented, and meets the target where the H100 and H200 do not.
    anywhere = run(R1_RAG, AS_OF)
    assert "LAT003" not in anywhere.fired_rules
    # R1's 30,000-token prompt in four chunks of 7,500 tokens on 8 B200, each its own pass: the weights'
    # multiply-adds at 0.58 of the FP8 peak take 106 ms, the shared weights' blended with their reads
    # 47.6 ms and the routed experts' 70.7 ms, which the skewed routing makes 1.70 times as long (234
    # tokens an expert, between the 8-card factor's 1.90 at 128 and 1.67 at 256): 167.8 ms in all;
    # attention 215 ms; the all-reduces at the share measured for a chunk's message, which B200's NVLink
    # takes of its own rate as every NVLink GPU does: 7,500 tokens x 7,168 = 53.8 million elements reach
    # 0.657 of the link (between 0.63 at 33.6 and 0.67 at 67.1 million), so 30,000 tokens x 61 layers x 2
    # x 2 x 7/8 x 7,168 x 2 bytes / (0.657 x 900 GB/s) = 155 ms; 4 x 10.9 ms of fixed layer time: 582 ms.
    witness = "8 × b200 meets it (582 ms alone), so h200 is not recommended"
    assert any(witness in m for m in messages(anywhere, "LAT001"))
    # The approved providers sell no B200, and their only H200 (OVHcloud's 8 cards, no NVLink stated) runs
    # a replica on one card, which does not hold R1: 16 H100 SXM (two 8-card stages) are the fastest the
    # workload may have, and they miss. Their weights take longer to read than on 8 H200, so blending the
    # reads into the multiplications costs them more: 1,231 ms against the H200's 1,202 ms (the chunks'
    # multiply-adds and attention as on the B200 above, at the H100's and H200's rates, the all-reduces
    # of a chunk's 53.8 million elements at 0.657 of the link, between 0.63 at 33.6 and 0.67 at 67.1
    # million: 310 ms).
    shutil.copy(EXAMPLES_DIR / "org-policy" / "approved-providers.yaml", tmp_path)
    approved = recommend(validate_workload(R1_RAG, "test"), AS_OF, policy_dir=str(tmp_path))
    assert "LAT001" not in approved.fired_rules
    (lat003,) = messages(approved, "LAT003")
    assert lat003.startswith(
        "No GPU meets the target of 1,000 ms to the first token: even the fastest this workload may have, "
        "16 × h100-sxm, needs 1,231 ms for a lone prompt of this length (23 % over)."
    )


def test_on_premises_only_the_own_servers_gpus_are_compared() -> None:
    """Data that may not leave the building rules every rental and serverless product out (DEP006): the
    witness is an own server's GPU (two 8-card H100 nodes), not a rented B200."""
    result = run({**R1_RAG, "on_premises_required": True}, AS_OF)
    assert "DEP006" in result.fired_rules and "LAT001" not in result.fired_rules
    (lat003,) = messages(result, "LAT003")
    assert "even the fastest this workload may have, 16 × h100-sxm, needs 1,231 ms" in lat003


def test_a_gpu_sold_with_fewer_cards_than_the_witness_needs_is_no_witness() -> None:
    """With personal data of people in the EU the B200 is sold only as RunPod's one-card serverless
    workers in the EU; the 8 × B200 that meets the target is not for sale, so LAT003 applies. The
    fastest left is 8 × H200: 1,202 ms for a lone prompt, its routed experts at the 8-card factor the
    bandwidth share 0.86 gives (1.70 at 234 tokens an expert; 1,203 ms at 0.87's 1.71)."""
    result = run({**R1_RAG, "personal_data": True}, AS_OF)
    assert "LAT001" not in result.fired_rules
    (lat003,) = messages(result, "LAT003")
    assert "even the fastest this workload may have, 8 × h200, needs 1,202 ms" in lat003


def test_the_witness_meets_every_target_not_one_another_rule_rules_out() -> None:
    """A 32B service held to 300 ms to the first token and 20 ms a token: one H100 PCIe meets the first
    (118 ms alone) but not the second (23.9 ms a step), so LAT002 rules it out; LAT001 named it as the GPU
    that meets the first-token target. The witness is now one that meets both: one H100 SXM."""
    service = {**QWEN_32B, "max_time_to_first_token_ms": 300, "max_time_per_output_token_ms": 20}
    result = run(service, AS_OF)
    assert any("on 1 × h100-pcie even for a lone request" in m for m in messages(result, "LAT002"))
    (lat001,) = messages(result, "LAT001")
    # 1,500 tokens x 2 x 32e9 FLOPs / (1,979 TFLOPS x 0.58) = 83.6 ms, blended with reading 32.8 GB at
    # 0.86 of 3,350 GB/s (11.4 ms): 83.9 ms; attention 2.6 ms; 64 layers x 72.5 us = 4.6 ms.
    assert "1 × h100-sxm meets it (91.1 ms alone), so a100-80gb-pcie is not recommended" in lat001
    assert "h100-pcie meets it" not in lat001


def test_the_sizing_table_marks_a_gpu_no_option_open_to_the_workload_runs() -> None:
    """With personal data of people in the EU the B200 is sold only as one-card serverless workers in the
    EU: the 8-card B200 replica the Sizing table plans is on no option the workload may use, and the row
    says so beside the GPU LAT003 names as the fastest it may have."""
    from gpu_advisor.engine.present.memo import render_memo

    result = run({**R1_RAG, "personal_data": True}, AS_OF)
    rows = {g.gpu: g for g in result.sizing.gpus}
    assert (rows["b200"].cards_per_replica, rows["b200"].offered) == (8, False)
    assert (rows["h200"].cards_per_replica, rows["h200"].offered) == (8, True)
    note = "no option open to this workload runs a replica of it (see Options considered)"
    b200 = next(line for line in render_memo(result).splitlines() if line.startswith("| b200 |"))
    assert note in b200
    # Every provider admitted: the B200 is rented, and nothing is said.
    anywhere = {g.gpu: g for g in run(R1_RAG, AS_OF).sizing.gpus}
    assert anywhere["b200"].offered is True
