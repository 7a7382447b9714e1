"""The command that starts one replica of a GPU's plan with the workload's serving engine.

The flags are the engines' own (vLLM's ``vllm serve``, SGLang's ``sglang.launch_server``, TensorRT-LLM's
``trtllm-serve``): the cards a replica splits into, tensor parallel within a node and one pipeline stage
per node beyond it, and the serving context its KV cache was sized for. What the estimate takes as the
engine's default (its batch limit, the KV cache's precision) is left to the default. The weights: the
model as published, its published FP8 checkpoint, the 16-bit checkpoint quantized to FP8 as vLLM or
SGLang loads it (``--quantization fp8``), or, where the catalog names no checkpoint of the precision, a
placeholder the memo explains.
"""

from __future__ import annotations

from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.gpu_sizing import CheckpointKind, LaunchCommand
from gpu_advisor.engine.domain.knowledge.base import Knowledge

OWN = "MODEL"
"""The placeholder for weights the catalog does not name."""

SIXTEEN_BIT = frozenset({"bf16", "fp16"})
QUANTIZED_AT_LOAD = frozenset({"vllm", "sglang"})
"""Engines that quantize a 16-bit checkpoint to FP8 as they load it (TensorRT-LLM reads a quantized one)."""


def replica_launch(
    knowledge: Knowledge, figures: SizingFigures, model: tuple[str | None, bool], tensor: int, stages: int
) -> LaunchCommand:
    """A sizing row's launch command: ``model`` is the catalog model (None: given by its size) and whether
    its weights are the team's own."""
    engine, precision, context = figures.serving_engine, figures.precision, figures.context_tokens
    return launch_command(knowledge, engine, model[0], model[1], precision, context, tensor, stages)


def launch_command(
    knowledge: Knowledge,
    engine: str,
    model_id: str | None,
    own_weights: bool,
    precision: str,
    context_tokens: int,
    tensor: int,
    stages: int,
) -> LaunchCommand:
    """One replica of ``tensor`` x ``stages`` cards serving ``model_id`` (None: a model given by its size)
    at ``precision`` with a serving context of ``context_tokens``."""
    checkpoint, kind = _checkpoint(knowledge, engine, model_id, own_weights, precision)
    quantize = kind == "quantized_at_load"
    if engine == "sglang":
        parts = [f"python -m sglang.launch_server --model-path {checkpoint} --tp {tensor}"]
        parts += [f"--pp-size {stages}"] if stages > 1 else []
        parts += [f"--context-length {context_tokens}"] + (["--quantization fp8"] if quantize else [])
    elif engine == "trtllm":
        parts = [f"trtllm-serve {checkpoint} --tp_size {tensor}"]
        parts += [f"--pp_size {stages}"] if stages > 1 else []
        parts += [f"--max_seq_len {context_tokens}"]
    else:
        parts = [f"vllm serve {checkpoint} --tensor-parallel-size {tensor}"]
        parts += [f"--pipeline-parallel-size {stages}"] if stages > 1 else []
        parts += [f"--max-model-len {context_tokens}"] + (["--quantization fp8"] if quantize else [])
    # Built from validated knowledge and plan figures: no re-validation (see engine/common/trusted.py).
    return trusted(
        LaunchCommand,
        engine=engine,
        command=" ".join(parts),
        checkpoint=checkpoint,
        checkpoint_kind=kind,
        nodes=stages,
    )


def _checkpoint(
    knowledge: Knowledge, engine: str, model_id: str | None, own_weights: bool, precision: str
) -> tuple[str, CheckpointKind]:
    if own_weights or model_id is None:
        return OWN, "own"
    model = knowledge.model(model_id)
    fp8 = model.fp8_checkpoint
    published_in_fp8 = fp8 is not None and fp8.hf_repo == model.hf_repo
    if precision == "fp8" and fp8 is not None:
        return fp8.hf_repo, "published" if published_in_fp8 else "fp8_checkpoint"
    if precision in SIXTEEN_BIT and not published_in_fp8:
        return model.hf_repo, "published"
    if precision == "fp8" and engine in QUANTIZED_AT_LOAD:
        return model.hf_repo, "quantized_at_load"
    # INT8, INT4, or 16 bits of a model published in FP8 (DeepSeek-R1): a checkpoint the catalog lacks.
    return OWN, "precision_needed"
