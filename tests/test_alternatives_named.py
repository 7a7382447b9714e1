"""Alternatives the comparison does not take are named, not left to the tables: a cheaper hosted model of
the same size where the comparison keeps the workload's own model's price (a reader saw Llama 3.3 70B at
less than half the compared Llama 3.1 70B price only in the table), and the rental GPU the catalog prices
no own server of (a reader took the owned figure for that GPU's)."""

from __future__ import annotations

import typing

import pytest
import yaml
from helpers import TESTS_DIR, run, run_waves, wave_seconds

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.i18n.environment import say
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.pipeline.routes import option_name
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.engine.report.findings import render_rule_message
from gpu_advisor.engine.rulebook.details import ServerlessDetails
from gpu_advisor.engine.rulebook.loading import load_rulebook

CONSUMER_70B = {
    "name": "consumer-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 400,
    "avg_output_tokens": 200,
    "load_pattern": "variable",
    "company_country": "US",
}
SENTENCE = "Another hosted model of this size costs less"
OWN_SERVERS = "The catalog prices own hardware for these GPUs only"


def test_a_cheaper_model_of_the_same_size_is_named_beside_the_like_for_like_price() -> None:
    result = run(CONSUMER_70B)
    compared = next(a for a in result.api_costs if a.compared)
    cheaper = next(
        a for a in result.api_costs if a.name == "Llama 3.3 70B Instruct Turbo (DeepInfra)" and not a.batch
    )
    assert compared.same_model and compared.provider == cheaper.provider == "deepinfra"
    assert [a.api for a in result.api_costs if a.cheaper_same_size] == [cheaper.api]
    # 2,000,000 requests x 30.42 days (the around-the-clock schedule's) x (400 x $0.10 + 200 x $0.32) per
    # million tokens = $6,327.36.
    assert cheaper.usd_per_month == pytest.approx(6327.36)
    saving = round(100 * (1 - cheaper.usd_per_month / compared.usd_per_month))
    line = next(line for line in render_memo(result).splitlines() if line.startswith(SENTENCE))
    assert line == (
        f"{SENTENCE}: Llama 3.3 70B Instruct Turbo (DeepInfra) at ${cheaper.usd_per_month:,.0f} a month "
        f"({saving} % less). The comparison keeps this model's own price; the other one is an option only "
        "if its answers serve this workload."
    )


def test_no_sentence_where_the_compared_price_is_the_cheapest_of_its_size() -> None:
    result = run({**CONSUMER_70B, "model": {"name": "llama-3.3-70b", "precision": "fp8"}})
    assert next(a for a in result.api_costs if a.compared).name == "Llama 3.3 70B Instruct Turbo (DeepInfra)"
    assert SENTENCE not in render_memo(result)
    assert not any(a.cheaper_same_size for a in result.api_costs)


QWEN_72B = {
    "name": "qwen-72b",
    "model": {"name": "qwen2.5-72b", "precision": "fp8"},
    "requests_per_day": 150_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 300,
    "company_country": "DE",
}
CLASS_SENTENCE = "A hosted 70B model costs less"


def test_a_72b_model_is_compared_with_the_cheapest_price_of_the_70b_class() -> None:
    """No API serves the 72B Qwen: every price of the 70B class stands in for models up to 72B (the
    documents' class price and each dated listing alike), so the cheapest open to the workload is
    compared, DeepInfra's Llama 3.3 70B, and the documents' class price is one row of the table. No
    cheaper model of the class is left to name."""
    result = run(QWEN_72B)
    (compared,) = [a for a in result.api_costs if a.compared]
    assert (compared.api, compared.batch, compared.stands_in, compared.same_model) == (
        "llama-3.3-70b-deepinfra",
        False,
        True,
        False,
    )
    assert not any(a.cheaper_same_size or a.nearest_smaller for a in result.api_costs)
    hosted = next(a for a in result.api_costs if a.api == "llama-3-70b-hosted")
    assert hosted.stands_in and not hosted.compared
    # 150,000 requests x 30.42 days x (1,500 x $0.10 + 300 x $0.32) per million tokens = $1,122.50; the
    # class price: (1,500 x €0.60 + 300 x €0.80) x 1.16 USD per EUR = $0.0013224 a request, $6,034.11.
    days = 30.42  # the around-the-clock schedule's days a month (knowledge/schedules.yaml)
    assert compared.usd_per_month == pytest.approx(150_000 * days * (1_500 * 0.10 + 300 * 0.32) / 1e6)
    assert hosted.usd_per_month == pytest.approx(150_000 * days * (1_500 * 0.60 + 300 * 0.80) * 1.16 / 1e6)
    memo = render_memo(result)
    # The 7 prices of the class open to it: the documents' and DeepInfra's, Together AI's, IONOS's,
    # OVHcloud's and Scaleway's real-time listings (the batch APIs are excluded by DEP028).
    assert (
        "The catalog has no price of this model open to this workload. The nearest size class whose prices "
        "stand in for it is 70B, which gpu-advisor counts models up to this one's 72B into. The cheapest of "
        "the 7 is compared: Llama 3.3 70B Instruct Turbo (DeepInfra), the price of another, smaller model."
    ) in " ".join(memo.split())
    assert (
        "| Llama 3.3 70B Instruct Turbo (DeepInfra) | unknown | $1,122 | $0.000246 | 2026-11-05 "
        "| compared: a smaller model's price, a stand-in |" in memo
    )
    assert "| Llama 3 70B (hosted) | unknown | $6,034 | $0.00132 | 2026-01-01 | a smaller model |" in memo
    assert "the nearest size class at or above it" not in memo
    assert CLASS_SENTENCE not in memo
    # The decision is that price's API; the summary says it is another model's, and names no model "of
    # that size" beside it.
    assert result.decision.deployment == "api"
    assert (
        "No API in the catalog serves qwen2.5-72b: this is the price of Llama 3.3 70B Instruct Turbo "
        "(DeepInfra), another model."
    ) in memo
    assert "A hosted model of that size" not in memo
    assert "The price names no provider" not in memo


