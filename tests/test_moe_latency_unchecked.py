"""A mixture of experts whose own latency no published measurement in the calibration states is told
that the memo's latencies are unchecked for it."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.calc.calibration import latency_measured
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo

KNOWLEDGE = load_knowledge()


def test_a_mixture_of_experts_without_a_published_latency_says_its_latencies_are_unchecked() -> None:
    """The calibration's latencies are dense models' and one Mixtral run's: DeepSeek-R1's first-token
    times (published SGLang runs take several times the estimate's) are unchecked, Mixtral's are not."""
    assert latency_measured(KNOWLEDGE, "mixtral-8x7b") and latency_measured(KNOWLEDGE, "llama-3.1-8b")
    assert not latency_measured(KNOWLEDGE, "deepseek-r1") and not latency_measured(KNOWLEDGE, None)
    sentence = (
        "No published latency of this model is in the calibration: the first-token and per-token times in "
        "this memo are unchecked for it. Measure them before relying on a latency target."
    )
    memo = " ".join(render_memo(run(read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml"))).split())
    assert sentence in memo
    mixtral = {
        "name": "m",
        "model": {"name": "mixtral-8x7b", "precision": "fp8"},
        "requests_per_day": 200_000,
    }
    assert sentence not in " ".join(render_memo(run(mixtral)).split())
    # A dense model without its own latency measurement is not told so: the dense runs check its kind.
    qwen = {"name": "q", "model": {"name": "qwen2.5-72b", "precision": "fp8"}, "requests_per_day": 200_000}
    assert not latency_measured(KNOWLEDGE, "qwen2.5-72b")
    assert sentence not in " ".join(render_memo(run(qwen)).split())
