"""The result model of a mixed fleet: a committed base and hourly instances for the busier hours
(``engine/calc/fleets.py``), carried by the ``Option`` that prices it (``Option.fleet``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.domain.result_model import ResultModel


class InstanceCount(ResultModel):
    """Instances of one size an option bills."""

    gpus: int
    """Cards per instance."""
    count: int


class MixedFleetBilling(BaseModel):
    """How a mixed fleet bills a month. Field names are a contract with other tools: add, never rename."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    cards_per_replica: int
    replicas_by_hour: tuple[int, ...]
    """The replicas each hour of a served day needs (hour 0 to 23), spares included."""
    loss_replicas: int = 0
    """Of those, the replicas every served hour runs so that the loss of an instance carrying several
    leaves the hour's need and spares (SIZ015)."""
    base_provider: str
    base_offer: str
    base_commitment_months: int | None
    base_usd_per_gpu_hour: float
    base_replicas: int
    """The replicas every hour needs: the fewest of any hour."""
    base_replicas_hosted: int
    """The replicas the base's whole instances hold in every hour: the base size that costs least with its
    peak, which may be more or fewer than ``base_replicas`` (engine/calc/fleets.py ``base_placements``)."""
    base_gpus_rented: int
    base_instances: tuple[InstanceCount, ...] = ()
    """The base's instances, largest size first."""
    base_usd_per_month: float
    """Every calendar hour, whatever the load."""
    peak_provider: str
    peak_offer: str
    peak_pricing: str
    peak_usd_per_gpu_hour: float
    peak_gpus_rented_max: int
    peak_instances_max: tuple[InstanceCount, ...] = ()
    """The hourly instances of the hour that rents the most of them, largest size first."""
    peak_gpu_hours_per_month: float
    """Card-hours the hourly instances bill: whole instances, in the hours the replicas beyond the base
    are needed, rounded up to the offer's billing increment."""
    peak_usd_per_month: float


class AutoscaledFleetBilling(BaseModel):
    """The best option's hourly offer scaled hour by hour with the day's load (DEP032): shown, not
    decided on. Field names are a contract with other tools: add, never rename."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    provider: str
    offer: str
    gpu: str
    cards_per_replica: int
    usd_per_gpu_hour: float
    replicas_by_hour: tuple[int, ...]
    """The replicas each hour of a served day needs (hour 0 to 23; 0 where the schedule does not serve),
    spares included; the fixed fleet runs the most of them in every paid hour."""
    gpus_rented_max: int
    gpu_hours_per_month: float
    """Card-hours billed: whole instances, each hour's served share rounded up to the billing increment."""
    usd_per_month: float
    undercuts_recommendation: bool = False
    """It bills less than the recommendation by at least ``saving_worth_mentioning`` of the
    recommendation's cost: a smaller gap is noise next to price dates and discounts."""
