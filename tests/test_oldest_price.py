"""The Risks line's oldest price date is of the prices the decision could take: not of a price a rule
excluded, withdrawn, too short for the requests, or on a route a rule ruled out; the owned server's line
where the decision buys it."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from helpers import run

from gpu_advisor.engine.present.memo import render_memo


def oldest(result: Any) -> str:
    """The date the memo's Risks line gives, which is the JSON's."""
    found = re.search(
        r"the oldest of those open to this workload from (\d{4}-\d\d-\d\d)", render_memo(result)
    )
    assert found is not None
    assert found.group(1) == result.oldest_open_price.isoformat()
    return found.group(1)


def test_on_premises_the_owned_servers_line_is_the_price_open() -> None:
    """Data that stays in the building rules out every API and rental (DEP006): the document's
    2026-01-01 API price, which the memo named, is no price the workload could take; the own server's
    line (the card-counts article of 2026-10-10) is."""
    result = run(
        {
            "name": "onprem-chat",
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 200_000,
            "on_premises_required": True,
        }
    )
    assert result.decision.deployment == "own_hardware"
    assert {"api", "dedicated_cloud", "serverless"} <= set(result.resolution.ruled_out)
    assert oldest(result) == "2026-10-10"


def test_an_api_price_too_short_for_the_requests_is_not_counted() -> None:
    """20,000-token prompts: the document's Llama 3 70B price (2026-01-01, an 8,192-token window) takes
    shorter requests (exceeded_limit) and is shown as such, not taken; the oldest open price is the
    2026-03-27 GPU offers'."""
    result = run(
        {
            "name": "doc-summaries",
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 20_000,
            "avg_input_tokens": 20_000,
            "avg_output_tokens": 500,
            "load_pattern": "batch",
            "batch_window_hours": 8,
        }
    )
    hosted = next(a for a in result.api_costs if a.api == "llama-3-70b-hosted" and not a.batch)
    assert (hosted.as_of.isoformat(), hosted.exceeded_limit, hosted.excluded_by) == (
        "2026-01-01",
        "window",
        (),
    )
    assert oldest(result) == "2026-03-27"


def test_a_workstation_decision_dates_its_card_price() -> None:
    """An 8B tool on its own weights bought as RTX 5090 workstations: the card's price (NVIDIA's launch
    price of 2025-01-30) is among the dated sources and is the oldest price the decision rests on; only
    the default 8-GPU server's date was listed, and the Risks line dated the prices from 2026-03-27."""
    workload = {
        "name": "ws",
        "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
        "requests_per_day": 110_000,
        "load_pattern": "variable",
        "schedule": "workdays",
    }
    r = run(workload)
    assert (r.decision.deployment, r.decision.gpu) == ("own_hardware", "rtx-5090")
    card = [p for p in r.price_dates if p.title.startswith("NVIDIA GeForce RTX 5090, launch price")]
    assert [(p.as_of, p.used_for) for p in card] == [(dt.date(2025, 1, 30), "own-server cost lines")]
    assert r.oldest_open_price == dt.date(2025, 1, 30)
    # 669 days old on 2026-11-30, past the 180-day line: KNB019 asks for a current quote.
    (knb019,) = [f for f in r.findings if f.rule_id == "KNB019"]
    assert knb019.message.startswith(
        "The own server costed here, RTX 5090 workstation, is priced from a figure 669 days old, older than "
        "180 days, and the own route's cost rests on it"
    )
