"""The stage that asserts the ``serverless`` fact, whose rules decide whether serverless is proposed: the
cheapest serverless option (``pipeline/serverless.py``) against the cheapest other self-hosted route, and
the details the rules' messages show. It comes before the economics stage, which reads what they
concluded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.pipeline.serverless import PricedServerless, ServerlessMarket, cheapest
from gpu_advisor.engine.rulebook.details import ServerlessDetails
from gpu_advisor.engine.rulebook.durable import FactSession, Firing
from gpu_advisor.engine.rulebook.facts import Fact, ServerlessFact
from gpu_advisor.engine.rulebook.message_reads import read_by_fired
from gpu_advisor.engine.rulebook.schema import Rulebook


def serverless_fact(
    time_utilization: float,
    market: ServerlessMarket,
    alternative: Alternative | None,
    residency: frozenset[str],
    rentals_kept_without_automation: bool = False,
) -> ServerlessFact:
    best = market.best
    priced = best.bill.priced if best else None
    # Counted only for an instance that scales to zero (none is kept warm for latency).
    between = priced.between_requests_scaling if priced else 0.0
    return ServerlessFact(
        utilization=float(time_utilization),
        serverless_fits=bool(market.candidates),
        serverless_residency_excluded=any(residency.intersection(c.excluded_by) for c in market.candidates),
        serverless_offered=best is not None,
        serverless_usd_per_month=float(best.bill.usd_per_month) if best else 0.0,
        serverless_kept_warm=market.kept_warm,
        # At least one start a month, as the memo counts them (a fraction of one rounds to none).
        serverless_scales_to_zero=round(between) >= 1,
        # Instances kept warm through every hour (PRC035) bill the unpaid hours as the kept rentals do.
        serverless_stops_where_rentals_bill=rentals_kept_without_automation
        and best is not None
        and not kept_every_hour(market),
        has_alternative=alternative is not None,
        alternative_usd_per_month=float(alternative.usd_per_month) if alternative else 0.0,
    )


def kept_every_hour(market: ServerlessMarket) -> bool:
    """The cheapest option keeps instances running every calendar hour, its minimum not changed on the
    schedule (PRC035)."""
    priced = market.best.bill.priced if market.best else None
    return bool(priced and priced.kept and market.pricer.workload.kept_every_hour)


def peak_usd_per_hour(best: PricedServerless) -> float:
    """What ``best``'s instances cost an hour at the peak: those kept warm at the price of instances that
    always run, the others at the scaling price."""
    priced, listing = best.bill.priced, best.listing
    kept = min(priced.kept, priced.instances_at_peak)
    scaling = priced.instances_at_peak - kept
    return priced.size * (kept * listing.warm_usd_per_gpu_hour + scaling * listing.usd_per_gpu_hour)


SlaOf = Callable[[str], bool | None]
"""A provider's enterprise SLA (``Provider.enterprise_sla``: None where it could not be established)."""


def sla_said(provider: str, sla_of: SlaOf) -> str:
    """'published', 'none' or 'unknown' for a provider's enterprise SLA; '' where there is no provider."""
    if not provider:
        return ""
    sla = sla_of(provider)
    return "unknown" if sla is None else "published" if sla else "none"


def serverless_details(
    market: ServerlessMarket,
    alternative: Alternative | None,
    weights_gb: float,
    staff_uncosted: str,
    sla_of: SlaOf,
) -> ServerlessDetails:
    best = market.best
    priced = best.bill.priced if best else None
    month = priced.month if priced else None
    return ServerlessDetails(
        serverless_name=serverless_name(best) if best else "",
        serverless_gpu=best.listing.gpu.gpu if best else "",
        serverless_instance_gpus=priced.size if priced else 0,
        serverless_billed_hours=best.bill.billed_hours_per_month if best else 0.0,
        serverless_busy_hours=month.busy if month else 0.0,
        serverless_idle_hours=month.idle if month else 0.0,
        serverless_cold_start_hours=month.cold if month else 0.0,
        serverless_cold_starts=month.starts if month else 0.0,
        serverless_starts_between_requests=priced.between_requests_scaling if priced else 0.0,
        serverless_kept_for_price=priced.kept_for_price if priced else 0,
        serverless_scale_ups=month.scale_ups if month else 0.0,
        serverless_cold_start_seconds=priced.cold if priced else 0.0,
        serverless_kept_warm_instances=priced.kept if priced else 0,
        serverless_kept_run_on=bool(
            best and month and month.kept_restarts and best.listing.product.paused_at_once is None
        ),
        serverless_kept_every_hour=kept_every_hour(market),
        alternative_name=alternative.name if alternative else "",
        alternative_kind=alternative.kind if alternative else "",
        alternative_staff_uncosted=(
            staff_uncosted if alternative and alternative.kind == "own_hardware" else ""
        ),
        model_weights_gb=weights_gb,
        alternative_billed_hours=alternative.billed_hours if alternative else 0.0,
        serverless_sla=sla_said(best.listing.product.provider, sla_of) if best else "",
        alternative_sla=sla_said(alternative.provider, sla_of) if alternative else "",
    )


