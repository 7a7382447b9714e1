"""The JSON splits each serverless cold start into the platform's start, the weights' load and the
engine's start, which sum to its ``cold_start_seconds``."""

from __future__ import annotations

import json

import pytest
from helpers import EXAMPLES_DIR

from gpu_advisor import api
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import load_workload


def example(name: str) -> Recommendation:
    return api.recommend(load_workload(str(EXAMPLES_DIR / f"{name}.yaml")))


def test_a_cold_start_s_parts_sum_to_it_exactly() -> None:
    """The nightly batch's Modal B200: Modal's 1 s platform start, the 16-bit checkpoint vLLM quantizes
    to FP8 as it loads it (Qwen2.5-72B's 72.71B parameters x 2 bytes = 145.42 GB at 2.5 GB/s: 58.168 s)
    and vLLM's 21.8 s: 80.968 s. Every serverless option's three parts sum to its cold start, in the
    JSON too."""
    result = example("nightly-batch")
    (modal,) = [o for o in result.options if (o.provider, o.gpu) == ("modal", "b200")]
    billing = modal.serverless
    assert billing is not None
    assert billing.cold_start_platform_seconds == 1.0
    assert billing.cold_start_weights_seconds == pytest.approx(72.71 * 2 / 2.5) == 58.168
    assert billing.cold_start_engine_seconds == 21.8
    assert billing.cold_start_seconds == pytest.approx(1.0 + 58.168 + 21.8) == 80.968
    written = json.loads(result.model_dump_json())
    shown = [o["serverless"] for o in written["options"] if o["serverless"] is not None]
    assert len(shown) == 12
    for part in shown:
        whole = part["cold_start_platform_seconds"] + part["cold_start_weights_seconds"]
        assert whole + part["cold_start_engine_seconds"] == part["cold_start_seconds"]
    assert {(p["cold_start_platform_seconds"], p["cold_start_engine_seconds"]) for p in shown} == {
        (1.0, 21.8),  # Modal
        (2.3, 21.8),  # RunPod
        (120.0, 21.8),  # Hugging Face
    }
