"""The typed facts asserted into the rules engine, one model per fact kind.

durable-rules compares missing properties and mixed types silently, so every fact is complete: each field
is always present with its declared type. Rule declarations are checked against these models at load.

Evaluation asserts the kinds in order, each stage reading the conclusions of the one before:
``gpu_fit`` (one per GPU: can this card type serve one replica?), ``workload`` (constraints from the
workload's own facts), ``economics`` (the cost comparison over the options the constraints left).

"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

SMALLEST_ENGINE_NUMBER = 1e-4
"""durable-rules' JSON parser rejects numbers written with an exponent (1e-05, 1e+16; error code
204). Python writes floats under 1e-4 and from 1e16 that way: the former become 0 (no threshold or
comparison in the rulebook is that fine), the latter integers, which are never written with an exponent."""


LARGEST_ENGINE_FLOAT = 1e16


def engine_number(value: float) -> float | int:
    if value != 0 and abs(value) < SMALLEST_ENGINE_NUMBER:
        return 0.0
    if abs(value) >= LARGEST_ENGINE_FLOAT:
        return round(value)
    return value


class Fact(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, protected_namespaces=())

    shared_between_evaluations: ClassVar[bool] = False
    """The same fact object is asserted in many evaluations (built once per model sizing), so the
    engine adapter keeps its JSON text; other facts are new in every evaluation."""

    def payload(self) -> dict[str, Any]:
        """The fact as the engine (and the reference evaluator) sees it: JSON types, numbers that
        durable-rules can parse."""
        # Every field is a str, int, float or bool (strict), so the instance's own values are JSON types;
        # only the floats may need rewriting.
        data = dict(self.__dict__)
        for key in _float_fields(type(self)):
            value = data[key]
            if value and not SMALLEST_ENGINE_NUMBER <= abs(value) < LARGEST_ENGINE_FLOAT:
                data[key] = engine_number(value)
        return data


@cache
def _float_fields(model: type[Fact]) -> tuple[str, ...]:
    return tuple(name for name, field in model.model_fields.items() if field.annotation is float)


class GpuFitFact(Fact):
    shared_between_evaluations: ClassVar[bool] = True

    kind: Literal["gpu_fit"] = "gpu_fit"
    scenario: str
    """"workload": the workload as given; "quantized": one quantization step down (for OPT rules)."""
    gpu: str
    vendor: str
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
    needs_two_nodes: bool
    """The weights alone need more cards than one node holds."""
    node_memory_gb: float
    native_precision: bool
    """The card computes in the workload's precision natively (FP8 needs FP8 tensor cores)."""
    reference_gpus: int
    """Cards with KV reserve on the reference GPU (H100 SXM), 0 when it cannot hold the model."""


class WorkloadFact(Fact):
    kind: Literal["workload"] = "workload"
    requests_per_day: int
    load_pattern: str
    schedule: str
    hours_per_month: float
    schedule_hours_per_month: float
    calendar_hours_per_month: float
    """The hours a reservation bills and an owned machine stands: the around-the-clock schedule's."""
    requests_wait_for_paid_hours: bool
    """The load pattern's requests wait for the paid hours (a batch job), instead of arriving on the
    schedule whether a GPU runs or not."""
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
    context_tokens: int
    volume_growing: bool
    devops_capacity: bool
    business_critical: bool
    framework: str
    needs_gpu: bool
    fits_any_gpu: bool
    """Some catalog GPU holds a replica with KV reserve at 16 cards or fewer."""
    fits_one_small_card: bool
    """One card of at most ``small_card_max_memory_gb`` holds a replica with KV reserve."""


