"""Under the API line with every API price of the model's size excluded (DEP043), the Summary names the
nearest smaller class's price the workload may use, where the documents count the model into that class:
a business-critical Swiss fund's Qwen2.5 72B read only "ask the providers", though Scaleway's Llama 3.3
70B, with an SLA and hosted in the EU, was priced in the APIs section at $14 a month."""

from __future__ import annotations

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


def test_the_nearest_smaller_class_is_named_where_no_api_of_the_size_is_admitted() -> None:
    result = run(FUND)
    assert "DEP043" in result.fired_rules and result.decision.usd_per_month is None
    (smaller,) = [a for a in result.api_costs if a.nearest_smaller]
    assert (smaller.api, smaller.nearest_smaller_counts_in) == ("llama-3.3-70b-scaleway", True)
    assert (
        "The nearest smaller class it may use, whose prices the documents count this model's size into, is "
        f"Llama 3.3 70B Instruct (Scaleway Generative APIs), 70B against 72B parameters, at "
        f"${smaller.usd_per_month:,.0f} per month: another, smaller model, an option only if its answers "
        'serve this workload (see "Managed APIs").'
    ) in summary(FUND)


def test_a_workload_whose_own_size_is_admitted_is_not_told_of_a_smaller_class() -> None:
    # Not business-critical: the documents' 70B price, which counts the 72B Qwen in, is admitted.
    plain = {**FUND, "business_critical": False}
    assert [a.api for a in run(plain).api_costs if a.compared] == ["llama-3-70b-hosted"]
    assert "The nearest smaller class it may use" not in summary(plain)
