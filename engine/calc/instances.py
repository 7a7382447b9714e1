"""Replicas placed on instances as an offer sells them: whole instances of the sizes it lists, a
multi-card replica inside one instance whose cards share a fast link (tensor parallelism needs it), and
a replica larger than every size on several of the largest (pipeline stages over the network between
them, which NET003 admits only where the provider documents it: ``Offer.cluster_network``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple


class Placement(NamedTuple):
    """The instances that carry a number of replicas, and what they leave idle."""

    instances: tuple[tuple[int, int], ...]
    """The instances billed: (size in cards, how many), largest size first."""
    gpus_rented: int
    replicas_hosted: int
    """How many replicas the rented cards hold (at least those asked for): the rest of a bought
    instance is idle, and room for this many minus the replicas placed."""
    replicas_run: int = 0
    """The replicas to run on them: those asked, or more where the loss of the fullest instance would
    otherwise leave fewer than the peak needs (``place``'s ``spread``)."""

    @property
    def instance_count(self) -> int:
        """The instances billed, of every size."""
        return sum(count for _, count in self.instances)


def linked_sizes(
    instance_gpus: tuple[int, ...], nvlink_instance_gpus: tuple[int, ...] | None
) -> tuple[int, ...]:
    """The multi-card sizes whose cards share the GPU's link inside one machine: those the offer names
    (``nvlink_instance_gpus``), else every multi-card size (an SXM baseboard links all its modules;
    PCIe cards of one host share the host's PCIe)."""
    if nvlink_instance_gpus is not None:
        return nvlink_instance_gpus
    return tuple(size for size in instance_gpus if size > 1)


# A recommendation prices every offer on every GPU, and the same few counts recur: the placement of
# given counts on given sizes never changes.
@lru_cache(maxsize=4096)
def place(
    cards_per_replica: int,
    replicas: int,
    instance_gpus: tuple[int, ...],
    linked: tuple[int, ...],
    spread: bool = False,
    spare: int = 0,
) -> Placement:
    """The fewest cards that hold ``replicas`` replicas of ``cards_per_replica`` cards each, in whole
    instances of ``instance_gpus``; a multi-card replica goes in a size of ``linked`` that holds it (its
    cards on one link), else in a size whose link its sources do not state (NET003 does not admit it).
    A replica larger than every size spans instances of the largest (over the network: NET003 judges
    whether the provider documents one fit for it, NET006 says what it takes).
    ``spread``: two replicas or more go on at least two instances, so that a failed host (or a GPU fault
    that stops its instance) leaves replicas serving. With ``spare`` replicas beyond the peak's need, the
    loss of the fullest instance must leave the peak's: either no instance carries more than the spares,
    or more replicas run, one more for each replica an instance carries beyond them, whichever rents the
    fewest cards (then runs the fewest replicas). Without a spare, the loss leaves one serving."""
    together = _place(cards_per_replica, replicas, instance_gpus, linked)
    if not spread or replicas < 2:
        return together
    if spare <= 0:
        return _place(cards_per_replica, replicas, instance_gpus, linked, replicas - 1)
    needed = replicas - spare
    # A replica larger than every size spans instances of its own: one lost instance stops one replica.
    fullest = max(1, instance_gpus[-1] // cards_per_replica)
    placements = (
        _place(cards_per_replica, max(replicas, needed + most), instance_gpus, linked, most)
        for most in range(1, fullest + 1)
    )
    return min(placements, key=lambda p: (p.gpus_rented, p.replicas_run, p.instance_count))


# Asked for every option of every recommendation, for the same few counts and sizes.
@lru_cache(maxsize=4096)
def spread_at_no_cost(
    cards_per_replica: int, replicas: int, instance_gpus: tuple[int, ...], linked: tuple[int, ...], spare: int
) -> Placement | None:
    """Where ``replicas`` (``spare`` of them spares) placed together would lose more than the spares
    with their fullest instance: the placement whose loss of any one instance leaves the others (``place``
    spread), where it rents the same cards, runs no more replicas and holds as many (smaller instances at
    the offer's one price per card); None where it would bill or hold otherwise, or there is nothing to
    cover. It is not chosen for the plan: it takes more instances to run, each with its own disk and copy
    of the weights, which the catalog does not price; the memo names it."""
    if spare <= 0 or replicas < 2:
        return None
    together = _place(cards_per_replica, replicas, instance_gpus, linked)
    if fullest_instance(together, cards_per_replica, replicas) <= spare:
        return None
    spread = place(cards_per_replica, replicas, instance_gpus, linked, True, spare)
    same = (spread.gpus_rented, spread.replicas_hosted) == (together.gpus_rented, together.replicas_hosted)
    return spread if same and spread.replicas_run <= replicas else None


def fullest_instance(placement: Placement, cards_per_replica: int, replicas: int) -> int:
    """The most replicas one of ``placement``'s instances carries where ``replicas`` are spread over them
    as evenly as their cards allow: what the loss of the fullest takes. A replica that spans instances
    (every size smaller than it) is lost with any of them: one."""
    return _fullest_instance(placement.instances, cards_per_replica, replicas)


# Asked for every option of every recommendation, for the same few instance mixes and counts (all values).
@lru_cache(maxsize=4096)
def _fullest_instance(instances: tuple[tuple[int, int], ...], cards_per_replica: int, replicas: int) -> int:
    # Sizes that hold no replica (a mix of sizes where a replica spans the smaller ones) carry none.
    holds = [(each, count) for size, count in instances if (each := size // cards_per_replica)]
    if not holds:
        return min(1, replicas)
    # More replicas than the instances hold (a caller's placement of fewer): the fullest is full.
    most, full = 1, max(each for each, _ in holds)
    while most < full and sum(min(each, most) * count for each, count in holds) < replicas:
        most += 1
    return most


# A mixed fleet tries every base with every hour's replicas beside it, for each cap: the same few counts.
@lru_cache(maxsize=4096)
def fleet_place(
    cards_per_replica: int,
    replicas: int,
    instance_gpus: tuple[int, ...],
    linked: tuple[int, ...],
    spread: bool,
    most: int,
) -> Placement:
    """A part of a fleet whose replicas change by the hour (a committed base, or an hour's replicas on an
    hourly offer beside it): spread as ``place`` spreads, and with ``most`` (the fleet's spares, or more
    where every hour runs more replicas for it) no instance carrying more than that, so that the loss of
    one leaves each hour's need. Its ``replicas_hosted`` counts what the instances carry so: the hours'
    other replicas go elsewhere."""
    if not spread or most <= 0:
        return place(cards_per_replica, replicas, instance_gpus, linked, spread)
    placed = _place(cards_per_replica, replicas, instance_gpus, linked, most)
    if cards_per_replica > instance_gpus[-1]:
        return placed
    carried = sum(min(size // cards_per_replica, most) * count for size, count in placed.instances)
    return placed._replace(replicas_hosted=carried)


def _place(
    cards_per_replica: int,
    replicas: int,
    instance_gpus: tuple[int, ...],
    linked: tuple[int, ...],
    most: int | None = None,
) -> Placement:
    """``most``: the most replicas one instance may carry (None: as many as its cards hold); the cards
    beyond stay idle, room for replicas that are not counted on to survive its loss."""
    if replicas <= 0:
        return Placement((), 0, 0, 0)
    if cards_per_replica == 1:
        usable = instance_gpus
    else:
        usable = tuple(size for size in linked if size >= cards_per_replica)
        # No size known to link the cards holds it: its cards still share one host in a size that holds
        # it, and are billed so; whether their link serves tensor parallelism is NET003's to judge.
        usable = usable or tuple(size for size in instance_gpus if size >= cards_per_replica)
    if not usable:
        largest = instance_gpus[-1]
        per_replica = math.ceil(cards_per_replica / largest)
        count = per_replica * replicas
        return Placement(((largest, count),), count * largest, replicas, replicas)
    holds = tuple((size, min(size // cards_per_replica, most or size)) for size in usable)
    instances = _cheapest_mix(replicas, holds)
    hosted = sum(size // cards_per_replica * count for size, count in instances)
    return Placement(instances, sum(size * count for size, count in instances), hosted, replicas)


# Beyond this many replicas the bulk goes on the size that wastes the least, and the mix is worked out for
# the rest only, which is far more than any two sizes' least common multiple of replicas: the exact
# search is linear in the replica count.
EXACT_REPLICAS = 4096


MIX_TABLES_KEPT = 64

_MIX_TABLES: dict[tuple[tuple[int, int], ...], tuple[tuple[int, int, int], ...]] = {}


def _mix_table(sizes: tuple[tuple[int, int], ...], replicas: int) -> tuple[tuple[int, int, int], ...]:
    """For 0 replicas up to at least ``replicas`` (at most ``EXACT_REPLICAS`` and what the bulk leaves
    beyond it, less than one instance's replicas): (cards, instances, the size added last) of the
    cheapest mix. Each count's entry depends on smaller counts only, so the table of an offer's sizes is
    kept and grown as far as a count asks (at least doubled, so that a fleet trying every base size
    grows it a few times only): its many base sizes each read it rather than search anew, and a run that
    asks for a few replicas works out only those. A grown table replaces the kept one whole, so threads
    evaluating at once never see one half grown."""
    best = _MIX_TABLES.get(sizes, ((0, 0, 0),))
    if len(best) > replicas:
        return best
    longest = EXACT_REPLICAS + max(holds for _, holds in sizes)
    grown = list(best)
    for needed in range(len(grown), max(replicas, min(2 * len(grown), longest)) + 1):
        choices = []
        for cards, holds in sizes:
            rest_cards, rest_instances, _ = grown[max(0, needed - holds)]
            choices.append((rest_cards + cards, rest_instances + 1, cards))
        grown.append(min(choices))
    if len(_MIX_TABLES) >= MIX_TABLES_KEPT:
        _MIX_TABLES.clear()
    _MIX_TABLES[sizes] = best = tuple(grown)
    return best


@lru_cache(maxsize=4096)
def _cheapest_mix(replicas: int, sizes: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Instance sizes (cards, replicas each holds) whose replicas reach ``replicas`` with the fewest
    cards, then the fewest instances: (cards, instances) per size used, largest first. Prices per card
    are equal across an offer's sizes, so the fewest cards is the cheapest. Counted, not listed: a
    fleet of millions of instances is a few pairs."""
    counts: dict[int, int] = {}
    if replicas > EXACT_REPLICAS:
        cards, holds = min(sizes, key=lambda size: (size[0] / size[1], -size[0]))
        count = (replicas - EXACT_REPLICAS) // holds
        counts[cards], replicas = count, replicas - count * holds
    best = _mix_table(sizes, replicas)
    holds_by_size = dict(sizes)
    needed = replicas
    while needed > 0:
        cards = best[needed][2]
        counts[cards] = counts.get(cards, 0) + 1
        needed -= holds_by_size[cards]
    return tuple((cards, counts[cards]) for cards in sorted(counts, reverse=True) if counts[cards])
