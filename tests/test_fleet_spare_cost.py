"""A chosen mixed fleet says what the spare replica the rules add costs on it, as it bills: the base's
instances may hold the spare anyway, and then only the busier hours' hourly cards pay for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import EVALUATED_ON, negotiated_aws, run
from test_findings_not_followed import HIGH_VOLUME

from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
from gpu_advisor.engine.present.memo import render_memo


def test_the_spare_of_a_chosen_mixed_fleet_costs_the_busier_hours_hourly_cards() -> None:
    """5 million requests a day on the negotiated AWS 3-year P5 base (4 instances, 16 replicas of 2
    H100) with Lambda's 2-GPU H100 instances at $4.19 for the busier hours. Without the latency-sensitive
    spare every hour needs one replica fewer; the base still takes 4 instances, so the spare costs one
    2-card replica in each of the 15 hours that need more than the base's 16 (beside the FP8 checkpoint's
    72.65 GB a replica's 2 x 85.9 GB x 0.9 less 2 x 3.5 GiB leave 74.45 GB, 174 requests of 1,300 tokens
    x 327,680 bytes where 70.55 GB left room for 179, and the refit steps: two more hours pass 16):
    15 x 2 x $4.19 x 30.42 days = $3,824. The fleet: the base's 32 cards x $1.90 x 730 hours, $44,384,
    and the hours' replicas beyond 16, 38 a day, x 2 cards x 30.42 days = 2,311.92 card-hours x $4.19,
    $9,686.94: $54,071."""
    result = run(HIGH_VOLUME, knowledge=negotiated_aws())
    mixed = result.mixed_fleet
    assert mixed is not None and mixed.chosen and mixed.fleet is not None
    fleet = mixed.fleet
    assert (fleet.base_replicas_hosted, fleet.cards_per_replica, fleet.peak_usd_per_gpu_hour) == (16, 2, 4.19)
    busier = sum(1 for count in fleet.replicas_by_hour if count > fleet.base_replicas_hosted)
    assert busier == 15
    beyond = sum(max(0, count - 16) for count in fleet.replicas_by_hour)
    assert beyond == 38 and fleet.peak_gpu_hours_per_month == pytest.approx(38 * 2 * 30.42)
    assert mixed.usd_per_month == pytest.approx(32 * 1.90 * 730 + 38 * 2 * 30.42 * 4.19)
    assert mixed.spare_usd_per_month == pytest.approx(busier * 2 * 4.19 * 30.42, rel=1e-4)
    memo = " ".join(render_memo(result).split())
    assert (
        "The spare replica the rules add (SIZ011) costs $3,824 of the $54,071 a month at aws p5-reserved-3y "
        "+ lambda 2-gpu-plan, as it bills it; min_replicas: 1 leaves it out"
    ) in memo


def test_no_mix_is_shown_on_a_dearer_base_where_the_cheaper_reservation_needs_none(tmp_path: Path) -> None:
    """4 million requests a day of a steady 70B chat, with a team's $1.90 for AWS's 3-year P5 savings
    plan: two P5 hold every hour's replicas for 16 x $1.90 x 730 h = $22,192, and no hourly offer beside
    a smaller base costs less (no mix on it). The mix on the 1-year plan at AWS's $4.33 with Lambda's
    2-GPU instances for the busier hours, $39,843, was shown as the mixed fleet, 80 % above the single
    reservation, as if mixing cost that much."""
    rates = tmp_path / "rates.yaml"
    rates.write_text(
        "as_of: 2026-11-20\noffers:\n"
        "  - {provider: aws, offer: p5-reserved-3y-2026-09, gpu: h100-sxm, usd_per_gpu_hour: 1.90}\n",
        encoding="utf-8",
    )
    chat = {
        "name": "mixed-fleet",
        "model": {"name": "llama-3.3-70b", "precision": "fp8"},
        "requests_per_day": 4_000_000,
        "avg_input_tokens": 400,
        "avg_output_tokens": 200,
        "load_pattern": "steady",
        "latency_sensitive": True,
        "company_country": "US",
    }
    result = run(chat, knowledge=knowledge_with_overrides(str(rates), EVALUATED_ON))
    best = result.best_option
    assert best is not None and (best.offer, round(best.usd_per_month)) == ("p5-reserved-3y-2026-09", 22192)
    assert result.mixed_fleet is None
