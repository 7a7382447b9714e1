"""A business-critical workload needs an enterprise SLA (PRV003), from a managed API as from a GPU offer:
every API price records whether its provider publishes one for that price (knowledge/api_prices.yaml:
enterprise_sla with sla_source and sla_as_of), and PRV003's own exclusion removes the prices without
one, so the API the decision compares is the cheapest price with an SLA, or none. The mechanism that
applies an option exclusion to API prices is tested in test_rule_cases.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import knowledge_with, run

from gpu_advisor.cli import main
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.results import ApiCost, Recommendation

WORKLOAD: dict[str, Any] = {
    "name": "business-critical 70B",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 40_000,
    "avg_input_tokens": 300,
    "avg_output_tokens": 150,
    "load_pattern": "steady",
    "schedule": "always",
    "latency_sensitive": True,
    "business_critical": True,
    "company_country": "DE",
}

WITH_SLA = {"mistral-small-24b-scaleway", "llama-3.3-70b-scaleway", "qwen3-235b-a22b-2507-scaleway"}
"""The prices whose providers publish an SLA for them: Scaleway's Generative APIs SLA. Every other
provider in the catalog publishes none for its price (Mistral's enterprise schedule for La Plateforme
holds under a separate enterprise agreement, as Hugging Face's Enterprise plan does)."""


def compared(result: Recommendation) -> ApiCost:
    (api,) = [a for a in result.api_costs if a.compared]
    return api


def test_every_api_price_says_whether_it_comes_with_an_sla_and_where_that_is_read() -> None:
    apis = load_knowledge().api_prices.apis
    assert {a.id for a in apis if a.enterprise_sla} == WITH_SLA
    assert {a.provider for a in apis if a.enterprise_sla} == {"scaleway"}
    # A price whose source names no host has no SLA anyone could hold it to.
    assert not next(a for a in apis if a.id == "llama-3-70b-hosted").enterprise_sla


def test_an_api_price_without_its_sla_source_is_refused_at_load(tmp_path: Path) -> None:
    copy = knowledge_with(
        tmp_path,
        "api_prices.yaml",
        '    enterprise_sla: false\n    sla_source: {url: "https://api-docs.deepseek.com',
        '    enterprise_sla: false\n    note_source: {url: "https://api-docs.deepseek.com',
    )
    with pytest.raises(KnowledgeError, match="sla_source"):
        load_knowledge_from(copy)


def test_a_business_critical_workload_takes_no_api_whose_provider_publishes_no_sla() -> None:
    result = run(WORKLOAD)
    assert "PRV003" in result.fired_rules
    costs = {a.api: a for a in result.api_costs if not a.batch}
    # The cheapest prices of the model's own size, DeepInfra's, are out, and so is the same model.
    assert costs["llama-3.1-70b-deepinfra"].excluded_by == ("PRV003",)
    assert costs["llama-3.3-70b-deepinfra"].excluded_by == ("PRV003",)
    for api in ("llama-3.3-70b-together", "llama-3.3-70b-ionos", "llama-3.3-70b-ovhcloud", "gpt-4o"):
        assert costs[api].excluded_by == ("PRV003",), api
    assert all("PRV003" not in a.excluded_by for a in result.api_costs if a.api in WITH_SLA)
    # The compared API is the one 70B price with an SLA: Scaleway's Llama 3.3 70B at 0.90 EUR per
    # million tokens in and out, 40,000 x 30.42 x 450 x 0.90 / 1e6 = 492.80 EUR = 571.65 USD at 1.16.
    api = compared(result)
    assert api.api == "llama-3.3-70b-scaleway"
    assert api.usd_per_month == pytest.approx(40_000 * 30.42 * 450 * 0.90 / 1e6 * 1.16)
    assert result.decision.deployment == "api"
    assert result.decision.offer == "llama-3.3-70b-scaleway"


def test_the_memo_says_which_apis_the_sla_rule_excluded(tmp_path: Path) -> None:
    path = tmp_path / "workload.yaml"
    path.write_text(yaml.safe_dump(WORKLOAD), encoding="utf-8")
    result = CliRunner().invoke(main, ["recommend", str(path)])
    assert result.exit_code == 0, result.output
    memo = result.output
    # The batch API's row is excluded by DEP028 too, but that is not why the API itself is out.
    assert "the catalog's prices of it are excluded by PRV003):" in memo
    assert (
        "| Llama 3.1 70B Instruct Turbo (DeepInfra) | unknown | $219 | $0.00018 | 2026-11-05 | "
        "excluded by PRV003 |" in memo
    )
    assert (
        "| Llama 3.3 70B Instruct (Scaleway Generative APIs) | EU (FR) | $572 | $0.00047 | 2026-09-26 | "
        "compared: another model of its size |" in memo
    )
    assert "and every managed API whose provider publishes no SLA for its price;" in memo


def test_without_business_criticality_the_cheapest_api_is_compared_as_before() -> None:
    result = run({**WORKLOAD, "business_critical": False})
    assert "PRV003" not in result.fired_rules
    assert all("PRV003" not in a.excluded_by for a in result.api_costs)
    # DeepInfra serves the model itself: 40,000 x 30.42 x 450 x 0.40 / 1e6 = 219.02 USD.
    api = compared(result)
    assert api.api == "llama-3.1-70b-deepinfra"
    assert api.usd_per_month == pytest.approx(40_000 * 30.42 * 450 * 0.40 / 1e6)


def test_a_business_critical_8b_workload_compares_the_provider_with_an_sla() -> None:
    result = run({**WORKLOAD, "model": {"name": "llama-3.1-8b", "precision": "bf16"}})
    # DeepInfra's 8B at 0.02/0.04 USD and Mistral's own at 0.15 USD are cheaper, but only Scaleway's
    # Mistral Small 24B (EUR 0.15 in, 0.35 out) comes with an SLA at its listed price:
    # 40,000 x 30.42 x (300 x 0.15 + 150 x 0.35) / 1e6 x 1.16 = 137.62 USD.
    api = compared(result)
    assert api.api == "mistral-small-24b-scaleway"
    assert api.usd_per_month == pytest.approx(40_000 * 30.42 * (300 * 0.15 + 150 * 0.35) / 1e6 * 1.16)
    assert next(a for a in result.api_costs if a.api == "llama-3.1-8b-deepinfra").excluded_by == ("PRV003",)
    assert next(a for a in result.api_costs if a.api == "ministral-3-8b-mistral").excluded_by == ("PRV003",)
