"""A mixture of experts' FP8 checkpoint on a card without FP8 tensor cores: vLLM's default Triton
fused-MoE kernel fails on the FP8 type there, and Marlin's weight-only kernel runs it with
`--moe-backend marlin` (vllm-project/vllm#54318): the launch command adds it and the memo says why."""

from __future__ import annotations

from helpers import EVALUATED_ON, invoke, run

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

MOE = {
    "name": "moe-qwen3",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 150_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 400,
    "load_pattern": "variable",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "DE",
}


def command(result: Recommendation, gpu: str) -> str:
    row = next(g for g in result.sizing.gpus if g.gpu == gpu)
    assert row.launch is not None
    return row.launch.command


def test_the_a100_command_takes_marlin_and_the_memo_says_why() -> None:
    result = run(MOE)
    assert result.decision.gpu == "a100-80gb"
    assert command(result, "a100-80gb") == (
        "vllm serve Qwen/Qwen3-235B-A22B-FP8 --tensor-parallel-size 4 --max-model-len 8192 "
        "--moe-backend marlin"
    )
    memo = " ".join(render_memo(result).split())
    assert (
        "`--moe-backend marlin`: the a100-80gb has no FP8 tensor cores, and vLLM's default expert kernel "
        "does not take the FP8 type there; Marlin's weight-only kernel runs the experts, computing in 16 "
        "bits (SIZ004). The option needs vLLM 0.17.0 or later; an older release refuses it."
    ) in memo
    row = next(g for g in result.sizing.gpus if g.gpu == "a100-80gb")
    assert row.launch is not None and row.launch.weight_only_fp8_moe_since == "0.17.0"
    german_result = recommend(validate_workload(MOE, "test"), EVALUATED_ON, fmt=Format(lang="de"))
    german = render_memo(german_result, Format.named("de"))
    assert "`--moe-backend marlin`: Die a100-80gb hat keine FP8-Tensor-Cores" in " ".join(german.split())
    assert "Die Option braucht vLLM 0.17.0 oder neuer; eine ältere Version lehnt sie ab." in german


def test_not_on_a_card_with_fp8_tensor_cores_nor_for_a_dense_model() -> None:
    result = run(MOE)
    assert "--moe-backend" not in command(result, "h100-sxm")
    h100 = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    assert h100.launch is not None and h100.launch.weight_only_fp8_moe_since is None
    dense = run({**MOE, "model": {"name": "llama-3.3-70b", "precision": "fp8"}})
    assert "--moe-backend" not in command(dense, "a100-80gb")


def test_size_says_the_option_needs_vllm_0_17() -> None:
    output = invoke(
        "size", "--model", "qwen3-235b-a22b", "--precision", "fp8", "--gpu", "a100-80gb", "--concurrency", "8"
    ).output
    assert (
        "    --moe-backend marlin: the card has no FP8 tensor cores, and the engine's default expert kernel "
        "does not take the FP8 type there (SIZ004); the option needs vLLM 0.17.0 or later\n"
    ) in output
