"""What a proposal costs a month, as its offer bills or its servers cost, for the cards it proposes."""

from __future__ import annotations

import math
from typing import NamedTuple

from gpu_advisor.engine.apps.check.instance_loss import (
    InstanceLoss,
    ProposedRental,
    instance_loss,
    spread_rental,
)
from gpu_advisor.engine.apps.check.proposal_batch import proposed_run_hours
from gpu_advisor.engine.apps.check.proposal_serverless import serverless_cost
from gpu_advisor.engine.apps.check.replica_size import gpu_fit, proposed_replica_cards
from gpu_advisor.engine.calc.costs import own_hardware_cost, rent
from gpu_advisor.engine.calc.fleet_split import base_placements
from gpu_advisor.engine.calc.fleets import MixedFleet, cheapest_mixed_fleet, replicas_by_hour
from gpu_advisor.engine.calc.listing_frames import (
    offer_linked_sizes,
    regional_price,
    stages_over_cluster_network,
)
from gpu_advisor.engine.calc.listings import offer_hours
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.server_costs import server_costs
from gpu_advisor.engine.calc.serverless import serverless_billing
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Offer, OwnServer
from gpu_advisor.engine.domain.options import ServerlessBilling
from gpu_advisor.engine.domain.proposal import ProposalInput
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.pipeline.serverless import PricedServerless


class ProposedCost(NamedTuple):
    usd_per_month: float
    known: bool
    """The catalog prices what is proposed (0 a month otherwise)."""
    gpus_billed: int = 0
    """The cards a rental bills: whole instances of the sizes its offer sells (0 for own hardware)."""
    machines: int = 0
    """The instances a rental bills, or the servers bought."""
    peak: Offer | None = None
    """A hybrid's busier hours: the hourly offer the mix was priced on."""
    base_gpus_billed: int = 0
    """A hybrid's reserved base: the cards its whole instances bill (0 where no mix is priced)."""
    base_gpus_fewer: int = 0
    """The largest base below that one that fills whole instances (0 where none does)."""
    mix_priced: bool = False
    """A hybrid's mix of a reservation and an hourly offer is priced."""
    peak_gpus_max: int = 0
    """A hybrid's busier hours: the most cards the hourly offer runs in one hour (0: it never runs)."""
    cheapest_base_gpus: int = 0
    """A hybrid that states its base: the cards of the base that costs least on its reservation with the
    same hourly offers (0 where none is priced)."""
    cheapest_mix_usd_per_month: float = 0.0
    """What the mix with that base costs a month."""
    peak_capped: bool = False
    """A hybrid's ``gpus`` hold fewer replicas than some hour needs: the mix runs no more than they do."""
    unlinked_sizes: tuple[int, ...] = ()
    """A rental: the offer's sizes that hold a replica of several cards in fewer cards than billed but are
    not documented to link them (NVLink), so none is placed there."""
    replica_cards: int = 0
    """A rental: the cards each proposed replica runs on."""
    linked_usd_per_month: float = 0.0
    """A rental with ``unlinked_sizes``: what its replicas would bill a month on the smallest instances
    that hold them, were those documented to link their cards; ``unlinked_sizes`` are named only where
    that is less than the bill (0 otherwise)."""
    unpriced: str = ""
    """Why the catalog prices nothing proposed, where the proposal gives what pricing needs: ``no_batch_plan``
    (a batch's rental on a GPU for which no run is planned, so its runs' hours are unknown), ``no_mix``
    (a hybrid's reservation and the busier-hours offer it names make no mix), ``no_server`` (own
    hardware of a GPU the catalog prices no server of), ``serverless_size`` (a serverless product's
    instance of the proposed cards the catalog does not price); "" otherwise."""
    serverless: ServerlessBilling | None = None
    """A serverless proposal: how its price is billed (the instances kept warm and their setting)."""
    serverless_priced: PricedServerless | None = None
    """The same, as priced: its product's limits on workers are checked against it."""
    loss: InstanceLoss | None = None
    """A business-critical rental of two replicas or more: what the loss of its fullest instance leaves."""
    hours_billed: float = 0.0
    """A rental: the hours a month its cards are billed (a business-critical service's kept every calendar
    hour, PRC033; 0 otherwise)."""

    def unlinked(self) -> dict[str, object]:
        """What PRC013's message says of the smaller instances not documented as linked."""
        return {
            "unlinked_sizes": self.unlinked_sizes,
            "replica_cards": self.replica_cards,
            "linked_usd_per_month": self.linked_usd_per_month,
        }


