"""Under the API line with every API price of the model's size excluded (DEP043), the Summary names the
nearest smaller class's price the workload may use, where the documents count the model into that class:
a business-critical Swiss fund's Qwen2.5 72B read only "ask the providers", though Scaleway's Llama 3.3
70B, with an SLA and hosted in the EU, was priced in the APIs section at $14 a month. The shipped 70B
prices all count the 72B Qwen in, so Scaleway's is compared for it there; a catalog whose class bound only
the documents' price carries shows the sentence."""

from __future__ import annotations

import pytest
from helpers import class_bound_on_one_price, run

from gpu_advisor.engine.domain.knowledge.base import Knowledge
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


def summary(workload: dict[str, object], knowledge: Knowledge | None = None) -> str:
    return " ".join(render_memo(run(workload, knowledge=knowledge)).split("## Why")[0].split())


def test_the_nearest_smaller_class_is_named_where_no_api_of_the_size_is_admitted() -> None:
    # The documents' 70B price, the only one that counts the 72B in here, names no host and so no SLA.
    result = run(FUND, knowledge=class_bound_on_one_price())
    assert "DEP043" in result.fired_rules and result.decision.usd_per_month is None
    (smaller,) = [a for a in result.api_costs if a.nearest_smaller]
    assert (smaller.api, smaller.nearest_smaller_counts_in) == ("llama-3.3-70b-scaleway", True)
    assert (
        "The nearest smaller class it may use, whose prices the documents count this model's size into, is "
        f"Llama 3.3 70B Instruct (Scaleway Generative APIs), 70B against 72B parameters, at "
        f"${smaller.usd_per_month:,.0f} per month: another, smaller model, an option only if its answers "
        'serve this workload (see "Managed APIs").'
    ) in summary(FUND, class_bound_on_one_price())


def test_a_workload_whose_own_size_is_admitted_is_not_told_of_a_smaller_class() -> None:
    # The shipped catalog: Scaleway's Llama 3.3 70B, with an SLA, counts the 72B Qwen in and is compared:
    # 500 requests x 22 office days x (800 + 400) tokens x €0.90 per million x 1.16 USD per EUR = $13.78.
    result = run(FUND)
    assert "DEP043" not in result.fired_rules
    (compared,) = [a for a in result.api_costs if a.compared]
    assert compared.api == "llama-3.3-70b-scaleway"
    assert compared.usd_per_month == pytest.approx(500 * 22 * 1_200 * 0.90 * 1.16 / 1e6)
    assert not [a for a in result.api_costs if a.nearest_smaller]
    assert "The nearest smaller class it may use" not in summary(FUND)
    # Not business-critical: DeepInfra's Llama 3.3 70B, the cheapest of the class, is compared.
    plain = {**FUND, "business_critical": False}
    assert [a.api for a in run(plain).api_costs if a.compared] == ["llama-3.3-70b-deepinfra"]
    assert "The nearest smaller class it may use" not in summary(plain)
