"""A serverless plan must be one the provider lets the account run: Runpod starts every account with a
spend limit of $80 an hour across all resources (its Serverless pricing page, Account limits), and
PRV014 warns where the cheapest serverless option's peak costs more an hour."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

RAG = {
    "name": "at-rag-longctx",
    "model": {"name": "qwen2.5-72b", "precision": "int4"},
    "requests_per_day": 80_000,
    "avg_input_tokens": 12_000,
    "avg_output_tokens": 400,
    "context_tokens": 32_768,
    "load_pattern": "variable",
    "schedule": "workdays",
    "max_time_to_first_token_ms": 3000,
    "max_time_per_output_token_ms": 80,
    "personal_data": True,
    "company_country": "AT",
}
"""An Austrian public-sector RAG service, decided on Runpod Serverless B200 workers."""


def test_a_peak_over_runpods_default_spend_limit_is_flagged() -> None:
    result = run(RAG)
    option = result.serverless_option
    assert option is not None and option.serverless is not None
    assert (result.decision.deployment, option.provider, option.gpus) == ("serverless", "runpod", 13)
    # 13 one-card workers in the busiest hour: the 2 kept warm at the active price of $6.84 an hour,
    # the other 11 at the flex price of $8.64: 2 x 6.84 + 11 x 8.64 = $108.72 an hour, over $80.
    assert (option.serverless.warm_usd_per_gpu_hour, option.serverless.scale_usd_per_gpu_hour) == (6.84, 8.64)
    assert round(2 * 6.84 + 11 * 8.64, 2) == 108.72
    (finding,) = [f for f in result.findings if f.rule_id == "PRV014"]
    assert finding.severity == "warning"
    assert finding.message == (
        "At the peak, RunPod Serverless (eu-datacenters, 1 × b200) runs 13 instances at about $108.72 an "
        "hour, more than the $80.00 an hour RunPod lets an account spend across all its resources by "
        "default. Ask its support to raise the limit before going live: until then the instances beyond "
        "it do not start, and the peak is served by fewer."
    )
    assert "**PRV014**" in render_memo(result).split("## Why")[1].split("### How the rules decided")[0]


def test_a_peak_under_the_limit_is_not_flagged() -> None:
    # A tenth of the load: 2 kept warm and at most a few more, under $80 an hour.
    result = run({**RAG, "requests_per_day": 8_000})
    option = result.serverless_option
    assert option is not None and option.provider == "runpod" and option.gpus * 8.64 < 80
    assert "PRV014" not in result.fired_rules
