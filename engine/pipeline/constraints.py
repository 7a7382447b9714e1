"""Stage 2, constraints: the workload's own facts. Its rules rule deployments out, exclude options, prefer
a pricing kind and propose deployments that need no price (the API under the volume line, own hardware on
premises)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gpu_advisor.engine.calc.api_costs import ApiListing, api_listings, large_enough, nearest_class
from gpu_advisor.engine.calc.card_keys import cards_key, parse_cards
from gpu_advisor.engine.calc.listing_frames import offer_linked_sizes
from gpu_advisor.engine.calc.listings import Listing, listings
from gpu_advisor.engine.calc.serverless import ServerlessListing, serverless_listings
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.calc.traffic import (
    idle_served_hours,
    share_outside_busiest_hours,
    share_outside_served_hours,
)
from gpu_advisor.engine.common.caching import cleared_with_the_others, per_object
from gpu_advisor.engine.domain.batch_fields import LATENCY_TARGETS
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.fit import GpuVerdicts
from gpu_advisor.engine.rulebook.conclusions import (
    concludes,
    excluded_by,
    fired_rules,
    option_filters,
    preferred_pricing,
    removed_deployments,
    ruled_out_deployments,
)
from gpu_advisor.engine.rulebook.durable import FactSession, Firing
from gpu_advisor.engine.rulebook.facts import Fact, WorkloadContext, WorkloadFact, WorkloadFacts
from gpu_advisor.engine.rulebook.schema import Rule, Rulebook


def workload_facts(resolved: ResolvedWorkload, knowledge: Knowledge) -> Fact:
    """The workload's facts, asserted beside every fact about the workload: its own fields, and what the
    knowledge base says about them."""
    # The fields the context declares itself (a batch's window, a service's none) are set below.
    own = {
        name: getattr(resolved, name)
        for name in WorkloadFacts.model_fields
        if name in type(resolved).model_fields and name not in WorkloadContext.model_fields
    }
    schedule = knowledge.schedule(resolved.schedule)
    return WorkloadFacts(
        **own,
        # days_per_month is a batch's runs, a service's schedule days (pipeline/defaults.py). The ratio
        # first: where the two are the same day count it is exactly 1 (130,000 x 30.42 / 30.42 is
        # 129,999.99999999999, read as fewer requests on a day of the schedule, DEP034).
        requests_per_schedule_day=(
            resolved.requests_per_day * (resolved.days_per_month / schedule.days_per_month)
        ),
        schedule_hours_per_month=schedule.hours_per_month,
        calendar_hours_per_month=knowledge.calendar_hours_per_month(),
        paid_share_of_calendar=resolved.hours_per_month / knowledge.calendar_hours_per_month(),
        schedule_has_days_off=schedule.days_per_month < knowledge.schedule("always").days_per_month,
        min_replicas_given="min_replicas" not in resolved.defaults_used,
        latency_sensitive_given="latency_sensitive" not in resolved.defaults_used,
        devops_capacity_given="devops_capacity" not in resolved.defaults_used,
        latency_targets_given=(
            resolved.max_time_to_first_token_ms is not None
            or resolved.max_time_per_output_token_ms is not None
        ),
        latency_targets_stated=any(resolved.states(field) for field in LATENCY_TARGETS),
        export_restricted_country=knowledge.export_restricted(resolved.company_country),
        company_region=knowledge.data_protection_region(resolved.company_country),
        company_vat_rate_known=knowledge.vat_rates.of(resolved.company_country) is not None,
        is_moe=resolved.is_moe,
        **_batch_facts(resolved),
        context_is_average_request=(
            "context_tokens" in resolved.defaults_used
            and resolved.context_tokens > knowledge.workload_default_values()["context_tokens"]
        ),
        profile_given="load_profile" not in resolved.defaults_used,
        profile_share_outside_schedule=share_outside_served_hours(
            tuple(resolved.load_profile), schedule.first_hour, schedule.hours_per_day
        ),
        profile_share_outside_paid_hours=share_outside_busiest_hours(
            tuple(resolved.load_profile),
            schedule.first_hour,
            schedule.hours_per_day,
            resolved.hours_per_month / schedule.days_per_month,
        ),
        profile_idle_served_hours=idle_served_hours(
            tuple(resolved.load_profile), schedule.first_hour, schedule.hours_per_day
        ),
    )


def _batch_facts(resolved: ResolvedWorkload) -> dict[str, Any]:
    """A batch's window and runs a month (a service has neither: ``pipeline.defaults``)."""
    if resolved.batch_window_hours is None or resolved.batch_runs_per_month is None:
        return {}
    return {
        "batch": True,
        "batch_window_hours": resolved.batch_window_hours,
        "batch_runs_per_month": resolved.batch_runs_per_month,
    }


