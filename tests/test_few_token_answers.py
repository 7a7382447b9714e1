"""Answers of a few tokens (SIZ037): the estimate counts the model's passes only, and published runs of
4-token answers measured 6.2 to 26.5 ms a request, so the memo asks for a measured request rate."""

from __future__ import annotations

from helpers import run
from test_message_wording import message

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

CLASSIFIER = {
    "name": "ticket-classifier",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 400,
    "avg_output_tokens": 1,
    "load_pattern": "steady",
    "latency_sensitive": False,
    "company_country": "DE",
}


def test_the_figures_are_the_published_runs_per_request() -> None:
    thresholds = {t.key: t.value for t in load_knowledge().thresholds.thresholds}
    # GPUStack: 6.11 s for 984 requests (Qwen3-235B FP8, 4 x H100, vLLM 0.11.0); 26.54 s for 1,000
    # (the same on 4 x A100).
    assert round(6.11 / 984 * 1000, 1) == thresholds["few_token_request_ms_low"] == 6.2
    assert round(26.54 / 1000 * 1000, 1) == thresholds["few_token_request_ms_high"] == 26.5
    assert thresholds["few_token_answers_max_tokens"] == 4


def test_siz037_s_message() -> None:
    assert message("SIZ037", "workload", "en", avg_output_tokens=1) == (
        "The workload's answers are 1 token long on average, so a replica's request rate depends on what "
        "the serving engine does for each request (tokenizing, scheduling, detokenizing, its HTTP server) "
        "as much as on the model's passes, which are all the estimate counts. In published runs of requests "
        "of 128 tokens in and 4 out, 1,000 sent at once to one 4- or 8-GPU replica, a run took 6.2 to 26.5 "
        "ms for each request (its time over its requests; vLLM 0.11.0 and SGLang 0.5.3, DeepSeek-R1 and "
        "Qwen3-235B): measure a replica's request rate with your engine before relying on the replica "
        "counts."
    )
    assert message("SIZ037", "workload", "de", avg_output_tokens=4).startswith(
        "Die Antworten des Workloads sind im Mittel 4 Tokens lang, daher hängt die Anfragerate"
    )


def test_a_classifier_gets_the_finding_and_a_chat_does_not() -> None:
    assert "SIZ037" in run(CLASSIFIER).fired_rules
    assert "SIZ037" not in run({**CLASSIFIER, "avg_output_tokens": 5}).fired_rules
