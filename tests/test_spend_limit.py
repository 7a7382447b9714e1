"""A plan must be one the provider lets the account run: Runpod starts every account with a spend limit of
$80 an hour across all resources (its Serverless and Pods pricing pages, Account limits), and PRV014
warns where the cheapest self-hosted route standing, serverless or dedicated, costs more at its peak."""

from __future__ import annotations

from helpers import NO_API_POLICY, run

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
"""An Austrian public-sector RAG service, decided on Runpod Serverless B200 workers where the company's
policy rules managed APIs out (``NO_API_POLICY``): a 70B price hosted in the EU, which stands in for its
72B Qwen, would be decided otherwise."""


def test_a_serverless_peak_over_runpods_default_spend_limit_is_flagged() -> None:
    result = run(RAG, policy_dir=NO_API_POLICY)
    option = result.serverless_option
    assert option is not None and option.serverless is not None
    assert (result.decision.deployment, option.provider, option.gpus) == ("serverless", "runpod", 13)
    # 13 one-card workers in the busiest hour: those kept running at the active price of $6.84 an hour,
    # the others at the flex price of $8.64. The kept ones restart each of the 22 working days, 5 of them
    # (2 kept warm for latency, 3 more the load runs through most served hours, kept for the price):
    # 5 x 6.84 + 8 x 8.64 = $103.32 an hour.
    kept = round(option.serverless.kept_restarts_per_month / result.workload.days_per_month)
    assert (option.serverless.warm_usd_per_gpu_hour, option.serverless.scale_usd_per_gpu_hour) == (6.84, 8.64)
    assert (kept, option.serverless.instances_kept, option.serverless.kept_for_price) == (5, 5, 3)
    assert round(kept * 6.84 + (13 - kept) * 8.64, 2) == 103.32
    (finding,) = [f for f in result.findings if f.rule_id == "PRV014"]
    assert finding.severity == "warning"
    assert finding.message == (
        "The cheapest self-hosted route, RunPod Serverless (eu-datacenters, 1 × b200), costs about $103.32 "
        "an hour at its peak (13 instances), more than the $80.00 an hour RunPod lets an account spend "
        "across all its resources by default. Ask its support to raise the limit before going live: until "
        "then what runs beyond it does not start, and the peak is served by less."
    )
    assert "**PRV014**" in render_memo(result).split("## Why")[1].split("### How the rules decided")[0]


def test_a_dedicated_runpod_rental_over_the_limit_is_flagged() -> None:
    """The limit is the account's across all resources: 17 B200 rented at RunPod for a 70B chat on its
    own weights cost 17 x $5.98 = $101.66 an hour."""
    chat = {
        "name": "pod-chat",
        "model": {"name": "llama-3.3-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 4_000_000,
        "avg_input_tokens": 800,
        "avg_output_tokens": 250,
        "load_pattern": "steady",
        "schedule": "workdays",
        "latency_sensitive": True,
        "company_country": "US",
    }
    result = run(chat)
    best = result.best_option
    assert best is not None and (result.decision.deployment, best.provider) == ("dedicated_cloud", "runpod")
    assert (best.gpus_rented, best.usd_per_gpu_hour) == (17, 5.98)
    (finding,) = [f for f in result.findings if f.rule_id == "PRV014"]
    assert finding.message.startswith(
        f"The cheapest self-hosted route, runpod community (17 × b200), costs about ${17 * 5.98:,.2f} an "
        "hour at its peak, more than the $80.00 an hour RunPod lets"
    )


def test_a_peak_under_the_limit_is_not_flagged() -> None:
    # A tenth of the load: 2 kept warm and at most a few more, under $80 an hour.
    result = run({**RAG, "requests_per_day": 8_000}, policy_dir=NO_API_POLICY)
    option = result.serverless_option
    assert option is not None and option.provider == "runpod" and option.gpus * 8.64 < 80
    assert "PRV014" not in result.fired_rules
