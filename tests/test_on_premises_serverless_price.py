"""Where the data may not leave the building, every cloud route is ruled out (DEP006), but the memo
still names the cheapest serverless option's price for comparison. It is priced as the service would
be billed: a latency-sensitive service keeps an instance warm, its spare replica too (PRC011), on
premises as anywhere else."""

from __future__ import annotations

import pytest
from helpers import run

from gpu_advisor.engine.present.memo import render_memo

# 405B for a German company's personal data, on its own premises, answering users around the clock.
ON_PREMISES_405B = {
    "name": "llama405-onprem",
    "model": {"name": "llama-3.1-405b", "precision": "fp8"},
    "requests_per_day": 50_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 500,
    "load_pattern": "steady",
    "schedule": "always",
    "on_premises_required": True,
    "personal_data": True,
    "latency_sensitive": True,
    "company_country": "DE",
}


def test_the_serverless_comparison_on_premises_keeps_the_warm_instance_and_its_spare() -> None:
    result = run(ON_PREMISES_405B)
    assert result.decision.deployment == "own_hardware"
    assert {"DEP006", "PRC011"} <= set(result.fired_rules)
    option = result.serverless_option
    assert option is not None and option.serverless is not None and option.serverless.kept_warm
    assert (option.provider, option.gpu, option.serverless.instance_gpus) == ("huggingface", "h200", 4)
    # One replica of 4 H200 carries the peak; the spare makes two, both kept up every hour of the month.
    assert (option.replicas, option.spare_replicas, option.gpus) == (2, 1, 8)
    cost = 2 * 4 * 730 * 5.00
    assert option.usd_per_month == pytest.approx(cost)
    memo = " ".join(render_memo(result).split())
    assert (
        f"The cheapest serverless option (Hugging Face Inference Endpoints, h200, ${cost:,.0f} per month) "
        "is ruled out for this workload (DEP006)." in memo
    )
