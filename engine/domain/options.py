"""Result models of one way to run the workload: an option (a priced offer or serverless product), how it
bills, and where its price came from. Field names are a contract with other tools: add, never rename."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from gpu_advisor.engine.domain.choices import PricingKind
from gpu_advisor.engine.domain.fleets import InstanceCount, MixedFleetBilling
from gpu_advisor.engine.domain.knowledge.entries import Citation
from gpu_advisor.engine.domain.knowledge.serving import EndpointSettings, StreamingEndpoint
from gpu_advisor.engine.domain.result_model import ResultModel


class ThroughputAlone(ResultModel):
    """An option (or the own servers) sized for throughput alone: the cards per replica and the replicas
    the peak needs within the headroom with no latency target (a dropped default's included), the spares
    and ``min_replicas`` kept, billed as the offer (or the servers) bill them. What the latency targets
    cost is the option's bill less this one."""

    cards_per_replica: int
    replicas: int
    """All replicas, the spares among them."""
    spare_replicas: int
    gpus: int
    usd_per_month: float
    servers: int | None = None
    """Own servers only: the servers that hold these cards."""


class ServerlessBilling(ResultModel):
    """How a serverless option's month is billed: the hours an instance is up, and why it is up."""

    product: str
    name: str
    instance_gpus: int
    """GPUs of one instance (the smallest the product offers that holds a replica)."""
    kept_warm: bool
    """Instances are kept running in every paid hour (a latency-sensitive service cannot wait for a cold
    start, or the load runs them all the while at a lower always-on price: ``kept_for_price``), and none
    outside them; otherwise instances scale to zero."""
    busy_hours_per_month: float
    """Instance-hours with a request in flight (a batch: its work). An instance that runs at part of its
    throughput counts all the while a request is in flight on it."""
    work_hours_per_month: float = 0.0
    """Instance-hours the month's requests would take at an instance's full throughput: the serving hours
    beyond it are the headroom instances keep for the busiest minutes and the latency targets."""
    idle_hours_per_month: float
    """Instance-hours waiting: the idle timeout after the last request, the billing increment's rounding,
    and a kept-warm instance's quiet hours."""
    cold_start_hours_per_month: float
    """Instance-hours starting: the platform's start, the weights' load and the engine's start, billed."""
    cold_starts_per_month: float
    """Starts from zero: each time a request finds no instance running and waits for one."""
    starts_between_requests_per_month: float = 0.0
    """Those of the cold starts that follow a gap between requests longer than the idle timeout (the
    day's first start is not one)."""
    cold_start_seconds: float
    """One cold start: the platform's start, the weights at the product's load rate and the serving
    engine's start at best (a lower bound): the sum of the three fields below."""
    cold_start_platform_seconds: float
    """Of a cold start: the platform's start (the product's ``start_seconds``, ``catalog serverless``)."""
    cold_start_weights_seconds: float
    """Of a cold start: the weights a replica reads at its start, at the catalog's load rate (the 16-bit
    checkpoint where vLLM or SGLang quantize it to FP8 as they load it)."""
    cold_start_engine_seconds: float
    """Of a cold start: the serving engine's start beyond the weights' load (its own measured start, or
    that of the engine standing in for it: ``ThroughputFile.measured_start``); 0 where neither is
    measured."""
    idle_timeout_seconds: float
    billing_increment_seconds: int
    warm_usd_per_gpu_hour: float | None
    """The price of a kept-warm instance's GPU-hour, where it differs from the scale-to-zero price."""
    scale_ups_per_month: float = 0.0
    """Instances added for busier hours while others serve: each starts (billed, in the cold-start
    hours), and as many stop when the load falls, after the product's scale-down time (billed idle)."""
    scale_downs_per_month: float = 0.0
    """Instances stopped while others serve, each after ``scale_down_seconds`` (billed idle)."""
    kept_restarts_per_month: float = 0.0
    """Starts of the kept-warm instances before each served day of a schedule with unserved hours (each
    also runs on after the day as the product scales to zero, unless it is paused): billed, no request
    waits for them."""
    kept_hours_per_month: float = 0.0
    """The hours a month each kept instance runs: the paid hours, or every calendar hour where the
    endpoint's minimum is not changed on the schedule (PRC035); 0 where none is kept."""
    paused_at_schedule_end: bool = False
    """The product stops every instance at once, billed no longer, when the endpoint is paused (Hugging
    Face): a schedule's kept instances are priced paused at its end, with no idle timeout."""
    scale_down_seconds: float = 0.0
    """How long an instance no longer needed runs on while others serve (``ServerlessProduct``)."""
    scale_usd_per_gpu_hour: float | None = None
    """The price of a GPU-hour of an instance that starts with the load and scales to zero (the option's
    own ``usd_per_gpu_hour`` is the month's bill over its billed hours, a blend where a kept-warm instance
    has a price of its own)."""
    always_on_usd_per_gpu_hour: float | None = None
    """The product's own price for an instance that runs always (RunPod's active workers), where it has
    one; None where a kept-warm instance pays the scale-to-zero price."""
    instances_kept: int = 0
    """Instances kept running in every paid hour (0: the endpoint scales to zero)."""
    stock_varies: bool = False
    """The option is pinned to a region whose data centres promise no stock of its GPU: it may not be
    there when the endpoint starts (``ServerlessRegion.stock_varies``)."""
    snapshot_restore: Citation | None = None
    """Where the product can restore an instance from a snapshot, skipping most of a cold start, without
    promising it for a given start (``ServerlessProduct.snapshot_restore``): the source."""
    kept_for_price: int = 0
    """Of them, those kept because the load keeps them up through enough of the served hours and the
    product bills an instance that runs always below one that scales (RunPod's active workers), beyond
    those a latency-sensitive service keeps warm."""
    settings: EndpointSettings | None = None
    """What the product calls the settings this bill assumes (``instances_kept``, the instances at the
    peak, ``idle_timeout_seconds``), with its source; None where the catalog has not read them."""
    streaming_endpoint: StreamingEndpoint | None = None
    """The kind of endpoint to create for a streaming service with latency targets, and what its request
    path adds to the engine's latency, which the estimate leaves out (``endpoint_type``, ``direct``,
    ``queued``), with its source; None where the catalog has not read it."""
    longer_waits_above_gpus: int | None = None
    """The product says instances of more GPUs than this usually wait longer to start (Modal: 2); None
    where it says nothing."""
    host_usd_per_core_hour: float | None = None
    host_usd_per_gib_hour: float | None = None
    """What the product bills for an instance's CPU cores and memory on top of the GPU time above (Modal:
    ``ServerlessProduct.host_prices``), which the bill leaves out: the catalog does not know what a
    serving container requests or uses. None where the GPU's price includes them."""


class PriceOrigin(ResultModel):
    """Where an option's price came from."""

    kind: Literal["catalog", "overrides", "import"]
    """catalog: the shipped knowledge base; overrides: an overrides file; import: ``catalog import``."""
    file: str | None = None
    """The overrides file's or the imported file's name."""
    format: str | None = None
    """The imported catalog's format: skypilot, gpuhunt or csv."""
    as_of: dt.date


class EngineStartSource(ResultModel):
    """The measurement behind the serving engine's start a result bills, with each batch run on rented
    cards (``Option.engine_start_hours``) and in each serverless cold start
    (``ServerlessBilling.cold_start_engine_seconds``): ``ThroughputFile.measured_start``."""

    engine: str
    """The workload's serving engine, by name."""
    seconds: float
    """Its start beyond the weights' load, at best."""
    document: str
    """The source: a document of the knowledge base or a page's address."""
    title: str
    as_of: dt.date
    """When the source was read."""
    stand_in: str | None = None
    """The engine whose measured start stands in for ``engine``'s, which the catalog has not measured (its
    name); None where the figure is ``engine``'s own."""


StartUpBilling = Literal["by_the_hour", "serverless", "every_hour"]


class StartUpBreakEven(ResultModel):
    """A batch rented by the hour: the start-up a run (starting the instances, loading the weights) at
    which another admitted option would bill less than the recommended one (``calc.batch_start_up``)."""

    minutes: float
    """Start-up a run, in minutes, from which the rival is the cheaper (billing increments aside)."""
    provider: str
    offer: str
    gpu: str
    gpus: int
    usd_per_month: float
    """The rival's bill without start-up."""
    usd_per_hour: float
    """The rival's hour: all its billed cards (serverless: one instance)."""
    billing: StartUpBilling = "by_the_hour"
    """How start-up shows in the rival's bill: ``by_the_hour`` (on demand, spot), ``serverless`` (its
    cold starts are in its bill already), ``every_hour`` (a reservation: billed every hour of its term)."""
    pricing: str = ""
    """The rival's pricing (``spot``: its month adds the share of hours redone after interruptions)."""
    spot_overhead: float = 0.0
    """The rival's share of hours redone after interruptions (``Option.spot_overhead``)."""


class Option(ResultModel):
    provider: str
    offer: str
    gpu: str
    jurisdiction: str
    """Jurisdiction of this option's regions (EU, US, UK, CH, unknown); an offer yields one option per
    jurisdiction of its regions."""
    regions: tuple[str, ...]
    countries: tuple[str, ...] = ()
    """Where the regions' data centres are (ISO 3166 codes, in the order the regions name them); empty
    where the catalog names a group of regions or variable locations."""
    gpus: int
    """Cards the workload needs (replicas x cards per replica)."""
    gpus_rented: int
    """Cards paid for: whole instances of the sizes the offer sells (``instances``)."""
    replicas: int
    utilization: float
    """The load's throughput share: average requests over what this option's replicas deliver in the
    billed hours (the input's utilization does not change it). Not the time-based ``busy_share``."""
    usd_per_gpu_hour: float
    currency: Literal["USD", "EUR"] = "USD"
    list_price_per_gpu_hour: float | None = None
    """An offer listed in EUR: its list price per GPU-hour (net), converted at the catalog's rate."""
    price_basis: Literal["list", "eu_premium_estimate"]
    """list: the catalog's list price; eu_premium_estimate: a US list price plus the EU premium."""
    usd_per_hour: float
    """One instance-hour of ``gpus_rented`` cards (serverless: one instance of ``gpus / replicas``)."""
    billed_hours_per_month: float
    """The workload's paid hours; every calendar hour for a reservation; a batch's running hours as the
    offer bills them (spot: plus the interruption overhead); serverless: the instance-hours up."""
    usd_per_month: float
    eu: bool
    pricing: PricingKind
    commitment_months: int | None = None
    """Reservations: the term one commits to."""
    interconnect: str
    provider_kind: str
    enterprise_sla: bool | None
    """None: the provider's SLA is not established (providers.yaml)."""
    chosen: bool
    excluded_by: tuple[str, ...]
    as_of: dt.date
    source: str
    note: str | None = None
    """The catalog's note on the offer or serverless product (what its price includes or leaves out, how
    the figure was read); the memo gives it for the options it discusses."""
    gpu_note: str | None = None
    """A serverless product's note on this GPU's price alone (RunPod's "H100 PRO" pool taken as H100
    SXM)."""
    capacity_utilization_at_peak: float = 0.0
    """The peak over what the replicas deliver by the estimate (a batch: its work over the window's)."""
    spare_replicas: int = 0
    """Replicas beyond those the peak needs (redundancy)."""
    hours_per_day_running: float | None = None
    """A batch: the hours a day its replicas run."""
    run_start_hours: float | None = None
    """A batch: the start each run takes before its replicas serve, which the window holds beside the run
    (a rental's weights' load and engine start, a serverless instance's cold start)."""
    run_requests_per_replica: int | None = None
    """A batch: the most requests one replica runs in a run (the run's over the replicas, rounded up), in
    waves of at most as many as it holds at once: fewer than that is one part-full wave."""
    weights_load_hours: float | None = None
    """A batch: the hours each run takes to load the weights before it serves (a floor, at the catalog's
    load rate), billed with the run on an hourly offer beside ``hours_per_day_running``."""
    engine_start_hours: float | None = None
    """A batch: the hours each run's serving engine takes to be ready beyond the weights' load, at best
    (the catalog's measurement of the engine; 0 where it has none), billed with the run beside them."""
    busy_share: float | None = None
    """The share of the paid hours with a request in flight, with this option's GPU's service time."""
    serverless: ServerlessBilling | None = None
    fleet: MixedFleetBilling | None = None
    """Serverless options: how the month is billed."""
    instance_gpus: tuple[int, ...] = ()
    """Dedicated options: the instance sizes the offer is sold in, in cards."""
    instances: tuple[InstanceCount, ...] = ()
    """Dedicated options: the instances billed, largest size first; each replica sits in one instance
    whose cards share the GPU's link."""
    replica_room: int = 0
    """Replicas the idle cards of those instances could carry besides ``replicas`` (0: none, or the
    idle cards are too few for a replica)."""
    replicas_on_fullest_instance: int = 0
    """The most replicas one of ``instances`` carries with ``replicas`` spread over them as evenly as their
    cards allow (``calc.instances.fullest_instance``): what the loss of one instance takes (1 where a
    replica spans instances; 0 where the option is not sold in instances, a serverless product, or is a
    mixed fleet, whose replicas change by the hour)."""
    instances_covering_a_loss_at_no_cost: int = 0
    """Where the spares do not cover the loss of the fullest instance: the instances of the same offer
    that would carry the replicas so that they do, renting the same cards (smaller instances at one
    price per card; more instances to run); 0 where no such placement exists or the spares cover it."""
    latency_targets_usd_per_month: float | None = None
    """The best option only: what the latency targets add at least to its bill, its bill less that of the
    plan throughput alone chooses on its GPU (``throughput_alone``: the cards per replica and the
    replicas, spares and min_replicas as for it, as the same offer bills them; another offer, or a GPU the
    targets rule out, may bill that plan for less); None where the targets add nothing to the bill, or
    for every other option."""
    throughput_alone: ThroughputAlone | None = None
    """The best option only: the same offer sized for throughput alone, where the latency targets (a
    dropped default's included, which still chooses the cards) add to its bill; None otherwise."""
    spare_usd_per_month: float | None = None
    """The best dedicated and the best serverless option of a service only: what the spare replicas the
    rules add (SIZ010, SIZ011) add to its bill, its bill less that of the same offer without them, as it
    bills both (whole instances may bill a spare's cards anyway); None where no rule adds one (a stated
    min_replicas sets the replicas), they add nothing, for a batch, or for every other option."""
    price_origin: PriceOrigin | None = None
    """Where ``usd_per_gpu_hour`` came from: the catalog, an overrides file or an import."""
    spot_overhead: float = 0.0
    """Spot: the share of a batch run's hours added to its bill for work redone after interruptions, the
    overhead of one instance for each instance a replica spans (``calc.listings.replica_spot_overhead``);
    0 for other pricing."""
    rework_replicas: int = 0
    """A spot batch: the replicas added to those the window needs so that a run with the work it redoes
    after interruptions still keeps the window (with the estimate's error band taken off); 0 elsewhere."""


class ScaleToZero(ResultModel):
    """The serverless product priced scaling to zero where it bills less than the cheapest route still
    standing, which keeps instances warm or rents cards for a service that may not wait (DEP031, DEP048)."""

    name: str
    usd_per_month: float
    """At least this a month: its cold starts billed at their floor."""
    cold_start_seconds: float
    """How long a request finding no instance running waits for one (platform, weights, engine)."""
    cold_starts_per_month: float
