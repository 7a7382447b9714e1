"""What one replica delivers on one GPU type: a roofline of its prefill and decode steps, and its
throughput when the serving engine runs as many sequences at once as it may (saturation).

A replica of ``cards`` cards runs tensor parallel within one node; a replica larger than a node runs one
pipeline stage per node (vLLM's and TensorRT-LLM's advice for several nodes), so the slow link between
nodes carries only the activations between stages, never an all-reduce. A decode step reads the weights
once for every sequence decoding and each sequence's KV cache; a prompt's prefill is compute: the
weights' multiply-adds per token and attention, quadratic in the prompt. How a step's kernels add up is
in ``calc/roofline.py``, the latency at a load in ``calc/latency.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.calc.gpu_fit import GpuFit
from gpu_advisor.engine.calc.roofline import (
    Roofline,
    routed_factor_at,
    routed_multiply_adds,
    seconds_per_token,
)
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.calc.sizing import parallelism as replica_parallelism
from gpu_advisor.engine.calc.tensor_parallel import (
    communication,
    communication_points,
    tensor_interconnect,
    tensor_parallel_efficiency,
)
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import ComputeMathKind
from gpu_advisor.engine.domain.knowledge.gpus import Gpu

FLOPS_PER_PARAMETER_AND_TOKEN = 2


class ReplicaPerformance(BaseModel):
    """Estimated performance of one replica on one GPU type, for the workload's average request."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    gpu: str
    cards: int
    serving_engine: str
    tensor_parallel: int
    """Cards per pipeline stage, sharing one fast link."""
    pipeline_stages: int
    batch: int
    """Sequences running at once: as many as the KV cache holds, up to the engine's maximum."""
    prefill_tokens_per_second: float
    decode_tokens_per_second: float
    """Output tokens per second across the whole batch."""
    requests_per_second: float
    """At saturation: the batch full, the prefills between its steps."""
    output_tokens_per_second: float
    time_to_first_token_ms: float
    """Prefill of one average prompt on an otherwise idle replica: a lower bound, without queueing."""
    time_per_output_token_ms: float
    """The time between tokens at saturation, prefills included."""
    decode_bound: str
    """'memory' or 'compute': what limits the weights' multiplications of a decode step at this batch
    (its attention is bound apart: by the KV cache's bytes, or by its FLOPs for latent attention)."""
    roofline: Roofline


def step_reads(figures: SizingFigures) -> Callable[..., float]:
    """The bytes a forward pass reads of so many billion parameters: those that hold the embedding and the
    output layer (``kept``: a dense model's, a mixture's active or shared ones) read the output layer at its
    bytes (16 bit in a quantized checkpoint) and only look the embedding up (``WeightsLayout.read_gb``); a
    routed expert's are all at the precision's."""
    layout = figures.weights_layout

    def read(params_b: float, kept: bool = True) -> float:
        if not kept:
            return params_b * 1e9 * layout.quantized_bytes_per_parameter
        return layout.read_gb(params_b) * 1e9

    return read


def compute_tflops(gpu: Gpu, math_kind: str) -> float:
    """Dense tensor throughput in the math a precision runs in (``ComputeMath``): FP8 where the card has
    FP8 tensor cores, else BF16; TF32 at half the BF16 rate."""
    if math_kind == "fp8" and gpu.fp8_dense_tflops is not None:
        return gpu.fp8_dense_tflops
    if math_kind == "tf32":
        return gpu.bf16_dense_tflops / 2
    return gpu.bf16_dense_tflops


def compute_math(knowledge: Knowledge, gpu: Gpu, precision: str) -> ComputeMathKind:
    """The math a precision's matrix multiplications run in on ``gpu``: 16-bit where an 8-bit precision
    finds no FP8 tensor cores."""
    kind = knowledge.throughput.compute_math.by_precision[precision]  # type: ignore[index]
    return "bf16" if kind == "fp8" and gpu.fp8_dense_tflops is None else kind


def parallelism(knowledge: Knowledge, cards: int) -> tuple[int, int]:
    """Tensor-parallel cards and pipeline stages of a replica: one stage per node."""
    return replica_parallelism(knowledge.sizing.card_counts.node_gpus, cards)


def replica_interconnect(knowledge: Knowledge, gpu: Gpu, cards: int) -> str:
    """The link a replica of ``cards`` cards all-reduces over: its tensor-parallel group's
    (``tensor_interconnect``: PCIe beyond an H100 NVL's bridged pair)."""
    return tensor_interconnect(gpu, parallelism(knowledge, cards)[0])