class EconomicsFact(Fact):
    kind: Literal["economics"] = "economics"
    requests_per_day: int
    load_pattern: str
    utilization: float
    model_stable: bool
    on_premises_required: bool
    custom_weights: bool
    has_eligible_option: bool
    best_option_usd_per_month: float
    best_option_price_age_days: int
    api_priced: bool
    """A managed API in the catalog can serve the workload's volume (its price is known)."""
    api_name: str
    """The compared API's name, for messages ("" without one)."""
    api_model_params_b: float
    """The size of the open model behind the compared API; 0 without one or for a proprietary model."""
    params_b: float
    """The workload model's total parameters."""
    api_usd_per_month: float
    serverless_usd_per_month: float
    """Estimated: the best option's cost scaled by utilization over the serverless break-even (the top
    of the documents' 30 to 50 % band), i.e. a used hour costs about 2 dedicated hours; 0 without an
    option."""
    self_hosted_usd_per_month: float
    """The cheaper self-hosted route the rules can propose: the best rental or, where a serverless rule
    (DEP007, DEP008) applies, the serverless estimate."""
    self_hosted_is_estimate: bool
    """The self-hosted figure is the serverless estimate (the documents give no serverless price), not a
    rental's list price: the messages that quote it say so."""
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
    utilization_given: bool
    """The workload states its utilization (otherwise it is derived from the load)."""
    load_utilization: float
    """The utilization the load itself would give the cheapest admitted option (0 without one)."""
    utilization_gap: float
    """|stated - load-derived| when the utilization is stated and an option exists; 0 otherwise."""
    rent_comparison_available: bool
    """An admitted rental of the own server's GPU exists, so the break-even figures are defined."""
    break_even_low_price: float
    break_even_high_price: float
    break_even_residual: float
    latency_sensitive: bool
    personal_data: bool
    best_option_provider: str
    best_option_provider_kind: str
    best_option_offer: str
    best_option_gpu: str
    best_option_gpus: int
    best_option_pricing: str
    best_option_usd_per_hour: float
    best_option_tdp_watts: float
    server_gpu_watts: float
    """The power per GPU of the catalog's own-server cost line."""
    best_option_has_other_prices: bool
    best_option_other_prices: str
    """The provider's other catalog prices for the same GPU, with kind and date, for the message."""
    hyperscaler_option_available: bool
    hyperscaler_best_usd_per_month: float
    saving_vs_hyperscaler: float
    non_eu_cheaper: bool
    """Personal data only: the cheapest option that only the residency rules exclude costs less."""
    non_eu_best_usd_per_month: float
    eu_premium: float
    reference_gpu: str
    reference_option_available: bool
    reference_gpus: int
    reference_usd_per_hour: float
    best_fewer_cards_than_reference: bool
    quantization_available: bool
    quantized_precision: str
    quantized_has_option: bool
    quantized_best_usd_per_month: float
    quantized_best_gpu: str
    quantized_best_gpus: int
    quantized_weights_gb: float


class ProposalFact(Fact):
    """What someone intends to do, next to what the workload needs (``gpu-advisor check``).

    Fields a proposal may leave out come with a ``<name>_known`` flag; a check that needs an unknown one
    reports 'unknown' instead of guessing.
    """

    kind: Literal["proposal"] = "proposal"
    deployment: str
    recommended_deployment: str
    deployment_differs: bool
    deployment_ruled_out: bool
    ruled_out_by: str
    """IDs of the rules that ruled the proposed deployment out, for the message."""
    rental: bool
    cloud_hosted: bool
    """Runs in a provider's region: dedicated, hybrid or serverless (the residency checks apply)."""
    buying: bool
    gpu: str
    gpu_known: bool
    gpus: int
    gpus_known: bool
    gpu_fits: bool
    """The proposed GPU holds the model with KV reserve at 16 cards or fewer."""
    gpu_interconnect: str
    multi_card: bool
    """A replica on the proposed GPU spans several cards."""
    gpu_unsuitable: bool
    unsuitable_by: str
    gpus_for_weights: int
    gpus_needed: int
    """Cards the peak load needs on the proposed GPU (replicas x cards per replica)."""
    pricing: str
    pricing_known: bool
    region: str
    region_known: bool
    eu: bool
    provider: str
    provider_known: bool
    provider_kind: str
    provider_self_managed: bool
    """A neo-cloud or marketplace: GPUs without the managed services around them."""
    enterprise_sla: bool
    offer_known: bool
    """provider/offer/gpu is a catalog offer."""
    usd_per_month: float
    cost_known: bool
    servers: int
    server_gpus: int
    node_utilization: float
    node_has_idle_gpus: bool
    load_pattern: str
    personal_data: bool
    on_premises_required: bool
    latency_sensitive: bool
    business_critical: bool
    devops_capacity: bool
    export_restricted_country: bool
    company_country: str


FACT_MODELS: dict[str, type[Fact]] = {
    "gpu_fit": GpuFitFact,
    "workload": WorkloadFact,
    "economics": EconomicsFact,
    "proposal": ProposalFact,
}


FACT_KINDS: tuple[str, ...] = tuple(FACT_MODELS)