def fits_one_small_card(figures: SizingFigures, knowledge: Knowledge) -> bool:
    limit = knowledge.threshold("small_card_max_memory_gb").value
    return any(fit.gpus_with_kv_reserve == 1 and fit.memory_gb <= limit for fit in figures.fits)


def larger_memory_fewer_cards(figures: SizingFigures, knowledge: Knowledge) -> bool:
    """Some GPU with more memory than the reference GPU holds a replica in fewer cards (SIZ005)."""
    reference_gpu = knowledge.sizing.reference_gpu.gpu
    reference = next((fit for fit in figures.fits if fit.gpu == reference_gpu), None)
    if reference is None:
        return False
    cards = reference.gpus_with_kv_reserve
    return any(
        fit.memory_gb > reference.memory_gb
        and fit.gpus_with_kv_reserve is not None
        and (cards is None or fit.gpus_with_kv_reserve < cards)
        for fit in figures.fits
    )


def other_reasoning_api_nearest(
    figures: SizingFigures,
    knowledge: Knowledge,
    model: str,
    reasoning: bool,
    excluding: Sequence[Rule] = (),
) -> bool:
    """Among the API prices large enough to stand in for the model that ``excluding``'s exclusions leave,
    those the comparison would choose among (``api_costs.nearest_class``: the model's own, else the
    nearest size class) include one whose model reasons where the workload's does not, or the other way
    round."""
    listed = api_listings(knowledge)
    exclusions = api_exclusions(listed, excluding) if excluding else ((),) * len(listed)
    fitting = [
        listing.api
        for listing, excluded in zip(listed, exclusions, strict=True)
        if not excluded and large_enough(listing.api, figures.params_b, figures.active_params_b)
    ]
    tier = nearest_class(fitting, lambda api: bool(model) and api.model == model, lambda api: api)
    return any(api.model_reasoning != reasoning for api in tier)


def workload_fact(
    figures: SizingFigures,
    knowledge: Knowledge,
    planned: str = "",
    reasoning: bool = False,
    model: str = "",
) -> WorkloadFact:
    """``planned``: the cards per replica the load was planned on (``Capacity.cards``): a GPU with no
    usual count within the allowed counts holds a light load there (``count_limits.below_usual_count``);
    ``reasoning``: the workload's model thinks before it answers (``ResolvedWorkload.reasoning``)."""
    light = parse_cards(planned)
    return WorkloadFact(
        weights_gb=float(figures.weights_gb),
        fits_any_gpu=any(fit.gpus_with_kv_reserve is not None or fit.gpu in light for fit in figures.fits),
        fits_one_small_card=fits_one_small_card(figures, knowledge),
        larger_memory_fewer_cards=larger_memory_fewer_cards(figures, knowledge),
        superseded_prices_listed=any(offer.superseded_by for offer in knowledge.offers.offers),
        withdrawn_api_stands_in=any(
            large_enough(api, figures.params_b, figures.active_params_b) for api in knowledge.withdrawn_apis()
        ),
        other_reasoning_api_stands_in=other_reasoning_api_nearest(figures, knowledge, model, reasoning),
    )


Listed = tuple[ServerlessListing, ...] | tuple[Listing, ...]

ExclusionTables = dict[tuple[int, ...], tuple[tuple[Rule, ...], tuple[tuple[str, ...], ...]]]
"""Excluding rules (by identity) -> those rules and the exclusions they make."""


def rule_exclusions(listed: Listed, rules: Sequence[Rule]) -> tuple[tuple[str, ...], ...]:
    """For every listing (in the order given), the IDs of the fired rules whose exclusions match it;
    the same for the workload as given and for its quantized variant. Few sets of excluding rules
    occur, so the table is kept per set."""
    excluding = tuple(rule for rule in rules if rule.then.exclude_options)
    if not excluding:
        return ((),) * len(listed)
    return exclusion_table(listed, excluding, _exclusion_tables(listed))


def exclusion_table(
    listed: Listed | tuple[ApiListing, ...], excluding: tuple[Rule, ...], tables: ExclusionTables
) -> tuple[tuple[str, ...], ...]:
    """For every listing, the IDs of the ``excluding`` rules whose exclusions on its fields
    (``option_fields``) match it, kept in ``tables`` per set of excluding rules."""
    key = tuple(map(id, excluding))
    found = tables.get(key)
    if found is None:
        if len(tables) >= EXCLUSION_TABLES_KEPT:
            tables.clear()
        fields = option_fields(listed)
        filters = [(rule_id, f) for rule_id, f in option_filters(excluding) if f.fields <= fields]
        table = tuple(tuple(excluded_by(listing.attributes, filters)) for listing in listed)
        found = tables[key] = (excluding, table)  # the rules are kept, so their ids stay theirs
    return found[1]


OWN_SERVER_FIELD = "housing"


