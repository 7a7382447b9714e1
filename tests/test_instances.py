"""Replicas on instances as offers sell them (engine/calc/instances.py), worked out by hand and checked
against a brute-force search over every mix of sizes."""

from __future__ import annotations

import itertools
import math

import pytest

from gpu_advisor.engine.calc.instances import (
    Placement,
    fullest_instance,
    linked_sizes,
    place,
    spread_at_no_cost,
)


def test_nothing_to_place() -> None:
    assert place(2, 0, (1, 8), (8,)) == ((), 0, 0, 0)


def test_a_two_card_replica_needs_the_eight_gpu_p5() -> None:
    # AWS P5 on demand: p5.4xlarge (1 card) and p5.48xlarge (8, NVSwitch). Three 2-card replicas cannot
    # sit on 1-card instances: one 8-card instance holds four of them.
    assert place(2, 3, (1, 8), (8,)) == (((8, 1),), 8, 4, 3)


def test_one_card_replicas_take_the_fewest_cards() -> None:
    assert place(1, 3, (1, 8), (8,)) == (((1, 3),), 3, 3, 3)
    assert place(1, 9, (1, 8), (8,)) == (((8, 1), (1, 1)), 9, 9, 9)


def test_a_replica_larger_than_every_linked_size_spans_instances() -> None:
    # 16 cards per replica on 8-GPU instances: two instances a replica, over the network (NET003).
    assert place(16, 1, (1, 8), (8,)) == (((8, 2),), 16, 1, 1)
    # No multi-card size shares the link (GMI, sold as single cards): two 1-card instances.
    assert place(2, 1, (1,), ()) == (((1, 2),), 2, 1, 1)


def test_a_replica_on_an_instance_whose_link_is_not_stated_shares_that_instance() -> None:
    # OVHcloud's h200-1920 is sold as 8 cards whose link its sources do not state (no linked size): three
    # 4-card replicas go two to an instance, 16 cards billed for 12, not one instance each (24 cards).
    # Whether their link serves tensor parallelism is NET003's and NET004's to judge.
    assert place(4, 3, (8,), ()) == (((8, 2),), 16, 4, 3)
    assert place(8, 1, (8,), ()) == (((8, 1),), 8, 1, 1)


def test_many_replicas_are_placed_in_bulk_on_the_size_that_wastes_least() -> None:
    placed = place(2, 10_000, (1, 2, 4, 8), (2, 4, 8))
    assert placed.gpus_rented == 20_000 and placed.replicas_hosted == 10_000
    assert placed.instances == ((8, 2500),)


def test_linked_sizes_default_to_every_multi_card_size() -> None:
    assert linked_sizes((1, 2, 4, 8), None) == (2, 4, 8)
    assert linked_sizes((1, 8), (8,)) == (8,)
    assert linked_sizes((2,), ()) == ()


