"""Serverless GPU products priced for a workload the way they bill: the hours an instance is up.

An instance is up while a request is in flight, for the idle timeout after the last one, and while it
starts (the platform's start and the weights' load); all of it is billed, each up period rounded up to
the product's billing increment. Per served hour with arrival rate λ and service time S:

- the single instance is down only if nothing arrived in the last S + T seconds (T the idle timeout):
  P(down) = e^(-λ(S+T)); every arrival that finds it down starts it, λ P(down) starts a second, each
  billed for the cold start C and half an increment of rounding on average;
- where one instance cannot carry the hour's requests, as many run as the headroom target asks for
  (λ over an instance's capacity at the target share) and are taken as up all hour.

A latency-sensitive service cannot wait for a cold start: one instance, plus the spare replicas the rules
ask for (or ``min_replicas``), is kept warm in every paid hour, as a dedicated GPU would run (the
products bill a kept instance like a rented one; the minimum is set for the schedule's hours), at the
product's kept-instance price where it has one, and further instances scale with the load.

A batch runs its work at full throughput in its window: billed for the work plus, per instance and day,
one cold start and one idle timeout.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from gpu_advisor.engine.calc.replicas import ReplicaPlan, Sizing
from gpu_advisor.engine.calc.traffic import SECONDS_PER_HOUR, DailyTraffic, ServiceTime
from gpu_advisor.engine.common.caching import per_object
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
    usd_per_gpu_hour: float
    """The product's price times the region's multiplier."""
    warm_usd_per_gpu_hour: float
    attributes: Mapping[str, Any]
    """What exclusion rules can name, as for offers (pricing is "serverless")."""
    source: str


@per_object
def serverless_listings(knowledge: Knowledge) -> tuple[ServerlessListing, ...]:
    """Every product's GPU prices in every region, in catalog order, worked out once per knowledge base."""
    found = []
    for product in knowledge.serverless.products:
        provider = knowledge.provider(product.provider)
        jurisdictions = {region.id: region.jurisdiction for region in provider.regions}
        source = cite(product.source, knowledge)
        for entry in product.gpus:
            gpu = knowledge.gpu(entry.gpu)
            for region in product.regions:
                jurisdiction = jurisdictions[region.region]
                price = entry.usd_per_gpu_hour * region.price_multiplier
                warm = (entry.warm_usd_per_gpu_hour or entry.usd_per_gpu_hour) * region.price_multiplier
                attributes = {
                    "eu": jurisdiction == "EU",
                    "pricing": "serverless",
                    "interconnect": gpu.interconnect,
                    "provider_kind": provider.kind,
                    "enterprise_sla": provider.enterprise_sla,
                    "segment": gpu.segment,
                    "provider": product.provider,
                    "gpu": entry.gpu,
                }
                found.append(
                    ServerlessListing(
                        product=product,
                        gpu=entry,
                        region=region.region,
                        jurisdiction=jurisdiction,
                        usd_per_gpu_hour=price,
                        warm_usd_per_gpu_hour=warm,
                        attributes=MappingProxyType(attributes),
                        source=source,
                    )
                )
    return tuple(found)


class ServerlessBill(NamedTuple):
    billing: ServerlessBilling
    instances_at_peak: int
    billed_hours_per_month: float
    usd_per_month: float
    usd_per_instance_hour: float
    work_hours_per_month: float
    """Instance-hours of work at full throughput (the throughput share's numerator)."""


class Month(NamedTuple):
    """Instance-hours a month by what they are for, and the cold starts."""

    busy: float
    idle: float
    cold: float
    starts: float
    kept: float
    """Hours of the instance kept warm (priced at the kept-instance price)."""


def instance_size(entry: ServerlessGpu, cards_per_replica: int) -> int | None:
    """The smallest instance that holds a replica, if the product has one."""
    return min((size for size in entry.instance_gpus if size >= cards_per_replica), default=None)


def cold_start_seconds(knowledge: Knowledge, product: ServerlessProduct, weights_gb: float) -> float:
    return product.start_seconds + weights_gb / knowledge.serverless.weights_load_gb_per_second


