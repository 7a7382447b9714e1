"""A chosen mixed fleet says what the spare replica the rules add costs on it, as it bills: the base's
instances may hold the spare anyway, and then only the busier hours' hourly cards pay for it."""

from __future__ import annotations

import pytest
from helpers import negotiated_aws, run
from test_findings_not_followed import HIGH_VOLUME

from gpu_advisor.engine.present.memo import render_memo


def test_the_spare_of_a_chosen_mixed_fleet_costs_the_busier_hours_hourly_cards() -> None:
    """5 million requests a day on the negotiated AWS 3-year P5 base (4 instances, 16 replicas of 2
    H100) with Lambda's 2-GPU H100 instances at $4.19 for the busier hours. Without the latency-sensitive
    spare every hour needs one replica fewer; the base still takes 4 instances, so the spare costs one
    2-card replica in each of the 13 hours that need more than the base's 16: 13 x 2 x $4.19 x 30.42
    days = $3,314."""
    result = run(HIGH_VOLUME, knowledge=negotiated_aws())
    mixed = result.mixed_fleet
    assert mixed is not None and mixed.chosen and mixed.fleet is not None
    fleet = mixed.fleet
    assert (fleet.base_replicas_hosted, fleet.cards_per_replica, fleet.peak_usd_per_gpu_hour) == (16, 2, 4.19)
    busier = sum(1 for count in fleet.replicas_by_hour if count > fleet.base_replicas_hosted)
    assert busier == 13
    assert mixed.spare_usd_per_month == pytest.approx(busier * 2 * 4.19 * 30.42, rel=1e-4)
    memo = " ".join(render_memo(result).split())
    assert (
        "The spare replica the rules add (SIZ011) costs $3,314 of the $53,051 a month at aws p5-reserved-3y "
        "+ lambda 2-gpu-plan, as it bills it; min_replicas: 1 leaves it out"
    ) in memo
