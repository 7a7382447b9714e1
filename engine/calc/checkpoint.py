"""The weights' size, and what a replica reads as it starts: the weights as served, or the 16-bit
checkpoint an engine quantizes to FP8 as it loads it (vLLM's and SGLang's ``--quantization fp8``). A cold
start and a batch run's start take the weights' load at the catalog's load rate, so a 72B model served in
FP8 from its 16-bit checkpoint loads 145 GB, not 72; a replica over several server instances loads each
one's share at once."""

from __future__ import annotations

from gpu_advisor.engine.calc.traffic import SECONDS_PER_HOUR
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.models import ModelConfig

QUANTIZED_AT_LOAD = frozenset({"vllm", "sglang"})
"""Engines that quantize a 16-bit checkpoint to FP8 as they load it (TensorRT-LLM reads a quantized one)."""


def weights_gb(params_b: float, bytes_per_parameter: float) -> float:
    """Weight memory in GB: billions of parameters times bytes per parameter."""
    return params_b * bytes_per_parameter


def sixteen_bit_checkpoint_gb(
    knowledge: Knowledge, params_b: float, precision: str, model: object, engine_id: str
) -> float | None:
    """The 16-bit checkpoint's size where the workload runs a catalog model in FP8 that has no FP8
    checkpoint, on an engine that quantizes as it loads (None otherwise: a published FP8 checkpoint, a
    16-bit workload, a model given by its size, TensorRT-LLM)."""
    if not isinstance(model, ModelConfig) or precision != "fp8" or model.fp8_checkpoint is not None:
        return None
    if engine_id not in QUANTIZED_AT_LOAD:
        return None
    return round(weights_gb(params_b, knowledge.bytes_per_parameter("bf16")), 6)


def quantizes_at_load(sixteen_bit_gb: float | None, replica_memory_bytes: float) -> bool:
    """The replica starts from the 16-bit checkpoint and quantizes it: there is one to read
    (``sixteen_bit_checkpoint_gb``) and its memory holds it whole (vLLM loads it whole first, its FP8
    guide says; where it cannot, the launch command names an FP8 checkpoint instead, ``report/launch.py``)."""
    return sixteen_bit_gb is not None and sixteen_bit_gb * 1e9 <= replica_memory_bytes


def read_at_start_gb(weights_gb: float, sixteen_bit_gb: float | None, replica_memory_bytes: float) -> float:
    """The gigabytes a replica reads as it starts: the 16-bit checkpoint where it quantizes it as it loads
    it (``quantizes_at_load``), else the weights."""
    if sixteen_bit_gb is not None and quantizes_at_load(sixteen_bit_gb, replica_memory_bytes):
        return sixteen_bit_gb
    return weights_gb


def weights_load_hours(
    knowledge: Knowledge, weights: float, sixteen_bit_gb: float | None, gpu: str, cards: int, nodes: int
) -> float:
    """Hours a replica of ``cards`` cards of ``gpu`` on ``nodes`` server instances takes to load the
    weights before it serves (the checkpoint it reads: ``read_at_start_gb``): each instance reads only its
    own share, its pipeline stage's layers, at the catalog's load rate
    (``serverless.weights_load_gb_per_second``), all of them at once, so the load takes one share's time;
    a floor, as the instances' boot is not known."""
    read = read_at_start_gb(weights, sixteen_bit_gb, cards * knowledge.gpu(gpu).memory_bytes)
    return knowledge.serverless.weights_load_seconds(read / nodes) / SECONDS_PER_HOUR
