"""A reasoning model's first token starts its thinking: the memo says how long a request takes to its last
token at the peak, since the first-token figures and targets do not say when the answer begins."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run

from gpu_advisor.engine.present.memo import render_memo

R1: dict[str, Any] = {
    "name": "r1-assistant",
    "model": {"name": "deepseek-r1", "precision": "fp8"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 3000,
    "load_pattern": "variable",
}
CAVEAT = "The model reasons before it answers"


def test_a_reasoning_model_memo_gives_the_request_to_its_last_token() -> None:
    result = run(R1)
    h200 = next(row for row in result.sizing.gpus if row.gpu == "h200")
    assert result.best_option is not None and result.best_option.gpu == "h200"
    # At the peak: 91 ms to the first token, then 2,999 decode steps of 34.7 ms: 104.1 s.
    assert (round(h200.time_to_first_token_ms), round(h200.time_per_output_token_ms, 1)) == (91, 34.7)
    assert h200.request_seconds == pytest.approx(
        (h200.time_to_first_token_ms + 2999 * h200.time_per_output_token_ms) / 1000
    )
    memo = " ".join(render_memo(result).split())
    assert (
        "That is within the workload's latency targets (the first token within 1,000 ms, 100 ms per token). "
        "The model reasons before it answers: its first token starts the thinking, and the answer follows "
        "it. At the peak a request takes about 104 s to its last token (3,000 output tokens, the thinking "
        "included): a time to first token, and a target for it, says when the thinking starts, not when the "
        "answer does."
    ) in memo


def test_every_gpu_row_counts_the_first_token_and_its_decode_steps() -> None:
    rows = [row for row in run(R1).sizing.gpus if row.request_seconds is not None]
    assert len(rows) >= 3
    for row in rows:
        assert row.request_seconds == pytest.approx(
            (row.time_to_first_token_ms + 2999 * row.time_per_output_token_ms) / 1000
        )


def test_a_model_that_does_not_reason_has_no_caveat() -> None:
    llama = {**R1, "model": {"name": "llama-3.3-70b", "precision": "fp8"}}
    assert CAVEAT not in render_memo(run(llama))


def test_a_model_stated_to_reason_gets_the_caveat() -> None:
    stated = {**R1, "model": {"name": "llama-3.3-70b", "precision": "fp8", "reasoning": True}}
    assert CAVEAT in render_memo(run(stated))


def test_a_reasoning_model_with_one_token_answers_is_told_the_thinking_needs_tokens() -> None:
    memo = " ".join(render_memo(run({**R1, "avg_output_tokens": 1})).split())
    assert (
        "The model reasons before it answers, and its thinking is output tokens too: answers of one token "
        "leave it none, so the figures above hold only where it is told not to think; otherwise give the "
        "output tokens with the thinking included."
    ) in memo
    assert "its first token starts the thinking" not in memo
