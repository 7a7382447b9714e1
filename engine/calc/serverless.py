"""Serverless GPU products priced for a workload the way they bill: the hours an instance is up.

An instance is up while a request is in flight, for the idle timeout after the last one, and while it
starts (the platform's start, the weights' load and the engine's start); all of it is billed, each up
period rounded up to the product's billing increment. Per served hour with arrival rate λ and service
time S:

- the single instance is down only if nothing arrived in the last S + T seconds (T the idle timeout):
  P(down) = e^(-λ(S+T)); every arrival that finds it down starts it, λ P(down) starts a second, each
  billed for the cold start C and half an increment of rounding on average;
- where one instance cannot carry the hour's requests, as many run as the headroom target asks for
  (λ over an instance's capacity at the target share, or within the latency targets where those set the
  plan's replicas) and are taken as up all hour.

A latency-sensitive service keeps one instance warm, plus the rules' spares (or ``min_replicas``), in
every paid hour (every hour where its minimum is not changed on the schedule), at the kept-instance
price where there is one; further instances scale with the load. A batch is billed for its work plus,
per instance and day, one cold start and one idle timeout.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from gpu_advisor.engine.calc.batch_run import fits_window, run_hours, run_requests, window_replicas
from gpu_advisor.engine.calc.checkpoint import read_at_start_gb
from gpu_advisor.engine.calc.cold_start import ColdStart, cold_start
from gpu_advisor.engine.calc.policy import Sizing, usable_rate
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.serverless_hours import (
    HourDemand,
    Month,
    Steps,
    always_on_instances,
    batch_month,
    hourly_demand,
    scaling_steps,
    service_month,
)
from gpu_advisor.engine.calc.traffic import HOURS_PER_DAY, SECONDS_PER_HOUR, DailyTraffic
from gpu_advisor.engine.common.caching import cleared_with_the_others, per_object
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite
from gpu_advisor.engine.domain.knowledge.serving import ServerlessGpu, ServerlessProduct
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.domain.results import ServerlessBilling


@dataclass(frozen=True)
class ServerlessListing:
    """One GPU price of one serverless product in one of its regions."""

    product: ServerlessProduct
    gpu: ServerlessGpu
    region: str
    jurisdiction: str
    countries: tuple[str, ...]
    """Where the region's data centres are (ISO codes); empty where the catalog does not say."""
    usd_per_gpu_hour: float
    """The product's price times the region's multiplier."""
    warm_usd_per_gpu_hour: float
    attributes: Mapping[str, Any]
    """What exclusion rules can name, as for offers (pricing is "serverless")."""
    source: str
    product_sizes: tuple[int, ...]
    """Every instance size the product offers with this GPU, at any price entry."""
    sizes: Mapping[int, int]
    """Cards per replica -> the size of this entry's instance for it, where that is the product's
    smallest for this GPU that holds a replica (a larger one is the same product, dearer)."""
    stock_varies: bool = False
    """The region's data centres promise no stock of this GPU (``ServerlessRegion.stock_varies``)."""

    def smallest_instance(self, cards_per_replica: int) -> int | None:
        return self.sizes.get(cards_per_replica)


def entry_sizes(entry: ServerlessGpu, product_sizes: tuple[int, ...]) -> Mapping[int, int]:
    """``ServerlessListing.sizes`` for every card count a replica may have."""
    found = {}
    for cards in range(1, max(product_sizes) + 1):
        own = instance_size(entry, cards)
        smallest = min((size for size in product_sizes if size >= cards), default=None)
        if own is not None and own == smallest:
            found[cards] = own
    return MappingProxyType(found)


@per_object
def serverless_listings(knowledge: Knowledge) -> tuple[ServerlessListing, ...]:
    """Every product's GPU prices in every region, in catalog order, worked out once per knowledge base,
    and shared by knowledge bases that differ only in what the listings do not read (a scenario's copy,
    re-priced in its offers and its own server)."""
    parts = (knowledge.serverless, knowledge.providers, knowledge.gpus, knowledge.documents)
    key = tuple(map(id, parts))
    shared = _SHARED_LISTINGS.get(key)
    if shared is None:
        if len(_SHARED_LISTINGS) >= SHARED_LISTINGS_KEPT:
            _SHARED_LISTINGS.clear()
        # The parts are kept with the listings, so their ids stay theirs while the entry exists.
        shared = _SHARED_LISTINGS[key] = (parts, _listings_of(knowledge))
    return shared[1]


