"""A workload that states its users cannot wait keeps its serverless instances warm; where scaling to zero
would cost less than half the cheapest route standing, DEP048 names both figures (a 40-request-a-day
contract tool cost $1,109 a month, and the memo never said the $64 endpoint existed)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers import run

from gpu_advisor.engine.present.memo import render_memo

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


def summary_line(result: Any) -> list[str]:
    return [line for line in render_memo(result).splitlines() if line.startswith("If a request may wait")]


def test_the_summary_names_the_route_scaling_to_zero_beside_the_decision() -> None:
    """A manager reads the Summary, not the findings: the $84 endpoint that DEP048 prices stands beside
    the $1,109 decision there, with the figures of the finding (815 of the 880 requests a month wait for
    a cold start of 2.3 s for the platform, the 32.8B BF16 weights at 2.5 GB/s, and vLLM's 21.8 s; 814
    before a decode step read the weights without the token embedding, whose rows it looks up: the
    shorter request keeps an instance up for less, so one more request a month finds none)."""
    result = run(REDLINER)
    stz = result.scale_to_zero
    assert stz is not None
    assert stz.cold_start_seconds == pytest.approx(2.3 + 65.5 / 2.5 + 21.8, abs=0.05)
    assert summary_line(result) == [
        "If a request may wait for a cold start, RunPod Serverless (variable, 1 × h100-sxm) scaling to zero "
        "would cost at least $84 a month instead of $1,109: about 815 of the 880 requests a month would "
        "find no instance running and wait at least 50.3 s for one. The workload states that its users "
        "cannot wait, so the decision does not take it (DEP048)."
    ]
    finding = message(result, "DEP048")
    assert "at least $84 a month" in finding and "about 815 requests a month" in finding


def test_the_summary_asks_for_a_defaulted_sensitivity_and_is_silent_where_users_wait() -> None:
    defaulted = run({k: v for k, v in REDLINER.items() if k != "latency_sensitive"})
    assert summary_line(defaulted) == [
        "If a request may wait for a cold start, RunPod Serverless (variable, 1 × h100-sxm) scaling to zero "
        "would cost at least $84 a month instead of $1,109: about 815 of the 880 requests a month would "
        "find no instance running and wait at least 50.3 s for one. The workload does not say whether its "
        "users can wait and is taken as unable to: `latency_sensitive: false` states that they can (DEP031)."
    ]
    assert summary_line(run({**REDLINER, "latency_sensitive": False})) == []
