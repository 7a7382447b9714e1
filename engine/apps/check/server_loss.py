"""What the loss of one proposed owned server leaves of a business-critical service (SIZ033) or batch
(SIZ040), whether the replicas its idle cards hold are what keeps the peak through it (TCO010 does not
call them idle), and over how many servers the replicas spread to survive it (TCO027 does not call those
servers idle)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.calc.own_hardware import (
    idle_cards_keep_the_peak,
    left_after_a_loss,
    server_loss,
    servers_spreading,
)
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.proposal import ProposalInput


def server_loss_facts(
    proposal: ProposalInput,
    servers: int,
    required: int,
    server: OwnServer,
    plan: ReplicaPlan | None,
    batch: bool = False,
) -> dict[str, Any]:
    """Whether the loss of one proposed server leaves the peak short (SIZ033): with replicas on all their
    cards, where the proposal names no cards, else the named cards' replicas, spread evenly; and whether
    replicas beyond the plan's, on cards it leaves idle, are what keeps the peak (TCO010 then does not
    call those cards idle)."""
    if batch:
        return batch_server_loss(proposal, servers, server, plan)
    spread = spreading_facts(proposal, server, plan)
    if plan is None or not plan.spread or not servers or not proposal.servers or not proposal.gpus:
        return {
            **spread,
            "server_loss_short": 0 < servers < required,
            "server_loss_needs_idle_replicas": plan is not None
            and plan.spread
            and servers >= required
            and idle_cards_keep_the_peak(server_loss(plan, server, servers), servers),
        }
    counted = replicas_through_a_loss(proposal.gpus, servers, server, plan.cards_per_replica)
    if counted is None:
        return {**spread, "server_loss_short": 0 < servers < required}
    replicas, left = counted
    return {
        **spread,
        "server_loss_short": left < plan.replicas_for_peak,
        "server_loss_left": left,
        "server_loss_peak": plan.replicas_for_peak,
        "server_loss_replicas": replicas,
        # The named cards beyond the plan's keep the peak through a loss the plan's replicas alone would
        # not: they are not idle (run replicas on the idle cards too, as SIZ032 advises).
        "server_loss_needs_idle_replicas": left >= plan.replicas_for_peak
        and idle_cards_keep_the_peak(server_loss(plan, server, servers), servers),
    }


def batch_server_loss(
    proposal: ProposalInput, servers: int, server: OwnServer, plan: ReplicaPlan | None
) -> dict[str, Any]:
    """A batch on owned servers: the replicas the loss of the fullest server during a run leaves (the
    named cards' replicas, else replicas on all the servers' cards, spread evenly) against those its
    window needs, spares aside (SIZ040). Its run restarts on the servers left, late where they are
    fewer; no count of servers required is worked out here (``spreading_facts`` is a service's), while
    the recommendation buys them as ``own_hardware.nodes_for`` does."""
    if plan is None or not plan.cards_per_replica or not servers:
        return {}
    cards = proposal.gpus or servers * server.gpus_per_server
    counted = replicas_through_a_loss(cards, servers, server, plan.cards_per_replica)
    if counted is None:
        return {}
    replicas, left = counted
    return {
        "batch_server_loss_short": left < plan.replicas_for_peak,
        "batch_server_loss_left": left,
        "batch_server_loss_window": plan.replicas_for_peak,
        "batch_server_loss_replicas": replicas,
    }


def replicas_through_a_loss(
    cards: int, servers: int, server: OwnServer, per_replica: int
) -> tuple[int, int] | None:
    """The replicas ``cards`` hold on ``servers`` servers, spread evenly, and those the loss of the fullest
    leaves; None where no replica fits a server or the cards hold none."""
    slots = server.gpus_per_server // per_replica
    replicas = cards // per_replica
    if slots == 0 or replicas < 1:
        return None
    return replicas, left_after_a_loss(replicas, slots, servers)


def spreading_facts(proposal: ProposalInput, server: OwnServer, plan: ReplicaPlan | None) -> dict[str, Any]:
    """The servers that keep the peak through the loss of one (TCO027 does not call them idle): with
    replicas on all their cards, as the recommendation's memo counts them, or with the named cards'
    replicas where the proposal names them. Not for a batch (the caller's): its run restarts on the
    servers left, it keeps no peak through a loss."""
    if plan is None or not plan.cards_per_replica:
        return {}
    if proposal.gpu is not None and proposal.gpu != server.gpu:
        # Named cards of another GPU than the server's: the plan's replica shape does not describe them.
        return {}
    named = proposal.gpus // plan.cards_per_replica if proposal.gpus else None
    peak = plan.replicas - plan.spare_replicas
    return {"servers_spreading": servers_spreading(peak, plan.cards_per_replica, server, named)}
