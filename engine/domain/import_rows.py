"""The rows of the price catalogs ``catalog import`` reads, one pydantic model per format.

Field names are the formats' column names. An empty cell is a missing value; numbers must be finite;
prices are USD per instance-hour (SkyPilot ``Price``/``SpotPrice``, gpuhunt ``price``) or, in the plain
CSV, USD per GPU-hour. Columns a model does not name are ignored (vCPUs, memory, disk, ...).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from gpu_advisor.engine.common.values import finite
from gpu_advisor.engine.common.wording import Words, WordsError
from gpu_advisor.engine.domain.knowledge.entries import MAX_INSTANCE_GPUS, MAX_USD_PER_GPU_HOUR
from gpu_advisor.engine.domain.overrides import Identifier

RegionCode = Annotated[str, Field(min_length=1, max_length=120)]
"""A region or zone as the formats write it (``us-east-1``, ``europe-west4-a``): a region the catalog
does not know is added to the overrides under this code (made an ID: lower case, other characters a
dash), so it is held to an ID's length here, where the error can name the row and column."""

InstanceName = Annotated[str, Field(max_length=100)]
"""An instance type as the formats write it (``p5.48xlarge``): the import makes it an offer ID with its
pricing and jurisdiction after it, which an ID's 120 characters must hold."""

CardCount = Annotated[float, Field(allow_inf_nan=False, le=MAX_INSTANCE_GPUS)]
"""An instance's cards: at most ``MAX_INSTANCE_GPUS``, as an offer's instances."""

PositivePrice = Annotated[float, Field(gt=0, lt=100_000, allow_inf_nan=False), AfterValidator(finite)]
"""A price under the value rules of every other input (``values.py``): an overrides file the import
writes is read back under them, so a price of 1e-300 is refused here, on its row, not there."""


class Row(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="ignore", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _empty_is_missing(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {
                key: (None if value is None or value.strip() == "" else value.strip())
                for key, value in data.items()
            }
        return data


def whole_count(value: float | None) -> int | None:
    """A card count written as a number: 8 and 8.0 are 8; 1.5 is an error."""
    if value is None:
        return None
    if value != int(value):
        raise WordsError(Words("the count must be a whole number"))
    if value < 0:
        raise WordsError(Words("the count must not be negative"))
    return int(value)


class SkyPilotRow(Row):
    """A row of SkyPilot's ``vms.csv`` (schema v7/v8): one instance type in one zone or region."""

    InstanceType: InstanceName | None = None
    """Empty on GCP's accelerator rows, which price the cards without the VM that carries them."""
    AcceleratorName: str | None = None
    AcceleratorCount: CardCount | None = None
    Price: PositivePrice | None = None
    SpotPrice: PositivePrice | None = None
    Region: RegionCode
    AvailabilityZone: RegionCode | None = None

    REQUIRED_COLUMNS: ClassVar[tuple[str, ...]] = (
        "InstanceType",
        "AcceleratorName",
        "AcceleratorCount",
        "Price",
        "Region",
    )

    @field_validator("AcceleratorCount")
    @classmethod
    def _whole(cls, value: float | None) -> float | None:
        whole_count(value)
        return value

    @property
    def count(self) -> int | None:
        return whole_count(self.AcceleratorCount)


class GpuhuntRow(Row):
    """A row of a gpuhunt catalog (``<provider>.csv``): one instance in one location, on demand or spot."""

    instance_name: InstanceName
    location: RegionCode
    price: PositivePrice
    gpu_count: Annotated[int, Field(ge=0, le=MAX_INSTANCE_GPUS)]
    gpu_name: str | None = None
    gpu_memory: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None
    spot: bool

    REQUIRED_COLUMNS: ClassVar[tuple[str, ...]] = (
        "instance_name",
        "location",
        "price",
        "gpu_count",
        "gpu_name",
        "gpu_memory",
        "spot",
    )

    @field_validator("spot", mode="before")
    @classmethod
    def _python_bool(cls, value: Any) -> Any:
        # gpuhunt writes Python's str(bool): True or False.
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        return value


def split_list(value: Any) -> Any:
    """``1;8`` or ``1 8``: a list written in one cell."""
    if isinstance(value, str):
        return [part for part in value.replace(";", " ").split() if part]
    return value


class PlainRow(Row):
    """A row of the plain CSV of negotiated rates: one offer, or a new price for a catalog offer."""

    provider: str
    offer: Identifier
    gpu: str
    usd_per_gpu_hour: Annotated[PositivePrice, Field(lt=MAX_USD_PER_GPU_HOUR)]
    pricing: Literal["on_demand", "spot", "reserved", "capacity_block"] | None = None
    commitment_months: Annotated[int, Field(gt=0, le=120)] | None = None
    instance_gpus: tuple[Annotated[int, Field(ge=1, le=MAX_INSTANCE_GPUS)], ...] | None = None
    regions: tuple[RegionCode, ...] | None = None
    as_of: dt.date | None = None
    note: str | None = None

    REQUIRED_COLUMNS: ClassVar[tuple[str, ...]] = ("provider", "offer", "gpu", "usd_per_gpu_hour")

    _lists = field_validator("instance_gpus", "regions", mode="before")(split_list)

    @property
    def describes_offer(self) -> bool:
        """The row gives what a new offer needs besides its price."""
        return any(
            v is not None for v in (self.pricing, self.commitment_months, self.instance_gpus, self.regions)
        )
