"""TCO028: the owned servers' power line charges the rated draw in every hour (the documents' line);
what owning would cost with the idle hours at an idle GPU server's draw (20 % of its rating) is worked out
beside it, and said where it would turn buy versus rent."""

from __future__ import annotations

import pytest
from helpers import EXAMPLES_DIR, read_example, run

# Own weights (no API), steady around the clock: the servers are decided at the rated draw.
BIG = {
    "name": "big",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 3_000_000,
    "avg_input_tokens": 500,
    "avg_output_tokens": 200,
    "model_stable": True,
    "volume_growing": True,
    "company_country": "DE",
}


def test_the_internal_assistants_office_cards_at_their_busy_shares_draw() -> None:
    """Two RTX 5090 in an Austrian office: 0.575 kW x 730 h x (0.158 EUR x 1.16) = $76.95 a card and
    month at the rated draw; busy u of the calendar hours, the rest at 20 %: x (u + 0.2 (1 - u))."""
    result = run(read_example(EXAMPLES_DIR / "internal-assistant.yaml"))
    own = result.own_hardware
    assert own is not None and own.nodes == 2
    rated = 2 * 0.575 * 730 * 0.158 * 1.16
    assert own.power_usd_per_month == pytest.approx(rated)
    u = own.node_utilization
    at_busy_share = own.usd_per_month - rated + rated * (u + 0.2 * (1 - u))
    assert own.usd_per_month_at_busy_share == pytest.approx(at_busy_share)
    # $265 at the rated draw against the community RTX 5090's $243; about $158 at the busy share.
    assert round(own.usd_per_month) == 265 and round(own.usd_per_month_at_busy_share) == 158
    (finding,) = [f for f in result.findings if f.rule_id == "TCO028"]
    assert finding.message.startswith(
        "Owning is costed as the documents cost it, every card at its rated 575 W in every hour of the "
        "month: $265 a month, more than runpod/community/rtx-5090 at $243. The cards would be busy 13 % of "
        "the calendar hours, and an idle GPU server draws about 20 % of its rated power"
    )


def test_silent_where_owning_wins_at_the_rated_draw() -> None:
    """A 70B chat at 3 million requests a day in Germany with its own weights buys two servers, cheaper
    than any rental at the rated draw already: TCO028 has nothing to turn. Its cards are busy less than
    every hour, so the busy share's figure is below the costed one by the idle hours' 80 % of the draw."""
    result = run(BIG)
    assert result.decision.deployment == "own_hardware"
    assert "TCO028" not in {f.rule_id for f in result.findings}
    own = result.own_hardware
    assert own is not None and 0 < own.node_utilization < 1
    rated, u = own.power_usd_per_month, own.node_utilization
    assert own.usd_per_month_at_busy_share == pytest.approx(own.usd_per_month - rated * (1 - 0.2) * (1 - u))
    assert own.usd_per_month_at_busy_share < own.usd_per_month


def test_the_summary_says_where_the_idle_draw_would_turn_a_rental_decided() -> None:
    """An office-hours 8B with its own weights is decided on two rented RTX 5090 ($243): owning two costs
    $310 at the rated draw and about $187 at their 23 % busy share's, so the Summary says what the
    finding says (it had named none of it)."""
    from gpu_advisor.engine.present.memo import render_memo

    office = {
        "name": "office8b",
        "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
        "requests_per_day": 60_000,
        "schedule": "office_hours",
        "company_country": "DE",
    }
    result = run(office)
    assert result.decision.deployment == "dedicated_cloud" and "TCO028" in result.fired_rules
    summary = render_memo(result).split("## Why")[0]
    assert (
        "Owning 2 × RTX 5090 workstation instead costs $310 a month with every card at its rated draw in "
        "every hour, as costed here, and about $187 with the idle hours at an idle server's draw, less than "
        "this rental (TCO028): measure what the machines draw before ruling owning out.\n"
    ) in summary
