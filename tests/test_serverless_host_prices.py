"""Modal bills CPU cores and memory beside the GPU; the bill leaves them out (what a serving container
requests is not in the catalog), so the memo turns the serverless option's margin over the cheapest
rental into the cores or GiB per instance that would use it up (a 70B chat's Modal endpoint won by
$394 a month, $0.24 an instance-hour, about five cores' worth)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from helpers import flat, run

from gpu_advisor.engine.present.memo import render_memo

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_the_margin_over_the_rental_is_turned_into_cores_and_memory() -> None:
    """Modal's CPU at USD 0.0000131 a core-second (0.04716 an hour) and memory at 0.00000222 a GiB-second
    (0.007992 an hour); the margin over the cheapest rental per billed instance-hour over each."""
    workload = yaml.safe_load((EXAMPLES / "prototype.yaml").read_text(encoding="utf-8"))
    result = run(workload)
    so, best = result.serverless_option, result.best_option
    assert so is not None and so.serverless is not None and best is not None
    assert so.provider == "modal"
    assert (so.serverless.host_usd_per_core_hour, so.serverless.host_usd_per_gib_hour) == (0.04716, 0.007992)
    margin = best.usd_per_month - so.usd_per_month
    assert margin > 0
    per_hour = margin / so.billed_hours_per_month
    memo = flat(render_memo(result))
    expected = (
        f"The option costs ${margin:,.0f} a month less than the cheapest rental ({best.provider} "
        f"{best.offer}), ${per_hour:.2f} per instance-hour over its {so.billed_hours_per_month:,.0f} billed: "
        f"about {per_hour / 0.04716:.1f} cores or {round(per_hour / 0.007992)} GiB on each instance, or less "
        "of both together, would use that up."
    )
    assert expected in memo
    assert "bills CPU cores ($0.0472 per core-hour) and memory ($0.00799 per GiB-hour) on top" in memo


def test_a_product_whose_gpu_price_includes_the_host_says_nothing_of_it() -> None:
    """RunPod bills the GPU alone: no host prices, and the memo keeps the general line."""
    workload = yaml.safe_load((EXAMPLES / "hr-assistant.yaml").read_text(encoding="utf-8"))
    result = run(workload)
    so = result.serverless_option
    assert so is not None and so.serverless is not None and so.provider == "runpod"
    assert so.serverless.host_usd_per_core_hour is None
    memo = flat(render_memo(result))
    assert "GPU time only: CPU and memory, which some products bill beside the GPU, are not included." in memo


def test_a_serverless_decision_on_modal_says_so_in_its_summary() -> None:
    """A 70B shop chat on own weights, around the clock, with tight latency targets: Modal's H200 endpoint
    is the decision, by less than the CPU and memory it bills on top might take."""
    workload = {
        "name": "shop-chat-own",
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 120_000,
        "avg_input_tokens": 600,
        "avg_output_tokens": 250,
        "load_pattern": "variable",
        "schedule": "always",
        "latency_sensitive": True,
        "max_time_to_first_token_ms": 300,
        "max_time_per_output_token_ms": 30,
        "company_country": "FR",
    }
    result = run(workload)
    so, best = result.serverless_option, result.best_option
    assert result.decision.deployment == "serverless" and so is not None and so.chosen and best is not None
    per_hour = (best.usd_per_month - so.usd_per_month) / so.billed_hours_per_month
    summary = flat(render_memo(result).split("## Summary", 1)[1].split("## Why", 1)[0])
    assert (
        "Modal serverless functions bills CPU and memory on top of its GPU time: about "
        f"{per_hour / 0.04716:.1f} cores or {round(per_hour / 0.007992)} GiB on each instance, or less of "
        "both together, would use up its lead over the cheapest rental"
    ) in summary


def test_the_lead_is_over_the_next_route_where_that_is_not_a_rental() -> None:
    """Modal decided for a Qwen3 MoE at 495,000 requests a day: the next route is the managed API at
    $30,718.12 (DeepSeek-R1's price, $31,028 at 500,000, standing in), not the cheapest rental at $41,931;
    the Summary and the serverless section measured the lead against the rental, where $1,024 a month
    (Modal's ten B200 at $29,693.94), $0.43 over its 2,376 instance-hours, about 9.1 cores or 54 GiB an
    instance at $0.04716 a core-hour or $0.007992 a GiB-hour, would hand the decision to the API. 495,000
    is the nearest volume to the 500,000 this was first found at where Modal's B200 is still decided:
    beside the FP8 checkpoint's 16-bit embedding and lm_head, from 496,000 Modal's H200 ($36,491) stands
    in for it and the API is decided."""
    workload = {
        "name": "qwen3-235b-sglang-16k",
        "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
        "requests_per_day": 495_000,
        "avg_input_tokens": 1500,
        "avg_output_tokens": 600,
        "context_tokens": 16384,
        "load_pattern": "variable",
        "latency_sensitive": True,
        "company_country": "US",
        "serving_engine": "sglang",
    }
    result = run(workload)
    so = result.serverless_option
    assert result.decision.deployment == "serverless" and so is not None
    rival = result.other_routes[0]
    assert rival.kind == "api" and rival.usd_per_month == pytest.approx(31_028 * 495 / 500, abs=1)
    assert (so.provider, so.gpu, so.gpus) == ("modal", "b200", 10)
    assert round(rival.usd_per_month - so.usd_per_month) == 1024
    per_hour = (rival.usd_per_month - so.usd_per_month) / so.billed_hours_per_month
    memo = flat(render_memo(result))
    assert (
        f"about {per_hour / 0.04716:.1f} cores or {round(per_hour / 0.007992)} GiB on each instance, or less "
        "of both together, would use up its lead over the managed API DeepSeek-R1-0528 (DeepInfra), at "
        'another model\'s price (see "Serverless").'
    ) in memo
    assert (
        "The option costs $1,024 a month less than the managed API DeepSeek-R1-0528 (DeepInfra), at another "
        "model's price, $0.43 per instance-hour"
    ) in memo
