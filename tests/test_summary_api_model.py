"""A managed API decided at another model's price says so in the summary: taking it means switching
models; a larger model's price is called a stand-in and no bound, as the API table and KNB005 call it
(a host may price a smaller model higher: DeepInfra's Mixtral 8x7B costs more per token than its Llama
3.3 70B)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from helpers import EXAMPLES_DIR, run
from test_stale_price_flip import NO_SCALEWAY

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import load_workload, validate_workload
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

AS_OF = dt.date(2026, 11, 30)
QWEN3 = {
    "name": "qwen3-moe",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 100_000,
    "avg_input_tokens": 600,
    "avg_output_tokens": 400,
    "company_country": "FR",
}
"""The first test's Qwen3 MoE, a reasoning model, whose compared API is the larger reasoning model
DeepSeek-R1's price (KNB021: Llama 3.1 405B's, nearer in size, does not reason)."""


def test_an_api_of_another_model_is_named_as_a_switch(tmp_path: Path) -> None:
    source = tmp_path / "qwen.yaml"
    source.write_text(
        "name: qwen3-moe\nmodel: {name: qwen3-235b-a22b, precision: fp8}\nrequests_per_day: 100000\n"
        "avg_input_tokens: 600\navg_output_tokens: 400\ncompany_country: FR\n",
        encoding="utf-8",
    )
    result = recommend(load_workload(str(source)), AS_OF)
    assert result.decision.deployment == "api"
    memo = render_memo(result)
    assert (
        "No API in the catalog serves qwen3-235b-a22b: this is the price of DeepSeek-R1-0528 (DeepInfra), "
        "another model. Taking the API means using that model instead (check its answers for this "
        "workload) or asking the providers for a price for qwen3-235b-a22b. That model is larger (671B "
        "against 235B parameters): its price stands in, and is no bound, as a host may charge a smaller "
        "model more." in memo
    )
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur))
    assert (
        "Keine API im Katalog bietet qwen3-235b-a22b an: Dies ist der Preis von DeepSeek-R1-0528 "
        "(DeepInfra), einem anderen Modell. Wer die API nimmt, nutzt stattdessen dieses Modell (prüfen Sie "
        "seine Antworten für diesen Workload) oder fragt die Anbieter nach einem Preis für qwen3-235b-a22b. "
        "Jenes Modell ist größer (671B gegen 235B Parameter): Sein Preis dient als Ersatzwert, nicht als "
        "Grenze, denn ein Anbieter kann ein kleineres Modell teurer anbieten." in german
    )


def test_prices_of_the_model_excluded_for_the_workload_are_not_called_missing(tmp_path: Path) -> None:
    """The catalog has Llama 3.1 8B prices, but personal data of people in the EU excludes them (RES001):
    the summary read "No API in the catalog serves llama-3.1-8b"."""
    source = tmp_path / "chat.yaml"
    source.write_text(
        "name: chat\nmodel: {name: llama-3.1-8b, precision: fp8}\nrequests_per_day: 60000\n"
        "avg_input_tokens: 800\navg_output_tokens: 250\nschedule: workdays\npersonal_data: true\n"
        "personal_data_region: eu\ncompany_country: DE\n",
        encoding="utf-8",
    )
    result = recommend(load_workload(str(source)), AS_OF)
    memo = render_memo(result)
    assert "No API in the catalog serves" not in memo
    assert (
        "No API this workload may use serves llama-3.1-8b (the catalog's prices of it are excluded by "
        "RES001): this is the price of Mistral Small 24B Instruct (IONOS AI Model Hub), another "
        "model." in memo
    )
    assert "The like-for-like managed API" not in memo


def test_a_model_given_by_its_size_is_named_by_its_size(tmp_path: Path) -> None:
    source = tmp_path / "custom.yaml"
    source.write_text(
        "name: custom\nmodel: {params_b: 30, precision: fp8}\nrequests_per_day: 2000\n"
        "avg_input_tokens: 800\navg_output_tokens: 250\ncompany_country: DE\n",
        encoding="utf-8",
    )
    memo = render_memo(recommend(load_workload(str(source)), AS_OF))
    assert "No API in the catalog serves this 30B model: this is the price of " in memo
    assert "30.0B" not in memo


def test_an_api_of_the_same_model_needs_no_such_sentence() -> None:
    result = recommend(load_workload(str(EXAMPLES_DIR / "public-chat.yaml")), AS_OF)
    assert result.decision.deployment == "api"
    assert "No API in the catalog serves" not in render_memo(result)


def test_an_offer_named_after_its_pricing_is_named_once(tmp_path: Path) -> None:
    """GMI's offer is called "on-demand": the summary read "at gmi (on-demand, on-demand)". A US 32B
    service on its own weights runs on five of its single H100 at $2.10."""
    source = tmp_path / "us-32b.yaml"
    source.write_text(
        "name: us-32b\nmodel: {name: qwen2.5-32b, precision: fp8, custom_weights: true}\n"
        "requests_per_day: 1000000\navg_input_tokens: 1000\navg_output_tokens: 300\nload_pattern: steady\n"
        "schedule: always\nlatency_sensitive: true\ncompany_country: US\n",
        encoding="utf-8",
    )
    result = recommend(load_workload(str(source)), AS_OF)
    assert (result.decision.provider, result.decision.offer) == ("gmi", "on-demand")
    summary = render_memo(result).split("## Summary")[1].split("\n\n")[1]
    assert summary.startswith(
        "Recommendation: **Dedicated cloud GPUs**, 5 × h100-sxm at gmi (on-demand), **$7,665 per month**"
    )


def test_a_size_given_in_whole_billions_is_compared_with_the_model_of_that_size(tmp_path: Path) -> None:
    """Mixtral 8x7B is 46.7B total and 12.9B active parameters, "47B" with 13B active as its size is
    written: given so, its hosted price (DeepInfra, 0.54 USD per million tokens in and out) is the one
    compared, not a 70B model's. 200,000 requests a day × 30.42 days × 1,050 tokens × 0.54 / 1e6."""
    source = tmp_path / "moe.yaml"
    source.write_text(
        "name: moe\nmodel: {params_b: 47, active_params_b: 13, precision: fp8}\nrequests_per_day: 200000\n"
        "avg_input_tokens: 800\navg_output_tokens: 250\nload_pattern: variable\ncompany_country: DE\n",
        encoding="utf-8",
    )
    result = recommend(load_workload(str(source)), AS_OF)
    compared = next(a for a in result.api_costs if a.compared)
    assert compared.name == "Mixtral 8x7B Instruct (DeepInfra)"
    assert compared.usd_per_month == pytest.approx(200_000 * 30.42 * 1050 * 0.54 / 1e6) == 3449.628
    # One billion more, and the 46.7B model no longer stands in for it: a larger class is compared.
    source.write_text(source.read_text(encoding="utf-8").replace("params_b: 47,", "params_b: 48,"))
    larger = next(a for a in recommend(load_workload(str(source)), AS_OF).api_costs if a.compared)
    assert larger.name != compared.name and larger.model_params_b == 70