def attention_math(
    knowledge: Knowledge, gpu: Gpu, weights_math: ComputeMathKind, engine_id: str, fp8_cache: bool
) -> ComputeMathKind:
    """The math attention runs in: FP8 where the engine runs FP8 attention kernels over an FP8 KV cache
    on a card with FP8 tensor cores, else 16-bit whatever the weights (TF32 for FP32 models)."""
    engine = knowledge.serving_engine(engine_id)
    if fp8_cache and engine.fp8_attention_with_fp8_kv_cache and gpu.fp8_dense_tflops is not None:
        return "fp8"
    return "tf32" if weights_math == "tf32" else "bf16"


def replica_hardware(
    knowledge: Knowledge, gpu_id: str, precision: str, cards: int, engine_id: str, fp8_cache: bool
) -> tuple[float, float, float]:
    """Usable memory bandwidth (bytes/s), compute for the weights' matrix multiplications and compute
    for attention (FLOP/s) of one pipeline stage's cards, after the tensor-parallel losses
    (``attention_math``). The same for every workload, so kept per knowledge base."""
    table = _hardware_tables(knowledge)
    key = (gpu_id, precision, cards, engine_id, fp8_cache)
    found = table.get(key)
    if found is None:
        gpu = knowledge.gpu(gpu_id)
        efficiency = knowledge.throughput.efficiency
        tensor, _ = parallelism(knowledge, cards)
        parallel = tensor_parallel_efficiency(knowledge, replica_interconnect(knowledge, gpu, cards), tensor)
        kind = compute_math(knowledge, gpu, precision)
        attention = attention_math(knowledge, gpu, kind, engine_id, fp8_cache)
        shares = efficiency.compute_share_by_math
        found = (
            tensor * gpu.memory_bandwidth_gb_s * 1e9 * efficiency.decode_bandwidth_share * parallel,
            tensor * compute_tflops(gpu, kind) * 1e12 * shares[kind] * parallel,
            tensor * compute_tflops(gpu, attention) * 1e12 * shares[attention] * parallel,
        )
        table[key] = found
    return found


@per_object
def _hardware_tables(
    knowledge: Knowledge,
) -> dict[tuple[str, str, int, str, bool], tuple[float, float, float]]:
    """Filled as GPU, precision and card counts come up (at most every combination of the catalog)."""
    return {}


def routed_factors(
    table: dict[int, tuple[tuple[float, float], ...]], tensor: int
) -> tuple[tuple[float, float], ...]:
    """The routed experts' factor points of the largest tensor-parallel degree stated up to ``tensor``."""
    stated = [t for t in table if t <= tensor]
    return table[max(stated)] if stated else ()


def cached_prefix_tokens(knowledge: Knowledge, figures: SizingFigures) -> int:
    """The workload's shared prompt start that its serving engine computes once (``shared_prefix_tokens``);
    0 where the engine caches no prefixes."""
    return (
        figures.shared_prefix_tokens if knowledge.serving_engine(figures.serving_engine).prefix_caching else 0
    )


