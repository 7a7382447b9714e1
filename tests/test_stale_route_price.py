"""KNB013: the cheapest self-hosted route is a serverless product whose price list is stale. KNB001
weighs a rental's age and KNB008 a mixed fleet's; a serverless product's price was weighed unchecked."""

from __future__ import annotations

import datetime as dt
from typing import Any

from helpers import EVALUATED_ON, run

from gpu_advisor.engine.present.memo import render_memo

# An 8B model with its own weights (no API may serve it, DEP005), 300 requests a day in office hours:
# RunPod Serverless on an L4 in its EU data centres, priced from its table of 2026-05-08.
SPORADIC: dict[str, Any] = {
    "name": "sporadic-8b",
    "model": {"name": "llama-3.1-8b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 300,
    "avg_input_tokens": 800,
    "avg_output_tokens": 300,
    "schedule": "office_hours",
    "latency_sensitive": False,
    "company_country": "DE",
}


def test_a_stale_serverless_price_is_named_where_serverless_is_the_cheapest_route() -> None:
    result = run(SPORADIC)
    assert result.decision.deployment == "serverless"
    assert "KNB013" in result.fired_rules
    # 2026-11-30 less 2026-05-08: 23 + 30 + 31 + 31 + 30 + 31 + 30 + 2 days = 206.
    assert (EVALUATED_ON - dt.date(2026, 5, 8)).days == 206
    memo = " ".join(render_memo(result).split())
    assert (
        "**KNB013** The serverless product's price is stale: The cheapest self-hosted route, RunPod "
        "Serverless (variable, 1 × l4), rests on a price list 206 days old (as of 2026-05-08), older "
        "than 180 days, and the comparisons here weigh it; GPU prices move fast (H100 list prices fell by "
        "up to 44 % within 2025). Check the provider's current price before deciding." in memo
    )


def test_no_warning_within_180_days_of_the_price() -> None:
    # 180 days after 2026-05-08: the line itself, not older than it.
    on_the_line = dt.date(2026, 5, 8) + dt.timedelta(days=180)
    assert "KNB013" not in run(SPORADIC, on_the_line).fired_rules
    assert "KNB013" in run(SPORADIC, on_the_line + dt.timedelta(days=1)).fired_rules