SHARED_LISTINGS_KEPT = 16
_SHARED_LISTINGS: dict[tuple[int, ...], tuple[tuple[object, ...], tuple[ServerlessListing, ...]]] = {}
cleared_with_the_others(_SHARED_LISTINGS.clear)


def _listings_of(knowledge: Knowledge) -> tuple[ServerlessListing, ...]:
    """``serverless_listings`` worked out: it reads the serverless products, the providers and their
    regions, the GPUs and the documents its citations name, and nothing else of ``knowledge``."""
    found = []
    for product in knowledge.serverless.products:
        provider, streaming = knowledge.provider(product.provider), product.streaming_endpoint
        jurisdictions = {region.id: region.jurisdiction for region in provider.regions}
        source = cite(product.source, knowledge)
        sizes: dict[str, tuple[int, ...]] = {}
        for entry in product.gpus:
            sizes[entry.gpu] = tuple(sorted({*sizes.get(entry.gpu, ()), *entry.instance_gpus}))
        for entry in product.gpus:
            gpu = knowledge.gpu(entry.gpu)
            for region in product.regions:
                jurisdiction = jurisdictions[region.region]
                price = entry.usd_per_gpu_hour * region.price_multiplier
                warm = (entry.warm_usd_per_gpu_hour or entry.usd_per_gpu_hour) * region.price_multiplier
                attributes = {
                    "eu": jurisdiction == "EU",
                    "jurisdiction": jurisdiction,
                    "pricing": "serverless",
                    "commitment": "none",
                    "interconnect": gpu.interconnect,
                    "provider_kind": provider.kind,
                    "enterprise_sla": provider.enterprise_sla,
                    "segment": gpu.segment,
                    "provider": product.provider,
                    "gpu": entry.gpu,
                    "managed": product.managed,
                    "streaming_worker": streaming.worker if streaming else "none",
                    "superseded": False,
                    "countries": (knowledge.region_countries(product.provider, (region.region,)),),
                }
                found.append(
                    ServerlessListing(
                        product=product,
                        gpu=entry,
                        region=region.region,
                        jurisdiction=jurisdiction,
                        countries=knowledge.region_countries(product.provider, (region.region,)),
                        usd_per_gpu_hour=price,
                        warm_usd_per_gpu_hour=warm,
                        attributes=MappingProxyType(attributes),
                        source=source,
                        product_sizes=sizes[entry.gpu],
                        sizes=entry_sizes(entry, sizes[entry.gpu]),
                        stock_varies=region.stock_varies is not None,
                    )
                )
    return tuple(found)


def instance_size(entry: ServerlessGpu, cards_per_replica: int) -> int | None:
    """The smallest instance that holds a replica, if the product has one."""
    return min((size for size in entry.instance_gpus if size >= cards_per_replica), default=None)


@dataclass(frozen=True)
class ServerlessWorkload:
    """What every serverless listing is priced against: the workload's load and its replica plans."""

    load: Load
    traffic: DailyTraffic
    sizing: Sizing
    weights_gb: float
    sixteen_bit_checkpoint_gb: float | None
    """What a replica reads at its cold start where it quantizes the 16-bit checkpoint (``SizingFigures``)."""
    engine_start_seconds: float
    """The serving engine's start beyond the weights' load, at best (its own measurement or its
    stand-in's); 0 where the catalog has neither."""
    days_per_month: float
    warm_hours_per_month: float
    """The hours a kept-warm instance is billed: the paid hours, or every hour (``kept_every_hour``)."""
    keep_warm: bool
    kept_every_hour: bool = False


def instance_cold_start(
    knowledge: Knowledge, product: ServerlessProduct, plan: ReplicaPlan, workload: ServerlessWorkload
) -> ColdStart:
    """``cold_start`` of an instance of ``product`` whose replicas are ``plan``'s: it reads what such a
    replica reads as it starts (``checkpoint.read_at_start_gb``)."""
    replica_memory = plan.cards_per_replica * knowledge.gpu(plan.gpu).memory_bytes
    read = read_at_start_gb(workload.weights_gb, workload.sixteen_bit_checkpoint_gb, replica_memory)
    return cold_start(knowledge, product, read, workload.engine_start_seconds)


def serves_within_window(
    knowledge: Knowledge, product: ServerlessProduct, plan: ReplicaPlan, workload: ServerlessWorkload
) -> bool:
    """After its cold start an instance of ``product`` finishes a request in a batch's window; a service's."""
    load = workload.load
    if not load.served_in_paid_hours:
        return True
    cold = instance_cold_start(knowledge, product, plan, workload).seconds
    rps = plan.requests_per_second_per_replica
    return fits_window(load, workload.sizing, plan.roofline, plan.batch, rps, cold / SECONDS_PER_HOUR)


