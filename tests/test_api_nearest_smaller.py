"""Where no hosted API price of the model's size or larger may be used, the memo names the nearest smaller
class the workload may use (``ApiCost.nearest_smaller``): a 100B model with personal data of EU people is
above every admitted 70B price (which stand in for models up to 72B) and below the 405B ones, which the
GDPR rule excludes. The 72B Qwen is in the 70B class itself, and is compared with its cheapest admitted
price."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 12, 4)

HR: dict[str, Any] = {
    "name": "mittelstand-hr",
    "model": {"name": "qwen2.5-72b", "precision": "int4"},
    "requests_per_day": 25_000,
    "avg_input_tokens": 1_000,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "DE",
}


def test_the_nearest_smaller_admitted_class_is_named_where_none_is_compared() -> None:
    """A 100B model in INT4: the 70B prices stand in up to 72B, so none is of its size; the 405B ones
    are hosted outside the EU (RES001). The nearest smaller class is named in the APIs section only: its
    prices are another, smaller model's, and the summary names no smaller class."""
    workload = {**HR, "model": {"params_b": 100, "precision": "int4"}}
    result = recommend(validate_workload(workload, "test"), EVALUATED_ON)
    assert not [a for a in result.api_costs if a.compared]
    [smaller] = [a for a in result.api_costs if a.nearest_smaller]
    # IONOS, in the EU, at EUR 0.65 per million tokens both ways: 1,300 tokens a request, 25,000 requests
    # on the workdays schedule's days.
    assert (smaller.api, smaller.jurisdiction) == ("llama-3.3-70b-ionos", "EU")
    rate = load_knowledge().eur_to_usd().rate
    days = result.workload.days_per_month
    assert smaller.usd_per_month == pytest.approx(25_000 * days * 1_300 * 0.65 / 1e6 * rate)
    memo = " ".join(render_memo(result).split())
    assert "nearest smaller class" not in memo.split("## Why")[0]
    assert "| Llama 3.3 70B Instruct (IONOS AI Model Hub) | EU (DE) |" in memo
    assert "70B against 100B parameters" in memo


def test_the_72b_model_with_personal_data_is_compared_with_its_class_in_the_eu() -> None:
    """The 72B Qwen with personal data of EU people: the cheapest 70B price in the EU (IONOS's) stands in
    for it and is compared, as the cheapest of any class is; no smaller class is named."""
    result = recommend(validate_workload(HR, "test"), EVALUATED_ON)
    assert [a.api for a in result.api_costs if a.compared] == ["llama-3.3-70b-ionos"]
    assert not [a for a in result.api_costs if a.nearest_smaller]
    assert "nearest smaller class" not in render_memo(result).lower()


def test_none_is_named_where_a_price_of_the_size_is_compared_or_the_api_is_ruled_out() -> None:
    compared = recommend(validate_workload({**HR, "personal_data": False}, "test"), EVALUATED_ON)
    assert [a for a in compared.api_costs if a.compared]
    assert not [a for a in compared.api_costs if a.nearest_smaller]
    # A 100B model, whose nearest smaller class is the 70B one (as above), on premises: DEP006 rules the
    # APIs out, and that class is named nowhere.
    on_premises = {**HR, "model": {"params_b": 100, "precision": "int4"}, "on_premises_required": True}
    ruled_out = recommend(validate_workload(on_premises, "test"), EVALUATED_ON)
    assert "api" in ruled_out.resolution.ruled_out
    memo = render_memo(ruled_out)
    assert "nearest smaller class" not in memo.lower()
    assert "| Llama 3.3 70B Instruct (IONOS AI Model Hub) |" not in memo


def test_a_class_far_below_is_shown_among_the_apis_only_and_a_larger_mixture_of_experts_is_not_smaller() -> (
    None
):
    """A dense 480B model: every price of 480B or more is DeepSeek-R1's (671B in all, but 37B active, too
    small to stand in) or none, so none is compared. The nearest smaller class is the 405B one, not R1's
    (larger in total); the summary does not name it, and the APIs section shows it as a smaller model."""
    dense = {
        **HR,
        "model": {"params_b": 480, "precision": "fp8"},
        "personal_data": False,
        "company_country": "US",
    }
    result = recommend(validate_workload(dense, "test"), EVALUATED_ON)
    assert not [a for a in result.api_costs if a.compared]
    [smaller] = [a for a in result.api_costs if a.nearest_smaller]
    assert smaller.model_params_b == 405
    memo = " ".join(render_memo(result).split())
    summary = memo.split("## Why")[0]
    assert "nearest smaller class" not in summary
    assert "405B against 480B parameters" in memo
