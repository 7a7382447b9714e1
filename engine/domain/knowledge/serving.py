"""How a workload's requests arrive over the day, how serverless GPU products bill, and the sizing
policy's headroom: the knowledge behind time-based utilization and serverless prices."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal, TypeVar

from pydantic import Field, field_validator, model_validator

from gpu_advisor.engine.common.values import MAX_MAGNITUDE
from gpu_advisor.engine.common.wording import Words, WordsError
from gpu_advisor.engine.domain.choices import LoadPattern
from gpu_advisor.engine.domain.knowledge.entries import (
    Citation,
    PositiveFloat,
    Sourced,
    Strict,
    Translated,
    Translations,
)

HOURS_PER_DAY = 24


H = TypeVar("H", bound=Sequence[float])


def checked_profile(hourly: H) -> H:
    """24 values from 0 to 1e15, not all zero."""
    if len(hourly) != HOURS_PER_DAY:
        raise WordsError(
            Words(
                "a load profile has %(hours)s hourly values, got %(given)s",
                hours=HOURS_PER_DAY,
                given=len(hourly),
            ),
            names_input=True,
        )
    # At most 1e15 each, as every number a file may give: 24 values near 1e308 summed to infinity.
    if any(not math.isfinite(v) or v < 0 or v > MAX_MAGNITUDE for v in hourly) or sum(hourly) <= 0:
        raise WordsError(Words("a load profile's values are from 0 to 1e15, not all zero"))
    return hourly


MAX_START_SECONDS = 3600
"""The longest platform start a product may state: an hour; what a start could take beyond the stated
one is searched up to it as well (``ServerlessMarket.start_break_even``)."""


class LoadProfile(Sourced):
    load_pattern: LoadPattern
    hourly: tuple[float, ...]
    """Relative request rate in each hour of the day, 0 to 23 (the scale does not matter)."""
    peak_within_hour: float = Field(ge=1, le=10)
    """The busiest minutes' rate over the busiest hour's mean: the peak the replicas are sized for."""
    work_waits: bool = False
    """The requests wait for the GPUs (a batch): the day's work is done in a window, not served as it
    arrives, and the profile is not used."""
    note: str | None = None

    @field_validator("hourly")
    @classmethod
    def _24_hours(cls, hourly: tuple[float, ...]) -> tuple[float, ...]:
        return checked_profile(hourly)


class ServerlessRegion(Strict):
    region: str
    """A region ID of the product's provider (providers.yaml)."""
    price_multiplier: float = Field(ge=1, le=10)
    """What pinning the product to this region costs, over its list price."""
    stock_varies: Citation | None = None
    """Where the region's data centres hold the product's GPUs by a stock that changes, with no GPU
    promised (its provider's list of them shows the current stock of each GPU): the source. A GPU priced
    for the product may then not be there; the memo and ``check`` say so for an option in the region."""


class ServerlessGpu(Translated):
    gpu: str
    usd_per_gpu_hour: PositiveFloat
    """The price of a GPU-hour an instance is up (scaled to zero, nothing is billed)."""
    warm_usd_per_gpu_hour: PositiveFloat | None = None
    """What an instance kept running costs, where the product prices that apart (always-on workers)."""
    instance_gpus: tuple[int, ...] = Field(min_length=1)
    """The GPU counts one instance may have at this price."""
    note: str | None = None
    """How this GPU's price was read, where that concerns it alone (a pool taken as this GPU)."""


class WorkerLimits(Sourced):
    """How many instances (workers) a product runs by default: per endpoint (a setting the team raises)
    and per account across its endpoints (raised by the provider)."""

    per_endpoint: int = Field(gt=0)
    per_account: int = Field(gt=0)


class RequestQueue(Sourced, Translated):
    """Where a product passes requests through a queue of its platform whose location its documentation
    does not state, beside the region its workers are pinned to (RunPod's job queue): ``note`` says so,
    and how to do without it (RES017)."""

    note: str