def excluded_housings(rules: Sequence[Rule], knowledge: Knowledge) -> dict[str, tuple[str, ...]]:
    """Where the catalog's own servers stand (``housing``) that a fired rule's exclusion matches, each with
    the IDs of the rules that exclude it."""
    filters = [(rule, f) for rule, f in option_filters(rules) if f.fields == {OWN_SERVER_FIELD}]
    housings = sorted({server.housing for server in knowledge.own_hardware.servers})
    excluded = {h: tuple(excluded_by({OWN_SERVER_FIELD: h}, filters)) for h in housings}
    return {housing: rules for housing, rules in excluded.items() if rules}


EXCLUSION_TABLES_KEPT = 64


def option_fields(listed: Listed | tuple[ApiListing, ...]) -> frozenset[str]:
    """The option fields a kind of listing has (its ``attributes``, the same for every listing of the
    kind). An API price has where it processes requests (EU or not, and the jurisdiction), how it is
    sold (``on_demand`` or ``batch_api``), who sells it and whether with an enterprise SLA: exclusions by a
    GPU's or a rental's properties do not concern it, nor do exclusions of own servers by their housing
    concern a rental."""
    return frozenset(listed[0].attributes) if listed else frozenset()


def api_exclusions(listed: tuple[ApiListing, ...], rules: Sequence[Rule]) -> tuple[tuple[str, ...], ...]:
    """For every API listing, the IDs of the fired rules whose exclusions on its fields match it; kept
    per set of excluding rules, as ``rule_exclusions`` does."""
    excluding = tuple(rule for rule in rules if rule.then.exclude_options)
    return exclusion_table(listed, excluding, _api_exclusion_tables(listed))


@per_object
def _api_exclusion_tables(listed: tuple[ApiListing, ...], /) -> ExclusionTables:
    return {}


def _exclusion_tables(listed: Listed) -> ExclusionTables:
    """Excluding rules (by identity) -> the exclusions they make, per sequence of listing attributes: the
    listings of a scenario's re-priced knowledge base are new, their attributes the base's
    (``listing_frames.listing_attributes``)."""
    attributes = tuple(listing.attributes for listing in listed)
    key = tuple(map(id, attributes))
    found = _TABLES_BY_ATTRIBUTES.get(key)
    if found is None:
        if len(_TABLES_BY_ATTRIBUTES) >= EXCLUSION_TABLES_KEPT:
            _TABLES_BY_ATTRIBUTES.clear()
        # The attributes are kept with the tables, so their ids stay theirs while the entry exists.
        found = _TABLES_BY_ATTRIBUTES[key] = (attributes, {})
    return found[1]


_TABLES_BY_ATTRIBUTES: dict[tuple[int, ...], tuple[tuple[Any, ...], ExclusionTables]] = {}
cleared_with_the_others(_TABLES_BY_ATTRIBUTES.clear)


