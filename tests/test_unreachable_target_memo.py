"""The memo of a workload whose latency target no card count meets: which target the replicas keep,
which one they miss, and on how many cards (``calc/policy.py``, ``_memo_load.md.j2``)."""

from __future__ import annotations

from typing import Any

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

# A 70B RAG service with 20,000-token prompts: the fastest replica, 8 B200, takes 419 ms for a lone
# prompt, so 400 ms to the first token is out of reach; the documented second is not.
RAG: dict[str, Any] = {
    "name": "rag-400",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 50_000,
    "avg_input_tokens": 20_000,
    "avg_output_tokens": 400,
    "context_tokens": 32_768,
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 400,
    "company_country": "DE",
}


def test_the_memo_names_the_missed_target_and_the_documented_one_kept() -> None:
    result = run(RAG)
    assert "LAT003" in result.fired_rules
    memo = " ".join(render_memo(result).split())
    assert (
        "The latency targets set the replicas (the first token within 1,000 ms, 100 ms per token at the "
        "peak), not the throughput: 4 replicas for the peak." in memo
    )
    assert (
        "No card count meets the first token within 400 ms even for a lone request, so no number of "
        "replicas does: each replica runs on 8 × h100-sxm, the card count that comes closest, and the "
        "replicas keep the documented target in its place (the first token within 1,000 ms)." in memo
    )
    assert "That is within the workload's latency targets" not in memo


def test_without_users_waiting_no_documented_target_stands_in() -> None:
    """Not latency-sensitive: no documented target applies, so the replicas are sized by the headroom
    and the memo names only the target they miss."""
    result = run({**RAG, "latency_sensitive": False})
    memo = " ".join(render_memo(result).split())
    assert (
        "No card count meets the first token within 400 ms even for a lone request, so no number of "
        "replicas does: each replica runs on 8 × h100-sxm, the card count that comes closest." in memo
    )
    assert "keep the documented target" not in memo
    assert "The latency targets set the replicas" not in memo


def test_a_target_met_alone_says_nothing_of_the_kind() -> None:
    memo = render_memo(run({**RAG, "max_time_to_first_token_ms": 1000}))
    assert "No card count meets" not in memo
