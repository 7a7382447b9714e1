"""An API whose context window the catalog does not record is not read as taking any request: where APIs
the catalog prices record limits the workload's requests exceed, the recommendation (DEP050) and check
(DEP039) ask to confirm the window, naming the recorded limit that comes closest to the requests."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import EVALUATED_ON

from gpu_advisor.api import check, render_memo
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.calc.api_windows import nearest_short_limit
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import validate_workload

# Llama 3.1 405B on 100,000-token prompts in office hours: under the API line, and DeepInfra's price, the
# only one of the model, records no window (third-party listings say 32,000 to 131,072 tokens).
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


def test_the_nearest_short_limit_is_the_longest_window_below_the_context() -> None:
    apis = load_knowledge().api_prices.apis
    # Recorded windows: 8,192, 32,768 (twice), 64,000, 100,000, 128,000 (three), 131,072 (five) and more.
    nearest = nearest_short_limit(apis, 131_072, 1_200)
    assert nearest is not None and (nearest.id, nearest.context_window_tokens) == (
        "mistral-small-24b-scaleway",
        128_000,
    )
    nearest = nearest_short_limit(apis, 32_769, 500)
    assert nearest is not None and nearest.context_window_tokens == 32_768
    # No window below 8,192 tokens; the smallest answer caps (8,192 tokens) take 2,000-token answers.
    assert nearest_short_limit(apis, 8_192, 2_000) is None
    # Answers of 20,000 tokens exceed caps of 8,192 and 16,000/16,384: the largest below is 16,384.
    capped = nearest_short_limit(apis, 8_192, 20_000)
    assert capped is not None and capped.max_output_tokens == 16_384


def test_the_recommendation_asks_to_confirm_the_compared_api_s_window() -> None:
    result = recommend(validate_workload(LONG_405B, "test"), EVALUATED_ON)
    assert (result.decision.deployment, result.decision.provider) == ("api", "deepinfra")
    assert "DEP050" in {finding.rule_id for finding in result.findings}
    # 1,500 requests x 22 office days x 101,200 tokens x $0.80 a million tokens (in and out) = $2,671.68.
    assert result.decision.usd_per_month == pytest.approx(1500 * 22 * 101_200 * 0.80 / 1e6) == 2671.68
    memo = " ".join(render_memo(result).split())
    assert (
        "The catalog does not record how long a request Llama 3.1 405B Instruct (DeepInfra) takes, and APIs "
        "it prices stop short of this workload's requests (Mistral Small 3.2 24B Instruct (Scaleway "
        "Generative APIs): a window of 128,000 tokens; the workload is served with a context of 131,072 "
        "tokens and answers of 1,200 tokens on average): its price of $2,671.68/month holds only if it "
        "takes them, prompt and answer together."
    ) in memo
    # At an 8,192-token context every recorded window takes the requests: nothing to confirm.
    short = recommend(
        validate_workload({**LONG_405B, "avg_input_tokens": 4_000, "context_tokens": 8_192}, "t"),
        EVALUATED_ON,
    )
    assert "DEP050" not in {finding.rule_id for finding in short.findings}


def test_check_warns_of_the_proposed_api_s_unrecorded_window_without_a_shorter_price_of_its_size() -> None:
    proposal = {
        "name": "deepinfra",
        "deployment": "api",
        "provider": "deepinfra",
        "offer": "llama-3.1-405b-deepinfra",
    }
    checked = check({"workload": LONG_405B, "proposal": proposal}, EVALUATED_ON)
    (item,) = [i for i in checked.results if i.rule_id == "DEP039"]
    assert item.status == "warn" and item.message is not None
    assert (
        "APIs it prices stop short of the workload's requests (Mistral Small 3.2 24B Instruct" in item.message
    )
    short = {**LONG_405B, "avg_input_tokens": 4_000, "context_tokens": 8_192}
    passed = check({"workload": short, "proposal": proposal}, EVALUATED_ON)
    assert next(i.status for i in passed.results if i.rule_id == "DEP039") == "pass"
