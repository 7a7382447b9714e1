"""SGLang refuses a mixture of experts' FP8 checkpoint on a card without FP8 tensor cores (its fused-MoE
Triton kernels reject the E4M3 type on Ampere, sgl-project/sglang#38291): an A100 or A10G is no option for
it (SIZ028), as with TensorRT-LLM; a dense FP8 checkpoint SGLang runs there weight-only (Marlin, since
sgl-project/sglang#8990), as vLLM does both (SIZ004 says what that costs)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from helpers import invoke

from gpu_advisor import api


def not_recommended_by(
    engine: str, gpu: str, model: str = "qwen3-235b-a22b", precision: str = "fp8"
) -> tuple[str, ...]:
    result = api.size(model=model, precision=precision, serving_engine=engine)
    return next(g for g in result.gpus if g.gpu == gpu).not_recommended_by


def test_sglang_rules_out_ampere_for_an_fp8_mixture_of_experts() -> None:
    assert "SIZ028" in not_recommended_by("sglang", "a100-80gb")
    assert "SIZ028" not in not_recommended_by("sglang", "h100-sxm")


def test_sglang_keeps_ampere_for_a_dense_fp8_model_and_vllm_for_both() -> None:
    assert "SIZ028" not in not_recommended_by("sglang", "a100-80gb", model="llama-3.3-70b")
    assert "SIZ028" not in not_recommended_by("sglang", "a10g", model="llama-3.1-8b")
    assert "SIZ028" not in not_recommended_by("vllm", "a100-80gb")
    assert "SIZ028" not in not_recommended_by("sglang", "a100-80gb", precision="bf16")


def test_check_fails_only_the_mixture_of_experts_on_sglang_and_a100(tmp_path: Path) -> None:
    def statuses(model: str) -> dict[str, str]:
        workload = {"name": "w", "model": {"name": model, "precision": "fp8"}, "requests_per_day": 50_000}
        proposal = {"name": "p", "deployment": "own_hardware", "gpu": "a100-80gb", "gpus": 8}
        path = tmp_path / "proposal.yaml"
        path.write_text(
            yaml.safe_dump({"workload": {**workload, "serving_engine": "sglang"}, "proposal": proposal}),
            encoding="utf-8",
        )
        result = invoke("check", str(path), "--format", "json")
        (data,) = json.loads(result.output)
        return {item["rule_id"]: str(item["status"]) for item in data["results"]}

    assert statuses("llama-3.3-70b")["SIZ029"] == "pass"
    refused = statuses("qwen3-235b-a22b")
    assert refused["SIZ029"] == "fail"
    # No replica runs where the engine refuses the checkpoint: a missing spare is not spoken of.
    assert "SIZ012" not in refused
