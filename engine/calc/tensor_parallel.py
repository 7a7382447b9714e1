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


def communication(knowledge: Knowledge, gpu: Gpu, tensor: int, figures: SizingFigures) -> tuple[float, float]:
    """The tensor-parallel all-reduces of one forward pass on ``tensor`` cards: seconds per token of the
    pass (a ring sends 2(T-1)/T of each message from every card, at the usable share of the link's rate
    in one direction, half its two-way figure) and the fixed seconds of all of them. Worked out over
    NVLink only, where a card reaches any other of the group at its whole rate (a switch or a bridged
    pair). Elsewhere the interconnect's per-doubling efficiency holds the whole loss: over PCIe, and over
    Infinity Fabric, whose mesh gives a pair of cards one link of the seven (no measurement to check a
    model of it against)."""
    link = knowledge.throughput.communication
    if tensor == 1 or tensor_interconnect(gpu, tensor) != "nvlink" or gpu.link is None:
        return 0.0, 0.0
    rate = gpu.link.gb_s / 2 * 1e9 * knowledge.throughput.efficiency.link_bandwidth_share
    all_reduces = figures.num_layers * link.all_reduces_per_layer
    sent = 2 * (tensor - 1) / tensor * figures.hidden_size * link.activation_bytes
    return all_reduces * sent / rate, all_reduces * link.all_reduce_seconds


def link_shares(knowledge: Knowledge, gpu: Gpu, tensor: int) -> tuple[tuple[float, float], ...]:
    """(elements in a message, share of ``gpu``'s one-way link rate) for an all-reduce over ``tensor``
    cards over NVLink: ``communication.link_share_by_message``, measured on the GPUs it names
    (``link_share_gpus``) and taken as it is on the other NVLink GPUs (the share of their own rate).
    Empty off NVLink or without points for ``tensor``."""
    shares = knowledge.throughput.communication.link_share_by_message.get(tensor, ())
    if not shares or tensor_interconnect(gpu, tensor) != "nvlink" or gpu.link is None:
        return ()
    return shares


def communication_points(
    knowledge: Knowledge, gpu: Gpu, tensor: int, figures: SizingFigures
) -> tuple[tuple[float, float], ...]:
    """Where ``link_shares`` has points for ``tensor`` cards of ``gpu``: (tokens in a pass, tokens its
    all-reduces transfer a second) at each message size, the link reaching the share of that size;
    empty elsewhere (``communication``'s one share applies)."""
    link = knowledge.throughput.communication
    shares = link_shares(knowledge, gpu, tensor)
    if not shares or gpu.link is None:
        return ()
    all_reduces = figures.num_layers * link.all_reduces_per_layer
    sent = 2 * (tensor - 1) / tensor * figures.hidden_size * link.activation_bytes
    one_way = gpu.link.gb_s / 2 * 1e9
    return tuple(
        (elements / figures.hidden_size, one_way * share / (all_reduces * sent)) for elements, share in shares
    )
