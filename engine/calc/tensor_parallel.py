"""What tensor parallelism costs a replica: over NVLink the all-reduces of every forward pass, worked out
from the link's rate (``knowledge/gpus.yaml``, ``link``) and ``knowledge/throughput.yaml``'s
``communication``; over any other link a share of the bandwidth and compute lost per doubling of the cards
(``tensor_parallel``)."""

from __future__ import annotations

import math

from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.gpus import Gpu


def tensor_parallel_efficiency(knowledge: Knowledge, interconnect: str, cards: int) -> float:
    per_doubling = next(
        t.efficiency_per_doubling
        for t in knowledge.throughput.tensor_parallel
        if t.interconnect == interconnect
    )
    return float(per_doubling ** math.log2(cards))


def tensor_interconnect(gpu: Gpu, tensor: int) -> str:
    """The link a tensor-parallel group of ``tensor`` cards all-reduces over: the card's own where it joins
    that many (an HGX board's eight), else PCIe (an H100 NVL group larger than its bridged pair)."""
    if gpu.link is not None and tensor > gpu.link.cards:
        return "pcie"
    return gpu.interconnect


def _all_reduces(
    knowledge: Knowledge, gpu: Gpu, tensor: int, figures: SizingFigures
) -> tuple[int, float, float] | None:
    """A forward pass's all-reduces over NVLink on ``tensor`` cards, the bytes each card sends of each for
    one token of the pass (a ring sends 2(T-1)/T of the message) and the link's one-way rate, half its
    two-way figure; None on one card or off NVLink."""
    if tensor == 1 or tensor_interconnect(gpu, tensor) != "nvlink" or gpu.link is None:
        return None
    link = knowledge.throughput.communication
    all_reduces = figures.num_layers * link.all_reduces_per_layer
    sent = 2 * (tensor - 1) / tensor * figures.hidden_size * link.activation_bytes
    return all_reduces, sent, gpu.link.gb_s / 2 * 1e9


def communication(knowledge: Knowledge, gpu: Gpu, tensor: int, figures: SizingFigures) -> tuple[float, float]:
    """The tensor-parallel all-reduces of one forward pass on ``tensor`` cards: seconds per token of the
    pass (a ring sends 2(T-1)/T of each message from every card, at the usable share of the link's rate
    in one direction, half its two-way figure) and the fixed seconds of all of them. Worked out over
    NVLink only, where a card reaches any other of the group at its whole rate (a switch or a bridged
    pair). Elsewhere the interconnect's per-doubling efficiency holds the whole loss: over PCIe, and over
    Infinity Fabric, whose mesh gives a pair of cards one link of the seven (no measurement to check a
    model of it against)."""
    passes = _all_reduces(knowledge, gpu, tensor, figures)
    if passes is None:
        return 0.0, 0.0
    all_reduces, sent, one_way = passes
    rate = one_way * knowledge.throughput.efficiency.link_bandwidth_share
    return all_reduces * sent / rate, all_reduces * knowledge.throughput.communication.all_reduce_seconds


def communication_points(
    knowledge: Knowledge, gpu: Gpu, tensor: int, figures: SizingFigures
) -> tuple[tuple[float, float], ...]:
    """Where ``communication.link_share_by_message`` has points for ``tensor`` cards over NVLink: (tokens
    in a pass, tokens its all-reduces transfer a second) at each message size, the link reaching the
    share of that size; empty elsewhere (``communication``'s one share applies). The shares were measured
    on the GPUs ``link_share_gpus`` names and are taken as they are on the other NVLink GPUs (the share
    of their own rate)."""
    shares = knowledge.throughput.communication.link_share_by_message.get(tensor, ())
    passes = _all_reduces(knowledge, gpu, tensor, figures)
    if not shares or passes is None:
        return ()
    all_reduces, sent, one_way = passes
    return tuple(
        (elements / figures.hidden_size, one_way * share / (all_reduces * sent)) for elements, share in shares
    )
