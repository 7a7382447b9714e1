"""Accelerator entries of the knowledge base (``knowledge/gpus.yaml``): each GPU's memory, bandwidth,
tensor throughput and power, and its link to the other cards of its machine, each with its source."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.choices import Interconnect
from gpu_advisor.engine.domain.knowledge.entries import PositiveFloat, Sourced


class GpuLink(Sourced):
    """A card's link to the other cards of its machine, as its vendor states it, both directions
    together: over all its links (``gb_s``) and to any one other card (``peer_gb_s``: the same behind a
    switch, as NVLink on an HGX board, or over a bridged pair; one link in a mesh, as Infinity Fabric),
    joining ``cards`` cards (8 on a board, 2 in a bridged pair); more cards reach each other over PCIe."""

    gb_s: PositiveFloat
    peer_gb_s: PositiveFloat
    cards: int = Field(ge=2)

    @model_validator(mode="after")
    def _peer_within_total(self) -> GpuLink:
        if self.peer_gb_s > self.gb_s:
            raise ValueError("peer_gb_s: a card reaches one other card at most at its links' total")
        return self


GpuVendor = Literal["nvidia", "amd", "google", "aws"]


class Gpu(Sourced):
    id: str
    name: str
    vendor: GpuVendor
    memory_gb: PositiveFloat
    """The memory as the vendor and the documents state it: 80 for an H100."""
    memory_unit: Literal["GB", "GiB"]
    """What the vendor's figure counts: an H100's "80 GB" of HBM3 are 80 GiB (the driver shows
    81,559 MiB), a B200's "192 GB" are decimal (183,359 MiB)."""
    memory_bandwidth_gb_s: PositiveFloat
    bf16_dense_tflops: PositiveFloat
    fp8_dense_tflops: PositiveFloat | None
    fp4_dense_tflops: PositiveFloat | None
    tdp_watts: PositiveFloat
    interconnect: Interconnect
    link: GpuLink | None = None
    """The card-to-card link with its own source; None on a PCIe card."""
    segment: Literal["datacenter", "consumer"]
    note: str | None = None

    @property
    def memory_bytes(self) -> float:
        return self.memory_gb * (2**30 if self.memory_unit == "GiB" else 1e9)
