"""What the loss of one proposed owned server leaves of a business-critical service (SIZ033), and whether
the replicas its idle cards hold are what keeps the peak through it (TCO010 does not call them idle)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.calc.own_hardware import idle_cards_keep_the_peak, left_after_a_loss, server_loss
from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.proposal import ProposalInput


def server_loss_facts(
    proposal: ProposalInput, servers: int, required: int, server: OwnServer, plan: ReplicaPlan | None
) -> dict[str, Any]:
    """Whether the loss of one proposed server leaves the peak short (SIZ033): with replicas on all their
    cards, where the proposal names no cards (and then whether the idle cards' replicas are what keeps
    it); else the named cards' replicas, spread evenly."""
    if plan is None or not plan.spread or not servers or not proposal.servers or not proposal.gpus:
        return {
            "server_loss_short": 0 < servers < required,
            "server_loss_needs_idle_replicas": plan is not None
            and plan.spread
            and servers >= required
            and idle_cards_keep_the_peak(server_loss(plan, server, servers), servers),
        }
    slots = server.gpus_per_server // plan.cards_per_replica
    replicas = proposal.gpus // plan.cards_per_replica
    if slots == 0 or replicas < 1:
        return {"server_loss_short": 0 < servers < required}
    left = left_after_a_loss(replicas, slots, servers)
    return {
        "server_loss_short": left < plan.replicas_for_peak,
        "server_loss_left": left,
        "server_loss_peak": plan.replicas_for_peak,
        "server_loss_replicas": replicas,
    }
