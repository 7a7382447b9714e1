"""The last rule stage: the managed API against the cheapest self-hosted route the rules left standing
(serverless, own hardware or dedicated GPUs), read from the conclusions of the serverless and economics
stages, never from their conditions; and what a kept-warm serverless instance costs against scaling to
zero."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple

from gpu_advisor.engine.calc.api_windows import cut_window_words, window_cut_short
from gpu_advisor.engine.calc.load import scheduled_window
from gpu_advisor.engine.calc.server_costs import server_costs
from gpu_advisor.engine.calc.traffic import HOURS_PER_DAY, SECONDS_PER_HOUR
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.providers import Provider
from gpu_advisor.engine.domain.results import ApiCost
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.pipeline.routes import SELF_HOSTED, SelfHosted, cheapest_route, stopgap_route
from gpu_advisor.engine.pipeline.serverless import PricedServerless
from gpu_advisor.engine.pipeline.serverless_weighing import serverless_name
from gpu_advisor.engine.rulebook.conclusions import ruled_out_deployments
from gpu_advisor.engine.rulebook.details import ApiDetails
from gpu_advisor.engine.rulebook.durable import FactSession, Firing
from gpu_advisor.engine.rulebook.facts import ApiFact, Fact
from gpu_advisor.engine.rulebook.schema import Rule

SECONDS_PER_MINUTE = 60


class Standing(NamedTuple):
    usd_per_month: float
    name: str | Words
    kind: str
    """The route's deployment kind (serverless, dedicated_cloud, ...; api for the managed API)."""


def weigh_api(
    session: FactSession,
    facts: Fact,
    market: Market,
    knowledge: Knowledge,
    rules: Sequence[Rule],
    evaluated_on: dt.date,
    resolved: ResolvedWorkload,
) -> tuple[list[Firing], ApiDetails]:
    """Assert the api fact; ``rules``: every rule fired so far; ``knowledge``: the providers' limits."""
    api, route = market.compared_api, cheapest_route(market, rules, SELF_HOSTED)
    ruled_out = ruled_out_deployments(rules)
    standing = cheapest_standing(market, ruled_out, route)
    # What the kept-warm instances cost against scaling to zero (DEP031 where the latency sensitivity is
    # the default, DEP048 where the workload states it): priced wherever a rule keeps instances warm and
    # scaling to zero could bill less than the cheapest route standing (no saving is read otherwise).
    cold = market.serverless.scale_to_zero_under(standing.usd_per_month) if standing else None
    saving = (
        1 - cold.bill.usd_per_month / standing.usd_per_month
        if cold and standing and standing.usd_per_month
        else 0.0
    )
    unusable = cheapest_unusable_api(market)
    provider = knowledge.provider(route.provider) if route and route.provider else None
    limit = provider.spend_limit if provider else None
    in_flight = market.load.requests_in_flight_peak
    window = window_in_flight(market, resolved, knowledge)
    minute = minute_rate(market, resolved, window)
    # A window cut short elsewhere, for an API whose window the catalog does not record.
    cut = window_cut_short(knowledge, resolved.context_tokens, api.api if api else "")
    fact = ApiFact(
        api_priced=api is not None,
        unusable_api_priced=unusable is not None,
        unusable_api_usd_per_month=float(unusable.usd_per_month) if unusable else 0.0,
        api_usd_per_month=float(api.usd_per_month) if api else 0.0,
        api_same_model=bool(api and api.same_model),
        api_model_params_b=float(api.model_params_b or 0.0) if api else 0.0,
        api_price_age_days=(evaluated_on - api.as_of).days if api else 0,
        api_window_recorded=api is None or api.context_window_tokens is not None,
        windows_cut_short=cut is not None,
        self_hosted_priced=route is not None,
        self_hosted_usd_per_month=float(route.usd_per_month) if route else 0.0,
        self_hosted_saving_vs_api=1 - route.usd_per_month / api.usd_per_month
        if route and api and api.usd_per_month
        else 0.0,
        self_hosted_saving_usd_per_month=api.usd_per_month - route.usd_per_month if route and api else 0.0,
        self_hosted_commits=route.commits if route else False,
        **operating_staff_facts(knowledge, resolved.company_country),
        self_hosted_kind=route.kind if route else "",
        self_hosted_price_age_days=(evaluated_on - route.as_of).days if route else 0,
        self_hosted_peak_usd_per_hour=float(route.peak_usd_per_hour) if route else 0.0,
        self_hosted_spend_limited=limit is not None,
        self_hosted_spend_limit_usd_per_hour=float(limit.usd_per_hour) if limit else 0.0,
        self_hosted_peak_instances=route.peak_instances if route else 0,
        **worker_limit_facts(route),
        **idle_scale_down_facts(route),
        idle_days_between_runs=idle_days_between_runs(resolved, knowledge),
        **api_limit_facts(api),
        **minute_rate_facts(minute),
        peak_in_flight_known=in_flight is not None,
        peak_requests_in_flight=float(in_flight or 0.0),
        window_in_flight_known=window is not None,
        window_requests_in_flight=window.in_flight if window else 0.0,
        serverless_sla=serverless_sla(market),
        api_ruled_out="api" in ruled_out,
        serverless_ruled_out="serverless" in ruled_out,
        scale_to_zero_priced=cold is not None and standing is not None,
        scale_to_zero_waits=cold is not None and cold.bill.priced.month.starts >= 1,
        scale_to_zero_saving=float(saving),
        cheapest_standing_priced=standing is not None,
        cheapest_standing_usd_per_month=float(standing.usd_per_month) if standing else 0.0,
        owned_base_priced=market.owned_base is not None and standing is not None,
        owned_base_saving=1 - market.owned_base.usd_per_month / standing.usd_per_month
        if market.owned_base and standing and standing.usd_per_month
        else 0.0,
    )
    # A stopgap is named only where the cheapest route standing binds a purchase or a term.
    stopgap = stopgap_route(market, ruled_out) if route and route.commits else None
    details = _api_details(
        market, route, provider, window, cold, standing, unusable, stopgap, cut_window_words(knowledge, cut)
    )
    return session.assert_fact(fact, facts), details


