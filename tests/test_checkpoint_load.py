"""A replica that quantizes a 16-bit checkpoint to FP8 as it starts reads the 16-bit checkpoint: a
batch run's weights' load and a serverless cold start are timed on those bytes (145.42 GB for Qwen2.5-72B's
72.71B parameters, not its 72.71 GB in FP8), at the catalog's load rate of 2.5 GB/s."""

from __future__ import annotations

import pytest
from helpers import EXAMPLES_DIR

from gpu_advisor import api
from gpu_advisor.engine.calc.checkpoint import read_at_start_gb, sixteen_bit_checkpoint_gb
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import load_workload


@pytest.mark.parametrize(
    ("model", "precision", "engine", "expected"),
    [
        ("qwen2.5-72b", "fp8", "vllm", 144.0),
        ("qwen2.5-72b", "fp8", "sglang", 144.0),
        ("qwen2.5-72b", "fp8", "trtllm", None),  # reads a quantized checkpoint
        ("qwen2.5-72b", "bf16", "vllm", None),  # served as published
        ("deepseek-r1", "fp8", "vllm", None),  # its published FP8 checkpoint
        (None, "fp8", "vllm", None),  # a model given by its size: the team's own checkpoint
    ],
)
def test_the_sixteen_bit_checkpoint_read_where_the_engine_quantizes_it(
    model: str | None, precision: str, engine: str, expected: float | None
) -> None:
    knowledge = load_knowledge()
    config = knowledge.model(model) if model else None
    assert sixteen_bit_checkpoint_gb(knowledge, 72.0, precision, config, engine) == expected


def test_a_replica_that_cannot_hold_the_sixteen_bit_checkpoint_reads_the_fp8_one() -> None:
    """vLLM loads the 16-bit checkpoint whole before it quantizes it: where the replica cannot hold it,
    the launch command names an FP8 checkpoint, which is what it reads."""
    assert read_at_start_gb(72.0, 144.0, 192e9) == 144.0
    assert read_at_start_gb(72.0, 144.0, 144e9) == 144.0
    assert read_at_start_gb(72.0, 144.0, 143.9e9) == 72.0
    assert read_at_start_gb(72.0, None, 1e15) == 72.0


def test_the_nightly_batch_loads_the_sixteen_bit_checkpoint_each_run() -> None:
    """4 × b200 at runpod community for Qwen2.5-72B in FP8 under vLLM: its exact 72.71B parameters x 2 bytes
    = 145.42 GB, / 2.5 GB/s = 58.168 s a run, and Modal's b200 cold start is its 1 s platform start plus the
    same 58.168 s and vLLM's 21.8 s start."""
    result = api.recommend(load_workload(str(EXAMPLES_DIR / "nightly-batch.yaml")))
    assert result.sizing.sixteen_bit_checkpoint_gb == pytest.approx(72.71 * 2)
    best = result.best_option
    assert best is not None and (best.provider, best.gpu) == ("runpod", "b200")
    plan_hours = next(o for o in result.options if o == best).weights_load_hours
    assert plan_hours == pytest.approx(72.71 * 2 / 2.5 / 3600)
    modal = next(o for o in result.options if o.provider == "modal" and o.gpu == "b200")
    assert modal.serverless is not None and modal.serverless.cold_start_seconds == pytest.approx(
        1.0 + 72.71 * 2 / 2.5 + 21.8
    )
