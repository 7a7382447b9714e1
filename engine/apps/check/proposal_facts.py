"""The proposal fact: what someone intends to do, next to what the workload needs."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from gpu_advisor.engine.apps.check.location import housing_details, proposal_place
from gpu_advisor.engine.apps.check.offer_terms import (
    capacity_details,
    listed_offers,
    peak_is_spot,
    spot_seller,
    successor_details,
)
from gpu_advisor.engine.apps.check.proposal_api import api_facts
from gpu_advisor.engine.apps.check.proposal_batch import batch_facts
from gpu_advisor.engine.apps.check.proposal_cost import proposal_cost
from gpu_advisor.engine.apps.check.proposal_latency import latency_facts, planned_details
from gpu_advisor.engine.apps.check.proposal_policy import rental_policy_facts
from gpu_advisor.engine.apps.check.proposal_serverless import (
    instance_sizes_named,
    named_serverless_products,
    request_queue_details,
    serverless_option_facts,
    serverless_product_facts,
)
from gpu_advisor.engine.apps.check.proposal_serverless_limits import serverless_limit_facts
from gpu_advisor.engine.apps.check.remedies import remedy_details
from gpu_advisor.engine.apps.check.replica_size import (
    gpu_fit,
    proposed_cards_per_replica,
    proposed_plan,
    proposed_replica_cards,
)
from gpu_advisor.engine.apps.check.residency import residency_facts
from gpu_advisor.engine.apps.check.server_loss import server_loss_facts
from gpu_advisor.engine.calc.commitments import option_billing
from gpu_advisor.engine.calc.costs import node_busy_share
from gpu_advisor.engine.calc.listing_frames import offer_linked_sizes, stages_over_cluster_network
from gpu_advisor.engine.calc.listings import replica_spot_overhead
from gpu_advisor.engine.calc.own_hardware import servers_needed
from gpu_advisor.engine.calc.plan_variants import with_rework_replicas
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Offer, OwnServer
from gpu_advisor.engine.domain.options import ServerlessBilling
from gpu_advisor.engine.domain.proposal import Location, ProposalInput
from gpu_advisor.engine.domain.results import ApiCost
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.rulebook.facts import ProposalFact
from gpu_advisor.engine.rulebook.proposal_details import ProposalDetails

RENTAL_DEPLOYMENTS = ("dedicated_cloud", "hybrid")
CLOUD_HOSTED_DEPLOYMENTS = (*RENTAL_DEPLOYMENTS, "serverless")
SELF_MANAGED_PROVIDER_KINDS = ("neocloud", "marketplace")


def spot_rework_share(offer: Offer | None, per_replica: int | None, evaluation: Evaluation) -> float:
    """The share of a batch run redone after interruptions on ``offer`` (0 unless it is spot and the
    workload a batch: a service's bill counts no rework)."""
    if offer is None or not per_replica or not evaluation.capacity.load.served_in_paid_hours:
        return 0.0
    per_instance = evaluation.knowledge.pricing_assumptions.spot_interruption.overhead
    return replica_spot_overhead(offer, per_replica, per_instance)


def catalog_offer(proposal: ProposalInput, knowledge: Knowledge) -> Offer | None:
    return knowledge.offer(proposal.provider, proposal.offer, proposal.gpu)


def named_own_server(proposal: ProposalInput, knowledge: Knowledge) -> OwnServer | None:
    """The server a proposal names, else the catalog's server of the GPU it names; None for neither, or a
    GPU the catalog prices no server of (its cost is then unknown, not another server's)."""
    if proposal.server is not None:
        return knowledge.own_server(proposal.server)
    return knowledge.own_server_of(proposal.gpu) if proposal.gpu is not None else None


def own_server_for(proposal: ProposalInput, evaluation: Evaluation) -> OwnServer | None:
    """The server a proposal to buy hardware buys: ``named_own_server``, else the one selected."""
    named = proposal.server is not None or proposal.gpu is not None
    return named_own_server(proposal, evaluation.knowledge) if named else evaluation.market.server


@dataclass(frozen=True)
class Hardware:
    """What the proposal runs on, as far as it says: offer, server to buy, GPU, cards, how they are sold."""

    offer: Offer | None
    server: OwnServer | None
    gpu: str | None
    gpus: int | None
    pricing: str | None = None  # how it is sold: the proposal's pricing, else its offer's


def proposed_hardware(proposal: ProposalInput, evaluation: Evaluation) -> Hardware:
    if proposal.deployment == "api":
        # The API's provider runs it on GPUs of its own: an offer named is the API's ID, not an offer of
        # GPUs (a provider that also rents GPUs sells offers of the same name).
        return Hardware(None, None, None, None)
    offer = catalog_offer(proposal, evaluation.knowledge)
    server = own_server_for(proposal, evaluation) if proposal.deployment == "own_hardware" else None
    gpu = proposal.gpu or (offer.gpu if offer else None) or (server.gpu if server else None)
    gpus = proposal.gpus
    if gpus is None and server is not None and proposal.servers is not None:
        gpus = proposal.servers * server.gpus_per_server
    return Hardware(offer, server, gpu, gpus, proposal.pricing or (offer.pricing if offer else None))


def engine_facts(gpu: str | None, evaluation: Evaluation) -> dict[str, Any]:
    """The workload's serving engine, and whether it runs on the proposed GPU's vendor and in the
    workload's precision there."""
    if not gpu:
        return {"gpu_vendor": "", "engine_runs_on_gpu": True, "engine_runs_precision": True}
    knowledge = evaluation.knowledge
    card = knowledge.gpu(gpu)
    engine = knowledge.serving_engine(evaluation.workload.serving_engine)
    experts = evaluation.capacity.figures.num_experts is not None
    return {
        "gpu_vendor": card.vendor,
        "engine_runs_on_gpu": engine.runs_on(card),
        "engine_runs_precision": engine.runs_precision_on(card, evaluation.workload.precision, experts),
    }


def gpu_facts(
    hardware: Hardware, evaluation: Evaluation, scales_out: bool, plan: ReplicaPlan | None
) -> dict[str, Any]:
    """What the proposed GPU can do for this model: if it holds it, over which link, on how many cards a
    replica, and the cards the peak needs (``plan``: ``proposed_plan``). ``scales_out``: a serverless
    product, which starts the instances a batch's window needs: its cards are one instance's."""
    gpu, gpus = hardware.gpu, hardware.gpus
    fit = gpu_fit(gpu, evaluation)
    offer = hardware.offer
    per_replica = proposed_cards_per_replica(gpu, gpus, offer, evaluation)
    linked = offer_linked_sizes(offer) if offer is not None else ()
    memory_cards = (fit.gpus_for_light_load or fit.gpus_with_kv_reserve or 0) if fit else 0
    # A batch on a spot offer redoes work after interruptions: its run takes that much longer, and the
    # cards that keep the window with it are those ``recommend`` prices the offer with. A serverless
    # product starts the instances the window needs: its run is not worked out on the proposed cards.
    spot = 0.0 if scales_out else spot_rework_share(offer, per_replica, evaluation)
    # A serverless product starts the instances the peak needs, and one for a failed one: a replica.
    if scales_out:
        needed = for_peak = memory_cards
    else:
        if plan is not None and spot:
            plan = with_rework_replicas(plan, spot)
        needed, for_peak = (plan.gpus, plan.gpus_for_peak) if plan else (0, 0)
    return {
        "gpu": gpu or "",
        "gpu_known": gpu is not None,
        "gpus": gpus or 0,
        "gpus_known": gpus is not None,
        "gpu_fits": fit is not None and (fit.gpus_with_kv_reserve is not None or plan is not None),
        "gpu_interconnect": evaluation.knowledge.gpu(gpu).interconnect if gpu else "",
        "multi_card": per_replica is not None and per_replica > 1,
        "cards_per_replica": per_replica or 0,
        "largest_linked_instance_gpus": max(linked, default=0),
        "stages_over_cluster_network": bool(
            offer and per_replica and stages_over_cluster_network(offer, per_replica, evaluation.knowledge)
        ),
        "gpu_unsuitable": bool(gpu and gpu in evaluation.verdicts.unsuitable),
        **engine_facts(gpu, evaluation),
        "gpus_for_weights": (fit.gpus_for_weights or 0) if fit else 0,
        "gpus_needed": needed,
        "gpus_for_peak": for_peak,
        "memory_cards_per_replica": memory_cards,
        **latency_facts(fit, gpus, per_replica, evaluation, scales_out),
        **batch_facts(fit, None if scales_out else gpus, per_replica, evaluation, spot),
    }


def place_facts(
    proposal: ProposalInput, hardware: Hardware, place: Location, evaluation: Evaluation
) -> dict[str, Any]:
    """Where the proposal runs (``proposal_place``) and with whom: region, EU or not (known when every
    possible jurisdiction agrees), the provider and its kind, and its catalog offer: known, superseded,
    and how old the list price is that the cost checks use (``Knowledge.current``)."""
    knowledge = evaluation.knowledge
    jurisdictions = place.jurisdictions
    priced = knowledge.current(hardware.offer) if hardware.offer is not None else None
    eu_known = bool(jurisdictions) and (set(jurisdictions) == {"EU"} or "EU" not in jurisdictions)
    # An API's provider is judged by its API's listing (``proposal_api``), not as a GPU provider.
    gpus_of = proposal.provider if proposal.deployment != "api" else None
    provider = knowledge.provider(gpus_of) if gpus_of else None
    return {
        "region": proposal.region or "/".join(jurisdictions),
        "region_known": eu_known,
        "eu": eu_known and jurisdictions[0] == "EU",
        "provider": proposal.provider or "",
        "provider_known": provider is not None,
        "provider_kind": provider.kind if provider else "",
        "provider_self_managed": provider is not None
        and provider.kind in SELF_MANAGED_PROVIDER_KINDS
        and not managed_endpoint(proposal, knowledge),
        "sla_not_established": provider is not None and provider.sla_for(hardware.pricing) is None,
        "enterprise_sla": bool(provider and provider.sla_for(hardware.pricing)),
        "offer_known": hardware.offer is not None,
        "offer_superseded": hardware.offer is not None and hardware.offer.superseded_by is not None,
        "offer_price_age_days": (evaluation.evaluated_on - priced.as_of).days if priced is not None else 0,
        **serverless_product_facts(proposal, hardware.gpu, hardware.gpus, evaluation),
    }


def managed_endpoint(proposal: ProposalInput, knowledge: Knowledge) -> bool:
    """A serverless proposal on a managed product (the platform deploys, scales and serves the model):
    the offer named, or every serverless product of the provider where none is."""
    if proposal.deployment != "serverless":
        return False
    named = named_serverless_products(proposal, knowledge)
    return bool(named) and all(p.managed for p in named)


NO_CATALOG_SERVER: dict[str, Any] = dict(
    server_gpus=0, server_known=False, servers_needed=0, node_utilization=0.0, node_has_idle_gpus=False
) | {"server_housing_excluded": False}
"""The node facts where no catalog server holds the GPU: what its cards take and how busy they are."""


def node_facts(
    proposal: ProposalInput, hardware: Hardware, evaluation: Evaluation, needed: int
) -> dict[str, Any]:
    """For own hardware: the servers bought and how busy their cards are."""
    server, gpus, resolved = hardware.server, hardware.gpus, evaluation.workload
    if server is None:
        return {**NO_CATALOG_SERVER, "servers": proposal.servers or 0}
    servers = proposal.servers or (math.ceil((gpus or 0) / server.gpus_per_server) if gpus else 0)
    cards = servers * server.gpus_per_server
    # The busy share on the server's own GPU, as the memo's node utilization counts it (the load's GPU
    # may be another: the recommendation's rented H200 beside a bought H100 node).
    utilization = evaluation.market.busy_share_on(server.gpu)
    plan = evaluation.market.plans.get(server.gpu)
    required = servers_needed(needed, server, plan)
    return {
        "servers": servers,
        "server_gpus": server.gpus_per_server,
        "server_known": True,
        "servers_needed": required,
        **server_loss_facts(proposal, servers, required, server, plan, resolved.load_pattern == "batch"),
        "node_utilization": float(
            node_busy_share(needed, utilization, resolved.hours_per_month, cards, server)
        ),
        "node_has_idle_gpus": needed < cards,
        "server_housing_excluded": server.housing in evaluation.constraints.excluded_housings,
    }


def proposed_replicas(gpu: dict[str, Any]) -> int:
    """The replicas the proposed cards make (0 where the GPU cannot hold one)."""
    per_replica = gpu["cards_per_replica"]
    return gpu["gpus"] // per_replica if gpu["gpu_fits"] and per_replica else 0


def rental_to_beat_billing(evaluation: Evaluation) -> Literal["hourly", "committed", "none"]:
    """How the rental buying must beat in the evaluation bills: the best option, what would be rented
    instead ("none" without one)."""
    best = evaluation.market.alternatives.best
    return option_billing(best) if best else "none"


class ProposalFacts(NamedTuple):
    fact: ProposalFact
    details: ProposalDetails
    """What the messages of the proposal checks show."""
    peak: Offer | None
    """A hybrid's busier hours: the hourly offer its mix was priced on (None where it is not one)."""
    jurisdiction: str | None
    """Where the proposal runs, where that is one jurisdiction."""
    location: Location
    api: ApiCost | None
    """A managed-API proposal: the API listing it was judged as."""
    serverless: ServerlessBilling | None
    """A serverless proposal: how its price is billed (``ProposedCost.serverless``)."""


def proposal_fact(proposal: ProposalInput, evaluation: Evaluation, lang: str = "en") -> ProposalFacts:
    """The proposal fact, and the details the messages of the proposal checks show (in ``lang``)."""
    knowledge, decision = evaluation.knowledge, evaluation.decision
    hardware = proposed_hardware(proposal, evaluation)
    pricing = hardware.pricing
    api = api_facts(proposal, evaluation, lang)
    serverless = serverless_option_facts(proposal, evaluation, lang)
    policy = rental_policy_facts(proposal, hardware.offer, evaluation, lang)
    location = proposal_place(proposal, hardware.offer, knowledge, api.api)
    place = place_facts(proposal, hardware, location, evaluation)
    where, residency_rules = residency_facts(location, evaluation, lang, proposal.provider)
    ruled_out_by = evaluation.resolution.ruled_out.get(proposal.deployment, ())
    jurisdictions = location.jurisdictions
    jurisdiction = jurisdictions[0] if len(jurisdictions) == 1 else None
    cost = proposal_cost(proposal, evaluation, hardware.offer, jurisdiction, hardware.gpus, hardware.server)
    if api.api is not None:
        cost = cost._replace(usd_per_month=api.api.usd_per_month, known=True)
    # In cents, as the result reports it, so a rule's message and the "proposed:" line round alike.
    usd_per_month, cost_known = round(float(cost.usd_per_month), 2), cost.known
    # What the billed cards beyond the proposed ones cost, for PRC013's message.
    idle_cards = max(0, cost.gpus_billed - (hardware.gpus or 0)) if cost.gpus_billed else 0
    planned = proposed_plan(hardware.gpu, hardware.gpus, hardware.offer, evaluation)
    gpu = gpu_facts(hardware, evaluation, proposal.deployment == "serverless", planned)
    limits, limit_details = serverless_limit_facts(cost.serverless_priced, evaluation, lang)
    cheapest = evaluation.market.own.cheapest_same_hours_usd_per_month
    # The catalog's offer binds as it is sold; a pricing the offer is not sold at binds for a term unknown.
    offered = hardware.offer if hardware.offer is not None and hardware.offer.pricing == pricing else None
    fact = ProposalFact(
        deployment=proposal.deployment,
        recommended_deployment=decision.deployment,
        deployment_differs=proposal.deployment != decision.deployment,
        rentals_kept_every_hour=evaluation.constraints.keep_rentals_every_hour,
        deployment_ruled_out=bool(ruled_out_by) and proposal.deployment != decision.deployment,
        deployment_ruled_out_firmly=proposal.deployment != decision.deployment
        and bool(evaluation.resolution.barred.get(proposal.deployment)),
        rental=proposal.deployment in RENTAL_DEPLOYMENTS,
        cloud_hosted=proposal.deployment in CLOUD_HOSTED_DEPLOYMENTS,
        buying=proposal.deployment == "own_hardware",
        pricing=pricing or "",
        pricing_known=pricing is not None,
        spot_in_proposal=pricing == "spot" or peak_is_spot(proposal, cost.peak, hardware.gpu, knowledge),
        commitment=offered.commitment if offered is not None else "unknown",
        capacity_not_reserved=offered is not None and offered.capacity_not_reserved is not None,
        usd_per_month=usd_per_month,
        cost_known=cost_known,
        costs_compared=cost_known and bool(decision.usd_per_month),
        recommendation_priced=bool(decision.usd_per_month),
        # Both unrounded: two servers against one read 99.99 % more when only the proposal was rounded.
        extra_cost_share=float(cost.usd_per_month) / decision.usd_per_month - 1
        if cost_known and decision.usd_per_month
        else 0.0,
        **gpu,
        **place,
        **where,
        **node_facts(proposal, hardware, evaluation, gpu["gpus_needed"]),
        **api.facts,
        **serverless.facts,
        **limits,
        **policy.facts,
        rental_to_beat_billing=rental_to_beat_billing(evaluation),
        rental_priced=cheapest is not None,
        cheapest_rental_usd_per_month=float(cheapest or 0.0),
        gpus_billed=cost.gpus_billed,
        # Every replica on one instance or server: one machine's failure takes the service down.
        service_on_one_machine=cost.machines == 1 and proposed_replicas(gpu) >= 1,
        instance_loss_short=cost.loss is not None and cost.machines >= 2 and cost.loss.short,
        lost_instance_leaves_too_few=cost.loss is not None and cost.loss.short,
        base_gpus_stated=proposal.base_gpus is not None and cost.base_gpus_billed > 0,
        base_gpus=proposal.base_gpus or 0,
        base_gpus_billed=cost.base_gpus_billed,
        mix_priced=cost.mix_priced,
        peak_runs=cost.peak_gpus_max > 0,
        peak_capped=cost.peak_capped,
        base_cost_compared=cost.cheapest_mix_usd_per_month > 0,
        base_extra_cost_share=cost.usd_per_month / cost.cheapest_mix_usd_per_month - 1
        if cost.cheapest_mix_usd_per_month > 0
        else 0.0,
    )
    details = ProposalDetails(
        ruled_out_by=", ".join(ruled_out_by),
        ttft_target_stated=evaluation.workload.states("max_time_to_first_token_ms"),
        tpot_target_stated=evaluation.workload.states("max_time_per_output_token_ms"),
        unsuitable_by=", ".join(evaluation.verdicts.unsuitable.get(hardware.gpu or "", [])),
        residency_rules=residency_rules,
        commitment_months=(offered.commitment_months or 0) if offered is not None else 0,
        recommended_usd_per_month=float(decision.usd_per_month or 0.0),
        idle_cards_usd_per_month=usd_per_month * idle_cards / cost.gpus_billed if idle_cards > 0 else 0.0,
        **cost.unlinked(),
        offer=proposal.offer or "",
        **housing_details(hardware.server, evaluation.constraints.excluded_housings),
        listed_offers=listed_offers(proposal, knowledge) if hardware.offer is None else (),
        proposed_replicas=proposed_replicas(gpu),
        **(cost.loss.details() if cost.loss is not None else {}),
        loadable_cards_max=max(evaluation.capacity.figures.card_counts, default=0),
        **planned_details(planned, gpu_fit(hardware.gpu, evaluation)),
        largest_instance_gpus=max(hardware.offer.instance_gpus) if hardware.offer is not None else 0,
        offer_rate_yours=bool(hardware.offer and hardware.offer.rate_yours),
        **successor_details(
            hardware.offer,
            knowledge,
            proposed_replica_cards(hardware.offer, hardware.gpus, evaluation)
            if hardware.offer is not None and hardware.gpus
            else 1,
        ),
        **capacity_details(offered),
        **remedy_details(proposal, hardware.gpu, evaluation, spot_seller(proposal, pricing, cost.peak)),
        peak_offer_name=f"{cost.peak.provider} {cost.peak.offer}" if cost.peak is not None else "",
        peak_gpus_max=cost.peak_gpus_max,
        base_gpus_fewer=cost.base_gpus_fewer,
        base_gpus_cheapest=cost.cheapest_base_gpus,
        unpriced=cost.unpriced,
        hours_billed=cost.hours_billed,
        cheapest_mix_usd_per_month=cost.cheapest_mix_usd_per_month,
        serverless_instance_sizes=instance_sizes_named(proposal, hardware.gpu, knowledge, lang),
        **request_queue_details(proposal, knowledge),
        **api.details,
        **serverless.details,
        **limit_details,
        **policy.details,
    )
    return ProposalFacts(fact, details, cost.peak, jurisdiction, location, api.api, cost.serverless)
