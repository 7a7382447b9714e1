"""Catalog entries of the knowledge base: documents, GPUs, providers, offers, API prices, own servers,
models. Every entry carries ``source`` and ``as_of``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_advisor.engine.domain.choices import Interconnect, Jurisdiction, PricingKind

SCHEMA_VERSION = 1


PositiveFloat = Annotated[float, Field(gt=0)]


class Strict(BaseModel):
    """A knowledge entry: unknown fields refused, and every number finite (NaN and infinities refused
    here as well as by the reader, ``common/yaml_core.py``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Citation(Strict):
    """Where a figure or rule comes from: a source document and section, or a public URL."""

    document: str | None = None
    section: str | None = None
    url: str | None = None
    title: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _url_shorthand(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"url": data}
        return data

    @model_validator(mode="after")
    def _one_kind(self) -> Citation:
        if (self.document is None) == (self.url is None):
            raise ValueError("a source names either a document (with a section) or a url")
        if self.document is not None and not self.section:
            raise ValueError("a document citation needs a section")
        return self

    def label(self) -> str:
        if self.document is not None:
            return f"{self.document}, {self.section}"
        return self.title or self.url or ""


class Sourced(Strict):
    source: Citation
    as_of: dt.date


class Document(Strict):
    id: str
    title: str
    language: str
    published: dt.date | None
    as_of: dt.date
    summary: str


class Gpu(Sourced):
    id: str
    name: str
    vendor: Literal["nvidia", "amd", "google", "aws"]
    memory_gb: PositiveFloat
    memory_bandwidth_gb_s: PositiveFloat
    bf16_dense_tflops: PositiveFloat
    fp8_dense_tflops: PositiveFloat | None
    fp4_dense_tflops: PositiveFloat | None
    tdp_watts: PositiveFloat
    interconnect: Interconnect
    segment: Literal["datacenter", "consumer"]
    note: str | None = None


class Region(Strict):
    id: str
    name: str
    jurisdiction: Jurisdiction
    countries: tuple[Annotated[str, Field(pattern=r"^[A-Z]{2}$")], ...] = ()
    """Where the region's data centres are (ISO 3166-1 alpha-2); empty where the source names a group
    of regions or variable locations."""


class Provider(Sourced):
    id: str
    name: str
    kind: Literal["hyperscaler", "neocloud", "marketplace", "european"]
    enterprise_sla: bool
    regions: tuple[Region, ...] = Field(min_length=1)


GpuHourPrice = Annotated[float, Field(gt=0, lt=1000)]
"""A price per GPU-hour: below 1,000 USD, as an overrides file's (``domain/overrides.py``), which keeps every
monthly and yearly sum finite."""


class Offer(Sourced):
    provider: str
    offer: str
    gpu: str
    usd_per_gpu_hour: GpuHourPrice
    usd_per_gpu_hour_low: GpuHourPrice | None = None
    usd_per_gpu_hour_high: GpuHourPrice | None = None
    instance_usd_per_hour: float | None = Field(default=None, gt=0, lt=64_000)
    pricing: PricingKind
    billing: Literal["hourly", "committed"] = "hourly"
    """hourly: paid for the hours used; committed: a reservation is paid for every calendar hour."""
    commitment_months: int | None = Field(default=None, gt=0)
    instance_gpus: tuple[Annotated[int, Field(ge=1, le=64)], ...] = Field(min_length=1)
    """The instance sizes the offer is sold in, in cards (``[1, 8]``: a 1-GPU and an 8-GPU instance);
    billing is per whole instance."""
    nvlink_instance_gpus: tuple[Annotated[int, Field(ge=2, le=64)], ...] | None = None
    """The sizes whose cards share NVLink (or another fast link); None: the GPU's interconnect decides
    for every multi-card size (SXM modules sit on a baseboard whose switch links all of them)."""
    shapes_source: Citation | None = None
    """Where ``instance_gpus`` and ``nvlink_instance_gpus`` come from, where not from ``source``."""
    regions: tuple[str, ...] = Field(min_length=1)
    price_jurisdiction: Jurisdiction
    """Where the list price applies; other jurisdictions' regions are priced by estimate (EU premium)."""
    billing_increment_seconds: int | None = Field(default=None, ge=1, le=86_400)
    """What a running instance is billed in (1: per second, 60: per minute, 86,400: whole days); None: not
    published, so whole hours are assumed. Matters where an instance runs part of a day (a batch)."""
    billing_source: Citation | None = None
    """Where ``billing_increment_seconds`` comes from."""
    note: str | None = None

    @property
    def key(self) -> str:
        return f"{self.provider}/{self.offer}/{self.gpu}"

    @model_validator(mode="after")
    def _consistent_prices(self) -> Offer:
        low, high = self.usd_per_gpu_hour_low, self.usd_per_gpu_hour_high
        if (low is None) != (high is None):
            raise ValueError("usd_per_gpu_hour_low and usd_per_gpu_hour_high come together")
        if low is not None and high is not None and not low <= self.usd_per_gpu_hour <= high:
            raise ValueError("usd_per_gpu_hour must lie within usd_per_gpu_hour_low..usd_per_gpu_hour_high")
        if (self.billing_increment_seconds is None) != (self.billing_source is None):
            raise ValueError("billing_increment_seconds and billing_source come together")
        if self.pricing == "serverless":
            raise ValueError("serverless products are priced in serverless.yaml, not as offers")
        if (self.pricing == "reserved") != (self.billing == "committed"):
            raise ValueError("reserved offers, and only they, are billed as committed")
        if list(self.instance_gpus) != sorted(set(self.instance_gpus)):
            raise ValueError("instance_gpus lists each size once, smallest first")
        if self.nvlink_instance_gpus is not None and not set(self.nvlink_instance_gpus) <= set(
            self.instance_gpus
        ):
            raise ValueError("nvlink_instance_gpus names sizes of instance_gpus only")
        if self.instance_usd_per_hour is not None:
            # The instance price quoted is the largest size's.
            per_gpu = self.instance_usd_per_hour / self.instance_gpus[-1]
            if abs(per_gpu - self.usd_per_gpu_hour) > 0.01:
                raise ValueError(
                    f"instance_usd_per_hour / the largest of instance_gpus is {per_gpu:.4f}, "
                    f"not usd_per_gpu_hour {self.usd_per_gpu_hour}"
                )
        return self


class ApiPrice(Sourced):
    id: str
    name: str
    kind: Literal["proprietary", "open_weights_hosted"]
    currency: Literal["EUR", "USD"]
    input_per_million_tokens: PositiveFloat
    output_per_million_tokens: PositiveFloat
    stands_in_up_to_params_b: PositiveFloat | None = None
    """An open-weights API can replace a self-hosted open model of at most this size; None: no
    like-for-like comparison (a proprietary model)."""
    model_params_b: PositiveFloat | None = None
    """The size of the open model the API hosts; None for a proprietary model, whose size is not public."""


class OwnServer(Sourced):
    id: str
    name: str
    gpu: str
    gpus_per_server: int = Field(ge=1)
    max_servers: int | None = Field(ge=1)
    """How many of these a workload may use; None: as many nodes as it needs."""
    default: bool
    """The server ``gpu-advisor tco`` shows and rule messages quote."""
    price_usd: PositiveFloat
    price_usd_low: PositiveFloat
    price_usd_high: PositiveFloat
    months: int = Field(gt=0)
    hours_per_month: PositiveFloat
    gpu_watts: PositiveFloat
    power_overhead_factor: float = Field(ge=1)
    usd_per_kwh: float = Field(ge=0)
    rack_usd_per_month: float = Field(ge=0)
    residual_share: float = Field(ge=0, lt=1)
    residual_share_scenario: float = Field(ge=0, lt=1)
    note: str | None = None

    @model_validator(mode="after")
    def _price_in_range(self) -> OwnServer:
        if not self.price_usd_low <= self.price_usd <= self.price_usd_high:
            raise ValueError("price_usd must lie within price_usd_low..price_usd_high")
        return self


class ModelConfig(Strict):
    id: str
    name: str
    hf_repo: str
    params_b: PositiveFloat
    params_b_exact: PositiveFloat | None
    active_params_b: PositiveFloat
    architecture: str
    attention: Literal["gqa", "mla"]
    num_layers: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    num_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    kv_lora_rank: int | None = Field(default=None, gt=0)
    qk_rope_head_dim: int | None = Field(default=None, gt=0)
    max_context_tokens: int = Field(gt=0)
    num_experts: int | None = Field(default=None, gt=0)
    experts_per_token: int | None = Field(default=None, gt=0)
    source: Citation
    as_of: dt.date

    @model_validator(mode="after")
    def _shape(self) -> ModelConfig:
        if self.active_params_b > self.params_b:
            raise ValueError("active_params_b cannot exceed params_b")
        if self.attention == "mla" and (self.kv_lora_rank is None or self.qk_rope_head_dim is None):
            raise ValueError("mla attention needs kv_lora_rank and qk_rope_head_dim")
        return self