class ProductMonth(NamedTuple):
    """One product's month on one GPU and instance size: the same in every region of the product."""

    month: Month
    size: int
    """GPUs per instance."""
    instances_at_peak: int
    spare_replicas: int
    kept: int
    """Instances kept warm (0: it scales to zero)."""
    instance_rps: float
    cold_start: ColdStart
    work_hours: float
    """Instance-hours of work at full throughput a month (the throughput share's numerator)."""
    capacity_utilization_at_peak: float
    hours_per_day_running: float | None
    """A batch: the hours a day each instance runs."""
    kept_for_price: int = 0
    """Of the kept instances, those the load keeps busy through enough of the served hours to run always
    at the product's lower always-on price, beyond those a latency-sensitive service keeps warm."""
    between_requests_scaling: float = 0.0
    """The starts from zero between requests the month would have with only the instances latency keeps
    warm (``Month.between_requests`` where none is kept for the price)."""

    @property
    def cold(self) -> float:
        """One cold start's seconds."""
        return self.cold_start.seconds


Demand = dict[tuple[str, int], tuple[tuple[HourDemand, ...], dict[int, Steps]]]
"""GPU and instance size -> the day's hourly demand on such instances, and the scaling steps it makes
beyond each count of instances kept running (one per ``ServerlessWorkload``)."""


def product_month(
    product: ServerlessProduct,
    plan: ReplicaPlan,
    size: int,
    workload: ServerlessWorkload,
    knowledge: Knowledge,
    demand: Demand,
    always_on_ratio: float = 1.0,
) -> ProductMonth:
    """``demand``: filled as products need it. ``always_on_ratio``: the entry's price for an instance that
    runs always over its price for one that scales (below 1 at RunPod, whose active workers cost less):
    the instances the load keeps busy through enough of the served hours run through all of them, at
    that price, as the provider bills them (``always_on_instances``; every hour, ``kept_every_hour``)."""
    load, sizing = workload.load, workload.sizing
    per_instance = size // plan.cards_per_replica
    instance_rps = per_instance * plan.requests_per_second_per_replica
    cold = (parts := instance_cold_start(knowledge, product, plan, workload)).seconds
    days, spare = workload.days_per_month, sizing.spare_replicas
    work_per_day = load.average_requests_per_second * load.hours_per_day / instance_rps  # instance-hours
    work_hours = work_per_day * days
    if load.served_in_paid_hours:
        # After each cold start, as after a rental's start, the replicas share the run (``batch_run``).
        replica = (plan.roofline, plan.batch, plan.requests_per_second_per_replica)
        needed = window_replicas(load, sizing, *replica, cold / SECONDS_PER_HOUR, per_instance)
        instances = max(1, math.ceil(needed)) + spare
        running = run_hours(run_requests(load), *replica, instances * per_instance)
        month = batch_month(instances * running, instances, product, cold, days)
        share = work_per_day / instances / load.hours_per_day
        return ProductMonth(month, size, instances, spare, 0, instance_rps, parts, work_hours, share, running)
    # An instance of several replicas carries each one's rate within the latency targets, the headroom
    # and what its KV cache holds.
    within, held = plan.rate_within_targets_per_replica, plan.rate_kv_holds
    capacity = usable_rate(
        instance_rps,
        None if within is None else within * per_instance,
        sizing,
        None if held is None else held * per_instance,
    )
    for_peak = max(1, math.ceil(load.peak_requests_per_second / capacity))
    key = (plan.gpu, size)
    day = demand.get(key)
    if day is None:
        # An instance of several replicas shares its requests among them.
        service = plan.service._replace(replicas=per_instance)
        # The hours read no product: worked out once for every product on this GPU and instance size.
        day = demand[key] = (hourly_demand(workload.traffic, load, service, instance_rps, capacity), {})
    hours, steps_by_kept = day
    # Kept warm: one instance, the spares the rules ask for, at least min_replicas, in every paid hour;
    # where running costs less than scaling, also the instances the load keeps busy long enough.
    for_latency = max(1 + spare, sizing.min_replicas) if workload.keep_warm else 0
    timeout, every_hour = product.idle_timeout_seconds, workload.kept_every_hour
    if every_hour:
        always_on_ratio *= workload.warm_hours_per_month / (load.hours_per_day * days)
    kept = max(for_latency, always_on_instances(hours, spare, always_on_ratio, timeout, cold))
    # Kept instances stop and start daily where served hours leave part of the day out (unless kept).
    daily = load.hours_per_day < HOURS_PER_DAY and not every_hour

    def month_keeping(count: int) -> Month:
        steps = steps_by_kept.get(count)
        if steps is None:
            steps = steps_by_kept[count] = scaling_steps(hours, spare, count)
        warm = (count, workload.warm_hours_per_month) if count else None
        return service_month(hours, product, cold, days, spare, warm, steps, daily)

    month = month_keeping(kept)
    # Whether the endpoint would stop between requests is the band's question (DEP024, DEP040): asked of
    # it as latency keeps it, not as the price runs it.
    scaling = month_keeping(for_latency) if kept > for_latency else month
    at_peak = max(for_peak + spare, kept)
    share = load.peak_requests_per_second / (at_peak * instance_rps)
    return ProductMonth(
        month,
        size,
        at_peak,
        spare,
        kept,
        instance_rps,
        parts,
        work_hours,
        share,
        None,
        kept - for_latency,
        scaling.between_requests,
    )


