"""The typed facts asserted into the rules engine, one model per fact kind.

durable-rules compares missing properties and mixed types silently, so every fact is complete: each field
is always present with its declared type. Rule declarations are checked against these models at load.

Evaluation asserts the kinds in order, each stage reading the conclusions of the one before:
``gpu_fit`` (one per GPU: can this card type serve one replica?), ``workload`` (constraints from the
workload's own facts), ``economics`` (the cost comparison over the options the constraints left).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Fact(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class GpuFitFact(Fact):
    kind: Literal["gpu_fit"] = "gpu_fit"
    gpu: str
    interconnect: str
    segment: str
    memory_gb: float
    weights_gb: float
    gpus_for_weights: int
    """0 when even the largest allowed count cannot hold the weights."""
    gpus_with_kv_reserve: int
    """0 when even the largest allowed count leaves no KV reserve."""
    multi_card: bool
    fits: bool


class WorkloadFact(Fact):
    kind: Literal["workload"] = "workload"
    requests_per_day: int
    load_pattern: str
    schedule: str
    hours_per_month: float
    utilization: float
    latency_sensitive: bool
    personal_data: bool
    on_premises_required: bool
    model_stable: bool
    custom_weights: bool
    company_country: str
    export_restricted_country: bool
    precision: str
    params_b: float
    active_params_b: float
    is_moe: bool
    weights_gb: float


class EconomicsFact(Fact):
    kind: Literal["economics"] = "economics"
    requests_per_day: int
    load_pattern: str
    utilization: float
    model_stable: bool
    on_premises_required: bool
    has_eligible_option: bool
    best_option_usd_per_month: float
    best_option_price_age_days: int
    api_priced: bool
    """A managed API in the catalog can serve the workload's volume (its price is known)."""
    api_usd_per_month: float
    own_hardware_applicable: bool
    """The catalog's own server uses a GPU that can serve the model."""
    own_usd_per_month: float
    own_usd_per_gpu_hour: float
    rent_usd_per_gpu_hour: float
    """Cheapest eligible rental price per GPU-hour of the own server's GPU (0 when there is none)."""
    break_even_utilization: float
    node_utilization: float
    node_has_idle_gpus: bool
    replica_gpus_on_server_gpu: int
    server_gpus: int


FACT_MODELS: dict[str, type[Fact]] = {
    "gpu_fit": GpuFitFact,
    "workload": WorkloadFact,
    "economics": EconomicsFact,
}
FACT_KINDS: tuple[str, ...] = tuple(FACT_MODELS)