def brute_force(cards: int, replicas: int, sizes: tuple[int, ...]) -> int:
    """The fewest cards of any mix of the usable sizes that holds ``replicas``."""
    usable = [size for size in sizes if size >= cards]
    best = math.inf
    most = max(math.ceil(replicas / (size // cards)) for size in usable)
    for counts in itertools.product(range(most + 1), repeat=len(usable)):
        held = sum(n * (size // cards) for n, size in zip(counts, usable, strict=True))
        if held >= replicas:
            best = min(best, sum(n * size for n, size in zip(counts, usable, strict=True)))
    return int(best)


@pytest.mark.parametrize("sizes", [(1, 8), (1, 2, 4, 8), (2, 4, 8), (4, 8), (3, 8), (6, 8)])
@pytest.mark.parametrize("cards", [1, 2, 3, 4])
def test_the_mix_has_the_fewest_cards(sizes: tuple[int, ...], cards: int) -> None:
    if not any(size >= cards for size in sizes):
        return
    for replicas in range(1, 13):
        placed = place(cards, replicas, sizes, tuple(s for s in sizes if s > 1))
        assert placed.gpus_rented == brute_force(cards, replicas, sizes), (cards, replicas, sizes)
        assert placed.replicas_hosted >= replicas


def test_sizes_that_do_not_divide_each_other() -> None:
    # 129 one-card replicas on 48- and 64-card instances: three 48s (144 cards), not 64 + 48 + 48.
    assert place(1, 129, (48, 64), (48, 64)).gpus_rented == 144


def test_spread_replicas_take_a_second_instance_where_they_would_share_one() -> None:
    # Scaleway's H100 SXM in 2, 4 and 8 cards: two 2-card replicas fit one 4-card instance; spread, they
    # take two 2-card instances, the same four cards.
    assert place(2, 2, (2, 4, 8), (2, 4, 8)) == (((4, 1),), 4, 2, 2)
    assert place(2, 2, (2, 4, 8), (2, 4, 8), spread=True) == (((2, 2),), 4, 2, 2)
    # AWS P5 sells the 8-card size only for 2-card replicas: three of them on two instances, 16 cards.
    assert place(2, 3, (1, 8), (8,), spread=True) == (((8, 2),), 16, 8, 3)
    # Three 1-card replicas on sizes 1 and 8 already take three instances; one replica stays on one.
    assert place(1, 3, (1, 8), (8,), spread=True) == place(1, 3, (1, 8), (8,))
    assert place(2, 1, (2, 4, 8), (2, 4, 8), spread=True) == (((2, 1),), 2, 1, 1)


def test_a_spread_placement_is_the_cheapest_of_two_instances_or_more() -> None:
    # Brute force, independent of place(): every multiset of at most six instances of the sizes that
    # hold whole replicas, with two instances or more, holding the replicas; the fewest cards wins.
    for sizes in ((2, 4, 8), (1, 8), (4, 8), (8,)):
        usable = [size for size in sizes if size >= 2]
        for replicas in range(2, 9):
            best = min(
                sum(mix)
                for count in range(2, 7)
                for mix in itertools.combinations_with_replacement(usable, count)
                if sum(size // 2 for size in mix) >= replicas
            )
            spread = place(2, replicas, sizes, sizes, spread=True)
            assert spread.instance_count >= 2
            assert spread.gpus_rented == best, (sizes, replicas)
            assert spread.replicas_hosted >= replicas


def test_spares_keep_the_peak_through_the_loss_of_the_fullest_instance() -> None:
    # Scaleway's H100 SXM in 2, 4 and 8 cards, 2-card replicas, three for the peak and a spare: two to a
    # 4-card instance, the loss of one leaves two. One replica an instance keeps three: four 2-card
    # instances, 8 cards (12 on 4-card instances, or 16 with one replica each).
    assert place(2, 4, (2, 4, 8), (2, 4, 8), spread=True, spare=1) == (((2, 4),), 8, 4, 4)
    # Sold in 4-card instances only: one replica an instance rents 16 cards; a fifth replica lets each
    # instance carry two (the loss of one leaves three), three instances, 12 cards.
    assert place(2, 4, (4,), (4,), spread=True, spare=1) == (((4, 3),), 12, 6, 5)
    # AWS P5 (8 cards, four 2-card replicas each) for 17 replicas and a spare: 21 replicas at four an
    # instance on six instances (48 cards), not eighteen instances of one.
    assert place(2, 18, (8,), (8,), spread=True, spare=1) == (((8, 6),), 48, 24, 21)
    # Two spares: two replicas an instance need no more replicas.
    assert place(2, 5, (4,), (4,), spread=True, spare=2) == (((4, 3),), 12, 6, 5)


def survives_with_fewest_cards(cards: int, replicas: int, spare: int, sizes: tuple[int, ...]) -> int:
    """Brute force, independent of place(): every multiset of at most eight instances, and every number
    of replicas they hold from ``replicas`` up, spread as evenly as the instances allow; the fewest cards
    whose fullest instance, lost, leaves ``replicas - spare``."""
    usable = [size for size in sizes if size >= cards]
    needed, best = replicas - spare, math.inf
    for count in range(2, 9):
        for mix in itertools.combinations_with_replacement(usable, count):
            holds = [size // cards for size in mix]
            for run in range(replicas, sum(holds) + 1):
                fullest = next(t for t in range(1, max(holds) + 1) if sum(min(h, t) for h in holds) >= run)
                if run - fullest >= needed:
                    best = min(best, sum(mix))
    return int(best)


@pytest.mark.parametrize("sizes", [(2, 4, 8), (4,), (8,), (4, 8), (1, 8)])
@pytest.mark.parametrize("spare", [1, 2])
def test_a_placement_that_survives_a_loss_rents_the_fewest_cards(sizes: tuple[int, ...], spare: int) -> None:
    for replicas in range(spare + 1, 8):
        placed = place(2, replicas, sizes, sizes, spread=True, spare=spare)
        assert placed.gpus_rented == survives_with_fewest_cards(2, replicas, spare, sizes), (sizes, replicas)
        assert placed.replicas_run >= replicas and placed.replicas_hosted >= placed.replicas_run


def test_a_mix_table_grown_count_by_count_is_the_one_worked_out_at_once() -> None:
    """An offer's table of cheapest mixes is grown as far as a count asks (``instances._mix_table``):
    counts asked in any order read the entries a table worked out in one go gives, and a count already
    covered leaves the kept table as it is."""
    from gpu_advisor.engine.calc import instances

    sizes = ((4, 1), (8, 2))  # 4-card replicas on 4- and 8-card instances
    instances._MIX_TABLES.clear()
    at_once = instances._mix_table(sizes, 700)
    instances._MIX_TABLES.clear()
    for replicas in (3, 1, 40, 39, 700, 2, 350):
        table = instances._mix_table(sizes, replicas)
        assert len(table) > replicas
        assert table[: replicas + 1] == at_once[: replicas + 1]
    assert instances._mix_table(sizes, 5) is instances._MIX_TABLES[sizes]
    # The cheapest mix of 7 replicas: three 8-card instances (6) and one 4-card one, 28 cards.
    assert at_once[7][:2] == (28, 4)


def test_the_fullest_instance_is_counted_as_evenly_as_the_cards_allow() -> None:
    """Two 8-card instances and a 4-card one of 2-card replicas hold 4, 4 and 2: seven replicas put at
    most 3 on one (at a cap of 2 they hold 2 + 2 + 2 = 6); more replicas than the instances hold, as a
    caller's placement of too few cards may ask, count the fullest as full instead of searching for
    ever."""
    placement = Placement(instances=((8, 2), (4, 1)), gpus_rented=20, replicas_hosted=10)
    assert [fullest_instance(placement, 2, n) for n in (1, 3, 6, 7, 10)] == [1, 1, 2, 3, 4]
    assert fullest_instance(placement, 2, 11) == 4


def test_the_fullest_instance_of_a_mix_counts_the_sizes_that_hold_a_replica() -> None:
    """An 8-card instance beside two 2-card ones, replicas of 4 cards: the 8-card instance carries both
    replicas its cards hold, the smaller ones none (it returned 1, as for a replica spanning instances)."""
    assert fullest_instance(Placement(((8, 1), (2, 2)), 12, 2), 4, 2) == 2
    # Every size smaller than the replica: it spans instances, and a loss takes one.
    assert fullest_instance(Placement(((8, 2),), 16, 1), 16, 1) == 1
    # Six replicas of four cards over three 8-card instances: two on each.
    assert fullest_instance(Placement(((8, 3),), 24, 6), 4, 6) == 2


def test_a_spread_at_no_cost_rents_and_holds_what_the_replicas_together_do() -> None:
    """Two 1-card replicas, one a spare, on an offer of 1- and 2-card instances: together on one 2-card
    instance, or on two 1-card ones with the same cards and replicas. On sizes 3 and 6, two 2-card
    replicas together take one 6-card instance that holds three (a batch runs all three); spread, two
    3-card instances hold two: not the same, so none is named. Spread already, or the spare covering the
    fullest instance, there is nothing to name."""
    two_ones = spread_at_no_cost(1, 2, (2, 1), (2,), 1)
    assert two_ones is not None and two_ones.instances == ((1, 2),) and two_ones.gpus_rented == 2
    assert spread_at_no_cost(2, 2, (6, 3), (6, 3), 1) is None
    assert spread_at_no_cost(1, 2, (2,), (2,), 1) is None  # only the 2-card size: no smaller instance
    assert spread_at_no_cost(1, 3, (1,), (), 1) is None  # on 1-card instances the spare covers a loss
    assert spread_at_no_cost(1, 2, (2, 1), (2,), 0) is None
