"""Fewer hours paid than the schedule serves, with requests outside them (PRC009): the managed API is
priced for the same requests the self-hosted routes serve, so that the two compare like for like."""

from __future__ import annotations

import pytest
from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.present.memo import render_memo

PUBLIC_CHAT = read_example(EXAMPLES_DIR / "public-chat.yaml")


def test_the_api_is_priced_for_the_requests_the_paid_hours_take() -> None:
    """300 paid hours of a steady chat served around the clock: the GPUs run in the day's busiest hours,
    and the requests of the others (52 % by the steady profile) find none. The API was priced for all
    of them ($5,476) against a rental priced for the rest ($3,231), and lost."""
    full = run({**PUBLIC_CHAT, "load_pattern": "steady"})
    cut = run({**PUBLIC_CHAT, "load_pattern": "steady", "hours_per_month": 300})
    share = cut.load.requests_share_in_paid_hours
    assert round(share, 2) == 0.48
    assert "PRC009" in cut.fired_rules and "PRC009" not in full.fired_rules
    (api_full,) = [a for a in full.api_costs if a.compared]
    (api_cut,) = [a for a in cut.api_costs if a.compared]
    assert api_cut.usd_per_month == pytest.approx(api_full.usd_per_month * share, rel=1e-12)
    assert (round(api_full.usd_per_month), round(api_cut.usd_per_month)) == (5476, 2608)
    assert cut.decision.deployment == "api"
    assert (
        "Every route here, the managed API's too, is priced for the 48 % of the day's requests that come in "
        "the 300 paid hours a month; the other 52 % are not served (PRC009): sent to the managed API as "
        "well, they would bring its bill to $5,476 a month." in render_memo(cut)
    )
    assert "Every route here" not in render_memo(full)
