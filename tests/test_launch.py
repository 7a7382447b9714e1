"""How one replica is started (``LaunchCommand`` on every sizing row, and under the memo's sizing table
for the decision's GPU): the memo gave cards per replica but no engine settings, so an engineer had to
translate the plan into flags. The flags are the engines' own (vLLM ``vllm serve``, SGLang
``sglang.launch_server``, TensorRT-LLM ``trtllm-serve``)."""

from __future__ import annotations

import pytest
import yaml
from helpers import EXAMPLES_DIR, run

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.engine.report.launch import launch_command

KNOWLEDGE = load_knowledge()


@pytest.mark.parametrize(
    ("engine", "model", "own", "precision", "tensor", "stages", "command", "kind"),
    [
        (
            "vllm",
            "llama-3.3-70b",
            False,
            "fp8",
            2,
            1,
            "vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 2 --max-model-len 8192 "
            "--quantization fp8",
            "quantized_at_load",
        ),
        (
            "vllm",
            "llama-3.3-70b",
            False,
            "bf16",
            4,
            1,
            "vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 4 --max-model-len 8192",
            "published",
        ),
        (
            "sglang",
            "qwen3-235b-a22b",
            False,
            "fp8",
            4,
            1,
            "python -m sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-FP8 --tp 4 "
            "--context-length 8192",
            "fp8_checkpoint",
        ),
        (
            "vllm",
            "deepseek-r1",
            False,
            "fp8",
            8,
            2,
            "vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --pipeline-parallel-size 2 "
            "--max-model-len 8192",
            "published",
        ),
        (
            "trtllm",
            "deepseek-r1",
            False,
            "fp8",
            8,
            2,
            "trtllm-serve deepseek-ai/DeepSeek-R1 --tp_size 8 --pp_size 2 --max_seq_len 8192",
            "published",
        ),
        # R1 is published in FP8: 16 bits, or a TensorRT-LLM FP8 run of a 16-bit model, need another one.
        (
            "vllm",
            "deepseek-r1",
            False,
            "bf16",
            8,
            4,
            "vllm serve MODEL --tensor-parallel-size 8 --pipeline-parallel-size 4 --max-model-len 8192",
            "precision_needed",
        ),
        (
            "trtllm",
            "llama-3.3-70b",
            False,
            "fp8",
            2,
            1,
            "trtllm-serve MODEL --tp_size 2 --max_seq_len 8192",
            "precision_needed",
        ),
        (
            "sglang",
            "llama-3.1-8b",
            False,
            "int4",
            1,
            1,
            "python -m sglang.launch_server --model-path MODEL --tp 1 --context-length 8192",
            "precision_needed",
        ),
        (
            "vllm",
            "llama-3.1-8b",
            True,
            "bf16",
            1,
            1,
            "vllm serve MODEL --tensor-parallel-size 1 --max-model-len 8192",
            "own",
        ),
        (
            "vllm",
            None,
            False,
            "fp8",
            2,
            1,
            "vllm serve MODEL --tensor-parallel-size 2 --max-model-len 8192",
            "own",
        ),
    ],
)
def test_the_engines_flags(
    engine: str,
    model: str | None,
    own: bool,
    precision: str,
    tensor: int,
    stages: int,
    command: str,
    kind: str,
) -> None:
    launch = launch_command(KNOWLEDGE, engine, model, own, precision, 8192, tensor, stages)
    assert (launch.command, launch.checkpoint_kind, launch.nodes) == (command, kind, stages)


def test_the_memo_gives_the_decisions_replica_its_command() -> None:
    batch = yaml.safe_load((EXAMPLES_DIR / "nightly-batch.yaml").read_text(encoding="utf-8"))
    result = run(batch)
    assert (result.decision.deployment, result.decision.gpu) == ("dedicated_cloud", "b200")
    memo = render_memo(result)
    assert (
        "To start one replica of 1 × b200 with vllm, the serving context its KV cache is sized for and the "
        "engine's other defaults, as the estimate takes them:\n\n"
        "    vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 1 --max-model-len 8192 "
        "--quantization fp8\n\n"
        "The published checkpoint is 16-bit: the engine quantizes its weights to FP8 as it loads them.\n"
    ) in memo
    row = next(g for g in result.sizing.gpus if g.gpu == "b200")
    assert row.launch is not None and row.launch.checkpoint == "Qwen/Qwen2.5-72B-Instruct"


def test_a_replica_over_two_nodes_says_how_to_start_it() -> None:
    onprem = yaml.safe_load((EXAMPLES_DIR / "deepseek-on-premises.yaml").read_text(encoding="utf-8"))
    memo = render_memo(run(onprem))
    assert (
        "    vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --pipeline-parallel-size 2 "
        "--max-model-len 8192\n\n"
        "A replica spans 2 nodes, one pipeline stage each: start it as vllm's multi-node setup says (over a "
        "Ray cluster).\n"
    ) in memo


def test_an_api_decision_names_no_command() -> None:
    result = run(yaml.safe_load((EXAMPLES_DIR / "public-chat.yaml").read_text(encoding="utf-8")))
    assert result.decision.deployment == "api"
    assert "To start one replica" not in render_memo(result)
    # The JSON's sizing rows still carry each GPU's command.
    assert all(g.launch is not None for g in result.sizing.gpus if g.cards_per_replica and g.replicas)
