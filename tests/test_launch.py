"""How one replica is started (``LaunchCommand`` on every sizing row, and under the memo's sizing table
for the decision's GPU): the memo gave cards per replica but no engine settings, so an engineer had to
translate the plan into flags. The flags are the engines' own (vLLM ``vllm serve``, SGLang
``sglang.launch_server``, TensorRT-LLM ``trtllm-serve``)."""

from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, EXAMPLES_DIR, NO_API_POLICY, run

from gpu_advisor import api
from gpu_advisor.cli import main
from gpu_advisor.engine.calc.sizing import SizingFigures, size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.engine.report.launch import launch_command, replica_launch

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
            # TensorRT-LLM keeps an FP8 cache beside FP8 weights only where the checkpoint declares it.
            "trtllm-serve deepseek-ai/DeepSeek-R1 --tp_size 8 --pp_size 2 --max_seq_len 8192 "
            "--extra_llm_api_options extra.yaml",
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
            "trtllm-serve MODEL --tp_size 2 --max_seq_len 8192 --extra_llm_api_options extra.yaml",
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
            "given_by_size",
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
    launch = launch_command(KNOWLEDGE, engine, (model, own), precision, 8192, (tensor, stages))
    assert (launch.command, launch.checkpoint_kind, launch.nodes) == (command, kind, stages)


def test_the_memo_gives_the_decisions_replica_its_command() -> None:
    batch = yaml.safe_load((EXAMPLES_DIR / "nightly-batch.yaml").read_text(encoding="utf-8"))
    # Managed APIs ruled out by the company's policy: DeepInfra's Llama 3.3 70B API, which stands in for
    # the 72B Qwen, would be decided otherwise, and an API decision names no command.
    result = run(batch, policy_dir=NO_API_POLICY)
    assert (result.decision.deployment, result.decision.gpu) == ("dedicated_cloud", "b200")
    memo = render_memo(result)
    # The 16-bit checkpoint holds the exact 72.71 billion parameters x 2 bytes: 145.42 GB, said as 145 GB.
    assert result.sizing.sixteen_bit_checkpoint_gb == pytest.approx(72.71 * 2)
    assert (
        "To start one replica of 1 × b200 with vLLM, the serving context its KV cache is sized for and the "
        "engine's other defaults, as the estimate takes them:\n\n"
        "    vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 1 --max-model-len 8192 "
        "--quantization fp8\n\n"
        "The published checkpoint is 16-bit: the engine quantizes its weights to FP8 as it loads them, so a "
        "replica's start reads 145 GB, and the load times here count them.\n"
    ) in memo
    row = next(g for g in result.sizing.gpus if g.gpu == "b200")
    assert row.launch is not None and row.launch.checkpoint == "Qwen/Qwen2.5-72B-Instruct"


def test_a_replica_over_two_nodes_says_how_to_start_it() -> None:
    onprem = yaml.safe_load((EXAMPLES_DIR / "deepseek-on-premises.yaml").read_text(encoding="utf-8"))
    memo = render_memo(run(onprem))
    assert (
        "    vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --pipeline-parallel-size 2 "
        "--max-model-len 8192\n\n"
        "A replica spans 2 nodes, one pipeline stage each: start it as vLLM's multi-node setup says (over a "
        "Ray cluster).\n"
    ) in memo


def test_an_api_decision_names_no_command() -> None:
    result = run(yaml.safe_load((EXAMPLES_DIR / "public-chat.yaml").read_text(encoding="utf-8")))
    assert result.decision.deployment == "api"
    assert "To start one replica" not in render_memo(result)
    # The JSON's sizing rows still carry each GPU's command.
    assert all(g.launch is not None for g in result.sizing.gpus if g.cards_per_replica and g.replicas)


def test_an_fp8_checkpoint_the_engine_will_not_split_runs_its_experts_apart() -> None:
    """Qwen3-235B's FP8 experts are 1,536 wide: 192 each over 8 cards cuts their 128-wide blocks, which
    vLLM and SGLang refuse (SIZ020); the command runs them by expert parallelism."""
    figures = size_figures("qwen3-235b-a22b", "fp8", "vllm")
    assert figures.refuses_tensor_split(8) and not figures.refuses_tensor_split(4)
    launch = replica_launch(KNOWLEDGE, figures, ("qwen3-235b-a22b", False), "h100-sxm", 8, 1)
    assert launch is not None and launch.expert_parallel
    assert launch.command == (
        "vllm serve Qwen/Qwen3-235B-A22B-FP8 --tensor-parallel-size 8 --enable-expert-parallel "
        "--max-model-len 8192"
    )
    sglang = replica_launch(
        KNOWLEDGE, size_figures("qwen3-235b-a22b", "fp8", "sglang"), ("qwen3-235b-a22b", False), "h200", 8, 1
    )
    assert sglang is not None and "--tp 8 --ep-size 8 --context-length 8192" in sglang.command


def test_tensorrt_llm_takes_long_prompts_and_runs_on_nvidia_only() -> None:
    """Without chunked prefill TensorRT-LLM refuses a prompt longer than its batched-token limit (8,192 by
    default): the limit is raised to the context. It does not run on AMD's MI300X."""
    long = launch_command(KNOWLEDGE, "trtllm", ("llama-3.3-70b", False), "bf16", 32768, (4, 1))
    assert long.command == (
        "trtllm-serve meta-llama/Llama-3.3-70B-Instruct --tp_size 4 --max_seq_len 32768 "
        "--max_num_tokens 32768"
    )
    figures = size_figures("llama-3.3-70b", "bf16", "trtllm")
    assert replica_launch(KNOWLEDGE, figures, ("llama-3.3-70b", False), "mi300x", 1, 1) is None
    assert replica_launch(KNOWLEDGE, figures, ("llama-3.3-70b", False), "h200", 1, 1) is not None