def replica_roofline(
    knowledge: Knowledge,
    figures: SizingFigures,
    fit: GpuFit,
    input_tokens: int,
    output_tokens: int,
    cards: int,
) -> Roofline | None:
    """The step times of one replica of ``cards`` cards; None if its KV cache cannot hold one request.
    Where the engine caches prefixes, the workload's shared prompt start (``shared_prefix_tokens``) is
    prefilled once: a request computes the rest of its prompt, attending over the whole, its KV cache
    holds the rest beside one shared copy of the prefix, and a decode step still reads the whole."""
    gpu = knowledge.gpu(fit.gpu)
    engine = knowledge.serving_engine(figures.serving_engine)
    prefix = cached_prefix_tokens(knowledge, figures)
    whole_prompt, input_tokens = input_tokens, input_tokens - prefix
    fp8_cache = figures.kv_bytes_per_element == knowledge.sizing.kv_cache.fp8_bytes_per_element
    bandwidth, flops, attention_flops = replica_hardware(
        knowledge, fit.gpu, figures.precision, cards, figures.serving_engine, fp8_cache
    )
    tensor, stages = parallelism(knowledge, cards)
    sent_per_token, per_pass = communication(knowledge, gpu, tensor, figures)
    points = communication_points(knowledge, gpu, tensor, figures)
    # A prompt alone is a pass of its own tokens, or with chunked prefill one pass a chunk: its all-reduces
    # at that message's size; under load it shares passes with the decoding sequences
    # (``Roofline.prefill_busy_seconds``).
    chunks = math.ceil(input_tokens / engine.max_batched_tokens_on(gpu)) if engine.chunked_prefill else 1
    alone_pass = input_tokens / chunks
    prompt_sent = input_tokens * seconds_per_token(points, alone_pass, sent_per_token)
    weights_bytes = figures.weights_gb * 1e9
    cache_bytes = engine.kv_cache_bytes(cards * gpu.memory_bytes, weights_bytes, cards, figures.activations)
    kv_bytes = figures.kv_bytes_per_token_on(tensor)
    batch = min(
        engine.max_sequences_on(gpu),
        math.floor((cache_bytes - prefix * kv_bytes) / ((input_tokens + output_tokens) * kv_bytes)),
    )
    if batch < 1:
        return None
    active_flops = FLOPS_PER_PARAMETER_AND_TOKEN * figures.active_params_b * 1e9
    # Attention adds, per pair of a token and an earlier one, FLOPs the weights do not count: quadratic in
    # the prompt for prefill (s²/2 pairs; a prompt after a cached prefix of p tokens: its s - p tokens each
    # over the p before them, (s - p) p + (s - p)²/2), linear in the context for each decode step.
    average_context = whole_prompt + output_tokens / 2
    pairs = figures.attention_flops_per_token_pair
    prefill_attention_seconds = pairs * (input_tokens * prefix + input_tokens**2 / 2) / attention_flops
    read = step_reads(figures)
    experts, per_token = figures.num_experts, figures.experts_per_token
    # A mixture of experts: the parameters a token does not use are the routed experts it skips, so one
    # expert (in every layer) holds (total - active) / (E - k) of them; the rest is shared.
    expert_params = 0.0
    if experts is not None and per_token is not None and experts > per_token:
        expert_params = (figures.params_b - figures.active_params_b) * 1e9 / (experts - per_token)
    shared_params = figures.params_b * 1e9 - (experts or 0) * expert_params
    overheads = knowledge.throughput.step_overheads
    moe = figures.active_params_b < figures.params_b
    routed_factor = routed_factors(overheads.routed_expert_factor, tensor) if expert_params else ()
    prefill_compute_seconds = input_tokens * active_flops / flops
    # The routed experts' share of a token's multiply-adds runs at their measured speed for the pass's
    # tokens per expert: the prompt's own, alone.
    routed_share = 1 - shared_params / (figures.active_params_b * 1e9) if routed_factor else 0.0
    alone = routed_factor_at(routed_factor, experts, per_token, alone_pass)
    prefill_weights_seconds = routed_multiply_adds(prefill_compute_seconds, routed_share, alone)
    layer_seconds = overheads.layer_seconds + (overheads.moe_layer_seconds if moe else 0.0)
    return trusted(
        Roofline,
        input_tokens=input_tokens,
        shared_prefix_tokens=prefix,
        output_tokens=output_tokens,
        pipeline_stages=stages,
        weights_seconds=read(figures.weights_params_b or figures.params_b) / bandwidth,
        # A dense model's token reads every weight: the exact count the weights hold (``weights_gb``),
        # not the nominal size its FLOPs are counted at; a mixture of experts' active count is nominal.
        active_weights_seconds=read(figures.weights_params_b if not moe else figures.active_params_b)
        / bandwidth,
        experts=experts if expert_params else None,
        experts_per_token=per_token if expert_params else None,
        shared_weights_seconds=read(shared_params / 1e9) / bandwidth,
        expert_weights_seconds=read(expert_params / 1e9, kept=False) / bandwidth,
        fixed_step_seconds=figures.num_layers * layer_seconds + per_pass,
        kv_seconds_per_sequence=average_context * kv_bytes / bandwidth,
        weights_compute_seconds_per_sequence=active_flops / flops,
        attention_seconds_per_sequence=figures.decode_attention_flops_per_token_pair
        * average_context
        / attention_flops,
        communication_seconds_per_token=sent_per_token,
        communication_points=points,
        routed_expert_factor=routed_factor,
        prefill_seconds=prefill_weights_seconds + prefill_attention_seconds + prompt_sent,
        prefill_weights_seconds=prefill_weights_seconds,
        prefill_compute_seconds=prefill_compute_seconds,
        prefill_routed_share=routed_share,
        max_batched_tokens=engine.max_batched_tokens_on(gpu),
        prefill_attention_seconds=prefill_attention_seconds,
        prefill_chunks=chunks,
        max_batch=batch,
        roofline_exponent=knowledge.throughput.efficiency.roofline_exponent,
        latency_tail_share=knowledge.workload_defaults.latency_tail_share.value,
    )