def test_the_summary_names_a_cheaper_model_of_the_compared_size_that_undercuts_the_recommendation() -> None:
    """The nightly batch on Llama 3.1 70B is rented at $3,491 a month, against its like-for-like
    DeepInfra price of $8,800 (400,000 requests x 22 working days x (2,000 + 500) x $0.40 per million);
    DeepInfra's Llama 3.3 70B would cost $3,168 for the same tokens (400,000 x 22 x (2,000 x $0.10 + 500 x
    $0.32) per million), less: the summary says so, the decision stays the rental."""
    import yaml as _yaml
    from helpers import EXAMPLES_DIR

    nightly = _yaml.safe_load((EXAMPLES_DIR / "nightly-batch.yaml").read_text(encoding="utf-8"))
    result = run({**nightly, "model": {"name": "llama-3.1-70b", "precision": "fp8"}})
    (compared,) = [a for a in result.api_costs if a.compared]
    assert compared.same_model and compared.usd_per_month == pytest.approx(400_000 * 22 * 2_500 * 0.40 / 1e6)
    (cheaper,) = [a for a in result.api_costs if a.cheaper_same_size]
    assert cheaper.usd_per_month == pytest.approx(400_000 * 22 * (2_000 * 0.10 + 500 * 0.32) / 1e6)
    assert result.decision.deployment == "dedicated_cloud"
    # Each of the 4 one-card B200 replicas holds 117 requests at once: 192 GB x 0.9 less the FP8
    # checkpoint's 72.65 GB (68.45B parameters x 1 byte and the 16-bit embedding and lm_head, 2 x 128,256 x
    # 8,192 x 2 bytes) and vLLM's 3.5 GiB leave 96.39 GB, 117.7 requests of 2,500 tokens x 327,680 bytes.
    # Its 100,000 requests run in 854 full waves of 27.843 s and one of 82, 21.761 s: 6.6111 hours a run;
    # with each run's start, 22 runs at $23.92 an hour, 145.93 hours: $3,491.
    row = next(g for g in result.sizing.gpus if g.gpu == "b200")
    assert (row.replicas, row.concurrent_requests, run_waves(400_000, 4, 117)) == (4, 117, (854, 82))
    full = 117 / row.requests_per_second_per_replica
    last = wave_seconds(82, "llama-3.1-70b", "fp8", "b200", 1, (2000, 500))
    assert (round(full, 3), round(last, 3)) == (27.843, 21.761)
    best = result.best_option
    assert best is not None and best.hours_per_day_running == pytest.approx((854 * full + last) / 3600)
    assert result.decision.usd_per_month is not None and round(result.decision.usd_per_month) == 3_491
    assert cheaper.usd_per_month < result.decision.usd_per_month
    assert (
        "A hosted model of that size, Llama 3.3 70B Instruct Turbo (DeepInfra), would cost $3,168 per month, "
        "less than the recommendation; it is another model, an option only if its answers serve this "
        'workload (see "Managed APIs").'
    ) in render_memo(result)


def test_no_class_sentence_where_the_smaller_models_are_excluded() -> None:
    """Personal data of people in the EU: every price of the 70B class whose host guarantees no place in
    the EU is excluded (RES001), DeepInfra's among them, so the cheapest in the EU, IONOS's, is compared
    and no cheaper price of the class is named."""
    result = run({**QWEN_72B, "personal_data": True})
    assert [a.api for a in result.api_costs if a.compared] == ["llama-3.3-70b-ionos"]
    assert not any(a.cheaper_same_size for a in result.api_costs)
    assert CLASS_SENTENCE not in render_memo(result)


def test_a_rental_gpu_without_an_own_server_price_is_named() -> None:
    result = run(CONSUMER_70B)
    assert result.own_server_gpus == ("rtx-5090", "h100-sxm")
    assert result.best_option is not None and result.best_option.gpu == "b200"
    assert result.own_hardware.gpu == "h100-sxm"
    assert (
        f"{OWN_SERVERS}: rtx-5090, h100-sxm. Owning b200, the GPU of the cheapest rental, is not compared, "
        "so buying is weighed on h100-sxm."
    ) in render_memo(result)