def start_break_even(market: ServerlessMarket, alternative: Alternative | None) -> dict[str, float | bool]:
    """The seconds more a start of the cheapest serverless option may take before it bills what
    ``alternative`` does (``ServerlessMarket.start_break_even``), for DEP018's message: its cold starts
    are floors, and the model server's own start-up adds to each."""
    found = market.start_break_even(alternative.usd_per_month) if alternative is not None else None
    if found is None:
        return {}
    seconds, beyond = found
    return {"serverless_break_even_seconds": seconds, "serverless_break_even_beyond": beyond}


def set_aside(market: ServerlessMarket, residency: frozenset[str]) -> dict[str, object]:
    """Where no serverless product is admitted, the cheapest one priced that no residency rule excludes,
    with the rules that do exclude it (``ServerlessDetails.set_aside_serverless_name``); nothing where one
    is admitted, or none is priced outside those rules (a place the data may not go is no comparison)."""
    if market.best is not None:
        return {}
    found = cheapest(
        list(market.candidates), market.pricer, lambda c: not residency.intersection(c.excluded_by)
    )
    if found is None:
        return {}
    return {
        "set_aside_serverless_name": serverless_name(found),
        "set_aside_serverless_usd_per_month": found.bill.usd_per_month,
        "set_aside_serverless_gpu_hours": found.bill.billed_hours_per_month * found.bill.priced.size,
        "set_aside_serverless_by": found.excluded_by,
    }


class Alternative(Protocol):
    """A self-hosted route beside serverless (``pipeline/routes.py``)."""

    @property
    def usd_per_month(self) -> float: ...
    @property
    def billed_hours(self) -> float: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str | Words: ...
    @property
    def provider(self) -> str: ...


def serverless_name(priced: PricedServerless) -> str:
    """'RunPod Serverless (eu-datacenters, 1 × h200)': the same in every language."""
    listing = priced.listing
    return f"{listing.product.name} ({listing.region}, {priced.bill.priced.size} × {listing.gpu.gpu})"


def weigh_serverless(
    session: FactSession,
    facts: Fact,
    market: ServerlessMarket,
    alternative: Alternative | None,
    time_utilization: float,
    weights_gb: float,
    staff_uncosted: str,
    residency: frozenset[str],
    rulebook: Rulebook,
    sla_of: SlaOf,
    rentals_kept_without_automation: bool = False,
) -> tuple[list[Firing], ServerlessDetails]:
    """Assert the serverless fact: the band's statements, and the comparison of the cheapest serverless
    option with ``alternative``, the cheapest other self-hosted route the rules left standing; its
    firings and the details their messages show (``staff_uncosted``: the company's country where the
    own hardware's staff line has no salary there; ``residency``: the IDs of the residency rules;
    ``sla_of``: a provider's enterprise SLA, for the messages that weigh the two providers' terms;
    ``rentals_kept_without_automation``: a rule keeps the rentals through the unpaid hours for want of
    automation, PRC036).
    The start-up break-even is worked out only where a fired rule's message shows it."""
    fact = serverless_fact(time_utilization, market, alternative, residency, rentals_kept_without_automation)
    firings = session.assert_fact(fact, facts)
    details = serverless_details(market, alternative, weights_gb, staff_uncosted, sla_of)
    read = read_by_fired(firings, rulebook)
    if "serverless_break_even_seconds" in read:
        details = details.model_copy(update=start_break_even(market, alternative))
    if "set_aside_serverless_name" in read:
        details = details.model_copy(update=set_aside(market, residency))
    return firings, details