def test_a_larger_models_price_beside_a_self_hosted_decision_is_called_a_stand_in() -> None:
    """Own weights rule the API out (DEP005); the sentence on the API compared says its model is larger.
    Where the compared model is of the workload's size, no such sentence (tests/golden/nightly-batch.md).
    DeepSeek-R1-0528 at DeepInfra, 0.50 / 2.15 USD per million: 100,000 x 30.42 x (600 x 0.50 + 400 x
    2.15) / 1e6 = $3,528.72 a month."""
    own = {**QWEN3, "name": "qwen-own", "model": {**QWEN3["model"], "custom_weights": True}}
    memo = render_memo(run(own, AS_OF))
    assert (
        "The managed API compared (DeepSeek-R1-0528 (DeepInfra), another model, $3,529 per month) is ruled "
        "out for this workload (DEP005). That model is larger (671B against 235B parameters): its price "
        "stands in, and is no bound, as a host may charge a smaller model more.\n" in memo
    )
    nightly = recommend(load_workload(str(EXAMPLES_DIR / "nightly-batch.yaml")), AS_OF)
    assert "That model is larger" not in render_memo(nightly)


def test_the_summary_says_where_the_recommended_api_processes_the_requests() -> None:
    """IONOS processes the requests of its AI Model Hub in the EU (knowledge/api_prices.yaml): the
    summary says so beside the recommendation, with the country where the catalog knows it (Germany), where
    the API table's column alone said "EU"; where the catalog does not know the place, the summary says to
    ask."""
    hr = {
        "name": "hr-assistant",
        "model": {"name": "llama-3.3-70b", "precision": "fp8"},
        "requests_per_day": 8_000,
        "personal_data": True,
        "company_country": "DE",
    }
    result = run(hr, AS_OF)
    assert (result.decision.deployment, result.decision.offer) == ("api", "llama-3.3-70b-ionos")
    memo = render_memo(result)
    assert (
        "at the price of Llama 3.3 70B Instruct (IONOS AI Model Hub).\n"
        "Its provider processes the requests in the EU (DE).\n"
    ) in memo
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur))
    assert "\nDer Anbieter dieser API verarbeitet die Anfragen in der EU (DE).\n" in german
    public = render_memo(recommend(load_workload(str(EXAMPLES_DIR / "public-chat.yaml")), AS_OF))
    assert (
        "Where its provider processes the requests is not in the catalog: ask before sending it data."
        in public
    )


