"""Cost calculators: renting an offer, owning an 8-GPU server, break-even utilization, managed APIs."""

from __future__ import annotations

import math
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from gpu_advisor.engine.calc.instances import Placement, place
from gpu_advisor.engine.domain.knowledge.api_prices import ApiPrice
from gpu_advisor.engine.domain.knowledge.entries import Offer, OwnServer

TOKENS_PER_MILLION = 1_000_000


class Rental(NamedTuple):
    """What renting ``gpus_needed`` cards of one offer costs for the workload's paid hours. An
    intermediate figure (options carry the numbers), made for every offer of every recommendation:
    a named tuple, which builds several times faster than a frozen dataclass."""

    gpus_needed: int
    gpus_rented: int
    """Cards paid for: whole instances of the sizes the offer sells (``instances.place``)."""
    usd_per_hour: float
    billed_hours_per_month: float
    usd_per_month: float
    placement: Placement


def running_hours_billed(hours_per_day: float, increment_seconds: int | None) -> float:
    """A day's run as billed: rounded up to the offer's billing increment (whole hours where the offer
    publishes none), at least one increment."""
    increment = (increment_seconds or SECONDS_PER_HOUR) / SECONDS_PER_HOUR
    return max(1, math.ceil(hours_per_day / increment - ROUNDING_SLACK)) * increment


ROUNDING_SLACK = 1e-9
"""A run of exactly 5 hours, computed as 5.000000000001, is billed 5 hours."""
SECONDS_PER_HOUR = 3600


def billed_hours(
    offer: Offer,
    hours_per_month: float,
    calendar_hours_per_month: float,
    run: BatchRun | None,
    spot_overhead: float,
) -> float:
    """The hours a month an offer bills: every calendar hour for a reservation; for a batch on an hourly
    offer, the hours it runs each day as billed, on the days it runs (spot: plus the work redone after
    interruptions); otherwise the workload's paid hours."""
    if offer.billing == "committed":
        return calendar_hours_per_month
    if run is None:
        return hours_per_month
    hours = running_hours_billed(run.hours_per_day, offer.billing_increment_seconds) * run.days_per_month
    return hours * (1 + spot_overhead) if offer.pricing == "spot" else hours


class BatchRun(NamedTuple):
    hours_per_day: float
    """The hours a day the batch's replicas run."""
    days_per_month: float


def rent(
    offer: Offer,
    cards_per_replica: int,
    replicas: int,
    hours_billed: float,
    linked: tuple[int, ...],
    usd_per_gpu_hour: float | None = None,
    spread: bool = False,
    spare: int = 0,
    placed: Placement | None = None,
) -> Rental:
    """``replicas`` replicas of ``cards_per_replica`` cards on an offer's instances for
    ``hours_billed`` hours a month (``billed_hours``); ``linked``: its sizes whose cards share a fast
    link (``instances.linked_sizes``). ``usd_per_gpu_hour`` replaces the list price (a regional
    estimate); ``spread``: on at least two instances, none holding more than ``spare`` replicas where
    there is one (``instances.place``); ``placed``: the instances already chosen for them (a batch's
    spread ones, ``listings.price_plan``)."""
    placement = placed or place(cards_per_replica, replicas, offer.instance_gpus, linked, spread, spare)
    usd_per_hour = placement.gpus_rented * (
        offer.usd_per_gpu_hour if usd_per_gpu_hour is None else usd_per_gpu_hour
    )
    return Rental(
        cards_per_replica * replicas,
        placement.gpus_rented,
        usd_per_hour,
        hours_billed,
        usd_per_hour * hours_billed,
        placement,
    )