def test_no_sentence_where_the_cheapest_rental_is_on_the_own_servers_gpu() -> None:
    personal = {"requests_per_day": 200_000, "personal_data": True, "company_country": "DE"}
    result = run({**CONSUMER_70B, **personal})
    assert result.best_option is not None and result.best_option.gpu in result.own_server_gpus
    assert OWN_SERVERS not in render_memo(result)


R1_ON_PREMISES = {
    "name": "r1-onprem",
    "model": {"name": "deepseek-r1", "precision": "fp8"},
    "requests_per_day": 10_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 3_000,
    "load_pattern": "variable",
    "schedule": "workdays",
    "personal_data": True,
    "on_premises_required": True,
    "company_country": "AT",
}


def test_on_premises_names_the_gpus_that_need_fewer_cards_but_have_no_server_price() -> None:
    # The personal data may not leave the building: DEP006 rules renting out, so the cheapest rental
    # (two p5.48xlarge over EFA in Stockholm per replica) names no GPU to own; the sizing table holds the
    # comparison: two replicas of 16 H100 (a 671 GB FP8 model spans two nodes) against two of 8 on
    # H200, B200 or MI300X.
    result = run(R1_ON_PREMISES)
    assert result.best_option is not None and result.best_option.offer == "p5-on-demand-stockholm"
    assert "dedicated_cloud" in result.resolution.ruled_out
    rows = {g.gpu: g.gpus_total for g in result.sizing.gpus if g.gpus_total and not g.not_recommended_by}
    assert (rows["h100-sxm"], rows["h200"], rows["b200"], rows["mi300x"]) == (32, 16, 16, 16)
    assert (
        f"{OWN_SERVERS}: rtx-5090, h100-sxm. The load needs 32 × h100-sxm; on h200, b200, mi300x it needs "
        "fewer GPUs (from 16), but no server of those is priced, so buying them is not compared: get a quote "
        "for a server of one of them before buying h100-sxm."
    ) in render_memo(result)


def test_the_gpus_named_need_fewer_cards_and_hold_the_model() -> None:
    memo = render_memo(run(R1_ON_PREMISES))
    sentence = next(
        line for line in memo.splitlines() if line.startswith(f"{OWN_SERVERS}: rtx-5090, h100-sxm. The")
    )
    # h100-nvl needs as many GPUs in all (4 replicas of 8), a100-80gb more (3 of 16), h100-pcie is
    # ruled out for the model (NET001): none of them is named.
    for gpu in ("h100-nvl", "a100-80gb", "h100-pcie"):
        assert gpu not in sentence


def test_where_a_rental_is_admitted_its_gpu_is_named_instead() -> None:
    memo = render_memo(run(CONSUMER_70B))
    assert "The load needs" not in memo


def test_a_route_of_whole_instances_says_its_billed_cards_in_the_readers_language() -> None:
    """A route on whole instances is named with the cards billed, in the reader's language: DEP018's
    comparison said "(aws p5-reserved-3y (36 × h100-sxm, 40 billed))" in German memos too. The AWS
    reservation sells 8-card instances only: this business-critical service's 17 replicas of 2 cards and
    a spare run as 21, four to an instance, so that a lost instance leaves the 17 (SIZ015): 42 cards on six
    instances, 48 billed. At the file's 1,100,000 requests a day it needs 16 and runs 20, whole instances."""
    document = yaml.safe_load((TESTS_DIR / "volume_chart" / "w07-rag-api-hybrid.yaml").read_text())
    document["requests_per_day"] = 1_150_000
    result = run(document)
    (p5,) = [o for o in result.options if (o.provider, o.offer) == ("aws", "p5-reserved-3y")]
    assert (p5.gpus, p5.gpus_rented) == (42, 48)
    name = option_name(p5)
    assert say("en", name) == "aws p5-reserved-3y (42 × h100-sxm, 48 billed)"
    assert say("de", name) == "aws p5-reserved-3y (42 × h100-sxm, 48 abgerechnet)"
    # A finding's message says such a name in its own language when it is written.
    knowledge, rulebook = load_knowledge(), load_rulebook()
    rule = rulebook.rule("DEP018")
    fact = {"serverless_usd_per_month": 1000.0, "alternative_usd_per_month": 2000.0}
    fields = ServerlessDetails.model_fields.items()
    blank = {
        field: "" if str in (info.annotation, *typing.get_args(info.annotation)) else 0
        for field, info in fields
    }
    details = ServerlessDetails.model_construct(**{**blank, "alternative_name": name})
    texts = {
        lang: render_rule_message(rule, fact, knowledge, rulebook, Format.named(lang), details)
        for lang in ("en", "de")
    }
    assert "(aws p5-reserved-3y (42 × h100-sxm, 48 billed))" in texts["en"]
    assert "(aws p5-reserved-3y (42 × h100-sxm, 48 abgerechnet))" in texts["de"]
