"""SGLang refuses an FP8 checkpoint on a card without FP8 tensor cores (its Triton kernels reject the E4M3
type on Ampere, sgl-project/sglang#7715): an A100 or A10G is no option for it (SIZ028), as with
TensorRT-LLM; vLLM serves it there weight-only (SIZ004 says what that costs)."""

from __future__ import annotations

from gpu_advisor import api


def not_recommended_by(engine: str, gpu: str, precision: str = "fp8") -> tuple[str, ...]:
    result = api.size(model="llama-3.3-70b", precision=precision, serving_engine=engine)
    return next(g for g in result.gpus if g.gpu == gpu).not_recommended_by


def test_sglang_rules_out_ampere_for_fp8() -> None:
    for gpu in ("a100-80gb", "a10g"):
        assert "SIZ028" in not_recommended_by("sglang", gpu), gpu
    assert "SIZ028" not in not_recommended_by("sglang", "h100-sxm")
    assert "SIZ028" not in not_recommended_by("sglang", "l40s")


def test_sglang_keeps_ampere_for_a_16_bit_checkpoint_and_vllm_for_fp8() -> None:
    assert "SIZ028" not in not_recommended_by("sglang", "a100-80gb", precision="bf16")
    assert "SIZ028" not in not_recommended_by("vllm", "a100-80gb")
