"""A business-critical proposal on rented instances: its replicas placed as ``recommend`` places them
(SIZ015; a batch's, SIZ038), and what the loss of the fullest instance leaves of the replicas the peak
(SIZ034) or the window (SIZ039) needs."""

from __future__ import annotations

from collections.abc import Callable
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


class ProposedRental(NamedTuple):
    """A rental proposal's terms as ``costs.rent`` takes them: its offer, the cards a replica runs on,
    the replicas, the hours billed, the offer's linked sizes and its price per GPU-hour."""

    offer: Offer
    per_replica: int
    replicas: int
    hours: float
    linked: tuple[int, ...]
    price: float

    def rent(self, replicas: int | None = None, spread: bool = False, spare: int = 0) -> Rental:
        """The proposal's replicas (or ``replicas``) on its offer, spread as ``instances.place`` spreads."""
        count = self.replicas if replicas is None else replicas
        return rent(self.offer, self.per_replica, count, self.hours, self.linked, self.price, spread, spare)


def spread_rental(terms: ProposedRental, peak_replicas: int) -> Rental:
    """The proposed replicas as ``recommend`` places a business-critical service's, where that bills no
    more cards than placing them together: none on an instance beyond the spares (the loss of any one
    then leaves the peak's), else on two instances at least; as proposed otherwise."""
    together = terms.rent()
    spare = terms.replicas - peak_replicas
    if spare > 0:
        surviving = terms.rent(spread=True, spare=spare)
        if (
            surviving.placement.replicas_run == terms.replicas
            and surviving.gpus_rented <= together.gpus_rented
        ):
            return surviving
    spread = terms.rent(spread=True)
    return spread if spread.gpus_rented <= together.gpus_rented else together


def instance_loss(
    rental: Rental, terms: ProposedRental, peak_replicas: int, hours_on: Callable[[int], float]
) -> InstanceLoss:
    """What the loss of ``rental``'s fullest instance leaves of the proposal's replicas, and the fewest
    cards on its offer that keep the ``peak_replicas`` (a batch: its window's) through it (with one spare
    at least), billed for ``hours_on`` the replicas their instances hold (a batch's run on all of them is
    shorter, as recommend prices it: ``listings.price_plan``)."""
    left = terms.replicas - fullest_instance(rental.placement, terms.per_replica, terms.replicas)
    asked = max(terms.replicas, peak_replicas + 1)
    surviving = terms.rent(asked, spread=True, spare=asked - peak_replicas)
    return InstanceLoss(
        left,
        peak_replicas,
        surviving.placement.replicas_run * terms.per_replica,
        surviving.gpus_rented,
        surviving.usd_per_hour * hours_on(surviving.placement.replicas_hosted),
    )