class StreamingEndpoint(Sourced, Translated):
    """The kind of endpoint a product serves a streaming service with latency targets from, and what its
    request path adds to the serving engine's latency, which the estimate leaves out: ``direct`` says how
    a request reaches the engine on it (through the platform's load balancer or proxy, a hop not
    estimated), ``queued`` the product's other kind of endpoint whose requests wait in a queue of the
    platform first (its delay not estimated either). The texts are quoted by the memo; the JSON keeps them
    in English."""

    translations: Translations = Field(default=Translations(), exclude=True)
    endpoint_type: str = Field(min_length=1)
    """The kind of endpoint to create, with its article, as the memo's "Create it as ..." names it (the
    German without article, after "als")."""
    direct: str = Field(min_length=1)
    """A clause: how the named kind's requests reach the serving engine."""
    queued: str | None = None
    """A clause: the product's kind of endpoint whose requests wait in its queue before the engine sees
    them; None where the product has none."""
    worker: Literal["ready_made", "team_built"]
    """Who builds what runs on the named kind of endpoint: the platform's ready-made worker or engine,
    configured in its console, or a worker (image or server code) the team builds (PRV031)."""
    worker_source: Citation
    """The provider's page that says which."""


class IdleScaleDown(Sourced):
    """How a product scales down an endpoint that receives no request for days: its maximum workers drop
    to ``lowered_to_workers`` after ``lowered_after_days``, to none after ``stopped_after_days``, and
    stay there until the team raises them; any request resets the timer."""

    lowered_after_days: float = Field(gt=0, le=365)
    lowered_to_workers: int = Field(ge=1)
    stopped_after_days: float = Field(gt=0, le=365)

    @model_validator(mode="after")
    def _stopped_later(self) -> IdleScaleDown:
        if self.stopped_after_days <= self.lowered_after_days:
            raise ValueError("stopped_after_days must come after lowered_after_days")
        return self


class IdleTimeoutRange(Sourced):
    """The values a product accepts for its idle timeout (``EndpointSettings.idle_timeout``), in seconds,
    as its documentation or API states them."""

    minimum_seconds: float = Field(ge=0, le=86_400)
    maximum_seconds: float = Field(ge=0, le=86_400)

    @model_validator(mode="after")
    def _ordered(self) -> IdleTimeoutRange:
        if self.maximum_seconds < self.minimum_seconds:
            raise ValueError("maximum_seconds must not be below minimum_seconds")
        return self


class EndpointSettings(Sourced):
    """What the product calls the settings a serverless bill assumes, as its console or API names them:
    the instances kept running, the most it runs, and how long an idle one waits before it stops."""

    minimum: str = Field(min_length=1)
    maximum: str = Field(min_length=1)
    idle_timeout: str = Field(min_length=1)
    idle_timeout_with_minimum: bool = True
    """False where the idle timeout only applies with no instance kept (Hugging Face's scale-to-zero
    needs a minimum of 0), so a bill with kept instances does not set it."""
    scale_up_header: str | None = None
    """A request header without which a request that finds no instance running is refused while one
    starts, not held (Hugging Face's proxy answers 503 unless ``X-Scale-Up-Timeout`` is sent)."""
    scale_up_header_source: Citation | None = None
    idle_timeout_range: IdleTimeoutRange | None = None
    """The idle timeout's accepted values; None where no dated source states them (Hugging Face's
    dropdown lists its choices in the console only)."""

    @model_validator(mode="after")
    def _header_has_a_source(self) -> EndpointSettings:
        if (self.scale_up_header is None) != (self.scale_up_header_source is None):
            raise ValueError("scale_up_header and scale_up_header_source go together")
        return self


class HostPrices(Sourced):
    """What a product bills for an instance's CPU cores and memory on top of its GPUs (Modal)."""

    usd_per_core_hour: float = Field(gt=0, allow_inf_nan=False)
    usd_per_gib_hour: float = Field(gt=0, allow_inf_nan=False)