def operating_staff_facts(knowledge: Knowledge, country: str) -> dict[str, Any]:
    """The staff line of one owned data-centre server in ``country`` (the default server's), where the
    catalog or the overrides give one."""
    costs = server_costs(knowledge, knowledge.own_server(), country).costs
    staff = next(
        (line for line in costs.lines if line.line == "staff" and line.origin not in ("none", "not_costed")),
        None,
    )
    return {
        "operating_staff_known": staff is not None,
        "operating_staff_usd_per_month": float(staff.usd_per_month) if staff else 0.0,
    }


def _api_details(
    market: Market,
    route: SelfHosted | None,
    provider: Provider | None,
    window: Window | None,
    cold: PricedServerless | None,
    standing: Standing | None,
    unusable: ApiCost | None,
    stopgap: SelfHosted | None,
    window_cut: str | Words,
) -> ApiDetails:
    """What the api rules' messages name beside the fact: the compared API and the self-hosted route
    (``provider``: the route's), a batch's window, the serverless product scaled to zero, the cheapest
    route standing, the API prices that cannot stand in and the stopgap that binds no purchase."""
    api = market.compared_api
    return ApiDetails(
        api_name=api.name if api else "",
        api_as_of=api.as_of.isoformat() if api else "",
        api_provider=(api.provider or "") if api else "",
        self_hosted_kind=route.kind if route else "",
        self_hosted_name=route.name if route else "",
        self_hosted_staff_uncosted=market.own.costs.country
        if route is not None and route.kind == "own_hardware" and market.own.costs.staff_uncosted
        else "",
        self_hosted_as_of=route.as_of.isoformat() if route else "",
        self_hosted_provider_name=provider.name if provider else "",
        self_hosted_spare_usd_per_month=route.spare_usd_per_month if route else 0.0,
        self_hosted_spare_replicas=route.spare_replicas if route else 0,
        self_hosted_capital_usd=market.own.capital_usd
        if route is not None and route.kind == "own_hardware"
        else 0.0,
        stopgap_name=stopgap.name if stopgap else "",
        stopgap_kind=stopgap.kind if stopgap else "",
        stopgap_usd_per_month=stopgap.usd_per_month if stopgap else 0.0,
        in_flight_gpu=market.load.busy_share_gpu or "",
        window_requests_per_second=window.requests_per_second if window else 0.0,
        request_seconds_alone=window.seconds_alone if window else 0.0,
        window_gpu=window.gpu if window else "",
        api_rate_limit_scope=api.rate_limit_scope if api else "",
        window_cut_short=window_cut,
        scale_to_zero_name=serverless_name(cold) if cold else "",
        scale_to_zero_usd_per_month=cold.bill.usd_per_month if cold else 0.0,
        scale_to_zero_cold_start_seconds=cold.bill.priced.cold if cold else 0.0,
        scale_to_zero_starts_per_month=cold.bill.priced.month.starts if cold else 0.0,
        standing_name=standing.name if standing else "",
        standing_usd_per_month=standing.usd_per_month if standing else 0.0,
        standing_kept_warm=bool(standing and standing.kind == "serverless"),
        **unusable_api_details(market, unusable),
        **owned_base_details(market),
    )


