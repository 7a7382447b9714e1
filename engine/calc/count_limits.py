"""What limits the card counts a replica may run on: a count below the usual one carries only the requests
its KV cache holds with room kept for full-context ones, and a replica whose cards all-reduce over PCIe is
the wrong offer."""

from __future__ import annotations

import math

from gpu_advisor.engine.calc.gpu_fit import GpuFit
from gpu_advisor.engine.calc.latency import highest_rate_holding
from gpu_advisor.engine.calc.performance import ReplicaPerformance, replica_interconnect
from gpu_advisor.engine.calc.policy import Sizing, rate_within_targets, usable_rate
from gpu_advisor.engine.calc.sizing import SizingFigures, parallelism
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.load import Load


def over_pcie(knowledge: Knowledge, gpu: str, cards: int) -> bool:
    """A replica of ``cards`` cards whose tensor-parallel group all-reduces over PCIe (``gpu_fit``'s
    ``interconnect`` and ``multi_card``, which NET001 reads)."""
    return cards > 1 and replica_interconnect(knowledge, knowledge.gpu(gpu), cards) == "pcie"


def below_usual_count(cards: int, fit: GpuFit) -> bool:
    """``cards`` per replica are a light load's count, below ``fit``'s usual one
    (``GpuFit.gpus_for_light_load``), or any count of a GPU with no usual count within the allowed
    counts."""
    return fit.gpus_with_kv_reserve is None or cards < fit.gpus_with_kv_reserve


def kv_held_rate(
    knowledge: Knowledge,
    figures: SizingFigures,
    fit: GpuFit,
    performance: ReplicaPerformance,
    load: Load,
    sizing: Sizing,
) -> float | None:
    """``ReplicaPlan.rate_kv_holds`` of a service's replica of ``performance``: below the usual count, the
    highest rate per replica at which its requests in flight on average fit its KV cache as
    ``kv_held_sequences`` counts them. None where the headroom and the latency targets keep the replica
    below that rate anyway; where not even a lone request fits (``size --cards`` below the light count: the
    row's note says so, and the headroom sizes the replicas); for a batch, which runs its replicas full;
    and at the usual count or more, which holds ``min_sequences_at_full_context`` full-context sequences
    by definition and carries the headroom's rate (a busy one may keep a few more in flight on average:
    the engine then queues them)."""
    if load.served_in_paid_hours or not below_usual_count(performance.cards, fit):
        return None
    ceiling = usable_rate(performance.requests_per_second, rate_within_targets(performance, sizing), sizing)
    roofline = performance.roofline
    sequences = kv_held_sequences(
        knowledge, figures, fit.gpu, performance.cards, roofline.input_tokens + roofline.output_tokens
    )
    held = highest_rate_holding(roofline, ceiling, sequences)
    return None if held >= ceiling or held == 0.0 else held


def kv_held_sequences(
    knowledge: Knowledge, figures: SizingFigures, gpu_id: str, cards: int, request_tokens: int
) -> float:
    """Requests in flight on average a replica of ``cards`` cards below the usual count is planned to
    hold: the engines' paged KV cache keeps a request at its own length (``request_tokens``, prompt and
    answer), so the room kept for ``full_context_room_under_light_load`` requests of the full serving
    context (fewer where fewer fit) and as many of the workload's length as fit beside it, fractional as
    an average in flight is (no step where a count's cache holds one whole request more). Counting every
    request at the full context carried a count one full-context sequence short of the usual one at a
    seventh of its rate. 0 where not even one full-context request fits (see ``kv_held_rate``)."""
    tokens = replica_kv_tokens(knowledge, figures, gpu_id, cards)
    full = math.floor(tokens / figures.context_tokens)  # full_context_sequences, from the tokens read once
    if full < 1:
        return 0.0
    kept = min(knowledge.throughput.concurrency.full_context_room_under_light_load, full)
    return kept + (tokens - kept * figures.context_tokens) / request_tokens


def full_context_sequences(knowledge: Knowledge, figures: SizingFigures, gpu_id: str, cards: int) -> int:
    """Sequences of the full serving context whose KV cache a replica of ``cards`` cards keeps."""
    return math.floor(replica_kv_tokens(knowledge, figures, gpu_id, cards) / figures.context_tokens)


def replica_kv_tokens(knowledge: Knowledge, figures: SizingFigures, gpu_id: str, cards: int) -> float:
    """Tokens of KV cache a replica of ``cards`` cards keeps beside its weights and the engine's reserve
    (0 or less where the weights leave none)."""
    gpu, engine = knowledge.gpu(gpu_id), knowledge.serving_engine(figures.serving_engine)
    cache = engine.kv_cache_bytes(
        cards * gpu.memory_bytes, figures.weights_gb * 1e9, cards, figures.activations
    )
    tensor, _ = parallelism(knowledge.sizing.card_counts.node_gpus, cards)
    return cache / figures.kv_bytes_per_token_on(tensor)


def longest_light_context(knowledge: Knowledge, figures: SizingFigures, fit: GpuFit) -> int | None:
    """``GpuSizing.context_tokens_on_one_card``: the longest context of which one card that holds
    ``fit``'s weights keeps ``min_sequences_under_light_load`` sequences, where the light count (or the
    usual count, or none) is more cards; None elsewhere or where it keeps no KV cache. Only one card:
    a replica of several is still what the rules on the cards' link say of it."""
    light = fit.gpus_for_light_load or fit.gpus_with_kv_reserve
    if fit.gpus_for_weights != 1 or 1 not in figures.card_counts or light == 1:
        return None
    sequences = knowledge.throughput.concurrency.min_sequences_under_light_load
    longest = math.floor(replica_kv_tokens(knowledge, figures, fit.gpu, 1) / sequences)
    return longest if longest >= 1 else None
