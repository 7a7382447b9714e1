"""The command that starts one replica of a GPU's plan with the workload's serving engine.

The flags are the engines' own (vLLM's ``vllm serve``, SGLang's ``sglang.launch_server``, TensorRT-LLM's
``trtllm-serve``): the cards a replica splits into, tensor parallel within a node and one pipeline stage
per node beyond it, and the serving context its KV cache was sized for. What the estimate takes as the
engine's default (its batch limit, the KV cache's precision) is left to the default, but where the
default would not run the plan: an FP8 KV cache the estimate took is set (TensorRT-LLM keeps one beside
FP8 weights only where the checkpoint declares it); TensorRT-LLM takes no prompt longer than its
batched-token limit without chunked prefill (so the limit is raised to the context); an FP8 checkpoint
the engine will not split over the tensor-parallel cards (SIZ020) runs its experts by expert
parallelism. The weights: the model as published, its published FP8 checkpoint, the 16-bit checkpoint
quantized to FP8 as vLLM or SGLang loads it (``--quantization fp8``), or a placeholder the memo explains.
"""

from __future__ import annotations

from gpu_advisor.engine.calc.checkpoint import QUANTIZED_AT_LOAD, quantizes_at_load
from gpu_advisor.engine.calc.sizing import SizingFigures, kv_element_bytes
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.gpu_sizing import CheckpointKind, LaunchCommand
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite

OWN = "MODEL"
"""The placeholder for weights the catalog does not name."""

SIXTEEN_BIT = frozenset({"bf16", "fp16"})
KV_BLOCK_TOKENS = 32
"""A cut serving context is whole KV cache blocks of every engine: 32 tokens, TensorRT-LLM's
``tokens_per_block`` default, a multiple of vLLM's default ``--block-size`` of 16 (SGLang's pages are one
token)."""
NVIDIA_ONLY = frozenset({"trtllm"})
TRTLLM_FP8_CACHE = "kv_cache_config: {dtype: fp8}"
"""TensorRT-LLM's LLM API options for an FP8 KV cache (``--extra_llm_api_options``)."""


def replica_launch(
    knowledge: Knowledge,
    figures: SizingFigures,
    model: tuple[str | None, bool],
    gpu: str,
    tensor: int,
    stages: int,
    kv_tokens: int | None = None,
) -> LaunchCommand | None:
    """A sizing row's launch command: ``model`` is the catalog model (None: given by its size) and whether
    its weights are the team's own; ``kv_tokens``: what the replica's KV cache holds, where the serving
    context is cut to it (rounded down to whole blocks of ``KV_BLOCK_TOKENS``); None where the engine
    does not run on ``gpu`` (TensorRT-LLM on an AMD card) or the cache holds no block."""
    engine, card = figures.serving_engine, knowledge.gpu(gpu)
    if engine in NVIDIA_ONLY and card.vendor != "nvidia":
        return None
    context = figures.context_tokens
    if kv_tokens is not None and kv_tokens < context:
        context = kv_tokens // KV_BLOCK_TOKENS * KV_BLOCK_TOKENS
        if context <= 0:
            return None
    return launch_command(
        knowledge,
        engine,
        model,
        figures.precision,
        context,
        (tensor, stages),
        expert_parallel=figures.refuses_tensor_split(tensor),
        kv_bytes_per_element=figures.kv_bytes_per_element,
        quantize_at_load=quantizes_at_load(
            figures.sixteen_bit_checkpoint_gb, tensor * stages * card.memory_bytes
        ),
        context_cut=context < figures.context_tokens,
        weight_only_fp8_moe=figures.precision == "fp8"
        and figures.num_experts is not None
        and card.fp8_dense_tflops is None,
    )