def proposal_cost(
    proposal: ProposalInput,
    evaluation: Evaluation,
    offer: Offer | None,
    jurisdiction: str | None,
    gpus: int | None,
    server: OwnServer | None,
) -> ProposedCost:
    """Monthly cost of what is proposed, where the catalog can price it: an offer whose price its
    provider's newer list replaces at that newer price (KNB011 says so)."""
    knowledge = evaluation.knowledge
    if offer is not None:
        offer = knowledge.current(offer, proposed_replica_cards(offer, gpus, evaluation) if gpus else 1)
    if proposal.deployment == "serverless":
        served = serverless_cost(proposal, evaluation, jurisdiction)
        billing = serverless_billing(served.priced.listing, served.priced.bill) if served.priced else None
        return ProposedCost(
            served.usd_per_month,
            served.known,
            # A product and cards named, but no instance of them priced (a size not sold, or sold at a
            # price the catalog does not know: SIZ024, SIZ025, SIZ017 say which).
            unpriced="" if served.known or not (proposal.provider and proposal.gpus) else "serverless_size",
            serverless=billing,
            serverless_priced=served.priced,
        )
    if proposal.deployment == "own_hardware" and server is None:
        return ProposedCost(0.0, False, unpriced="no_server")
    if proposal.deployment == "own_hardware" and server is not None and (proposal.servers or gpus):
        servers = proposal.servers or math.ceil((gpus or 0) / server.gpus_per_server)
        workload = evaluation.workload
        assumptions = server_costs(
            knowledge, server, workload.company_country, workload.on_premises_required
        ).assumptions
        return ProposedCost(servers * own_hardware_cost(assumptions).server_usd_per_month, True, 0, servers)
    if proposal.deployment == "hybrid" and offer is not None and offer.billing == "committed":
        needed = hours_needed(offer, evaluation)
        held = held_hours(needed, proposal, offer, evaluation)
        fleet = proposed_mixed_fleet(proposal, offer, jurisdiction, evaluation, held)
        if fleet is not None:
            # The cards billed change hour by hour: the busiest hour's, where the proposal names none.
            busiest = fleet.base_gpus_rented + fleet.peak_gpus_rented_max
            peak, billed = fleet.peak.listing.offer, fleet.base_gpus_rented
            fewer = fewer_base_cards(fleet, billed) if proposal.base_gpus is not None else 0
            # The base that pays best on the same reservation, beside the one the proposal states.
            cheapest = (
                proposed_mixed_fleet(
                    proposal.model_copy(update={"base_gpus": None}), offer, jurisdiction, evaluation, held
                )
                if proposal.base_gpus is not None
                else None
            )
            return ProposedCost(
                fleet.usd_per_month,
                True,
                gpus or busiest,
                2,
                peak,
                billed,
                fewer,
                mix_priced=True,
                peak_gpus_max=fleet.peak_gpus_rented_max,
                cheapest_base_gpus=cheapest.base_gpus_rented if cheapest else 0,
                cheapest_mix_usd_per_month=cheapest.usd_per_month if cheapest else 0.0,
                peak_capped=held != needed,
            )
        if proposal.peak_provider or proposal.peak_offer:
            # The hourly offer named pairs with no admitted mix: no price, rather than the base alone.
            return ProposedCost(0.0, False, unpriced="no_mix")
    if offer is not None and gpus is not None:
        price, _ = regional_price(offer, jurisdiction or offer.price_jurisdiction, knowledge)
        workload = evaluation.workload
        plan = evaluation.market.plans.get(offer.gpu)
        # The days the load comes: a batch's runs (``batch_runs_per_month``), a service's schedule days.
        days = workload.days_per_month
        # Replicas of the cards one needs on the GPU (all the cards as one replica where fewer are
        # proposed), each inside one instance.
        per_replica = proposed_replica_cards(offer, gpus, evaluation)
        if plan is None and evaluation.capacity.load.served_in_paid_hours:
            # A batch's rental bills its runs' hours, which come from the GPU's plan: where none is made
            # (its start and one request take the whole window, SIZ041), the runs' hours are not known,
            # and the paid hours of a service would bill it as if it ran all month.
            return ProposedCost(0.0, False, unpriced="no_batch_plan")
        if plan is not None and plan.hours_per_day_running is not None:
            # A batch: a run takes its work at the proposed replicas' rate (as SIZ009 and SIZ019 read it:
            # a 2-card 70B replica with little room for its cache is slower a card than the recommended
            # one), so more cards finish it sooner; where that is not known, the proposed cards share the
            # recommended run's card-hours. A run, its weights' load and engine start included, cannot bill
            # more than its share of the month's hours (it then misses its window).
            running = proposed_run_hours(gpu_fit(offer.gpu, evaluation), gpus, per_replica, evaluation)
            if running is None:
                cards = math.ceil(gpus / per_replica) * per_replica
                running = plan.hours_per_day_running * plan.gpus / cards
            calendar = knowledge.calendar_hours_per_month()
            longest = calendar / days - plan.start_hours
            plan = plan._replace(hours_per_day_running=min(running, longest))
        # A business-critical service's cards kept every calendar hour, as the recommendation's (PRC033).
        paid = evaluation.market.rented_hours
        hours = offer_hours(knowledge, offer, plan, paid, days) if plan is not None else paid
        linked, replicas = offer_linked_sizes(offer), math.ceil(gpus / per_replica)
        # A replica no instance holds, with no documented network between them (NET004 fails it), forms
        # no replica to round the cards up to: the cards are billed as the instances hold them (five
        # cards on an offer sold by the card bill five, not two 4-card replicas' eight).
        priced, priced_replicas = per_replica, replicas
        if per_replica > max(offer.instance_gpus) and not stages_over_cluster_network(
            offer, per_replica, knowledge
        ):
            priced, priced_replicas = 1, gpus
        rental = rent(offer, priced, priced_replicas, hours, linked, price)
        loss = None
        # Replicas to spread over machines (SIZ015; a batch's rentals, SIZ038) are placed as recommend
        # places them where the offer's sizes bill no more cards so; else the proposal is priced as named,
        # and SIZ016 says that it runs on one machine, SIZ034 (a batch: SIZ039) that the loss of its
        # fullest instance leaves the peak (the window) short.
        constraints = evaluation.constraints
        spread = constraints.spread_replicas or constraints.spread_batch_rentals
        if spread and replicas >= 2 and priced == per_replica:
            at_peak = peak_replicas(plan, per_replica)
            terms = ProposedRental(offer, per_replica, replicas, hours, linked, price)
            rental = spread_rental(terms, at_peak)
            # Where the rules add spares and the proposal carries the peak (with no spare, any loss
            # leaves it short): one short of it is SIZ009's and SIZ021's, and a stated min_replicas opts
            # out of a service's spares (SIZ030). A batch's run uses every replica its instances hold, so
            # a lost one may leave the window's replicas with no spare: SIZ039 judges it as recommend's
            # SIZ036 does.
            batch = plan is not None and plan.hours_per_day_running is not None
            if plan is not None and (plan.spares_asked or batch) and replicas >= at_peak:
                run = plan

                def hours_on(hosted: int) -> float:
                    # A batch's run on every replica the instances hold: each with fewer of its requests.
                    if run.hours_per_day_running is None:
                        return hours
                    fit = gpu_fit(offer.gpu, evaluation)
                    running = proposed_run_hours(fit, hosted * per_replica, per_replica, evaluation)
                    if running is None:
                        running = run.hours_per_day_running * replicas / hosted
                    shorter = run._replace(hours_per_day_running=running)
                    return offer_hours(knowledge, offer, shorter, paid, days)

                loss = instance_loss(rental, terms, at_peak, hours_on)
        unlinked = tuple(
            size
            for size in offer.instance_gpus
            if 1 < per_replica <= size < rental.gpus_rented and size not in linked
        )
        # The same replicas and hours, were the smaller sizes linked: named only where the provider's
        # confirmation would save (two 4-card replicas bill eight cards either way).
        if_linked = rent(offer, priced, priced_replicas, hours, tuple(sorted({*linked, *unlinked})), price)
        saves = if_linked.usd_per_month < rental.usd_per_month
        return ProposedCost(
            rental.usd_per_month,
            True,
            rental.gpus_rented,
            rental.placement.instance_count,
            unlinked_sizes=unlinked if saves else (),
            replica_cards=per_replica,
            linked_usd_per_month=if_linked.usd_per_month if saves else 0.0,
            loss=loss,
            hours_billed=hours,
        )
    return ProposedCost(0.0, False)