def test_a_business_critical_workload_on_a_provider_of_unknown_sla_is_told_in_the_summary(
    tmp_path: Path,
) -> None:
    """Without Scaleway (a company's policy) Lambda's 2-card H100 instances are chosen for a
    business-critical 70B chat; whether Lambda publishes an enterprise SLA is not established
    (knowledge/providers.yaml), and PRV011 said so only about the admitted providers in general. Not
    business-critical: no such sentence."""
    (tmp_path / "no-scaleway.yaml").write_text(NO_SCALEWAY, encoding="utf-8")
    chat = {
        "name": "kundenchat-70b",
        "model": {"name": "llama-3.3-70b", "precision": "fp8"},
        "requests_per_day": 600_000,
        "avg_input_tokens": 800,
        "avg_output_tokens": 250,
        "load_pattern": "steady",
        "business_critical": True,
        "latency_sensitive": True,
        "company_country": "DE",
    }

    def recommended(workload: dict[str, object]) -> Recommendation:
        return recommend(validate_workload(workload, "test"), AS_OF, policy_dir=str(tmp_path))

    result = recommended(chat)
    assert (result.decision.deployment, result.decision.provider) == ("dedicated_cloud", "lambda")
    sentence = (
        "Whether the chosen provider, lambda, publishes an enterprise SLA could not be established "
        "(PRV011): ask for its uptime commitment and service credits before this business-critical workload "
        "relies on it.\n"
    )
    assert sentence in render_memo(result)
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur))
    assert "Ob der gewählte Anbieter, lambda, ein Enterprise-SLA veröffentlicht" in german
    assert "Whether the chosen provider" not in render_memo(recommended({**chat, "business_critical": False}))


def test_the_catalog_holds_the_smaller_model_priced_higher_that_knb005_cites() -> None:
    """KNB005, docs/economics.md and the memo say a larger model's price is no bound, citing DeepInfra:
    its Mixtral 8x7B (46.7B) costs more per token than its Llama 3.3 70B, input and output alike."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    prices = {p.id: p for p in load_knowledge().api_prices.apis}
    mixtral, llama = prices["mixtral-8x7b-deepinfra"], prices["llama-3.3-70b-deepinfra"]
    assert mixtral.model_params_b < llama.model_params_b
    assert mixtral.input_per_million_tokens > llama.input_per_million_tokens
    assert mixtral.output_per_million_tokens > llama.output_per_million_tokens