def replica_performance(
    knowledge: Knowledge,
    figures: SizingFigures,
    fit: GpuFit,
    input_tokens: int,
    output_tokens: int,
    cards: int | None = None,
    concurrency: int | None = None,
) -> ReplicaPerformance | None:
    """Performance of one replica of ``fit`` at saturation (at ``cards``, default the usual count; at most
    ``concurrency`` sequences at once, default as many as fit); None if it cannot run one request of the
    workload's length."""
    cards = cards or fit.gpus_with_kv_reserve
    if cards is None:
        return None
    roofline = replica_roofline(knowledge, figures, fit, input_tokens, output_tokens, cards)
    if roofline is None:
        return None
    batch = min(concurrency or roofline.max_batch, roofline.max_batch)
    step = roofline.decode_step(batch)
    step_seconds = roofline.step_seconds(batch)
    requests_per_second = roofline.requests_per_second(batch)
    prefill_busy = roofline.prefill_busy_seconds(batch)
    tensor, stages = parallelism(knowledge, cards)
    return trusted(
        ReplicaPerformance,
        gpu=fit.gpu,
        cards=cards,
        serving_engine=figures.serving_engine,
        tensor_parallel=tensor,
        pipeline_stages=stages,
        batch=batch,
        prefill_tokens_per_second=roofline.input_tokens / prefill_busy,
        decode_tokens_per_second=batch / step_seconds,
        requests_per_second=requests_per_second,
        output_tokens_per_second=requests_per_second * output_tokens,
        time_to_first_token_ms=roofline.prefill_seconds * 1000,
        time_per_output_token_ms=roofline.time_per_token_seconds(requests_per_second, batch) * 1000,
        decode_bound="memory" if step.weights_read >= step.weights_compute else "compute",
        roofline=roofline,
    )


PERFORMANCES_KEPT = 64
"""Replica performances cached (one store for every knowledge base, keyed by it): one entry per sizing
and token counts."""


@per_object(entries=PERFORMANCES_KEPT)
def replica_performances(
    knowledge: Knowledge, figures: SizingFigures, input_tokens: int, output_tokens: int, /
) -> tuple[ReplicaPerformance, ...]:
    """One replica's performance on every GPU type that can run a request of the workload's length, in
    catalog order. It does not depend on the load, so workloads with the same model, precision, engine
    and token counts share it."""
    found = (
        replica_performance(knowledge, figures, fit, input_tokens, output_tokens) for fit in figures.fits
    )
    return tuple(performance for performance in found if performance is not None)


@per_object(entries=PERFORMANCES_KEPT)
def candidate_performances(
    knowledge: Knowledge, figures: SizingFigures, input_tokens: int, output_tokens: int, /
) -> dict[str, tuple[ReplicaPerformance, ...]]:
    """Per GPU, one replica at every card count worth considering: from the fewest cards a light load
    may use (``GpuFit.gpus_for_light_load``) up to one node, over a fast link (a PCIe card only at that
    count and the usual one: more cards over PCIe are the wrong offer). A larger replica holds more
    requests at once and may carry a load on fewer cards."""
    node = knowledge.sizing.card_counts.node_gpus
    found: dict[str, tuple[ReplicaPerformance, ...]] = {}
    for fit in figures.fits:
        # From the fewest cards a light load may use: which count a load gets is the plan's choice.
        # A GPU with no usual count within the node counts (a long context's KV cache) may still carry a
        # light load on its light count: the plan caps each replica's rate (``count_limits.kv_held_rate``).
        least = fit.gpus_for_light_load or fit.gpus_with_kv_reserve
        if least is None:
            continue
        # Wider replicas only over the card's fast link: an H100 NVL group beyond its bridged pair
        # all-reduces over PCIe (``tensor_interconnect``), the wrong offer where the pair suffices.
        link = knowledge.gpu(fit.gpu).link
        widest = min(node, link.cards) if link is not None else node
        wider = [c for c in figures.card_counts if least < c <= widest]
        usual = () if fit.gpus_with_kv_reserve is None else (fit.gpus_with_kv_reserve,)
        counts = sorted({least, *usual, *(wider if fit.interconnect != "pcie" else ())})
        performances = tuple(
            performance
            for count in counts
            if (
                performance := replica_performance(
                    knowledge, figures, fit, input_tokens, output_tokens, count
                )
            )
            is not None
        )
        if performances:
            found[fit.gpu] = performances
    return found