class ServerlessProduct(Sourced, Translated):
    id: str
    provider: str
    name: str
    billing_increment_seconds: int = Field(ge=1, le=3600)
    idle_timeout_seconds: float = Field(ge=0, le=86_400)
    """How long an instance stays up after its last request before it scales to zero (billed)."""
    scale_down_seconds: float | None = Field(default=None, ge=0, le=86_400)
    """How long an instance the autoscaler no longer needs runs on (billed) while others keep serving;
    None: the idle timeout (each instance scales down on its own timeout)."""
    scale_down_source: Citation | None = None
    paused_at_once: Citation | None = None
    """Where the product stops every instance at once, billed no longer, when the team pauses the endpoint
    (Hugging Face): the source. A schedule's kept instances then stop at its end with no idle timeout;
    None: they scale to zero as the autoscaler does (``schedule_end_seconds``)."""
    start_seconds: float = Field(ge=0, le=MAX_START_SECONDS)
    """The platform's part of a cold start, before the weights load (billed)."""
    start_source: Citation
    """Where ``start_seconds`` comes from (or that it is gpu-advisor's assumption)."""
    snapshot_restore: Citation | None = None
    """Where the product can restore an instance from a snapshot with the weights loaded and the engine
    started (RunPod's FlashBoot, Modal's memory snapshots), not promised for a given start: the source.
    The cold starts priced load both, so where a restore works a request waits less and bills less."""
    regions: tuple[ServerlessRegion, ...] = Field(min_length=1)
    gpus: tuple[ServerlessGpu, ...] = Field(min_length=1)
    note: str | None = None
    managed: bool = False
    """The platform runs the serving stack (engine, endpoint, scaling, logs and metrics) from a model the
    team names; False where the team builds and runs its own container or worker."""
    managed_source: Citation | None = None
    larger_instances_unpriced: Citation | None = None
    """Where the product sells instances with more GPUs than ``gpus`` lists, at sizes or prices the
    catalog does not know: the source that says so. A proposal needing more cards than it lists is then
    warned, not failed (SIZ018 rather than SIZ017)."""
    worker_limits: WorkerLimits | None = None
    """The instances it runs by default (PRV019); None where no dated source gives them."""
    request_queue: RequestQueue | None = None
    """Where requests wait in a queue of the platform whose location is not stated (RES017); None: none
    documented, or the product's regions say where it runs."""
    idle_scale_down: IdleScaleDown | None = None
    """How it scales down an endpoint idle for days (PRV023, PRV024); None where no source says it does."""
    settings: EndpointSettings | None = None
    """The names of its scaling settings, for the memo to say what the bill assumes; None where unread."""
    streaming_endpoint: StreamingEndpoint | None = None
    """The kind of endpoint a streaming service with latency targets is created as, and its request path
    (the memo's settings line names it); None where unread. Needs ``settings``, the line it is named in."""
    longer_waits_above_gpus: int | None = Field(default=None, ge=1)
    """Instances of more GPUs than this usually wait longer to start, as the provider says (Modal: more
    than 2 a container); None where it says nothing."""
    longer_waits_source: Citation | None = None
    host_prices: HostPrices | None = None
    """CPU and memory billed on top of the GPUs; None where the GPU's price includes them (or the catalog
    has not read them: the product's note says which)."""

    @model_validator(mode="after")
    def _scale_down_has_a_source(self) -> ServerlessProduct:
        if self.scale_down_seconds is not None and self.scale_down_source is None:
            raise ValueError("scale_down_seconds needs a scale_down_source")
        if self.managed and self.managed_source is None:
            raise ValueError("managed: true needs a managed_source")
        if (self.longer_waits_above_gpus is None) != (self.longer_waits_source is None):
            raise ValueError("longer_waits_above_gpus and longer_waits_source go together")
        if self.streaming_endpoint is not None and self.settings is None:
            raise ValueError("streaming_endpoint needs settings: the memo names the type beside them")
        accepted = self.settings.idle_timeout_range if self.settings is not None else None
        if accepted is not None and not (
            accepted.minimum_seconds <= self.idle_timeout_seconds <= accepted.maximum_seconds
        ):
            raise ValueError("idle_timeout_seconds lies outside settings.idle_timeout_range")
        return self

    @property
    def scale_down_tail_seconds(self) -> float:
        """What an instance removed while others keep serving runs on, billed."""
        return self.idle_timeout_seconds if self.scale_down_seconds is None else self.scale_down_seconds

    def schedule_end_seconds(self, kept: int) -> float:
        """What ``kept`` instances run on, billed, in all, once a schedule's served hours end: nothing
        where the endpoint is paused at once; else with the minimum set to zero, the autoscaler stops all
        but one after its scale-down time, and the last after the idle timeout."""
        if self.paused_at_once is not None or kept == 0:
            return 0.0
        return (kept - 1) * self.scale_down_tail_seconds + self.idle_timeout_seconds


class Headroom(Sourced):
    target_share: float = Field(gt=0, le=1)
    """The share of a replica's estimated capacity its busiest minutes may fill (the estimate's error band
    is taken off first)."""


class Redundancy(Sourced):
    spare_replicas: int = Field(ge=1, le=8)
    """Replicas beyond the peak's that a rule adds for a service that must stay up."""


class SpotInterruption(Sourced):
    overhead: float = Field(ge=0, lt=1)
    """Work redone or waited for after interruptions, as a share of the hours a spot rental runs."""


class InstanceStart(Sourced):
    seconds: float = Field(gt=0, le=3600)
    """How long a new instance takes to launch before it can load the weights (PRC025)."""
