"""DEP035: where no self-hosted route has a price, a managed API the workload may use is the route. A
contract RAG service (30,000 tokens in) of a German company whose procurement approves IONOS only, run by
a team without DevOps capacity: no rental or serverless product is approved and buying is ruled out
(TCO015), so no self-hosted route stands with a price, and the route is IONOS's EU-hosted 70B, which the
workload may use, not hardware the rules ruled out or the catalog cannot price."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import yaml

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo

AS_OF = dt.date(2026, 11, 30)
RAG: dict[str, Any] = {
    "name": "vertrags-rag",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 150_000,
    "avg_input_tokens": 30_000,
    "avg_output_tokens": 400,
    "context_tokens": 32_768,
    "load_pattern": "variable",
    "schedule": "workdays",
    "personal_data": True,
    "company_country": "DE",
    "devops_capacity": False,
}


def approving(tmp_path: Path, providers: list[str]) -> str:
    """A policy directory whose one rule approves ``providers`` only."""
    policy = tmp_path / "policy"
    policy.mkdir(exist_ok=True)
    rule = {
        "id": "ORG133",
        "name": "approved-providers-only",
        "topic": "provider",
        "severity": "warning",
        "fact": "workload",
        "when": [],
        "then": {"exclude_options": [{"field": "provider", "not_in": providers}]},
        "title": "Company policy: approved providers only",
        "message": "Only the approved providers.",
        "rationale": "Procurement.",
        "source": {
            "document": "cloud-gpu-costs-2026",
            "section": "Hyperscaler vs. Neo-Cloud: Wo GPUs wirklich günstiger sind",
        },
    }
    (policy / "approved.yaml").write_text(
        yaml.safe_dump({"schema_version": 1, "family": "ORG", "rules": [rule]}), encoding="utf-8"
    )
    return str(policy)


def decided(workload: dict[str, Any], policy: str) -> Any:
    return recommend(validate_workload(workload, "test"), AS_OF, policy_dir=policy)


def test_the_api_the_workload_may_use_is_the_route_with_a_price(tmp_path: Path) -> None:
    result = decided(RAG, approving(tmp_path, ["ionos"]))
    decision = result.decision
    assert (decision.deployment, decision.offer, decision.deciding_rule_id) == (
        "api",
        "llama-3.3-70b-ionos",
        "DEP035",
    )
    # 150,000 requests x 22 workdays x 30,400 tokens at 0.65 EUR per million, 1.16 USD per EUR.
    assert round(decision.usd_per_month or 0, 2) == round(150_000 * 22 * 30_400 * 0.65 / 1e6 * 1.16, 2)
    assert {"DEP009", "TCO015", "DEP035"} <= set(result.fired_rules)
    memo = render_memo(result)
    # DEP009 fires after TCO015 ruled buying out, and says so rather than naming it the remaining route.
    assert (
        "No rental offer in the catalog can serve this model under the workload's constraints, so dedicated "
        "cloud GPUs are not an option here as far as the catalog goes (a provider it does not list may have "
        "one: add its offer with `--overrides` to weigh it); own hardware is ruled out as well (TCO015)."
        in memo
    )
    assert (
        "No rental, serverless product or own server the rules leave standing has a price (see the "
        "findings), while a managed API the workload may use serves a model at least its size at "
        "$75,641.28/month: the API is the one route with a price. Its latency is not in the catalog: "
        "measure it against the workload's targets before relying on it." in memo
    )


def test_own_weights_leave_the_api_out_and_hardware_sized_for_the_model(tmp_path: Path) -> None:
    result = decided(
        {**RAG, "model": {**RAG["model"], "custom_weights": True}}, approving(tmp_path, ["ionos"])
    )
    assert (result.decision.deployment, result.decision.deciding_rule_id) == ("own_hardware", "DEP009")
    assert "DEP035" not in result.fired_rules


def test_a_serverless_product_a_rule_ruled_out_is_still_a_priced_route(tmp_path: Path) -> None:
    """A company that approves only Modal and Together: no rental stands, and DEP024 rules serverless out
    for a busy steady service, but Modal still has a price ($19,020), below Together's API ($35,336):
    DEP022 decides for it, and DEP035 stays silent (it had the API win)."""
    policy = approving(tmp_path, ["modal", "together"])
    workload = {
        "name": "steady-rag",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 300_000,
        "avg_input_tokens": 4_000,
        "avg_output_tokens": 400,
        "load_pattern": "steady",
        "model_stable": False,
        "company_country": "US",
    }
    result = decided(workload, policy)
    assert (result.decision.deployment, result.decision.deciding_rule_id) == ("serverless", "DEP022")
    # Modal bills its B200 at $6.2496 an hour for every second a GPU is up: 3,043.4 hours a month, with a
    # request in flight (3,039.6, of which 1,037.3 would be the month's work at full throughput: beside the
    # FP8 checkpoint's 72.65 GB a B200 holds 66 requests of 4,400 tokens, 96.39 GB / 1.442 MB, each taking
    # 0.2306 s of prefill and 399 steps of 29.54 ms shared by 66, 2.444 requests/s, and 300,000 x 30.42 /
    # 2.444 / 3,600 = 1,037.3 hours), idle
    # until scaled down (1.8) and starting (2.0: three scale-ups a day of its 79.24 s start, the platform's,
    # the weights' load and vLLM's, 91.26 a month, as the hour from 8 now asks for 3.01 instances, just
    # over 3, and starts one more), across its 5 GPUs.
    chosen = result.serverless_option
    assert chosen is not None and chosen.serverless is not None
    billing = chosen.serverless
    up = billing.busy_hours_per_month + billing.idle_hours_per_month + billing.cold_start_hours_per_month
    assert (chosen.gpu, chosen.gpus, billing.scale_usd_per_gpu_hour) == ("b200", 5, 6.2496)
    # No hour at another price: the month's bill over its hours is the listed price.
    assert chosen.usd_per_gpu_hour == (result.decision.usd_per_month or 0) / up
    assert round(chosen.usd_per_gpu_hour, 10) == 6.2496
    hours = (
        billing.busy_hours_per_month,
        billing.work_hours_per_month,
        billing.idle_hours_per_month,
        billing.cold_start_hours_per_month,
    )
    assert [round(h, 1) for h in hours] == [3039.6, 1037.3, 1.8, 2.0]
    assert round(billing.scale_ups_per_month, 2) == 91.26
    assert round(up, 1) == 3043.4 and chosen.usd_per_month == result.decision.usd_per_month
    assert round(result.decision.usd_per_month or 0) == round(6.2496 * up) == 19020
    assert "DEP024" in result.fired_rules and "DEP035" not in result.fired_rules
