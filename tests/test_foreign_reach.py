"""RES015: the residency rules keep personal data in the admitted regions; a provider whose parent
company sits in a state whose law reaches data its companies control abroad (the US CLOUD Act) keeps it
there, but not out of that reach. The memo names such admitted providers, and the Summary the chosen one."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import run
from test_even_on_price import SHOP

from gpu_advisor.engine.domain.knowledge.checks import unknown_countries
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.knowledge.providers import Provider
from gpu_advisor.engine.pipeline.foreign_reach import reached_providers
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.knowledge import KNOWLEDGE_DIR

# A German company's own fine-tuned 8B on personal data, a light variable load: RunPod's serverless
# workers in its EU region are the decision.
ASSISTANT: dict[str, Any] = {
    "name": "assistent",
    "model": {"name": "llama-3.1-8b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 2000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "schedule": "always",
    "personal_data": True,
    "company_country": "DE",
}


def test_the_catalog_s_us_controlled_providers_are_the_ones_named() -> None:
    knowledge = load_knowledge()
    us = ("aws", "azure", "gcp", "huggingface", "lambda", "modal", "runpod")
    assert tuple(sorted(reached_providers(knowledge, "DE"))) == us
    # A US company's data are within that reach whoever it rents from: nothing to name.
    assert reached_providers(knowledge, "US") == {}


def test_the_admitted_us_controlled_providers_and_the_chosen_one_are_named() -> None:
    result = run(ASSISTANT)
    assert (result.decision.deployment, result.decision.provider) == ("serverless", "runpod")
    message = next(f.message for f in result.findings if f.rule_id == "RES015")
    assert message == (
        "Amazon Web Services, Google Cloud, Hugging Face, Microsoft Azure and RunPod are controlled by "
        "companies in a state whose law obliges its service providers, on an order of its authorities, to "
        "disclose data in their possession, custody or control wherever it is stored (US CLOUD Act, 18 "
        "U.S.C. § 2713): their regions in the admitted jurisdictions keep the personal data there, as the "
        "residency rules ask, but not out of that reach. The EDPB and the EDPS hold that without an "
        "international agreement recognising such an order the lawfulness of the transfer cannot be "
        "ascertained (GDPR Art. 48; joint response of 10 July 2019). Where the data are a public body's, a "
        "professional secret or under a financial supervisor's outsourcing rules, weigh that before choosing "
        "one of them; the European providers among the options are OVHcloud, STACKIT and Scaleway."
    )
    summary = " ".join(render_memo(result).split("## Summary")[1].split("## Why")[0].split())
    assert (
        "The chosen provider, runpod, is controlled by a company in a state whose law lets its authorities "
        "order the disclosure of data the provider holds abroad (RES015): its admitted region keeps the "
        "personal data there, not out of that reach."
    ) in summary


@pytest.mark.parametrize(
    "changes", [{"company_country": "US"}, {"personal_data": False}, {"on_premises_required": True}]
)
def test_nothing_is_said_for_a_us_company_without_personal_data_or_in_the_building(
    changes: dict[str, Any],
) -> None:
    result = run({**ASSISTANT, **changes})
    assert "RES015" not in result.fired_rules
    assert "The chosen provider" not in render_memo(result)


def test_a_provider_names_its_parent_or_says_what_was_looked_for() -> None:
    aws = load_knowledge().provider("aws").model_dump()
    assert aws["parent"]["company"] == "Amazon.com, Inc." and aws["parent"]["country"] == "US"
    with pytest.raises(ValueError, match="parent_note"):
        Provider.model_validate({**aws, "parent": None, "parent_note": None})


def test_runpod_s_eu_pin_is_said_to_place_the_workers_not_its_queue() -> None:
    """RunPod pins a serverless endpoint's workers to its EU data centres; a queue-based endpoint's requests
    wait in its job queue, whose location its documentation does not state (RES004 says so)."""
    result = run(ASSISTANT)
    message = next(f.message for f in result.findings if f.rule_id == "RES004")
    assert (
        "RunPod's serverless endpoints can be pinned to its EU data centres, which places the workers: a "
        "queue-based endpoint's requests wait in RunPod's job queue, which keeps a result for up to 30 "
        "minutes "
        "and whose location its documentation does not state (Send API requests), so ask RunPod where it "
        "runs, "
        "or use a load-balancing endpoint, which routes requests to the workers without a queue."
    ) in message


def test_the_cheapest_rental_from_such_a_provider_is_said_and_a_european_choice_is_not_flagged() -> None:
    """DeepSeek-R1 on its own weights: the cheapest admitted rental is AWS's P5 in Stockholm, and RES015
    says so. The shop chat's mixed fleet at OVHcloud is decided: RES015 names the US providers among the
    options, but the Summary does not call the chosen (European) provider one of them."""
    deepseek = run(
        {**ASSISTANT, "model": {"name": "deepseek-r1", "precision": "fp8", "custom_weights": True}}
    )
    assert deepseek.best_option is not None and deepseek.best_option.provider == "aws"
    said = next(f.message for f in deepseek.findings if f.rule_id == "RES015")
    assert said.endswith("The cheapest admitted rental comes from one of them.")
    assert not next(f.message for f in run(ASSISTANT).findings if f.rule_id == "RES015").endswith(
        "comes from one of them."
    )
    shop = run(SHOP)
    assert (shop.decision.deployment, shop.decision.provider) == ("hybrid", "ovhcloud")
    assert "RES015" in shop.fired_rules
    assert "The chosen provider" not in render_memo(shop)


def test_a_swiss_company_is_not_told_of_the_gdpr_s_article_48() -> None:
    """The EDPB's reading of GDPR Art. 48 concerns data under the GDPR; a Swiss company's personal data of
    people in Switzerland fall under the revDSG."""
    swiss = run({**ASSISTANT, "company_country": "CH"})
    said = next(f.message for f in swiss.findings if f.rule_id == "RES015")
    assert "US CLOUD Act" in said and "GDPR Art. 48" not in said


def test_the_catalog_refuses_an_unknown_or_repeated_country_in_the_reach_table() -> None:
    knowledge = load_knowledge()
    access = knowledge.data_protection.extraterritorial_access[0]
    with pytest.raises(ValueError, match="each country once"):
        knowledge.data_protection.model_validate(
            {**knowledge.data_protection.model_dump(), "extraterritorial_access": [access, access]}
        )
    aws = knowledge.provider("aws")
    assert aws.parent is not None
    unknown = aws.model_copy(update={"parent": aws.parent.model_copy(update={"country": "XQ"})})
    providers = knowledge.providers.model_copy(
        update={"providers": (unknown, *knowledge.providers.providers[1:])}
    )
    problems = unknown_countries(knowledge.model_copy(update={"providers": providers}), KNOWLEDGE_DIR)
    assert any("providers.yaml" in p and "XQ" in p for p in problems)


def test_a_company_in_the_uk_is_in_gb_for_the_reach_table() -> None:
    """countries.yaml takes UK for GB (``same_as``): a company given as UK is in the state of a parent
    company given as GB, and a parent given as UK is within a law the table lists for GB. Here the table
    lists the US law for GB instead, and AWS's parent is given as UK, Azure's as GB."""
    knowledge = load_knowledge()
    (access,) = knowledge.data_protection.extraterritorial_access
    law = access.law
    in_gb = knowledge.data_protection.model_copy(
        update={"extraterritorial_access": (access.model_copy(update={"country": "GB"}),)}
    )
    moved = []
    for provider in knowledge.providers.providers:
        country = {"aws": "UK", "azure": "GB"}.get(provider.id)
        if country is not None and provider.parent is not None:
            provider = provider.model_copy(
                update={"parent": provider.parent.model_copy(update={"country": country})}
            )
        moved.append(provider)
    changed = knowledge.model_copy(
        update={
            "data_protection": in_gb,
            "providers": knowledge.providers.model_copy(update={"providers": tuple(moved)}),
        }
    )
    assert reached_providers(changed, "DE") == {"aws": law, "azure": law}
    assert reached_providers(changed, "UK") == {}
    assert reached_providers(changed, "GB") == {}
    assert knowledge.countries.same_country("UK") == "GB"
    assert knowledge.countries.same_country("GB") == "GB"
    assert knowledge.countries.same_country("CH") == "CH"


def test_the_catalog_refuses_a_same_as_code_no_other_list_holds() -> None:
    countries = load_knowledge().countries
    lists = [entry.model_dump() for entry in countries.code_lists]
    uk = next(entry for entry in lists if entry["codes"] == ("UK",))
    for wrong in ("QQ", "UK"):
        uk["same_as"] = wrong
        with pytest.raises(ValueError, match=f"same_as names a code no other list holds: .*: {wrong}"):
            countries.model_validate({**countries.model_dump(), "code_lists": lists})