@dataclass(frozen=True)
class Constraints:
    firings: tuple[Firing, ...]
    """The workload fact's firings, in firing order."""
    rules: tuple[Rule, ...]
    """The rules fired so far (GPU fit and workload), in catalog order."""
    preferred_pricing: str | None
    """The pricing kind the first rule that prefers one names (spot for batch), if any."""
    exclusions: tuple[tuple[str, ...], ...]
    """Per listing, the rules that exclude it."""
    ruled_out: dict[str, tuple[str, ...]]
    """Deployment -> the rules that ruled it out."""
    serverless_exclusions: tuple[tuple[str, ...], ...]
    """Per serverless listing, the rules that exclude it."""
    spare_replica: bool
    """A rule asked for spare replicas (redundancy)."""
    spread_replicas: bool
    """A rule asked for the replicas on at least two instances (a failed host takes one down)."""
    keep_serverless_warm: bool
    """A rule asked serverless options to keep an instance warm."""
    api_exclusions: tuple[tuple[str, ...], ...]
    """Per API listing (``api_listings``), the rules that exclude it."""
    keep_rentals_every_hour: bool = False
    """A rule asked hourly rentals to be billed for every calendar hour, none released as the day's load
    falls (PRC033, PRC034)."""
    keep_serverless_minimum_every_hour: bool = False
    """A rule asked a serverless endpoint's kept instances to run every calendar hour (PRC035)."""
    keep_rentals_without_automation: bool = False
    """A rule kept the rentals through the unpaid hours for want of automation, not capacity (PRC036)."""
    spread_batch_rentals: bool = False
    """A rule asked a batch's rentals to be placed so that a lost instance leaves the window's replicas."""
    excluded_housings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Where an own server may not stand by the rules' exclusions (``select_own_server`` skips those), each
    with the IDs of the rules that exclude it."""


def workload_firings(
    session: FactSession,
    facts: Fact,
    capacity_figures: SizingFigures,
    knowledge: Knowledge,
    rulebook: Rulebook,
    planned: str = "",
    reasoning: bool = False,
    model: str = "",
) -> list[Firing]:
    """What the rules on the workload fact conclude: exclusions, rule-outs, preferred pricing;
    ``reasoning``: the workload's model thinks before it answers (``ResolvedWorkload.reasoning``);
    ``model``: its catalog ID ("" for a model given by its size)."""
    fact = workload_fact(capacity_figures, knowledge, planned, reasoning, model)
    firings = session.assert_fact(fact, facts)
    if fact.other_reasoning_api_stands_in or not other_reasoning_api_nearest(
        capacity_figures, knowledge, model, reasoning, fired_rules(firings, rulebook)
    ):
        return firings
    # The rules' exclusions move the comparison past the nearest class (personal data, whose model's own
    # API is hosted outside the EU) to one whose model reasons otherwise: the fact is asserted again with
    # that known, and its firings replace the first's (each rule reads one fact, so the first's stay
    # without effect).
    return session.assert_fact(fact.model_copy(update={"other_reasoning_api_stands_in": True}), facts)


MAX_REPLICA_CARDS = 64
"""More cards than any replica the estimate sizes spans (``candidate_performances``: up to 16)."""


def admitted_gpus(knowledge: Knowledge, firings: Sequence[Firing], rulebook: Rulebook) -> str:
    """The GPUs, with the most cards of each one replica may span, of the rentals, serverless products
    and own servers that the workload's rules leave standing (by exclusion and by ruling a deployment
    out), as ``cards_key`` writes them: the latency rules compare a GPU only with one of these, at a
    card count it is sold in (a B200 no admitted offer sells, or sells one card at a time, cannot show
    that an 8-card H200 replica misses a target it could meet)."""
    rules = fired_rules(firings, rulebook)
    ruled_out = removed_deployments(rules)
    most: dict[str, int] = {}

    def admit(gpu: str, cards: int) -> None:
        most[gpu] = max(most.get(gpu, 0), cards)

    if "dedicated_cloud" not in ruled_out:
        rented = listings(knowledge)
        for (gpu, cards), excluded in zip(
            _replica_cards(rented), rule_exclusions(rented, rules), strict=True
        ):
            if not excluded:
                admit(gpu, cards)
    if "serverless" not in ruled_out:
        served = serverless_listings(knowledge)
        for entry, excluded in zip(served, rule_exclusions(served, rules), strict=True):
            if not excluded:
                admit(entry.gpu.gpu, max(entry.gpu.instance_gpus))
    if "own_hardware" not in ruled_out:
        housings = excluded_housings(rules, knowledge)
        for server in knowledge.own_hardware.servers:
            if server.housing not in housings:
                # Own servers may be joined into one replica over their network, up to as many as the
                # catalog lets a workload buy (no limit given: every count the estimate considers).
                admit(server.gpu, server.gpus_per_server * (server.max_servers or MAX_REPLICA_CARDS))
    return cards_key(most)


@per_object
def _replica_cards(rented: tuple[Listing, ...]) -> tuple[tuple[str, int], ...]:
    """Each rental's GPU and the most cards one replica may span on it: a multi-card replica needs cards
    that share a fast link in one instance. Worked out once per knowledge base: its listings are a tuple
    built once for it (``listings``), never changed."""
    return tuple((listing.offer.gpu, max((1, *offer_linked_sizes(listing.offer)))) for listing in rented)


def apply_constraints(
    firings: list[Firing],
    verdicts: GpuVerdicts,
    knowledge: Knowledge,
    rulebook: Rulebook,
) -> Constraints:
    rules = tuple(fired_rules([*verdicts.firings, *firings], rulebook))
    pricing = preferred_pricing(rules)
    return Constraints(
        firings=tuple(firings),
        rules=rules,
        preferred_pricing=pricing[0] if pricing else None,
        exclusions=rule_exclusions(listings(knowledge), rules),
        ruled_out=ruled_out_deployments(rules),
        serverless_exclusions=rule_exclusions(serverless_listings(knowledge), rules),
        spare_replica=concludes(rules, "add_spare_replica"),
        spread_replicas=concludes(rules, "spread_replicas"),
        keep_serverless_warm=concludes(rules, "keep_serverless_warm"),
        keep_rentals_every_hour=concludes(rules, "keep_rentals_every_hour"),
        keep_serverless_minimum_every_hour=concludes(rules, "keep_serverless_minimum_every_hour"),
        keep_rentals_without_automation=concludes(rules, "keep_rentals_without_automation"),
        spread_batch_rentals=concludes(rules, "spread_batch_rentals"),
        api_exclusions=api_exclusions(api_listings(knowledge), rules),
        excluded_housings=excluded_housings(rules, knowledge),
    )
