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


class EconomicsDetails(Details):
    api_name: str
    """The compared API's name ("" without one)."""
    self_hosted_is_estimate: bool
    """The self-hosted figure is the serverless estimate (the documents give no serverless price), not a
    rental's list price: the messages that quote it say so."""
    serverless_usd_per_month: float
    """Estimated: the best option's cost scaled by utilization over the serverless break-even (the top
    of the documents' 30 to 50 % band), i.e. a used hour costs about 2 dedicated hours; 0 without an
    option."""
    own_usd_per_gpu_hour: float
    rent_usd_per_gpu_hour: float
    """Cheapest eligible rental price per GPU-hour of the own server's GPU (0 when there is none)."""
    replica_gpus_on_server_gpu: int
    server_gpus: int
    load_utilization: float
    """The utilization the load itself would give the cheapest admitted option (0 without one)."""
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
    "economics": EconomicsDetails,
    "proposal": ProposalDetails,
}
