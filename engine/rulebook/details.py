"""Details: values a rule's message shows but no condition reads.

They are not asserted into the engine: they reach the message template beside the fired fact's fields,
typed like them. A rule's conditions can name only fact fields; its message may name details too (checked
when the rules load).
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.domain.choices import FactKind


class Details(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, protected_namespaces=())


class OtherPrice(Details):
    """Another catalog price of the best option's provider for the same GPU."""

    offer: str
    usd_per_gpu_hour: float
    pricing: str
    as_of: dt.date


class ServerlessDetails(Details):
    """The cheapest admitted serverless option and the best dedicated one, as the messages name them."""

    serverless_name: str
    """'Modal serverless functions (eu), 1 × h100-sxm per instance' ("" without an option)."""
    serverless_gpu: str
    serverless_instance_gpus: int
    serverless_billed_hours: float
    serverless_busy_hours: float
    serverless_idle_hours: float
    serverless_cold_start_hours: float
    serverless_cold_starts: float
    serverless_cold_start_seconds: float
    best_option_name: str
    """'runpod community, 2 × h100-sxm' ("" without an option)."""
    busy_share: float
    """The load's busy share on the best option's GPU (the utilization, unless one is stated)."""
    utilization_stated: bool
    """The utilization the rules read is the workload's own figure, not the busy share."""
    model_weights_gb: float


class EconomicsDetails(Details):
    api_name: str
    """The compared API's name ("" without one)."""
    self_hosted_is_serverless: bool
    """The self-hosted figure is the cheapest serverless option (a rule proposed serverless), not the
    best rental: the messages that quote it say so."""
    self_hosted_name: str
    """What the self-hosted figure buys: the serverless product or the rental, as the messages name it."""
    own_usd_per_gpu_hour: float
    rent_usd_per_gpu_hour: float
    """Cheapest eligible rental price per GPU-hour of the own server's GPU (0 when there is none)."""
    replica_gpus_on_server_gpu: int
    server_gpus: int
    load_utilization: float
    """The busy share the load itself gives the cheapest admitted option's GPU (0 without one)."""
    break_even_low_price: float
    break_even_high_price: float
    break_even_residual: float
    best_option_offer: str
    best_option_gpu: str
    best_option_gpus: int
    best_option_usd_per_hour: float
    best_option_other_prices: tuple[OtherPrice, ...]
    """The provider's other catalog prices for the same GPU."""
    hyperscaler_best_usd_per_month: float
    non_eu_best_usd_per_month: float
    eu_premium: float
    reference_gpu: str
    reference_gpus: int
    reference_usd_per_hour: float
    quantized_precision: str
    quantized_best_gpu: str
    quantized_best_gpus: int
    quantized_weights_gb: float


class ProposalDetails(Details):
    ruled_out_by: str
    """IDs of the rules that ruled the proposed deployment out."""
    unsuitable_by: str
    """IDs of the rules that declared the proposed GPU unsuitable."""


DETAIL_MODELS: dict[FactKind, type[Details]] = {
    "serverless": ServerlessDetails,
    "economics": EconomicsDetails,
    "proposal": ProposalDetails,
}