def test_only_planned_rows_carry_a_command() -> None:
    result = run(yaml.safe_load((EXAMPLES_DIR / "public-chat.yaml").read_text(encoding="utf-8")))
    for row in result.sizing.gpus:
        assert (row.launch is not None) == (row.replicas is not None), row.gpu


def test_size_prints_each_evaluated_gpus_command() -> None:
    arguments = [
        "size",
        "--model",
        "llama-3.3-70b",
        "--precision",
        "fp8",
        "--gpu",
        "h100-sxm",
        "--cards",
        "4",
    ]
    output = CliRunner().invoke(main, [*arguments, "--concurrency", "32"]).output
    assert (
        "One replica, started with the engine's defaults but its cards and serving context (--quantization "
        "fp8: the engine quantizes the 16-bit checkpoint as it loads it):\n"
        "  h100-sxm: vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 4 --max-model-len "
        "8192 --quantization fp8\n"
    ) in output


@pytest.mark.parametrize(
    ("engine", "lang", "sentence"),
    [
        (
            "sglang",
            "en",
            "A replica spans 2 nodes, one pipeline stage each: start it as SGLang's multi-node setup says "
            "(with --nnodes, --node-rank and --dist-init-addr).",
        ),
        (
            "trtllm",
            "de",
            "Ein Replikat erstreckt sich über 2 Nodes, je eine Pipeline-Stufe: Starten Sie es, wie die "
            "Multi-Node-Einrichtung von TensorRT-LLM es beschreibt (unter MPI).",
        ),
    ],
)
def test_each_engine_is_told_how_a_replica_spans_nodes(engine: str, lang: str, sentence: str) -> None:
    onprem = yaml.safe_load((EXAMPLES_DIR / "deepseek-on-premises.yaml").read_text(encoding="utf-8"))
    result = api.recommend({**onprem, "serving_engine": engine}, EVALUATED_ON, lang=lang)
    launched = next(g for g in result.sizing.gpus if g.gpu == result.decision.gpu)
    assert launched.launch is not None and launched.launch.nodes == 2
    memo = render_memo(result, Format(lang, "USD", result.exchange_rate_usd_per_eur))
    assert sentence in " ".join(memo.split())


def size_figures(model: str, precision: str, engine: str) -> SizingFigures:
    config = KNOWLEDGE.model(model)
    return size_model(KNOWLEDGE, config.params_b, config.active_params_b, precision, config, 8192, engine)


def test_the_kv_cache_precision_the_estimate_took_is_set() -> None:
    """The command reads the KV cache's precision from the estimate (``kv_element_bytes``, or the figures'
    own): TensorRT-LLM's FP8 cache beside FP8 weights through extra.yaml; an FP8 cache taken for vLLM or
    SGLang (whose default keeps 16 bits) by their flag; none where the estimate took 16 bits."""
    trtllm = launch_command(KNOWLEDGE, "trtllm", ("llama-3.3-70b", False), "bf16", 8192, (2, 1))
    assert trtllm.extra_options is None and "--extra_llm_api_options" not in trtllm.command
    vllm = launch_command(
        KNOWLEDGE, "vllm", ("llama-3.3-70b", False), "fp8", 8192, (2, 1), kv_bytes_per_element=1.0
    )
    assert vllm.command.endswith("--max-model-len 8192 --kv-cache-dtype fp8 --quantization fp8")
    assert vllm.extra_options is None
    sglang = launch_command(
        KNOWLEDGE, "sglang", ("llama-3.3-70b", False), "fp8", 8192, (2, 1), kv_bytes_per_element=1.0
    )
    assert sglang.command.endswith("--context-length 8192 --kv-cache-dtype fp8_e4m3 --quantization fp8")


def test_a_16_bit_checkpoint_the_replica_cannot_hold_is_not_quantized_at_load() -> None:
    """vLLM loads a 16-bit checkpoint whole before it quantizes it to FP8: Llama 3.3 70B's 141 GB of
    16-bit weights do not fit one 80 GB card, so the command names an FP8 checkpoint; they fit 2 x 80."""
    figures = size_figures("llama-3.3-70b", "fp8", "vllm")
    assert figures.params_b * 2 > KNOWLEDGE.gpu("h100-sxm").memory_bytes / 1e9
    big = replica_launch(KNOWLEDGE, figures, ("llama-3.3-70b", False), "h100-sxm", 1, 1)
    assert big is not None
    assert (big.command, big.checkpoint_kind) == (
        "vllm serve MODEL --tensor-parallel-size 1 --max-model-len 8192",
        "precision_needed",
    )
    small = replica_launch(KNOWLEDGE, figures, ("llama-3.3-70b", False), "h100-sxm", 2, 1)
    assert small is not None and small.checkpoint_kind == "quantized_at_load"


def test_meta_s_fp8_checkpoint_of_the_405b_is_named() -> None:
    """Meta publishes Llama 3.1 405B in FP8 (a scale per row, which any tensor split keeps whole): the
    command names it, and a replica reads its 405 GB at start, not the 811 GB 16-bit checkpoint."""
    figures = size_figures("llama-3.1-405b", "fp8", "vllm")
    launch = replica_launch(KNOWLEDGE, figures, ("llama-3.1-405b", False), "h100-sxm", 8, 1)
    assert launch is not None
    assert (launch.command, launch.checkpoint_kind) == (
        "vllm serve meta-llama/Llama-3.1-405B-Instruct-FP8 --tensor-parallel-size 8 --max-model-len 8192",
        "fp8_checkpoint",
    )
    assert figures.sixteen_bit_checkpoint_gb is None
    assert not figures.refuses_tensor_split(8)
