"""RunPod prices an instance that runs always (an active worker, $0.468 per L4-hour) below one that
scales with the load (a flex worker, $0.684). A tagging model at 30 million requests a day keeps four L4
instances busy in every hour: they are billed as active workers, the rest of the month's instance-hours
as flex ones, as the provider bills them. Before, every hour was priced at the flex price, though no
latency target kept an instance warm."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import run

from gpu_advisor.cli import main

TAGGER: dict[str, Any] = {
    "name": "tagger",
    "model": {
        "params_b": 1.2,
        "precision": "bf16",
        "custom_weights": True,
        "attention_shape": {
            "num_hidden_layers": 16,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "head_dim": 64,
        },
    },
    "requests_per_day": 30_000_000,
    "avg_input_tokens": 200,
    "avg_output_tokens": 8,
    "load_pattern": "steady",
    "latency_sensitive": False,
    "company_country": "NL",
}


def test_the_base_load_s_instances_are_billed_as_always_on() -> None:
    result = run(TAGGER)
    (option,) = [
        o
        for o in result.options
        if (o.provider, o.gpu, o.regions) == ("runpod", "l4", ("eu-datacenters",))
        and o.pricing == "serverless"
    ]
    billing = option.serverless
    assert billing is not None
    assert (billing.instances_kept, billing.kept_for_price, billing.kept_warm) == (4, 4, True)
    always_on, flex = 4 * 730, option.billed_hours_per_month - 4 * 730
    assert option.usd_per_month == pytest.approx(always_on * 0.468 + flex * 0.684, abs=1e-6)
    # Priced at the flex price every hour, the same month would cost a quarter more.
    assert option.billed_hours_per_month * 0.684 > 1.25 * option.usd_per_month


def test_a_product_without_a_lower_always_on_price_keeps_no_instance_for_price() -> None:
    """Modal bills a running instance as one that scales: no instance is kept for the price."""
    result = run(TAGGER)
    modal = [o for o in result.options if o.provider == "modal"]
    assert modal and all(o.serverless is not None and o.serverless.instances_kept == 0 for o in modal)


def test_the_memo_says_why_the_instances_run_always() -> None:
    workload = yaml.safe_dump(TAGGER)
    memo = CliRunner().invoke(main, ["recommend", "-", "--as-of", "2026-11-30"], input=workload).output
    assert (
        "The load keeps 4 instances busy in every served hour, so they run always, at the product's lower "
        "price for instances that run always; more start when the load needs them." in memo
    )
    assert "The service cannot wait for a cold start" not in memo
