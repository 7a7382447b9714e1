"""KNB021, KNB022: a reasoning model is compared with reasoning models' APIs only, and a model that answers
without reasoning with none of theirs. A Qwen3 235B code assistant (thinking by default, by its model card)
had been decided on Llama 3.1 405B's API at DeepInfra, a model that answers without a chain of thought."""

from __future__ import annotations

import pytest
from helpers import run

CODE_ASSISTANT = {
    "name": "code-assistant",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 50_000,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 4000,
    "context_tokens": 16384,
    "load_pattern": "variable",
    "schedule": "workdays",
    "company_country": "DE",
}


def test_a_reasoning_model_is_priced_at_a_reasoning_models_api() -> None:
    """DeepSeek-R1-0528 at DeepInfra: 0.50 / 2.15 USD per million tokens; 50,000 requests on 22 workdays,
    3,000 in and 4,000 out: 50,000 x 22 x (3,000 x 0.50 + 4,000 x 2.15) / 1e6 = $11,110 a month."""
    result = run(CODE_ASSISTANT)
    assert result.decision.deployment == "api"
    assert result.decision.offer == "deepseek-r1-deepinfra"
    assert result.decision.usd_per_month == pytest.approx(50_000 * 22 * (3000 * 0.50 + 4000 * 2.15) / 1e6)
    llama = next(c for c in result.api_costs if c.api == "llama-3.1-405b-deepinfra" and not c.batch)
    assert "KNB021" in llama.excluded_by
    assert {"KNB021"} <= {f.rule_id for f in result.findings}
    assert "KNB022" not in {f.rule_id for f in result.findings}


def test_a_model_whose_own_api_is_hosted_needs_no_exclusion() -> None:
    """DeepSeek-R1's own APIs are its size class: no API of another kind is among them (KNB021 silent), as
    Llama 3.1 8B's own APIs are its (KNB022 silent)."""
    r1 = run({**CODE_ASSISTANT, "model": {"name": "deepseek-r1", "precision": "fp8"}})
    llama = run({**CODE_ASSISTANT, "model": {"name": "llama-3.1-8b", "precision": "fp8"}})
    assert {"KNB021", "KNB022"}.isdisjoint(f.rule_id for f in (*r1.findings, *llama.findings))


def test_a_model_given_by_its_size_above_every_plain_api_is_not_priced_at_a_reasoning_one() -> None:
    """A 500B mixture of experts with 30B active given by its size: the nearest API at or above it is
    DeepSeek-R1's (671B, 37B active), a reasoning model's; the catalog cannot tell whether the workload's
    reasons and takes it as not (KNB022)."""
    custom = {**CODE_ASSISTANT, "model": {"params_b": 500, "active_params_b": 30, "precision": "fp8"}}
    result = run(custom)
    assert "KNB022" in {f.rule_id for f in result.findings}
    r1 = next(c for c in result.api_costs if c.api == "deepseek-r1-deepinfra" and not c.batch)
    assert "KNB022" in r1.excluded_by


def test_a_hybrid_model_served_without_thinking_says_so() -> None:
    """Qwen3 with model.reasoning: false (thinking switched off): its own size class stands in, Qwen3
    235B A22B Instruct 2507 (the non-thinking update of the same model) at Together AI,
    50,000 x 22 x (3,000 x 0.20 + 4,000 x 0.60) / 1e6 at 0.20 / 0.60 USD per million."""
    result = run({**CODE_ASSISTANT, "model": {**CODE_ASSISTANT["model"], "reasoning": False}})
    assert result.workload.reasoning is False
    assert result.decision.offer == "qwen3-235b-a22b-2507-together"
    assert result.decision.usd_per_month == pytest.approx(50_000 * 22 * (3000 * 0.20 + 4000 * 0.60) / 1e6)
    # The nearest class, Qwen3 2507's, answers without reasoning too: neither rule has anything to say.
    assert {"KNB021", "KNB022"}.isdisjoint(f.rule_id for f in result.findings)


def test_a_proposal_may_choose_another_kind_of_models_api() -> None:
    """KNB021 keeps Llama 3.1 405B's price out of the comparison for Qwen3, not out of what a team may
    propose: check's DEP036 (the rules exclude the proposed API) passes it."""
    from helpers import EVALUATED_ON

    from gpu_advisor.engine.apps.check.run import check_document
    from gpu_advisor.engine.domain.proposal import ProposalDocument

    proposal = {
        "name": "llama api",
        "deployment": "api",
        "provider": "deepinfra",
        "offer": "llama-3.1-405b-deepinfra",
    }
    document = ProposalDocument.model_validate({"workload": CODE_ASSISTANT, "proposal": proposal})
    results = {i.rule_id: i.status for i in check_document(document, "p.yaml", 1, EVALUATED_ON).results}
    assert results["DEP036"] == "pass"


def test_a_reasoning_model_is_told_of_no_smaller_class_that_does_not_reason() -> None:
    """DeepSeek-R1 with personal data in Germany: its own prices are outside the EU, and the EU's largest
    class below it, Qwen3 235B A22B Instruct 2507 at Scaleway, does not reason; it was named as "the
    nearest smaller class the workload may use" (KNB021 keeps it out of the comparison as well)."""
    result = run(
        {
            "name": "ds",
            "model": {"name": "deepseek-r1", "precision": "fp8"},
            "requests_per_day": 50000,
            "avg_input_tokens": 1000,
            "avg_output_tokens": 500,
            "personal_data": True,
            "company_country": "DE",
        }
    )
    # The EU's reasoning models below it: OVHcloud's Qwen3.5 9B, which thinks by its card's default.
    (smaller,) = [a for a in result.api_costs if a.nearest_smaller]
    assert smaller.api == "qwen3.5-9b-ovhcloud"
    scaleway = next(a for a in result.api_costs if a.api == "qwen3-235b-a22b-2507-scaleway" and not a.batch)
    assert scaleway.excluded_by == ()
