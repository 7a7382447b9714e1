"""A business-critical Swiss fund's Qwen2.5 72B under the API line: its Summary read only "ask the
providers" (DEP043, every API price of its size excluded), though Scaleway's Llama 3.3 70B, with an SLA and
hosted in the EU, was priced in the APIs section at $14 a month. Every 70B price counts the 72B Qwen in
(the knowledge refuses a class some of whose prices do not, test_catalog_prices), so Scaleway's is compared
for it: no smaller class is named."""

from __future__ import annotations

import pytest
from helpers import run

from gpu_advisor.engine.present.memo import render_memo

FUND = {
    "name": "zug-fund-reports",
    "model": {"name": "qwen2.5-72b", "precision": "int4"},
    "requests_per_day": 500,
    "avg_input_tokens": 800,
    "avg_output_tokens": 400,
    "schedule": "office_hours",
    "company_country": "CH",
    "business_critical": True,
}


def summary(workload: dict[str, object]) -> str:
    return " ".join(render_memo(run(workload)).split("## Why")[0].split())


def test_a_workload_whose_own_size_is_admitted_is_not_told_of_a_smaller_class() -> None:
    # The shipped catalog: Scaleway's Llama 3.3 70B, with an SLA, counts the 72B Qwen in and is compared:
    # 500 requests x 22 office days x (800 + 400) tokens x €0.90 per million x 1.16 USD per EUR = $13.78.
    result = run(FUND)
    assert "DEP043" not in result.fired_rules
    (compared,) = [a for a in result.api_costs if a.compared]
    assert compared.api == "llama-3.3-70b-scaleway"
    assert compared.usd_per_month == pytest.approx(500 * 22 * 1_200 * 0.90 * 1.16 / 1e6)
    assert not [a for a in result.api_costs if a.nearest_smaller]
    assert "DEP043" not in summary(FUND) and "nearest smaller class" not in summary(FUND)
    # Not business-critical: DeepInfra's Llama 3.3 70B, the cheapest of the class, is compared.
    plain = {**FUND, "business_critical": False}
    assert [a.api for a in run(plain).api_costs if a.compared] == ["llama-3.3-70b-deepinfra"]
    assert "nearest smaller class" not in summary(plain)
