"""A fleet of thousands of replicas is priced in seconds, not minutes: beyond ``EXACT_REPLICAS`` the bases
of a mixed fleet tried are those at each hour's replica count and one either side
(``fleet_split._base_sizes``), and an offer's cheapest instance mixes are worked out once per its sizes
(``instances._mix_table``). A billion requests a day ran for minutes, three billion for over fifteen."""

from __future__ import annotations

import pytest
from helpers import negotiated_aws, run

from gpu_advisor.engine.calc import fleet_split
from gpu_advisor.engine.calc.fleet_split import _base_sizes
from gpu_advisor.engine.calc.instances import EXACT_REPLICAS, _cheapest_mix


def test_the_bases_tried_beyond_the_exact_search_are_the_hours_counts_and_their_neighbours() -> None:
    assert list(_base_sizes((3, 5, 5, 9))) == [1, 2, 3, 4, 5, 6, 7, 8]
    hours = (5000, 6000, 6000, 7000)
    assert list(_base_sizes(hours)) == [4999, 5000, 5001, 5999, 6000, 6001, 6999]


@pytest.mark.parametrize("requests_per_day", [2_900_000, 20_000_000])
def test_the_hours_counts_find_the_same_fleet_as_every_count(
    requests_per_day: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With the exact search cut to 4 replicas, these fleets (busiest hours of 7 and 41 replicas, bases of
    # 4 and 22 on 8 and 64 reserved cards) are searched at the hours' counts only, and every figure of the
    # recommendation is the same. At 3,000,000 requests a day no mix costs less than reserving the whole
    # fleet (two 8-card instances, $22,192 a month).
    workload = {
        "name": "chat",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": requests_per_day,
        "avg_input_tokens": 500,
        "avg_output_tokens": 200,
        "load_pattern": "steady",
        "company_country": "US",
    }
    every = run(workload, knowledge=negotiated_aws())
    assert every.mixed_fleet is not None and every.mixed_fleet.offer == "p5-reserved-3y"
    monkeypatch.setattr(fleet_split, "EXACT_REPLICAS", 4)
    assert run(workload, knowledge=negotiated_aws()) == every


def test_a_mix_beyond_the_exact_search_is_the_bulk_and_the_exact_rest() -> None:
    # Sizes of 8 cards holding 4 replicas and of 2 holding one: 10,001 replicas are 2,500 eight-card
    # instances and one two-card one, the fewest cards (20,002).
    mix = _cheapest_mix(10_001, ((8, 4), (2, 1)))
    assert mix == ((8, 2500), (2, 1)) and sum(cards * count for cards, count in mix) == 20_002
    assert EXACT_REPLICAS == 4096


def test_a_fleet_of_millions_of_instances_is_counted_not_listed() -> None:
    """10^8 replicas four to an 8-card instance: (10^8 - 4,096) // 4 = 24,998,976 in bulk, the exact
    search's 4,096 replicas on 1,024 more: 25,000,000 instances, one pair (a list of them took gigabytes
    and a minute, then ran out of memory, for a workload of ten billion long requests a day)."""
    assert _cheapest_mix(10**8, ((8, 4), (2, 1))) == ((8, 25_000_000),)
