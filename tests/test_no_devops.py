"""A team without DevOps capacity (PRV001): neo-cloud and marketplace GPUs are excluded, managed endpoints
and the European clouds stay admitted, and the memo says so beside the saving it reports for them (PRV002)."""

from __future__ import annotations

from typing import Any

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

STARTUP: dict[str, Any] = {
    "name": "at-startup-public-bot",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 150_000,
    "avg_input_tokens": 400,
    "avg_output_tokens": 200,
    "load_pattern": "variable",
    "schedule": "always",
    "latency_sensitive": True,
    "devops_capacity": False,
    "company_country": "AT",
}


def test_without_devops_the_european_clouds_stay_and_the_memo_says_so() -> None:
    result = run(STARTUP)
    assert "PRV001" in result.fired_rules
    excluded = {o.provider: o.excluded_by for o in result.options if o.pricing != "serverless"}
    assert "PRV001" in excluded["runpod"] and "PRV001" in excluded["lambda"]
    assert "PRV001" not in excluded["ovhcloud"] and "PRV001" not in excluded["aws"]
    memo = render_memo(result)
    assert (
        "and so do the European clouds; where one of these is chosen, check which of the hyperscaler's "
        "services it runs for the team."
    ) in memo


def test_without_devops_a_managed_endpoint_stays_and_a_code_platform_goes() -> None:
    # Hugging Face Inference Endpoints and RunPod Serverless's vLLM worker deploy, scale and serve a model
    # the team names (managed: true in knowledge/serverless.yaml, each with its source); on Modal the team
    # writes and deploys its own serving code. RunPod's rented pods stay excluded: GPUs only. Users wait
    # for this service's answers: RunPod's endpoint that serves them without its queue, and a Modal
    # Server, run a worker the team builds (PRV031); its ready-made worker stays for users who can wait.
    result = run(STARTUP)
    serverless = {o.provider: o.excluded_by for o in result.options if o.pricing == "serverless"}
    assert serverless == {"huggingface": (), "runpod": ("PRV031",), "modal": ("PRV001", "PRV031")}
    waiting = run({**STARTUP, "latency_sensitive": False})
    serverless = {o.provider: o.excluded_by for o in waiting.options if o.pricing == "serverless"}
    assert serverless == {"huggingface": (), "runpod": (), "modal": ("PRV001",)}
    pods = {o.excluded_by for o in result.options if (o.provider, o.offer) == ("runpod", "community")}
    assert pods == {("PRV001",)}
    assert (
        "Managed endpoints, where the platform deploys, scales and serves the model, stay admitted whoever "
        "sells them"
    ) in render_memo(result)


def test_with_devops_no_serverless_product_is_excluded() -> None:
    result = run({**STARTUP, "devops_capacity": True})
    assert "PRV001" not in result.fired_rules
    assert all(not o.excluded_by for o in result.options if o.pricing == "serverless")