def peak_replicas(plan: ReplicaPlan | None, per_replica: int) -> int:
    """The replicas of ``per_replica`` cards the peak needs, spares aside: the plan's, or its peak's cards
    over the proposal's replica where that has other cards; 0 where the GPU has no plan."""
    if plan is None:
        return 0
    if per_replica == plan.cards_per_replica:
        return plan.replicas_for_peak
    return math.ceil(plan.gpus_for_peak / per_replica)


def proposed_mixed_fleet(
    proposal: ProposalInput,
    offer: Offer,
    jurisdiction: str | None,
    evaluation: Evaluation,
    hours: tuple[int, ...],
) -> MixedFleet | None:
    """A hybrid proposal on a reservation: the mixed fleet ``recommend`` would build on it for the
    workload's hours (its base sized as it pays, the busier hours on the hourly offer the proposal names,
    else the cheapest admitted one of its GPU in its jurisdiction) with ``hours`` replicas each served
    hour (``held_hours``); None where the catalog prices no such mix (a batch, unserved hours, no such
    hourly offer, or one kind alone costs no more)."""
    market = evaluation.market
    plan = market.plans.get(offer.gpu)
    if plan is None or plan.hours_per_day_running is not None:
        return None
    proposal = current_peak(proposal, offer.gpu, evaluation.knowledge, plan.cards_per_replica)
    bases = [
        p
        for p in market.priced
        if p.listing.offer is offer and jurisdiction in (None, p.listing.jurisdiction)
    ]
    # An offer the proposal names is priced as named, excluded or dear (the checks judge it); a provider
    # named alone gives its cheapest admitted offer, and none named the cheapest admitted one, as
    # recommend pairs them.
    named = proposal.peak_provider is not None
    offer_named = proposal.peak_offer is not None
    peaks = [
        p
        for p in market.priced
        if (offer_named or not p.excluded_by) and names_peak(proposal, p.listing.offer)
    ]
    # A base the proposal states: the replicas that hold its cards (a part of one is a whole one, as a
    # reservation cannot hold part of a replica), in whole instances as the offer sells them.
    stated = (
        math.ceil(proposal.base_gpus / plan.cards_per_replica) if proposal.base_gpus is not None else None
    )
    if stated is None and busiest_hour_held(plan, hours, offer):
        # The reservation's first base already holds the busiest hour: the hourly offer would never run,
        # so the proposal costs what that base bills (rather than no price at all).
        stated = max(hours)
    return cheapest_mixed_fleet(
        bases,
        peaks,
        {offer.gpu: hours},
        evaluation.capacity.traffic,
        evaluation.workload.days_per_month,
        evaluation.knowledge.calendar_hours_per_month(),
        as_proposed=named,
        base_replicas=stated,
    )