class Window(NamedTuple):
    """What a batch sent to a real-time API keeps in flight at least (PRV016)."""

    requests_per_second: float
    """A run's requests over its window (the workload's, within the schedule's hours a day: the API is
    not held to the GPUs' paid hours)."""
    seconds_alone: float
    """One request's time alone on a replica of ``gpu``: the shortest of any GPU planned, so that their
    product is a floor for an API as fast as the fastest replica."""
    gpu: str

    @property
    def in_flight(self) -> float:
        return self.requests_per_second * self.seconds_alone


def window_in_flight(market: Market, resolved: ResolvedWorkload, knowledge: Knowledge) -> Window | None:
    """A batch's requests in flight at least, sent to a real-time API within its window (``Window``);
    None for a service, or where no GPU holds the model."""
    if not market.load.served_in_paid_hours or resolved.batch_window_hours is None or not market.plans:
        return None
    hours = scheduled_window(knowledge.schedule(resolved.schedule), resolved.batch_window_hours)
    gpu, plan = min(market.plans.items(), key=lambda item: (item[1].service.alone, item[0]))
    return Window(resolved.requests_per_day / (hours * SECONDS_PER_HOUR), plan.service.alone, gpu)


def worker_limit_facts(route: SelfHosted | None) -> dict[str, Any]:
    """A serverless route's product's default limits on its workers (PRV019), where the catalog has them."""
    limits = route.worker_limits if route else None
    if limits is None:
        return {}
    return {
        "self_hosted_workers_limited": True,
        "self_hosted_workers_per_endpoint": limits.per_endpoint,
        "self_hosted_workers_per_account": limits.per_account,
    }


def idle_scale_down_facts(route: SelfHosted | None) -> dict[str, Any]:
    """How a serverless route's product scales down an endpoint idle for days (PRV023, PRV024), where
    the catalog has it."""
    idle = route.idle_scale_down if route else None
    if idle is None:
        return {}
    return {
        "self_hosted_idle_scale_down": True,
        "self_hosted_workers_lowered_after_days": idle.lowered_after_days,
        "self_hosted_workers_lowered_to": idle.lowered_to_workers,
        "self_hosted_workers_stopped_after_days": idle.stopped_after_days,
    }


def idle_days_between_runs(resolved: ResolvedWorkload, knowledge: Knowledge) -> float:
    """A batch's days without a request between the end of one run and the start of the next, its runs
    spread evenly over the calendar month (a weekly batch of 8 hours: 30.42 / 4.35 days less 8 hours,
    about 6.66); 0 for a service."""
    if resolved.batch_window_hours is None or resolved.batch_runs_per_month is None:
        return 0.0
    days = knowledge.calendar_hours_per_month() / HOURS_PER_DAY
    return max(0.0, days / resolved.batch_runs_per_month - resolved.batch_window_hours / HOURS_PER_DAY)


def api_limit_facts(api: ApiCost | None) -> dict[str, Any]:
    """An API's default limits as the api fact (recommend) and the proposal fact (check) carry them:
    whether the catalog records each, and its value (0 where it does not)."""
    return {
        "api_batch": bool(api and api.batch),
        "api_concurrency_limited": bool(api and api.concurrent_requests),
        "api_concurrent_requests": (api.concurrent_requests or 0) if api else 0,
        "api_requests_per_minute_limited": bool(api and api.requests_per_minute),
        "api_requests_per_minute": (api.requests_per_minute or 0) if api else 0,
        "api_tokens_per_minute_limited": bool(api and api.tokens_per_minute),
        "api_tokens_per_minute": (api.tokens_per_minute or 0) if api else 0,
    }


def minute_rate_facts(minute: tuple[float, float] | None) -> dict[str, Any]:
    """``minute_rate`` as facts: whether it is worked out, and the requests and tokens a minute."""
    return {
        "minute_rate_known": minute is not None,
        "requests_per_minute_needed": minute[0] if minute else 0.0,
        "tokens_per_minute_needed": minute[1] if minute else 0.0,
    }


def minute_rate(
    market: Market, resolved: ResolvedWorkload, window: Window | None
) -> tuple[float, float] | None:
    """The requests and tokens (input and output) a minute a real-time API must take: a service's busiest
    minutes (the load's peak), a batch's window rate (``window_in_flight``); None for a batch without a
    window worked out."""
    tokens = resolved.avg_input_tokens + resolved.avg_output_tokens
    if market.load.served_in_paid_hours:
        if window is None:
            return None
        per_second = window.requests_per_second
    else:
        per_second = market.load.peak_requests_per_second
    return per_second * SECONDS_PER_MINUTE, per_second * tokens * SECONDS_PER_MINUTE


