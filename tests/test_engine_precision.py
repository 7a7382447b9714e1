"""TensorRT-LLM runs FP8 only on GPUs with FP8 tensor cores (its support matrix: Ada Lovelace and Hopper,
not Ampere): an FP8 workload served with it rules the A100 and A10G out (SIZ028), where vLLM converts the
checkpoint on them (SIZ004)."""

from __future__ import annotations

from helpers import run

TRT_FP8 = {
    "name": "trt",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 50000,
    "serving_engine": "trtllm",
    "company_country": "DE",
}


def test_tensorrt_llm_rules_out_ampere_for_an_fp8_checkpoint() -> None:
    result = run(TRT_FP8)
    fired = {f.rule_id: f for f in result.findings}
    assert "SIZ028" in fired and "SIZ004" not in fired
    for option in result.options:
        if option.gpu in ("a100-80gb", "a100-80gb-pcie", "a10g"):
            assert "SIZ028" in option.excluded_by, option
        if option.gpu in ("h100-sxm", "l40s", "l4"):
            assert "SIZ028" not in option.excluded_by, option
    assert any(o.gpu == "a100-80gb-pcie" for o in result.options)


def test_vllm_converts_it_there() -> None:
    result = run({**TRT_FP8, "serving_engine": "vllm"})
    fired = {f.rule_id for f in result.findings}
    assert "SIZ028" not in fired and "SIZ004" in fired
    assert all("SIZ028" not in o.excluded_by for o in result.options)


def test_a_sixteen_bit_checkpoint_runs_on_ampere_with_tensorrt_llm() -> None:
    result = run({**TRT_FP8, "model": {"name": "llama-3.1-8b", "precision": "bf16"}})
    assert "SIZ028" not in {f.rule_id for f in result.findings}


def test_size_prints_no_command_for_a_configuration_the_rules_rule_out() -> None:
    from helpers import invoke

    result = invoke(
        "size",
        *("--model", "llama-3.1-70b", "--precision", "fp8", "--serving-engine", "trtllm"),
        *("--gpu", "a100-80gb", "--cards", "2", "--concurrency", "8"),
    )
    assert result.exit_code == 0, result.output
    assert "a100-80gb     80 GB                 1                 2  ruled out: SIZ028" in result.output
    assert "trtllm-serve" not in result.output
    h100 = invoke(
        "size",
        *("--model", "llama-3.1-70b", "--precision", "fp8", "--serving-engine", "trtllm"),
        *("--gpu", "h100-sxm", "--cards", "2", "--concurrency", "8"),
    )
    assert "trtllm-serve" in h100.output
