"""The memo's mixed-fleet section shows the cheapest mix of a reservation and an hourly offer beside the
cheapest single-kind fleet. Where the mix costs more, it says by how much, and where the reservation's
whole instances bill cards its replicas leave idle, that this is why."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

CRITICAL = {
    "name": "critical",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 300_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "always",
    "business_critical": True,
    # Its provider confirms the busier hours' cards: else no mixed fleet is priced (PRC034).
    "capacity_confirmed": True,
    "company_country": "DE",
}


def test_a_dearer_mix_says_what_it_costs_more_and_the_idle_reserved_cards() -> None:
    result = run(CRITICAL)
    mixed, best = result.mixed_fleet, result.best_option
    assert mixed is not None and best is not None and mixed.fleet is not None and not mixed.chosen
    # AWS's 3-year P5 reservation is one 8-card instance holding one replica of 2 cards (one a reserved
    # instance, for failover): $17,357 + Lambda's busier hours $6,373 (one 2-card replica in every hour, two
    # in the busiest: 2 x 25 x 30.42 = 1,521 card-hours at $4.19) = $23,730 against Scaleway's six cards
    # at $16,817 (three replicas: at 8.65 requests/s a replica, one no longer carries the peak's 5.86 with
    # its headroom): $6,913, 41 % more.
    assert (
        mixed.fleet.base_gpus_rented,
        mixed.fleet.base_replicas_hosted,
        mixed.fleet.cards_per_replica,
    ) == (
        8,
        1,
        2,
    )
    assert (round(mixed.usd_per_month), round(best.usd_per_month)) == (23_730, 16_817)
    # The six idle reserved cards cost 6 / 8 x $17,357 = $13,018 a month, more than the $6,913 gap: they
    # are why the mix costs more, and the memo says so.
    idle = 6 / 8 * mixed.fleet.base_usd_per_month
    assert (
        round(mixed.fleet.base_usd_per_month) == 17_357 and idle >= mixed.usd_per_month - best.usd_per_month
    )
    memo = " ".join(render_memo(result).split())
    assert (
        "It costs $6,913 (41 %) more than the cheapest single-kind fleet: the reservation bills 8 cards in "
        "every hour, of which the base's replicas use 2." in memo
    )


def test_a_cheaper_mix_says_nothing_of_costing_more() -> None:
    # 1.55 million requests a day: the mix of 16 reserved cards ($34,715) and Lambda's busier hours (973.44
    # card-hours at $4.19, $4,079; hour 15 runs ten replicas, not nine, since a replica carries a little
    # less), $38,794, against Scaleway's seven replicas, $39,240.
    growing = {
        **CRITICAL,
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 1_550_000,
    }
    result = run(growing)
    mixed, best = result.mixed_fleet, result.best_option
    assert mixed is not None and best is not None and mixed.usd_per_month < best.usd_per_month
    assert (round(mixed.usd_per_month), round(best.usd_per_month)) == (38_794, 39_240)
    assert "more than the cheapest single-kind fleet" not in render_memo(result)