def cheapest_standing(
    market: Market, ruled_out: Mapping[str, tuple[str, ...]], route: SelfHosted | None
) -> Standing | None:
    """The cheapest route still standing: the self-hosted ``route``, or the managed API where no rule
    fired so far rules it out (``ruled_out``: own weights, data that may not leave the building)."""
    found = [Standing(route.usd_per_month, route.name, route.kind)] if route else []
    api = market.compared_api
    if api is not None and "api" not in ruled_out:
        found.append(Standing(api.usd_per_month, api.name, "api"))
    # Ties by the English name, as a name said in words has no order of its own.
    return min(found, key=lambda standing: (standing.usd_per_month, str(standing.name)), default=None)


def cheapest_unusable_api(market: Market) -> ApiCost | None:
    """Where no API price the workload may use stands in, the cheapest of its model's size or larger that
    a rule excludes or that takes shorter requests: what an API costs at the prices the catalog knows
    (DEP042, DEP043). A batch API's price is left out, as in ``unusable_api_details``."""
    if market.compared_api is not None:
        return None
    # The same prices the message's reason describes: those that take the requests (all excluded, as
    # none is compared), else the open ones of the size that take shorter ones, else those excluded too.
    unusable = _standing(market) or too_short_apis(market) or _too_short(market)
    return min(unusable, key=lambda a: (a.usd_per_month, a.api), default=None)


def _standing(market: Market) -> list[ApiCost]:
    """The prices sold per request that stand in for the model: of its size or larger, taking its
    requests."""
    return [a for a in market.apis if a.stands_in and not a.batch]


def _too_short(market: Market) -> list[ApiCost]:
    return [a for a in market.apis if a.large_enough and not a.batch and a.exceeded_limit]


def too_short_apis(market: Market) -> list[ApiCost]:
    """The prices of the model's size or larger (sold per request) that take shorter requests than the
    workload's and that no rule excludes: a price excluded anyway (a product withdrawn, KNB018; a place
    personal data may not go) is named by its exclusion, not by its limit, as the memo names them
    (``too_short`` in templates/memo.md.j2) and ``check`` (DEP039)."""
    return [a for a in _too_short(market) if not a.excluded_by]


def unusable_api_details(market: Market, unusable: ApiCost | None) -> dict[str, Any]:
    """Why no API price stands in for the model, as DEP042 says it: the rules that exclude every one of
    its size or larger that takes its requests (or, where none does and none of those that take shorter
    ones is open, that excludes every one of those), or that every such price takes shorter requests;
    and ``unusable`` (``cheapest_unusable_api``) by name. A batch API's price is left out: its own
    exclusion (not batch work) is not what keeps the API out."""
    named = {"unusable_api_name": unusable.name} if unusable else {}
    short = too_short_apis(market)
    shut = _standing(market) or ([] if short else _too_short(market))
    if shut:
        excluded = (
            ""
            if not all(a.excluded_by for a in shut)
            else ", ".join(sorted({r for a in shut for r in a.excluded_by}))
        )
        return {**named, "api_excluded_by": excluded}
    limits = {a.exceeded_limit for a in short}
    return {**named, "api_exceeded_limit": "window" if "window" in limits else "answer" if limits else ""}


def owned_base_details(market: Market) -> dict[str, Any]:
    """What TCO022 names of the owned base and its hourly peaks."""
    owned = market.owned_base
    if owned is None:
        return {}
    peak = owned.peak.listing.offer
    return {
        "owned_base_server_name": market.own.server_name,
        "owned_base_nodes": owned.nodes,
        "owned_base_quietest_replicas": owned.base_replicas,
        "owned_base_replicas": owned.base_replicas_hosted,
        "owned_base_base_usd_per_month": owned.base_usd_per_month,
        "owned_base_peak_name": f"{peak.provider}/{peak.offer}",
        "owned_base_peak_gpus_max": owned.peak_gpus_rented_max,
        "owned_base_peak_gpu_hours": owned.peak_gpu_hours_per_month,
        "owned_base_peak_usd_per_month": owned.peak_usd_per_month,
        "owned_base_usd_per_month": owned.usd_per_month,
        "owned_base_staff_uncosted": market.own.costs is not None and market.own.costs.staff_uncosted,
    }


def serverless_sla(market: Market) -> Literal["published", "none", "unknown"]:
    """Whether the cheapest admitted serverless option's provider publishes an enterprise SLA for it."""
    best = market.serverless.best
    sla = best.listing.attributes["enterprise_sla"] if best is not None else None
    return "unknown" if sla is None else "published" if sla else "none"