class ServerlessBill(NamedTuple):
    """A listing's month at its region's prices."""

    priced: ProductMonth
    billed_hours_per_month: float
    usd_per_month: float
    usd_per_instance_hour: float
    """The month's cost over its billed instance-hours (kept-warm hours may cost less)."""


def serverless_bill(listing: ServerlessListing, priced: ProductMonth) -> ServerlessBill:
    month = priced.month
    price = listing.usd_per_gpu_hour * priced.size
    kept_price = listing.warm_usd_per_gpu_hour * priced.size
    billed = month.busy + month.idle + month.cold
    usd = (billed - month.kept) * price + month.kept * kept_price
    return ServerlessBill(priced, billed, usd, usd / billed if billed else price)


def serverless_billing(listing: ServerlessListing, bill: ServerlessBill) -> ServerlessBilling:
    """How the month of ``bill`` is billed, for the result."""
    product, priced = listing.product, bill.priced
    month, warm = priced.month, priced.kept > 0
    # Built from validated knowledge and computed figures: no re-validation (engine/common/trusted.py).
    return trusted(
        ServerlessBilling,
        product=product.id,
        name=product.name,
        instance_gpus=priced.size,
        kept_warm=warm,
        busy_hours_per_month=month.busy,
        work_hours_per_month=priced.work_hours,
        idle_hours_per_month=month.idle,
        cold_start_hours_per_month=month.cold,
        cold_starts_per_month=month.starts,
        starts_between_requests_per_month=month.between_requests,
        cold_start_seconds=priced.cold,
        cold_start_platform_seconds=priced.cold_start.platform,
        cold_start_weights_seconds=priced.cold_start.weights,
        cold_start_engine_seconds=priced.cold_start.engine,
        idle_timeout_seconds=product.idle_timeout_seconds,
        billing_increment_seconds=product.billing_increment_seconds,
        # A blend only where hours beyond the kept ones are billed at the other price.
        warm_usd_per_gpu_hour=listing.warm_usd_per_gpu_hour
        if warm
        and listing.warm_usd_per_gpu_hour != listing.usd_per_gpu_hour
        and bill.billed_hours_per_month > month.kept
        else None,
        scale_ups_per_month=month.scale_ups,
        scale_downs_per_month=month.scale_downs,
        kept_restarts_per_month=month.kept_restarts,
        kept_hours_per_month=month.kept / priced.kept if priced.kept else 0.0,
        paused_at_schedule_end=product.paused_at_once is not None,
        scale_down_seconds=product.scale_down_tail_seconds,
        scale_usd_per_gpu_hour=listing.usd_per_gpu_hour,
        always_on_usd_per_gpu_hour=listing.warm_usd_per_gpu_hour
        if listing.warm_usd_per_gpu_hour != listing.usd_per_gpu_hour
        else None,
        instances_kept=priced.kept,
        kept_for_price=priced.kept_for_price,
        settings=product.settings,
        streaming_endpoint=product.streaming_endpoint,
        longer_waits_above_gpus=product.longer_waits_above_gpus,
        host_usd_per_core_hour=product.host_prices.usd_per_core_hour if product.host_prices else None,
        host_usd_per_gib_hour=product.host_prices.usd_per_gib_hour if product.host_prices else None,
        stock_varies=listing.stock_varies,
        snapshot_restore=product.snapshot_restore,
    )