class ServerAssumptions(BaseModel):
    """Inputs of the own-server calculation: defaults from the knowledge base, each can be overridden.
    ``from_server`` takes the documents' own lines (capital, power, rack); colocation and staff are
    added by the company country's defaults (``calc.server_costs``)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    server_price_usd: float = Field(gt=0)
    gpus_per_server: int = Field(ge=1)
    months: int = Field(ge=1)
    hours_per_month: float = Field(gt=0)
    gpu_watts: float = Field(gt=0)
    power_overhead: float = Field(ge=1)
    usd_per_kwh: float = Field(ge=0)
    rack_usd_per_month: float = Field(ge=0)
    residual: float = Field(ge=0, lt=1)
    colocation_usd_per_kw_month: float = Field(default=0.0, ge=0)
    """Colocation priced per kW of the node's draw and month (a country's default)."""
    colocation_usd_per_month: float = Field(default=0.0, ge=0)
    """Colocation as a flat monthly amount (your own figure)."""
    staff_usd_per_month: float = Field(default=0.0, ge=0)
    """The share of an engineer's salary one server takes, per month."""

    @classmethod
    def from_server(cls, server: OwnServer) -> ServerAssumptions:
        return cls(
            server_price_usd=server.price_usd,
            gpus_per_server=server.gpus_per_server,
            months=server.months,
            hours_per_month=server.hours_per_month,
            gpu_watts=server.gpu_watts,
            power_overhead=server.power_overhead_factor,
            usd_per_kwh=server.usd_per_kwh,
            rack_usd_per_month=server.rack_usd_per_month,
            residual=server.residual_share,
        )


class OwnHardwareCost(BaseModel):
    """Cost of one owned GPU per calendar hour: the documents' three lines (capital, power, rack) and
    colocation and staff beside them."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    capital: float
    power: float
    rack: float
    colocation: float
    staff: float
    total: float
    hours_written_off: float
    usd_per_gpu_capital: float
    node_kw: float
    capital_usd_per_month: float
    power_usd_per_month: float
    colocation_usd_per_month: float
    server_usd_per_month: float


def own_hardware_cost(a: ServerAssumptions) -> OwnHardwareCost:
    """Capital (price after residual value over the write-off hours), power, rack, colocation and staff
    per GPU-hour."""
    hours = a.months * a.hours_per_month
    gpu_hours_per_month = a.gpus_per_server * a.hours_per_month
    per_gpu = a.server_price_usd / a.gpus_per_server
    capital = per_gpu * (1 - a.residual) / hours
    node_kw = a.gpu_watts * a.gpus_per_server * a.power_overhead / 1000
    power_per_month = node_kw * a.hours_per_month * a.usd_per_kwh
    power = power_per_month / gpu_hours_per_month
    rack = a.rack_usd_per_month / gpu_hours_per_month
    colocation_per_month = node_kw * a.colocation_usd_per_kw_month + a.colocation_usd_per_month
    colocation = colocation_per_month / gpu_hours_per_month
    staff = a.staff_usd_per_month / gpu_hours_per_month
    total = capital + power + rack + colocation + staff
    return OwnHardwareCost(
        capital=capital,
        power=power,
        rack=rack,
        colocation=colocation,
        staff=staff,
        total=total,
        hours_written_off=hours,
        usd_per_gpu_capital=per_gpu,
        node_kw=node_kw,
        capital_usd_per_month=a.server_price_usd * (1 - a.residual) / a.months,
        power_usd_per_month=power_per_month,
        colocation_usd_per_month=colocation_per_month,
        server_usd_per_month=total * gpu_hours_per_month,
    )


def break_even_utilization(own_usd_per_gpu_hour: float, rent_usd_per_gpu_hour: float) -> float:
    """Share of calendar hours an owned card must emit tokens to beat renting at the given price.

    An owned card costs its fixed calendar cost whether busy or not, so its cost per used hour is
    ``own / utilization``; it beats renting once that falls below the rental price.
    """
    return own_usd_per_gpu_hour / rent_usd_per_gpu_hour


def api_usd_per_month(
    api: ApiPrice,
    requests_per_day: float,
    days_per_month: float,
    input_tokens: int,
    output_tokens: int,
    usd_per_eur: float,
) -> float:
    per_request = (
        input_tokens * api.input_per_million_tokens + output_tokens * api.output_per_million_tokens
    ) / TOKENS_PER_MILLION
    to_usd = usd_per_eur if api.currency == "EUR" else 1.0
    return per_request * to_usd * requests_per_day * days_per_month


def node_busy_share(
    gpus_needed: int, card_utilization: float, paid_hours_per_month: float, node_cards: int, server: OwnServer
) -> float:
    """Busy card-hours of the cards the workload needs over all of the node's calendar card-hours. A
    31-day month pays 744 hours against the server's average 730: each card is busy at most always, so
    the paid hours count at most the calendar's."""
    if node_cards == 0:
        return 0.0
    busy_gpu_hours = gpus_needed * card_utilization * min(paid_hours_per_month, server.hours_per_month)
    return min(1.0, busy_gpu_hours / (node_cards * server.hours_per_month))
