"""A serving engine runs on some vendors' GPUs only (``ServingEngine.gpu_vendors``): TensorRT-LLM on
NVIDIA's. Before, ``size --serving-engine trtllm`` printed an MI300X's throughput and latency as if
TensorRT-LLM ran on it; SIZ022 now rules the GPU out for such a workload, and vLLM or SGLang keep it."""

from __future__ import annotations

from helpers import EVALUATED_ON

from gpu_advisor import api
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.results import SizeResult


def mi300x(serving_engine: str) -> tuple[tuple[str, ...], SizeResult]:
    result = api.size(model="llama-3.1-70b", precision="fp8", serving_engine=serving_engine)
    row = next(g for g in result.gpus if g.gpu == "mi300x")
    return row.not_recommended_by, result


def test_the_engines_vendors_are_sourced() -> None:
    engines = {e.id: e for e in load_knowledge().throughput.serving_engines}
    assert {e: engines[e].gpu_vendors for e in engines} == {
        "vllm": ("nvidia", "amd"),
        "sglang": ("nvidia", "amd"),
        "trtllm": ("nvidia",),
    }
    assert all(engine.gpu_vendors_source.url for engine in engines.values())


def test_tensorrt_llm_rules_out_an_amd_gpu() -> None:
    ruled_out, result = mi300x("trtllm")
    assert ruled_out == ("SIZ022",)
    (finding,) = [f for f in result.findings if f.rule_id == "SIZ022"]
    assert finding.subject == "mi300x"
    assert " ".join(finding.message.split()) == (
        "TensorRT-LLM, the workload's serving engine, runs on NVIDIA GPUs only, not on mi300x (AMD): the "
        "GPU is not recommended for this workload; vLLM and SGLang run on it (serving_engine in the "
        "workload, size --serving-engine)."
    )


def test_vllm_and_sglang_keep_it() -> None:
    for engine in ("vllm", "sglang"):
        ruled_out, result = mi300x(engine)
        assert "SIZ022" not in ruled_out
        assert "SIZ022" not in {f.rule_id for f in result.findings}


def test_nvidia_gpus_run_every_engine() -> None:
    for engine in ("vllm", "sglang", "trtllm"):
        result = api.size(model="llama-3.1-70b", precision="fp8", serving_engine=engine)
        assert all("SIZ022" not in g.not_recommended_by for g in result.gpus if g.gpu != "mi300x")


def test_the_mi300x_is_no_alternative_for_a_tensorrt_llm_workload() -> None:
    """PRV006 names the MI300X as an alternative where it needs fewer cards than the H100: not to a
    workload whose serving engine does not run on it."""
    for engine, named in (("vllm", True), ("trtllm", False)):
        result = api.size(model="deepseek-r1", precision="fp8", serving_engine=engine)
        assert ("PRV006" in {f.rule_id for f in result.findings}) is named, engine


def test_check_fails_a_gpu_the_serving_engine_does_not_run_on() -> None:
    document = ProposalDocument.model_validate(
        {
            "workload": {
                "name": "chat",
                "model": {"name": "llama-3.1-70b", "precision": "fp8"},
                "requests_per_day": 100_000,
                "serving_engine": "trtllm",
            },
            "proposal": {"name": "amd", "deployment": "own_hardware", "gpu": "mi300x", "gpus": 8},
        }
    )
    result = check_document(document, "p.yaml", 1, EVALUATED_ON)
    item = next(i for i in result.results if i.rule_id == "SIZ023")
    assert item.status == "fail"
    assert item.message == (
        "TensorRT-LLM, the workload's serving engine, runs on NVIDIA GPUs only, not on the proposed mi300x "
        "(AMD): propose a GPU it runs on, or serve the workload with an engine that runs on this one "
        "(serving_engine), whose figures then apply."
    )
