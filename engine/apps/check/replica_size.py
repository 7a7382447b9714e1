"""The replicas a proposal's cards run: how many cards each, and the plan of the peak at that size."""

from __future__ import annotations

from gpu_advisor.engine.calc.gpu_fit import GpuFit
from gpu_advisor.engine.calc.replicas import ReplicaPlan, plans_by_gpu
from gpu_advisor.engine.domain.knowledge.entries import Offer
from gpu_advisor.engine.pipeline.evaluation import Evaluation


def gpu_fit(gpu: str | None, evaluation: Evaluation) -> GpuFit | None:
    """The model's fit on ``gpu``; None where the GPU is unknown."""
    return next((f for f in evaluation.capacity.figures.fits if f.gpu == gpu), None)


def proposed_cards_per_replica(
    gpu: str | None, gpus: int | None, offer: Offer | None, evaluation: Evaluation
) -> int | None:
    """The cards each of the proposal's replicas runs on (``replica_cards``), its instances those of
    ``offer`` (an owned server's: a node, ``card_counts.node_gpus``)."""
    plan = evaluation.market.plans.get(gpu) if gpu else None
    room = (
        max(offer.instance_gpus) if offer is not None else evaluation.knowledge.sizing.card_counts.node_gpus
    )
    return replica_cards(
        gpu_fit(gpu, evaluation),
        gpus,
        plan.cards_per_replica if plan else None,
        evaluation.capacity.figures.card_counts,
        room,
    )


def proposed_replica_cards(offer: Offer, gpus: int, evaluation: Evaluation) -> int:
    """The cards a proposed replica runs on: of the cards one needs on the offer's GPU (all the cards as
    one replica where fewer are proposed)."""
    return proposed_cards_per_replica(offer.gpu, gpus, offer, evaluation) or 1


def replica_cards(
    fit: GpuFit | None,
    gpus: int | None,
    planned: int | None = None,
    counts: tuple[int, ...] = (),
    room: int | None = None,
) -> int | None:
    """The cards one replica of the model runs on on the fit's GPU: the count the recommendation sizes
    the load with (``planned``) where the proposed cards are whole replicas of it in instances of
    ``room`` cards or fewer; else the usual count, or the fewest of ``counts`` that hold the model (a
    light load's count), that fits an instance and divides the cards into whole replicas (six cards on
    2-card instances: three pairs); else the usual count where it fits an
    instance, else the fewest that do, the cards beyond the last replica idle (five cards on 2-card
    instances: two pairs); else the usual count within the cards (3 cards run a replica on 2). None
    where the GPU is unknown or cannot hold the model. A GPU with no usual count runs a light load on
    the plan's count."""
    per_replica = fit.gpus_with_kv_reserve if fit else None
    per_replica = planned if per_replica is None else per_replica
    if gpus is None:
        return per_replica
    fewest = (fit.gpus_for_light_load or per_replica) if fit else per_replica

    def fits(cards: int) -> bool:
        return (fewest is None or cards >= fewest) and cards <= gpus and (room is None or cards <= room)

    if planned is not None and gpus % planned == 0 and fits(planned):
        return planned
    whole = [c for c in counts if fits(c) and gpus % c == 0]
    if whole:
        return per_replica if per_replica in whole else min(whole)
    some = [c for c in counts if fits(c)]
    if some and (per_replica is None or per_replica not in some):
        return min(some)
    if per_replica is not None:
        per_replica = min(per_replica, max((c for c in counts if c <= gpus), default=gpus))
    return per_replica


def proposed_plan(
    gpu: str | None, gpus: int | None, offer: Offer | None, evaluation: Evaluation
) -> ReplicaPlan | None:
    """The recommendation's replica plan on ``gpu``, or where the proposal runs several replicas of
    another size (``proposed_cards_per_replica``), the plan of the same load on replicas of that size:
    the cards the peak needs depend on the cards a replica has (three 2-card replicas are held to what
    2-card replicas need, not to the 8-card ones the latency targets chose); one replica, to the
    recommendation's."""
    plan = evaluation.market.plans.get(gpu) if gpu else None
    if plan is None or gpu is None or gpus is None:
        return plan
    cards = proposed_cards_per_replica(gpu, gpus, offer, evaluation)
    if cards is None or cards == plan.cards_per_replica or gpus // cards < 2:
        return plan
    resolved, capacity = evaluation.workload, evaluation.capacity
    tokens = (resolved.avg_input_tokens, resolved.avg_output_tokens)
    sizing = evaluation.market.replicas.sizing
    replanned = plans_by_gpu(
        evaluation.knowledge, capacity.figures, capacity.load, *tokens, sizing, {gpu: cards}, (gpu,)
    )
    return replanned.get(gpu, plan)
