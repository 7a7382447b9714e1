"""A workload that states its users cannot wait keeps its serverless instances warm; where scaling to zero
would cost less than half the cheapest route standing, DEP048 names both figures (a 40-request-a-day
contract tool cost $1,109 a month, and the memo never said the $64 endpoint existed)."""

from __future__ import annotations

import re
from typing import Any

from helpers import run

REDLINER: dict[str, Any] = {
    "name": "contract-redliner",
    "model": {"name": "qwen2.5-32b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 40,
    "avg_input_tokens": 6000,
    "avg_output_tokens": 1200,
    "load_pattern": "variable",
    "schedule": "workdays",
    "latency_sensitive": True,
    "company_country": "DE",
}


def message(result: Any, rule: str) -> str:
    return " ".join(str(next(f.message for f in result.findings if f.rule_id == rule)).split())


def test_a_stated_latency_sensitivity_is_priced_against_scaling_to_zero() -> None:
    """Two H100 SXM at GMI, $2.10 an hour each for the 264 workday hours: $1,108.80, the decision. The
    cheapest endpoint scaling to zero bills less than half of it, and nearly every request (40 a day on
    22 days: 880 a month) finds no instance running."""
    result = run(REDLINER)
    best = result.best_option
    assert best is not None and best.chosen
    assert (best.provider, best.gpu, best.gpus) == ("gmi", "h100-sxm", 2)
    assert round(best.usd_per_month, 2) == round(2 * 2.10 * 264, 2)
    assert "DEP048" in result.fired_rules and "DEP031" not in result.fired_rules
    text = message(result, "DEP048")
    assert "the cheapest route standing is gmi on-demand (2 × h100-sxm) at $1,109 a month" in text
    found = re.search(r"scaling to zero would cost at least \$([\d,]+) a month, (\d+) % less", text)
    assert found is not None
    cold, saving = int(found.group(1).replace(",", "")), int(found.group(2))
    assert cold < 1108.80 / 2
    # Both rounded in the message: the share from the whole-dollar figure within one point.
    assert abs(saving - 100 * (1 - cold / 1108.80)) < 1
    assert "requests a month (of 880)" in text


def test_an_unstated_sensitivity_asks_instead_and_one_that_may_wait_needs_neither() -> None:
    """Left at the default, DEP031 asks for the sensitivity; stated false, the tool scales to zero and
    neither rule speaks."""
    defaulted = run({k: v for k, v in REDLINER.items() if k != "latency_sensitive"})
    assert "DEP031" in defaulted.fired_rules and "DEP048" not in defaulted.fired_rules
    waiting = run({**REDLINER, "latency_sensitive": False})
    assert not {"DEP031", "DEP048"} & set(waiting.fired_rules)
    assert waiting.decision.deployment == "serverless"