def launch_command(
    knowledge: Knowledge,
    engine_id: str,
    model: tuple[str | None, bool],
    precision: str,
    context_tokens: int,
    cards: tuple[int, int],
    expert_parallel: bool = False,
    kv_bytes_per_element: float | None = None,
    quantize_at_load: bool = True,
    context_cut: bool = False,
    weight_only_fp8_moe: bool = False,
) -> LaunchCommand:
    """One replica of ``cards`` (tensor-parallel cards, pipeline stages) serving ``model`` (the catalog
    model, None where given by its size; whether its weights are the team's own) at ``precision`` with a
    serving context of ``context_tokens``; ``expert_parallel``: the engine will not split the FP8
    checkpoint's experts over the tensor-parallel cards; ``kv_bytes_per_element``: the KV cache's
    precision the estimate took (default: the engine's, ``calc.sizing.kv_element_bytes``), which the
    command sets where the engine would not keep it by itself; ``quantize_at_load``: the replica's memory
    holds the 16-bit checkpoint vLLM or SGLang would quantize to FP8 as it loads it;
    ``weight_only_fp8_moe``: a mixture of experts in FP8 on a card without FP8 tensor cores, which takes
    the engine's ``weight_only_fp8_moe_flag`` where it has one."""
    engine = knowledge.serving_engine(engine_id)
    measured = knowledge.throughput.measured_start(engine_id)
    (tensor, stages), (checkpoint, kind) = (
        cards,
        _checkpoint(knowledge, engine_id, model, precision, quantize_at_load),
    )
    element = kv_bytes_per_element or kv_element_bytes(knowledge, precision, engine)
    fp8_cache = element == knowledge.sizing.kv_cache.fp8_bytes_per_element
    if engine_id == "sglang":
        parts = [f"python -m sglang.launch_server --model-path {checkpoint} --tp {tensor}"]
        parts += [f"--pp-size {stages}"] if stages > 1 else []
        parts += [f"--ep-size {tensor}"] if expert_parallel else []
        parts += [f"--context-length {context_tokens}"]
        parts += ["--kv-cache-dtype fp8_e4m3"] if fp8_cache else []
    elif engine_id == "trtllm":
        parts = [f"trtllm-serve {checkpoint} --tp_size {tensor}"]
        parts += [f"--pp_size {stages}"] if stages > 1 else []
        parts += [f"--ep_size {tensor}"] if expert_parallel else []
        parts += [f"--max_seq_len {context_tokens}"]
        limit = engine.max_batched_tokens
        if not engine.chunked_prefill and limit is not None and context_tokens > limit:
            parts += [f"--max_num_tokens {context_tokens}"]
        parts += ["--extra_llm_api_options extra.yaml"] if fp8_cache else []
    else:
        parts = [f"vllm serve {checkpoint} --tensor-parallel-size {tensor}"]
        parts += [f"--pipeline-parallel-size {stages}"] if stages > 1 else []
        parts += ["--enable-expert-parallel"] if expert_parallel else []
        parts += [f"--max-model-len {context_tokens}"]
        parts += ["--kv-cache-dtype fp8"] if fp8_cache else []
    flag = engine.weight_only_fp8_moe_flag if weight_only_fp8_moe else None
    parts += [flag] if flag is not None else []
    parts += ["--quantization fp8"] if kind == "quantized_at_load" else []
    # Built from validated knowledge and plan figures: no re-validation (see engine/common/trusted.py).
    return trusted(
        LaunchCommand,
        engine=engine_id,
        engine_name=engine.name,
        command=" ".join(parts),
        checkpoint=checkpoint,
        checkpoint_kind=kind,
        nodes=stages,
        expert_parallel=expert_parallel,
        extra_options=TRTLLM_FP8_CACHE if fp8_cache and engine_id == "trtllm" else None,
        context_tokens=context_tokens,
        context_cut=context_cut,
        weight_only_fp8_moe_flag=flag,
        weight_only_fp8_moe_since=engine.weight_only_fp8_moe_since if flag is not None else None,
        start_seconds=measured.start_seconds,
        start_source=cite(measured.start_source, knowledge) if measured.start_source else None,
        start_stand_in=measured.name if measured.id != engine.id else None,
    )


def _checkpoint(
    knowledge: Knowledge, engine: str, model: tuple[str | None, bool], precision: str, quantize_at_load: bool
) -> tuple[str, CheckpointKind]:
    model_id, own_weights = model
    if own_weights:
        return OWN, "own"
    if model_id is None:
        return OWN, "given_by_size"
    config = knowledge.model(model_id)
    fp8 = config.fp8_checkpoint
    published_in_fp8 = fp8 is not None and fp8.hf_repo == config.hf_repo
    if precision == "fp8" and fp8 is not None:
        return fp8.hf_repo, "published" if published_in_fp8 else "fp8_checkpoint"
    if precision in SIXTEEN_BIT and not published_in_fp8:
        return config.hf_repo, "published"
    if precision == "fp8" and engine in QUANTIZED_AT_LOAD and quantize_at_load:
        return config.hf_repo, "quantized_at_load"
    # INT8, INT4, 16 bits of a model published in FP8 (DeepSeek-R1), or FP8 of a 16-bit checkpoint the
    # replica cannot load whole: a checkpoint the catalog lacks.
    return OWN, "precision_needed"