def service_month(
    traffic: DailyTraffic,
    load: Load,
    service: ServiceTime,
    instance_rps: float,
    product: ServerlessProduct,
    cold: float,
    days: float,
    warm: tuple[int, float] | None,
) -> Month:
    """A service's month on one product. ``warm``: the instances kept running and the hours a month
    they are kept (None: it scales to zero)."""
    timeout, rounding = product.idle_timeout_seconds, product.billing_increment_seconds / 2
    busy = idle = cold_hours = starts = extra = 0.0
    for served, relative in zip(traffic.served, traffic.relative_rate, strict=True):
        if served == 0 or relative == 0:
            continue
        rate = load.average_requests_per_second * relative
        needed = rate / instance_rps
        seconds = service.seconds(rate / max(1.0, needed))
        in_flight = max(-math.expm1(-rate * seconds), needed)
        if warm is not None:
            busy += served * min(float(warm[0]), in_flight)
            extra += served * max(0.0, needed - warm[0])
            continue
        down = math.exp(-rate * (seconds + timeout))
        starting = rate * down * cold  # the share of the hour spent starting
        up = min(1.0, 1 - down + rate * down * (cold + rounding))
        billed = max(up, needed)
        hour_busy = min(in_flight, billed)
        hour_cold = min(starting, billed - hour_busy)
        busy += served * hour_busy
        cold_hours += served * hour_cold
        idle += served * (billed - hour_busy - hour_cold)
        starts += served * rate * down * SECONDS_PER_HOUR
    if warm is not None:
        kept = warm[0] * warm[1]
        kept_busy = min(busy * days, kept)
        return Month(busy=kept_busy + extra * days, idle=kept - kept_busy, cold=0.0, starts=0.0, kept=kept)
    return Month(busy=busy * days, idle=idle * days, cold=cold_hours * days, starts=starts * days, kept=0.0)


def batch_month(
    load: Load, instance_rps: float, instances: int, product: ServerlessProduct, cold: float, days: float
) -> Month:
    """A batch's month: its work at full throughput, and per instance and day one start and one idle
    timeout (with the increment's rounding)."""
    work = load.average_requests_per_second * load.hours_per_day / instance_rps
    tail = product.idle_timeout_seconds + product.billing_increment_seconds / 2
    return Month(
        busy=work * days,
        idle=instances * tail / SECONDS_PER_HOUR * days,
        cold=instances * cold / SECONDS_PER_HOUR * days,
        starts=instances * days,
        kept=0.0,
    )


def serverless_bill(
    listing: ServerlessListing,
    plan: ReplicaPlan,
    load: Load,
    traffic: DailyTraffic,
    sizing: Sizing,
    weights_gb: float,
    knowledge: Knowledge,
    days_per_month: float,
    paid_hours_per_month: float,
    keep_warm: bool,
) -> ServerlessBill | None:
    """The month of ``listing`` for a workload whose replica on its GPU is ``plan``; None where no
    instance of the product holds a replica."""
    product, entry = listing.product, listing.gpu
    size = instance_size(entry, plan.cards_per_replica)
    if size is None:
        return None
    instance_rps = size // plan.cards_per_replica * plan.requests_per_second_per_replica
    cold = cold_start_seconds(knowledge, product, weights_gb)
    service = ServiceTime(plan.service.alone, plan.service.at_full_batch, plan.service.batch, 1)
    if load.served_in_paid_hours:
        work_per_day = load.average_requests_per_second * load.hours_per_day * SECONDS_PER_HOUR
        window = load.hours_per_day * SECONDS_PER_HOUR
        instances = max(1, math.ceil(work_per_day / (instance_rps * sizing.batch_capacity_share) / window))
        month = batch_month(load, instance_rps, instances, product, cold, days_per_month)
        warm = False
    else:
        instances = max(1, math.ceil(load.peak_requests_per_second / (instance_rps * sizing.capacity_share)))
        warm = keep_warm
        # Kept warm: one instance, the spares the rules ask for, at least min_replicas, every hour.
        kept = max(1 + sizing.spare_replicas, sizing.min_replicas)
        kept_for = (kept, paid_hours_per_month) if warm else None
        capacity = instance_rps * sizing.capacity_share
        month = service_month(traffic, load, service, capacity, product, cold, days_per_month, kept_for)
        instances = max(instances, kept) if warm else instances
    price = listing.usd_per_gpu_hour * size
    kept_price = listing.warm_usd_per_gpu_hour * size
    billed = month.busy + month.idle + month.cold
    usd = (billed - month.kept) * price + month.kept * kept_price
    billing = ServerlessBilling(
        product=product.id,
        name=product.name,
        instance_gpus=size,
        kept_warm=warm,
        busy_hours_per_month=month.busy,
        idle_hours_per_month=month.idle,
        cold_start_hours_per_month=month.cold,
        cold_starts_per_month=month.starts,
        cold_start_seconds=cold,
        idle_timeout_seconds=product.idle_timeout_seconds,
        billing_increment_seconds=product.billing_increment_seconds,
        warm_usd_per_gpu_hour=listing.warm_usd_per_gpu_hour
        if warm and listing.warm_usd_per_gpu_hour != listing.usd_per_gpu_hour
        else None,
    )
    work = load.average_requests_per_second * load.hours_per_day * SECONDS_PER_HOUR / instance_rps
    return ServerlessBill(
        billing=billing,
        instances_at_peak=instances,
        billed_hours_per_month=billed,
        usd_per_month=usd,
        usd_per_instance_hour=kept_price if warm else price,
        work_hours_per_month=work / SECONDS_PER_HOUR * days_per_month,
    )
