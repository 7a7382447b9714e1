"""A serverless endpoint for users who wait for the answers is created as the type that passes requests
straight to the serving engine (knowledge/serverless.yaml, ``streaming_endpoint``): the settings line names
it, and a sentence says that the latency figures, which are the engine's, hold for requests on that path and
that the product's queued type adds its queue's delay, which is not estimated. RunPod's queue-based
endpoints, the kind its ready-made vLLM worker is, put every request in RunPod's queue first."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import PUBLIC_CHAT, knowledge_with, run

from gpu_advisor.cli import main
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.knowledge.serving import ServerlessProduct

# A support bot: Qwen2.5-72B in FP8, 1.5 million requests a day around the clock, the first token within
# 800 ms and 50 ms a token, personal data of an Austrian company: RunPod Serverless in its EU data centres.
SUPPORT_BOT: dict[str, Any] = {
    "name": "support-bot",
    "model": {"name": "qwen2.5-72b", "precision": "fp8"},
    "requests_per_day": 1_500_000,
    "load_pattern": "variable",
    "schedule": "always",
    "max_time_to_first_token_ms": 800,
    "max_time_per_output_token_ms": 50,
    "personal_data": True,
    "company_country": "AT",
}
ON = dt.date(2026, 12, 7)
# Users who can wait for the HR assistant's answers: one RunPod active worker in the working hours.
WAITING_HR: dict[str, Any] = {
    "name": "hr-wait",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 25_000,
    "avg_input_tokens": 1200,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "workdays",
    "latency_sensitive": False,
    "personal_data": True,
    "company_country": "DE",
}
# 70B in BF16 with personal data: Hugging Face's endpoints in Ireland, decided.
HUGGING_FACE: dict[str, Any] = {
    "name": "hf",
    "model": {"name": "llama-3.1-70b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 3000,
    "load_pattern": "variable",
    "schedule": "workdays",
    "personal_data": True,
    "company_country": "DE",
}
PATH_SENTENCE = "the latency figures hold for requests that reach the serving engine directly"
RUNPOD_PATH = (
    "On RunPod Serverless the latency figures hold for requests that reach the serving engine directly: a "
    "load balancing endpoint sends each request through RunPod's load balancer straight to a worker's HTTP "
    "server (the network and that hop are not estimated); a queue-based endpoint, the kind RunPod's "
    "ready-made vLLM worker runs (`/run`, `/runsync`, and its streaming `/openai/v1` route), puts each "
    "request in RunPod's queue first, and that queue's delay is not estimated.\n"
)
RUNPOD_TITLE = (
    "Runpod docs, Load balancing endpoints: they 'send requests directly to workers without queuing' and "
    "'are ideal for real-time applications and streaming'; Latency 'Lower (single-hop)', a queue-based "
    "endpoint's 'Higher (queue+worker)'; serverless/endpoints/overview.mdx: the endpoint's Type, "
    "'Queue-based or Load balancer'; serverless/vllm/openai-compatibility.mdx: the vLLM worker's streaming "
    "route 'https://api.runpod.ai/v2/ENDPOINT_ID/openai/v1', whose requests reach its handler as jobs "
    "(runpod-workers/worker-vllm src/handler.py: 'job_input.openai_route') (read 2026-12-07)"
)


def memo(workload: dict[str, Any] | str, *args: str) -> str:
    from click.testing import CliRunner

    if isinstance(workload, str):
        result = CliRunner().invoke(main, ["recommend", workload, *args])
    else:
        result = CliRunner().invoke(main, ["recommend", "-", *args], input=yaml.safe_dump(workload))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_support_bot_is_told_to_create_a_load_balancing_endpoint_and_what_its_latency_leaves_out() -> (
    None
):
    result = run(SUPPORT_BOT, ON)
    option = result.serverless_option
    assert result.decision.deployment == "serverless"
    assert option is not None and option.chosen and option.serverless is not None
    assert (option.provider, option.gpu, option.replicas) == ("runpod", "h200", 6)
    endpoint = option.serverless.streaming_endpoint
    assert endpoint is not None
    assert endpoint.endpoint_type == "a load balancing endpoint (`Type`: `Load balancer`)"
    text = memo(SUPPORT_BOT, "--as-of", "2026-12-07")
    # Beside the latency lines the memo holds within the targets, the decided H200's among them.
    assert (
        "That is within the workload's latency targets (the first token within 800 ms, 50 ms per token).\n"
        "The recommendation runs on h200 instead, one card a replica: at the peak its first token comes "
        'after about 80 ms, then about 43 ms per output token (its row under "Sizing"); the figures above '
        "are those of the cheapest rental's h100-sxm replicas.\n"
        "By the queueing estimate, 99 % of its requests have their first token within about 173 ms.\n"
        + RUNPOD_PATH
    ) in text
    # Said once: the serverless section names the type, and leaves the path to the latency lines.
    assert text.count(PATH_SENTENCE) == 1
    assert (
        "\nThe bill assumes these settings of the endpoint, as RunPod Serverless names them: `Active "
        "workers` 2; `Max workers` at least 6, the instances at the peak; `Idle timeout` 5 s, the product's "
        "default. "
        "Create it as a load balancing endpoint (`Type`: `Load balancer`).\n"
    ) in text
    # The page is the JSON's (below), not a price: the memo's sources leave it out.
    assert "load-balancing/overview.mdx" not in text and "Runpod docs, Load balancing endpoints" not in text
    german = memo(SUPPORT_BOT, "--as-of", "2026-12-07", "--lang", "de")
    assert (
        "Bei RunPod Serverless gelten die Latenzwerte für Anfragen, die die Serving-Engine direkt erreichen: "
        "ein Load-Balancing-Endpunkt leitet jede Anfrage über RunPods Load Balancer direkt an den "
        "HTTP-Server eines Workers (das Netz und dieser Zwischenschritt sind nicht geschätzt); ein "
        "warteschlangenbasierter Endpunkt, wie ihn RunPods fertiger vLLM-Worker nutzt (`/run`, `/runsync` "
        "und seine streamende Route `/openai/v1`), stellt jede Anfrage zuerst in RunPods Warteschlange, und "
        "die Verzögerung dieser Warteschlange ist nicht geschätzt.\n"
    ) in german
    assert (
        "`Idle timeout` 5 s, die Voreinstellung des Produkts. Legen Sie ihn an als Load-Balancing-Endpunkt "
        "(`Type`: `Load balancer`).\n"
    ) in german


def test_the_json_holds_the_endpoint_type_beside_the_settings_in_english() -> None:
    document = json.loads(memo(SUPPORT_BOT, "--as-of", "2026-12-07", "--format", "json", "--lang", "de"))
    billing = document["serverless_option"]["serverless"]
    assert billing["settings"]["minimum"] == "Active workers"
    assert billing["streaming_endpoint"] == {
        "source": {
            "document": None,
            "section": None,
            "url": "https://github.com/runpod/docs/blob/04313c17f0a16d4468d04c18595651dac75a0930/serverless/"
            "load-balancing/overview.mdx",
            "title": RUNPOD_TITLE,
        },
        "as_of": "2026-12-07",
        "endpoint_type": "a load balancing endpoint (`Type`: `Load balancer`)",
        "direct": "a load balancing endpoint sends each request through RunPod's load balancer straight to a "
        "worker's HTTP server",
        "queued": "a queue-based endpoint, the kind RunPod's ready-made vLLM worker runs (`/run`, "
        "`/runsync`, and its streaming `/openai/v1` route), puts each request in RunPod's queue first",
        # The load balancing endpoint's worker is the team's own (PRV031 reads it).
        "worker": "team_built",
        "worker_source": {
            "document": None,
            "section": None,
            "url": "https://github.com/runpod/docs/blob/14f2f7479c6aa5433be25ab79ce1f81552336795/serverless/"
            "load-balancing/vllm-worker.mdx",
            "title": "Runpod docs, Build a load balancing vLLM endpoint (BETA): 'how to build a vLLM "
            "application using FastAPI and deploy it as a load balancing Serverless endpoint', with 'Docker "
            "installed on your local machine' and the team's own Dockerfile and handler (read 2026-12-07)",
        },
    }


def test_a_serverless_option_not_decided_names_the_type_and_the_path_in_its_own_section() -> None:
    # The public chat goes to a managed API; its serverless section describes Modal, a web function of
    # which passes requests through Modal's input system.
    text = memo(PUBLIC_CHAT, "--as-of", "2026-11-30")
    assert (
        "\nThe bill assumes these settings of the endpoint, as Modal serverless functions names them: "
        "`min_containers` 2; `max_containers` at least 2, the instances at the peak; `scaledown_window` "
        "60 s, the product's default. Create it as a Modal Server (`@app.server()`, which takes the same "
        "settings), not a web function.\nOn Modal serverless functions the latency figures hold for "
        "requests that reach the serving engine directly: a Modal Server's requests go through Modal's proxy "
        "in its `routing_region` straight to its containers (the network and that hop are not estimated); a "
        "web function (`@modal.fastapi_endpoint`, `@modal.asgi_app`, `@modal.web_server`) passes each "
        "request through Modal's function input system first, with its queueing and retries, and that "
        "queue's delay is not estimated.\n"
    ) in text
    assert text.count(PATH_SENTENCE) == 1


def test_a_product_without_a_queued_type_says_only_its_path() -> None:
    text = memo(HUGGING_FACE, "--as-of", "2026-11-30")
    assert (
        "\nOn Hugging Face Inference Endpoints the latency figures hold for requests that reach the serving "
        "engine directly: Hugging Face's proxy forwards each request to a running replica's engine (the "
        "network and that hop are not estimated).\n"
    ) in text
    assert "and that queue's delay is not estimated" not in text


def test_users_who_can_wait_and_a_batch_get_no_endpoint_type() -> None:
    waiting = run(WAITING_HR)
    assert waiting.serverless_option is not None and waiting.serverless_option.serverless is not None
    # The product's fact stays in the result; the memo leaves it out.
    assert waiting.serverless_option.serverless.streaming_endpoint is not None
    text = memo(WAITING_HR, "--as-of", "2026-11-30")
    assert "Create it as" not in text
    assert PATH_SENTENCE not in text
    assert "The bill assumes these settings of the endpoint, as RunPod Serverless names them: `Active" in text
    batch = {**WAITING_HR, "name": "hr-batch", "load_pattern": "batch", "latency_sensitive": None}
    batch = {k: v for k, v in batch.items() if v is not None}
    text = memo(batch, "--as-of", "2026-11-30")
    assert "The bill assumes these settings of the endpoint" in text
    assert "Create it as" not in text
    assert PATH_SENTENCE not in text


def test_an_endpoint_type_without_settings_or_with_a_stray_translation_is_refused(tmp_path: Path) -> None:
    runpod = next(p for p in load_knowledge().serverless.products if p.id == "serverless")
    with pytest.raises(ValueError, match="streaming_endpoint needs settings"):
        ServerlessProduct.model_validate({**runpod.model_dump(), "settings": None})
    # Hugging Face has no queued type: a German wording of one is refused at load.
    before = 'die Engine eines laufenden Replikats weiter"'
    directory = knowledge_with(tmp_path, "serverless.yaml", before, before + ', queued: "eine Warteschlange"')
    with pytest.raises(KnowledgeError, match=r"translations\.de\.queued: not a text field of this entry"):
        load_knowledge_from(directory)
