"""An API whose context window the catalog does not record is not read as taking any request: where
another API the catalog prices serves its model with a window cut below the model's own and below the
workload's serving context, the recommendation (DEP050) and check (DEP039) ask to confirm the window,
naming that cut. A window that is its model's own limit says nothing of another product's."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import EVALUATED_ON

from gpu_advisor.api import check, render_memo
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.calc.api_windows import window_cut_short
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import validate_workload

# Llama 3.1 405B on 100,000-token prompts in office hours: under the API line, and DeepInfra's price, the
# only one of the model, records no window.
LONG_405B: dict[str, Any] = {
    "name": "long-405b",
    "model": {"name": "llama-3.1-405b", "precision": "fp8"},
    "requests_per_day": 1500,
    "avg_input_tokens": 100_000,
    "avg_output_tokens": 1_200,
    "context_tokens": 131_072,
    "schedule": "office_hours",
    "company_country": "DE",
}
PROPOSAL = {
    "name": "deepinfra",
    "deployment": "api",
    "provider": "deepinfra",
    "offer": "llama-3.1-405b-deepinfra",
}


def test_a_window_cut_below_its_model_s_own_is_the_evidence() -> None:
    knowledge = load_knowledge()
    # Scaleway serves Llama 3.3 70B with 100,000 of its 131,072 tokens; DeepSeek its R1 with 64,000 of
    # 163,840. Llama 3 70B's 8,192 (hosted) and Mixtral's 32,768 are their models' own: no cut.
    cut = window_cut_short(knowledge, 131_072)
    assert cut is not None and (cut.id, cut.context_window_tokens) == ("llama-3.3-70b-scaleway", 100_000)
    cut = window_cut_short(knowledge, 100_000)
    assert cut is not None and (cut.id, cut.context_window_tokens) == ("deepseek-r1-deepseek", 64_000)
    assert window_cut_short(knowledge, 64_000) is None
    assert window_cut_short(knowledge, 131_072, leave_out="llama-3.3-70b-scaleway") == window_cut_short(
        knowledge, 100_000
    )


def test_the_recommendation_asks_to_confirm_the_compared_api_s_window() -> None:
    result = recommend(validate_workload(LONG_405B, "test"), EVALUATED_ON)
    assert (result.decision.deployment, result.decision.provider) == ("api", "deepinfra")
    # 1,500 requests x 22 office days x 101,200 tokens x $0.80 a million tokens (in and out) = $2,671.68.
    assert result.decision.usd_per_month == pytest.approx(1500 * 22 * 101_200 * 0.80 / 1e6) == 2671.68
    assert "DEP050" in {finding.rule_id for finding in result.findings}
    memo = " ".join(render_memo(result).split())
    assert (
        "The catalog does not record how long a request Llama 3.1 405B Instruct (DeepInfra) takes, and "
        "providers cut windows below their models' own, some below the context this workload is served "
        "with (Llama 3.3 70B Instruct (Scaleway Generative APIs): a window of 100,000 tokens, of its model's "
        "131,072; the workload is served with a context of 131,072 tokens and answers of 1,200 tokens on "
        "average): its price of $2,671.68/month holds only if it takes requests of up to 131,072 tokens, "
        "prompt and answer together."
    ) in memo
    # The Summary says the price is a condition to confirm, beside the price.
    summary = " ".join(render_memo(result).split("## Summary")[1].split("## Why")[0].split())
    condition = (
        "Whether this API takes requests as long as the workload's is not in the catalog (DEP050): confirm "
        "it with the provider before relying on it; if it does not, the API is no option and the self-hosted "
        "routes named here are the comparison."
    )
    assert condition in summary
    # At a 32,768-token context no provider is known to cut a window that short: nothing to confirm.
    short = recommend(
        validate_workload({**LONG_405B, "avg_input_tokens": 20_000, "context_tokens": 32_768}, "t"),
        EVALUATED_ON,
    )
    assert short.decision.deployment == "api"
    assert "DEP050" not in {f.rule_id for f in short.findings}
    assert "(DEP050)" not in render_memo(short)


def test_check_warns_of_the_proposed_api_s_unrecorded_window() -> None:
    checked = check({"workload": LONG_405B, "proposal": PROPOSAL}, EVALUATED_ON)
    (item,) = [i for i in checked.results if i.rule_id == "DEP039"]
    assert item.status == "warn" and item.message is not None
    assert "(Llama 3.3 70B Instruct (Scaleway Generative APIs): a window of 100,000 tokens" in item.message
    short = {**LONG_405B, "avg_input_tokens": 20_000, "context_tokens": 32_768}
    passed = check({"workload": short, "proposal": PROPOSAL}, EVALUATED_ON)
    assert next(i.status for i in passed.results if i.rule_id == "DEP039") == "pass"