def hours_needed(offer: Offer, evaluation: Evaluation) -> tuple[int, ...]:
    """The replicas each hour of a served day needs on the offer's GPU (``replicas_by_hour``); none where
    no plan runs on it."""
    capacity = evaluation.capacity
    plan = evaluation.market.plans.get(offer.gpu)
    if plan is None:
        return ()
    return replicas_by_hour(plan, capacity.traffic, capacity.load, evaluation.market.replicas.sizing)


def held_hours(
    needed: tuple[int, ...], proposal: ProposalInput, offer: Offer, evaluation: Evaluation
) -> tuple[int, ...]:
    """``needed``, each hour at most the replicas a hybrid's ``gpus`` hold (at least one), where it names
    them: an hour that needs more runs short (the capacity checks say so), never on cards the proposal
    does not rent."""
    plan = evaluation.market.plans.get(offer.gpu)
    if proposal.gpus is None or plan is None:
        return needed
    most = max(1, proposal.gpus // plan.cards_per_replica)
    return tuple(min(replicas, most) for replicas in needed)


def busiest_hour_held(plan: ReplicaPlan, hours: tuple[int, ...], offer: Offer) -> bool:
    """Every hour is served and no base of the reservation leaves a replica to an hourly offer
    (``base_placements``): the smallest base it may hold, in whole instances and spread where the plan
    asks, already holds the busiest hour's replicas (the load is flat, or one instance holds them all)."""
    if min(hours) <= 0:
        return False
    linked = offer_linked_sizes(offer)
    return not base_placements(
        plan.cards_per_replica, hours, offer.instance_gpus, linked, plan.spread, plan.spares_asked
    )


def fewer_base_cards(fleet: MixedFleet, billed: int) -> int:
    """The most cards below ``billed`` that a base of the fleet's reservation bills for whole replicas in
    whole instances, among the bases recommend would place (``base_placements``: spread over two
    instances where every hour of two replicas or more needs it, SIZ015); 0 where none."""
    plan, listing = fleet.base.plan, fleet.base.listing
    placements = base_placements(
        plan.cards_per_replica,
        fleet.replicas_by_hour,
        listing.offer.instance_gpus,
        listing.linked,
        plan.spread,
        plan.spares_asked,
    )
    return max((p.gpus_rented for p in placements if p.gpus_rented < billed), default=0)


def current_peak(
    proposal: ProposalInput, gpu: str, knowledge: Knowledge, replica_cards: int
) -> ProposalInput:
    """The proposal with its named busier-hours offer replaced by the provider's newer list of it for its
    replicas of ``replica_cards``, where one replaces it (KNB011 says so), as the base's offer is."""
    named = knowledge.offer(proposal.peak_provider, proposal.peak_offer, gpu)
    newer = knowledge.successor(named, replica_cards) if named is not None else None
    return proposal.model_copy(update={"peak_offer": newer.offer}) if newer is not None else proposal


def names_peak(proposal: ProposalInput, offer: Offer) -> bool:
    """The offer is one a hybrid proposal's peak fields name (any, where it names none)."""
    return proposal.peak_provider in (None, offer.provider) and proposal.peak_offer in (None, offer.offer)
