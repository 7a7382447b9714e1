"""What the memo says of a serverless instance removed while others keep serving: the autoscaler's own
scale-down delay where the product has one (Hugging Face), else its idle timeout (RunPod, Modal)."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo


def test_the_memo_tells_the_scale_down_delay_from_the_idle_timeout() -> None:
    """Hugging Face's endpoint scales to zero an hour after the last request but removes an instance no
    longer needed beside others after its autoscaler's 300 s: a Swiss bank's DeepSeek-R1 RAG service
    (8 H200 an instance, which RunPod's serverless workers do not offer) shows both, and the memo says
    which is which."""
    r = run(
        {
            "name": "ch-bank-rag",
            "model": {"name": "deepseek-r1", "precision": "fp8"},
            "requests_per_day": 60_000,
            "avg_input_tokens": 6_000,
            "avg_output_tokens": 400,
            "context_tokens": 16_384,
            "load_pattern": "variable",
            "schedule": "workdays",
            "latency_sensitive": True,
            "personal_data": True,
            "personal_data_region": "ch",
            "company_country": "CH",
        }
    )
    so = r.serverless_option
    assert so is not None and so.serverless is not None and so.serverless.scale_down_seconds == 300
    memo = " ".join(render_memo(r).split())
    assert "for 3,600 s after the last one before it scales to zero" in memo
    assert (
        "times one no longer needed while others keep serving runs on 300 s (the autoscaler's scale-down "
        "delay, not the idle timeout of the last instance) before it stops, billed too."
    ) in memo


EVENING_PEAK = (
    *(0.2, 0.1, 0.05, 0.05, 0.05, 0.1, 0.2, 0.4, 0.6, 0.7, 0.8, 0.9),
    *(1.0, 0.9, 0.8, 0.8, 0.9, 1.2, 1.8, 2.6, 3.0, 2.8, 1.6, 0.6),
)
"""An Austrian shop's day: quiet at night, busiest in the evening (hour 0 to 23)."""


def test_a_product_whose_instances_stop_on_their_idle_timeout_says_so() -> None:
    """RunPod removes a worker no longer needed when its own idle timeout (5 s) passes, as it stops the
    last one: the memo says the tail is that timeout, not a scale-down delay of its own. An Austrian
    shop's chat with an evening peak adds and removes workers through the day."""
    r = run(
        {
            "name": "at-shop-chat",
            "model": {"name": "qwen2.5-32b", "precision": "fp8"},
            "requests_per_day": 120_000,
            "avg_input_tokens": 800,
            "avg_output_tokens": 200,
            "load_pattern": "variable",
            "load_profile": list(EVENING_PEAK),
            "latency_sensitive": True,
            "personal_data": True,
            "company_country": "AT",
        }
    )
    so = r.serverless_option
    assert so is not None and so.serverless is not None and so.provider == "runpod"
    assert so.serverless.scale_down_seconds == so.serverless.idle_timeout_seconds == 5
    memo = " ".join(render_memo(r).split())
    assert "times one no longer needed runs on 5 s, its idle timeout, before it stops, billed too." in memo
    assert "scale-down delay" not in memo
