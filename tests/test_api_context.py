"""A managed API's price stands in for a workload only if the product takes the workload's requests:
its context window (knowledge/api_prices.yaml: context_window_tokens, where a dated source gives it) at
least the workload's serving context, and its answer cap (max_output_tokens, where published) at least
the average answer. A price that does not is shown, marked, and said to be left out; it is never
compared. A window the catalog does not know leaves the price in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import EXAMPLES_DIR, knowledge_with, merged, read_example, run

from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.results import ApiCost, Recommendation
from gpu_advisor.engine.present.memo import render_memo

KNOWLEDGE = load_knowledge()

LONG_70B: dict[str, Any] = {
    "name": "long-70b",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 5000,
    "avg_input_tokens": 110_000,
    "avg_output_tokens": 1000,
    "personal_data": True,
    "company_country": "DE",
}
"""A serving context of 111,000 tokens (the default window grows to hold an average request), EU data:
the EU-hosted Llama 3.3 70B prices are IONOS (window not in the catalog), OVHcloud (131,072) and
Scaleway (100,000)."""


def cost(result: Recommendation, api: str) -> ApiCost:
    return next(c for c in result.api_costs if c.api == api and not c.batch)


def test_the_catalog_records_the_windows_the_sources_give() -> None:
    windows = {a.id: (a.context_window_tokens, a.max_output_tokens) for a in KNOWLEDGE.api_prices.apis}
    assert windows["deepseek-r1-deepseek"] == (64_000, 40_000)
    assert windows["llama-3.3-70b-scaleway"] == (100_000, 16_000)
    assert windows["llama-3-70b-hosted"] == (8_192, None)
    # No dated source gives the window of IONOS's Llama 3.3 70B: not known, not guessed.
    assert windows["llama-3.3-70b-ionos"] == (None, None)


def test_a_window_below_the_serving_context_cannot_stand_in() -> None:
    result = run(LONG_70B)
    assert result.workload.context_tokens == 111_000
    scaleway, ovh, ionos = (
        cost(result, a) for a in ("llama-3.3-70b-scaleway", "llama-3.3-70b-ovhcloud", "llama-3.3-70b-ionos")
    )
    assert (scaleway.large_enough, scaleway.exceeded_limit, scaleway.stands_in, scaleway.listed) == (
        True,
        "window",
        False,
        True,
    )
    assert (ovh.exceeded_limit, ovh.stands_in) == (None, True)
    # IONOS's window is not in the catalog: it stays in, and as the cheapest EU price it is compared.
    assert (ionos.context_window_tokens, ionos.stands_in, ionos.compared) == (None, True, True)
    memo = render_memo(result)
    # The documents' Llama 3 70B price (a window of 8,192 tokens) is excluded anyway (RES001: personal data
    # and no guaranteed location): the open prices are the ones its requests are too long for.
    assert (
        "Left out, as they take shorter requests than this workload's (a serving context of 111,000 "
        "tokens, 1,000 output tokens on average): Llama 3.3 70B Instruct (Scaleway Generative APIs), a "
        "window of 100,000 tokens.\n"
    ) in memo
    assert (
        "| Llama 3 70B (hosted) | unknown | $11,786 | $0.0775 | 2026-01-01 | excluded by RES001; takes "
        "shorter requests than this workload's |"
    ) in memo
    # The compared price's window is not recorded, where others of its size are too short: said, in the
    # summary too, as IONOS's price is the decision.
    assert result.decision.deployment == "api"
    assert (
        "Its context window is not in the catalog, where other prices of its size take shorter requests: "
        "confirm its window holds the 111,000-token context this workload is served with "
        "(see Managed APIs).\n"
    ) in memo
    assert (
        "The catalog does not record the context window of Llama 3.3 70B Instruct (IONOS AI Model Hub): "
        "confirm that it holds the serving context of 111,000 tokens before relying on its price.\n"
    ) in memo
    row = "| Llama 3.3 70B Instruct (Scaleway Generative APIs) | EU (FR) | $17,626 | $0.116 | 2026-09-26 |"
    assert f"{row} takes shorter requests than this workload's |" in memo


def test_a_window_that_holds_the_context_exactly_stands_in() -> None:
    # The documents' Llama 3 70B price at the default serving context of 8,192 tokens: its window.
    result = run(
        {"name": "chat", "model": {"name": "llama-3.3-70b", "precision": "fp8"}, "requests_per_day": 5000}
    )
    assert result.workload.context_tokens == 8_192
    documents = cost(result, "llama-3-70b-hosted")
    assert (documents.exceeded_limit, documents.stands_in) == (None, True)
    # No price is too short for it, so nothing is said of windows.
    assert "context window" not in render_memo(result)
    longer = run(
        merged(LONG_70B, {"avg_input_tokens": 7_300, "avg_output_tokens": 900, "personal_data": False})
    )
    assert longer.workload.context_tokens == 8_200
    assert cost(longer, "llama-3-70b-hosted").stands_in is False


def test_no_price_of_the_size_takes_the_requests_so_no_api_is_compared() -> None:
    # DeepSeek-R1 with 70,000-token answers: DeepInfra's R1 returns at most 64,000 output tokens, and
    # DeepSeek's own price is withdrawn (KNB018): no price of a model this size takes the requests. The
    # withdrawn price's shorter window is not the reason the memo gives.
    result = run(
        {
            "name": "long-reasoning",
            "model": {"name": "deepseek-r1", "precision": "fp8"},
            "requests_per_day": 20_000,
            "avg_input_tokens": 1_000,
            "avg_output_tokens": 70_000,
        }
    )
    assert not any(c.compared for c in result.api_costs)
    assert result.decision.deployment != "api"
    memo = render_memo(result)
    assert (
        "The catalog's hosted API prices for a model of this size take shorter requests than this "
        "workload's (a serving context of 71,000 tokens, 70,000 output tokens on average): DeepSeek-R1-0528 "
        "(DeepInfra), at most 64,000 output tokens. No managed API is compared.\n"
    ) in memo
    assert (
        "| DeepSeek-R1 (DeepSeek API, deepseek-reasoner) | CN | $93,602 | $0.154 | 2025-02-06 | excluded by "
        "KNB018; takes shorter requests than this workload's |"
    ) in memo


def test_prices_excluded_and_prices_too_short_are_both_said() -> None:
    """A Swiss support bot at a 102,400-token context: the APIs its data may reach are excluded (PRV003,
    RES007), and Scaleway's, which the rules leave open, takes 100,000 tokens: the memo gave the rules as
    the only reason, where the window is what turns the decision from the API to rented H100 above a
    context of about 90,000 tokens."""
    result = run(
        {
            "name": "support-bot",
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 50_000,
            "avg_input_tokens": 1_500,
            "avg_output_tokens": 300,
            "context_tokens": 102_400,
            "load_pattern": "variable",
            "latency_sensitive": True,
            "personal_data": True,
            "personal_data_region": "ch",
            "company_country": "CH",
            "business_critical": True,
        }
    )
    assert result.decision.deployment != "api"
    assert (
        "The catalog's hosted API prices for a model of this size are excluded for this workload (PRV003, "
        "RES007) or take shorter requests than this workload's (a serving context of 102,400 tokens, 300 "
        "output tokens on average: Llama 3.3 70B Instruct (Scaleway Generative APIs), a window of 100,000 "
        "tokens), so no managed API is compared."
    ) in " ".join(render_memo(result).split())


def test_an_answer_longer_than_the_cap_cannot_stand_in() -> None:
    # Mistral 7B at DeepInfra: a window of 32,768 tokens, answers of at most 16,384. 20,000-token answers
    # in a 21,000-token context: the window holds them, the answer cap does not.
    workload = {
        "name": "long-answers",
        "model": {"name": "mistral-7b", "precision": "bf16"},
        "requests_per_day": 2_000,
        "avg_input_tokens": 1_000,
        "avg_output_tokens": 20_000,
    }
    result = run(workload)
    mistral = cost(result, "mistral-7b-deepinfra")
    assert (mistral.exceeded_limit, mistral.stands_in) == ("answer", False)
    assert "Mistral 7B Instruct v0.3 (DeepInfra), at most 16,384 output tokens" in render_memo(result)
    shorter = cost(run(merged(workload, {"avg_output_tokens": 16_384})), "mistral-7b-deepinfra")
    assert (shorter.exceeded_limit, shorter.stands_in) == (None, True)


def test_deepseek_s_answer_cap_counts_its_chain_of_thought() -> None:
    # R1's output tokens are its reasoning and its answer: DeepInfra caps them at 64,000.
    reasoning = {
        "name": "reasoning",
        "model": {"name": "deepseek-r1", "precision": "fp8"},
        "requests_per_day": 2_000,
        "avg_input_tokens": 2_000,
        "avg_output_tokens": 9_000,
    }
    deepinfra = next(a for a in KNOWLEDGE.api_prices.apis if a.id == "deepseek-r1-deepinfra")
    assert deepinfra.max_output_tokens == 64_000
    assert cost(run(reasoning), "deepseek-r1-deepinfra").stands_in is True
    # 70,000 output tokens in a 71,000-token context: the window takes it, the output cap does not. At 50
    # requests a day the documents' line makes the API the recommendation, and the summary says why.
    longer = merged(
        reasoning, {"requests_per_day": 50, "avg_input_tokens": 1_000, "avg_output_tokens": 70_000}
    )
    result = run(longer)
    assert cost(result, "deepseek-r1-deepinfra").exceeded_limit == "answer"
    assert result.decision.deployment == "api"
    assert (
        "Recommendation: **Managed API**, though every API price the catalog has for a model of this size or "
        "larger returns fewer output tokens than this workload's 70,000 on average (see Managed APIs): ask "
        "the providers for one that returns them.\n"
    ) in render_memo(result)
    # DEP043 prices the fallback: an API would cost less at DeepInfra's price, so the API stays the route.
    # Its reason is the open price's answer cap, not the withdrawn price's shorter window (KNB018).
    assert "DEP042" not in result.fired_rules
    (dep043,) = [" ".join(f.message.split()) for f in result.findings if f.rule_id == "DEP043"]
    assert dep043.startswith(
        "Under the 10,000 requests/day line the documents point to a managed API, but the catalog has none "
        "this workload may use: every API of its model's size or larger returns fewer output tokens than "
        "its 70,000 on average. At those prices an API would cost less than self-hosting: the cheapest of "
        "them, DeepSeek-R1-0528 (DeepInfra), costs $229.67/month."
    )


@pytest.mark.parametrize(
    ("before", "after", "problem"),
    [
        (
            '    context_as_of: 2025-02-06\n    context_note: "the page the price comes from',
            '    context_note: "the page the price comes from',
            "come with context_source and context_as_of",
        ),
        (
            "    max_output_tokens: 40000\n",
            "    max_output_tokens: 80000\n",
            "cannot exceed context_window_tokens",
        ),
    ],
)
def test_a_window_without_its_source_or_an_answer_beyond_it_is_refused(
    tmp_path: Path, before: str, after: str, problem: str
) -> None:
    directory = knowledge_with(tmp_path, "api_prices.yaml", before, after)
    with pytest.raises(KnowledgeError, match=problem):
        load_knowledge_from(directory)


def test_a_proposal_of_an_api_that_takes_shorter_requests_fails(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from gpu_advisor.cli import main

    document = {
        "workload": {
            "name": "long-reasoning",
            "model": {"name": "deepseek-r1", "precision": "fp8"},
            "requests_per_day": 20_000,
            "avg_input_tokens": 70_000,
            "avg_output_tokens": 2_000,
        },
        "proposal": {"deployment": "api", "provider": "deepseek", "offer": "deepseek-r1-deepseek"},
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    assert result.exit_code == 1, result.output
    items = {item["rule_id"]: item for item in json.loads(result.output)[0]["results"]}
    assert items["DEP038"]["status"] == "fail"
    assert items["DEP038"]["message"] == (
        "DeepSeek-R1 (DeepSeek API, deepseek-reasoner) takes at most 64,000 tokens a request, prompt and "
        "answer together, and the workload is served with a context of 72,000 tokens: the API refuses its "
        "longer requests (the recommendation's comparison leaves it out too). Shorten the prompts, lower the "
        "workload's context_tokens if no request reaches it, or propose a product that takes them."
    )
    # Not a smaller model: DEP037 holds.
    assert items["DEP037"]["status"] == "pass"
    document["workload"]["avg_input_tokens"] = 50_000
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    shorter = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    items = {item["rule_id"]: item for item in json.loads(shorter.output)[0]["results"]}
    assert items["DEP038"]["status"] == "pass"


def test_an_api_decision_without_a_price_that_takes_the_requests_says_so() -> None:
    # Below the documents' 10,000 requests a day a managed API is the recommendation; DeepInfra's R1 is of
    # the size class of a 671B model given by its size, but a 167,000-token context does not fit its
    # 163,840, and a model given by its size is not known to reason, so R1's prices are excluded too (KNB022).
    result = run(
        {
            "name": "r1-long",
            "model": {"params_b": 671, "active_params_b": 37, "precision": "fp8"},
            "requests_per_day": 600,
            "avg_input_tokens": 165_000,
            "avg_output_tokens": 2_000,
        }
    )
    assert result.decision.deployment == "api"
    memo = render_memo(result)
    assert (
        "Recommendation: **Managed API**, though every API price the catalog has for a model of this size "
        "or larger is excluded for this workload (KNB018, KNB022) and takes shorter requests than the "
        "workload's (see Managed APIs): ask the providers for one it may use that takes them.\n"
    ) in memo
    assert "the catalog has no API price for a model of this size" not in memo
    # The fallback is priced: DeepInfra's price, excluded and too short for these requests, is below
    # self-hosting's.
    flat = " ".join(memo.split())
    assert (
        "every API price of its model's size or larger is excluded (KNB018, KNB022). At those prices an API "
        "would cost less than self-hosting"
    ) in flat
    # Own servers of H100 hold it (16 cards a replica, a light load's count: no count up to 16 holds the
    # usual eight 167,000-token sequences), cheaper than serverless but bought for years. At 600 requests
    # a day the H200 rental takes three 8-card replicas, two and a spare ($62,896.80 at RunPod), and costs
    # more than the servers; at 500 it takes two ($41,931.20) and undercuts them.
    assert (
        "Until one is found, the priced route that binds no purchase and no term is serverless: Modal "
        "serverless functions (global, 8 × h200) at $55,250.61/month. The cheapest self-hosted route the "
        "rules leave standing, own hardware (4 × HGX H100 8-GPU (32 × h100-sxm)) at $44,029.11/month, binds "
        "a purchase of servers for years"
    ) in flat


def test_no_api_the_workload_may_use_keeps_the_api_with_the_priced_fallback() -> None:
    """A 405B legal tool of a German company, business-critical, with personal data, 2,000 requests a day
    in office hours: every API of its size is excluded (PRV003, RES001). DeepInfra's, the cheapest at
    2,000 x 22 days x (12,000 + 1,500 tokens) x $0.80 per million = $475.20, is far below the 16 H100 at
    Scaleway the rules leave standing, kept every hour of the month ($42,900.24: PRC033), so the API stays
    the recommendation (DEP043) and the rental is the priced fallback, beside two owned servers that cost
    less but bind a purchase; DEP042 (self-hosting no dearer) does not fire."""
    legal = {
        "name": "legal-405b",
        "model": {"name": "llama-3.1-405b", "precision": "fp8"},
        "requests_per_day": 2_000,
        "avg_input_tokens": 12_000,
        "avg_output_tokens": 1_500,
        "context_tokens": 32_768,
        "load_pattern": "steady",
        "schedule": "office_hours",
        "latency_sensitive": True,
        "personal_data": True,
        "business_critical": True,
        "company_country": "DE",
    }
    result = run(legal)
    assert result.decision.deployment == "api" and "DEP042" not in result.fired_rules
    assert round(2_000 * 22 * 13_500 * 0.80 / 1e6, 2) == 475.20
    finding = next(f for f in result.findings if f.rule_id == "DEP043")
    assert finding.message == (
        "Under the 10,000 requests/day line the documents point to a managed API, but the catalog has none "
        "this workload may use: every API price of its model's size or larger is excluded (PRV003, RES001). "
        "At those prices an API would cost less than self-hosting: the cheapest of them, Llama 3.1 405B "
        "Instruct (DeepInfra), costs $475.20/month. So the recommendation stays an API the workload may "
        "use, which a provider has to offer, and price, where the rules admit it. Until one is found, the "
        "priced route that binds no purchase and no term is scaleway h100-sxm-8-80g (16 × h100-sxm) at "
        "$42,900.24/month. The cheapest self-hosted route the rules leave standing, own hardware (2 × HGX "
        "H100 8-GPU (16 × h100-sxm)) at $22,014.55/month, binds a purchase of servers for years: it pays "
        "only where no API the workload may use is found."
    )
    assert "PRC033" in result.fired_rules


def test_no_api_of_the_model_size_keeps_the_api_with_the_priced_fallback() -> None:
    """A 500B model given by its size at 2,000 requests a day: the catalog prices no API that large, so
    the documents' line stands (an API to be found) and DEP044 gives the self-hosted route's price; a
    manager read no figure at all before."""
    result = run({"name": "big", "model": {"params_b": 500, "precision": "fp8"}, "requests_per_day": 2_000})
    assert result.decision.deployment == "api" and {"DEP042", "DEP043"}.isdisjoint(result.fired_rules)
    finding = next(f for f in result.findings if f.rule_id == "DEP044")
    assert finding.message == (
        "Under the 10,000 requests/day line the documents point to a managed API, but the catalog prices "
        "none for a model of this size or larger, so the recommendation is an API a provider has to offer "
        "and price. Until one is found, the priced route is the cheapest self-hosted one the rules leave "
        "standing (runpod community (8 × h200)) at $20,965.60/month."
    )


def test_the_managed_apis_section_says_a_ruled_out_api_is_shown_for_comparison() -> None:
    """The HR assistant runs its own weights: the summary says the API compared is ruled out (DEP005), and
    the Managed APIs section, which says which price "is compared", now says so too."""
    memo = render_memo(run(read_example(EXAMPLES_DIR / "hr-assistant.yaml")))
    assert (
        "the cheapest of the 3 prices of that class open to it.\n"
        "Managed APIs are ruled out for this workload (DEP005): the prices here are shown for comparison "
        "only.\n"
    ) in memo
