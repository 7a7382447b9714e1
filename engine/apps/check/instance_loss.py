"""A business-critical proposal on rented instances: its replicas placed as ``recommend`` places them
(SIZ015), and what the loss of the fullest instance leaves of the peak's replicas (SIZ034)."""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.engine.calc.costs import Rental, rent
from gpu_advisor.engine.calc.instances import fullest_instance
from gpu_advisor.engine.domain.knowledge.entries import Offer


class InstanceLoss(NamedTuple):
    """What the loss of the fullest instance of a proposal leaves, and the proposal that survives it."""

    replicas_left: int
    peak_replicas: int
    """The replicas the peak needs on the proposal's cards, spares aside."""
    surviving_gpus: int
    """The cards a proposal on the same offer runs to keep the peak through the loss (its replicas'),
    at the fewest billed (``instances.place``), and what those bill, and a month of them."""
    surviving_gpus_billed: int
    surviving_usd_per_month: float

    @property
    def short(self) -> bool:
        """The loss leaves fewer replicas than the peak needs."""
        return self.replicas_left < self.peak_replicas

    def details(self) -> dict[str, int | float]:
        """What SIZ034's message says (``ProposalDetails``)."""
        return {f"loss_{name}": value for name, value in self._asdict().items()}


def spread_rental(
    offer: Offer,
    per_replica: int,
    replicas: int,
    hours: float,
    linked: tuple[int, ...],
    price: float,
    peak_replicas: int,
) -> Rental:
    """The proposed replicas as ``recommend`` places a business-critical service's, where that bills no
    more cards than placing them together: none on an instance beyond the spares (the loss of any one
    then leaves the peak's), else on two instances at least; as proposed otherwise."""
    together = rent(offer, per_replica, replicas, hours, linked, price)
    spare = replicas - peak_replicas
    if spare > 0:
        surviving = rent(offer, per_replica, replicas, hours, linked, price, spread=True, spare=spare)
        if surviving.placement.replicas_run == replicas and surviving.gpus_rented <= together.gpus_rented:
            return surviving
    spread = rent(offer, per_replica, replicas, hours, linked, price, spread=True)
    return spread if spread.gpus_rented <= together.gpus_rented else together


def instance_loss(
    rental: Rental,
    offer: Offer,
    per_replica: int,
    replicas: int,
    hours: float,
    linked: tuple[int, ...],
    price: float,
    peak_replicas: int,
) -> InstanceLoss:
    """What the loss of ``rental``'s fullest instance leaves of its ``replicas``, and the fewest cards
    on ``offer`` that keep the ``peak_replicas`` through it (with one spare at least)."""
    left = replicas - fullest_instance(rental.placement, per_replica, replicas)
    asked = max(replicas, peak_replicas + 1)
    surviving = rent(
        offer, per_replica, asked, hours, linked, price, spread=True, spare=asked - peak_replicas
    )
    return InstanceLoss(
        left,
        peak_replicas,
        surviving.placement.replicas_run * per_replica,
        surviving.gpus_rented,
        surviving.usd_per_month,
    )
