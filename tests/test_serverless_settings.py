"""The serverless section says which settings of the endpoint its bill assumes, in the product's own
words (knowledge/serverless.yaml, ``settings``): the instances kept running, the most it runs, and the idle
timeout, with the page that names them among the memo's sources. An engineer who configures the endpoint
otherwise gets another bill."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, invoke, run

from gpu_advisor.cli import main
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo

# The HR assistant for users who can wait: one RunPod H200 active worker in the working hours, kept for
# its lower always-on price (tests/test_serverless_always_on.py).
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
# 300 requests a day of an 8B model that may wait: the endpoint scales to zero between requests.
SPORADIC: dict[str, Any] = {
    "name": "sporadic",
    "model": {"name": "llama-3.1-8b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 300,
    "load_pattern": "variable",
    "latency_sensitive": False,
    "company_country": "DE",
}
# 70B in BF16 needs two cards an instance; personal data keeps it in the EU: Hugging Face's endpoints in
# Ireland, two replicas kept in the working hours.
HUGGING_FACE: dict[str, Any] = {
    "name": "hf",
    "model": {"name": "llama-3.1-70b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 3000,
    "load_pattern": "variable",
    "schedule": "workdays",
    "personal_data": True,
    "company_country": "DE",
}
ADVICE = "A longer `Idle timeout` keeps an instance up through more gaps between requests"


def memo(workload: dict[str, Any], lang: str = "en") -> str:
    result = CliRunner().invoke(
        main, ["recommend", "-", "--as-of", "2026-11-30", "--lang", lang], input=yaml.safe_dump(workload)
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def test_an_active_worker_in_the_working_hours_is_said_in_runpod_s_words() -> None:
    option = run(WAITING_HR).serverless_option
    assert option is not None and option.serverless is not None
    assert (option.provider, option.replicas, option.serverless.instances_kept) == ("runpod", 1, 1)
    text = memo(WAITING_HR)
    assert (
        "\nThe bill assumes these settings of the endpoint, as RunPod Serverless names them: `Active "
        "workers` 1 in the 264 paid hours a month, 0 outside them; `Max workers` at least 1, the instances "
        "at the peak; `Idle timeout` 5 s, the product's default.\n"
    ) in text
    # Kept running, no request waits for a start: no advice on the idle timeout.
    assert ADVICE not in text
    assert (
        "| Runpod docs, Endpoint settings: Active workers (default 0, 'Always-on workers (eliminates cold "
        "starts)'), Max workers (default 3), Idle timeout (default 5s) | 2026-08-20 | serverless endpoint "
        "settings |"
    ) in text
    german = memo(WAITING_HR, "de")
    assert (
        "Die Rechnung setzt diese Einstellungen des Endpunkts voraus, wie RunPod Serverless sie nennt: "
        "`Active workers` 1 in den 264 bezahlten Stunden im Monat, 0 außerhalb; `Max workers` mindestens 1, "
        "die Instanzen in der Spitze; `Idle timeout` 5 s, die Voreinstellung des Produkts."
    ) in german


def test_an_endpoint_that_scales_to_zero_keeps_none_and_is_told_what_a_longer_timeout_does() -> None:
    option = run(SPORADIC).serverless_option
    assert option is not None and option.serverless is not None
    assert option.serverless.instances_kept == 0
    text = memo(SPORADIC)
    # Most of the month's 9,125 requests (300 a day) find no instance running. Each start is RunPod's
    # 2.3 s, the 8B's FP8 checkpoint (6.98B parameters at 1 byte and the 16-bit embedding and lm_head,
    # 2 x 128,256 x 4,096 x 2 bytes: 9.08 GB) at 2.5 GB/s, 3.63 s, and vLLM's 21.8 s start (27.73 s): an
    # instance is up longer for each, so fewer requests find none than with the 5.93 s of the platform
    # and the weights alone: 7,615.0 (7,628.7 with the 8.03 GB of 8.03B parameters at 1 byte; each hour's
    # rate r over 1 + r x U, U the start plus expm1(r x (S + 5 s)) / r, moves by the same 0.18 %).
    assert option.serverless.cold_start_seconds == pytest.approx(2.3 + 9.080673 / 2.5 + 21.8)
    assert round(option.serverless.cold_starts_per_month, 1) == 7615.0
    assert "Instances scale to zero: 7,615 times a month a request finds none running" in text
    # The latency lines are a running instance's: beside them, the requests that wait for a start first
    # (30.42 days x 300 = 9,126 a month).
    assert (
        "a lone request sees 23 ms and 8 ms.\nThese hold for requests that find an instance running: the "
        "endpoint scales to zero, and about 7,615 of the month's 9,126 requests find none and wait at least "
        "27.7 s for a cold start before their first token.\n"
    ) in text
    assert "These hold for requests that find an instance running" not in memo(HUGGING_FACE)
    assert (
        "The bill assumes these settings of the endpoint, as RunPod Serverless names them: `Active workers` "
        "0; `Max workers` at least 1, the instances at the peak; `Idle timeout` 5 s, the product's default.\n"
        + ADVICE
        + ", so fewer requests wait for a start, and bills the time it waits; the bill above takes the "
        "default.\n"
    ) in text


def test_hugging_face_s_scale_to_zero_timeout_is_not_a_setting_of_an_endpoint_with_replicas_kept() -> None:
    """Hugging Face scales to zero only with a minimum of 0 replicas: with two kept, its timeout is
    not part of the bill, and the sentence names no idle timeout."""
    option = run(HUGGING_FACE).serverless_option
    assert option is not None and option.serverless is not None
    assert (option.provider, option.serverless.instances_kept, option.replicas) == ("huggingface", 2, 2)
    text = memo(HUGGING_FACE)
    assert (
        "The bill assumes these settings of the endpoint, as Hugging Face Inference Endpoints names them: "
        "`Number of Replicas: Min` 2 in the 264 paid hours a month, 0 outside them; `Number of Replicas: "
        "Max` at least 2, the instances at the peak. Create it as an endpoint on the vLLM, SGLang or TGI "
        "engine, streaming from its OpenAI-compatible `/v1/chat/completions` route (`stream: true`).\n"
    ) in text
    assert "`Automatic Scale-to-Zero`" not in text


def test_a_product_whose_settings_the_catalog_has_not_read_gets_no_sentence() -> None:
    knowledge = load_knowledge()
    products = tuple(p.model_copy(update={"settings": None}) for p in knowledge.serverless.products)
    unread = knowledge.model_copy(
        update={"serverless": knowledge.serverless.model_copy(update={"products": products})}
    )
    result = run(WAITING_HR, knowledge=unread)
    assert result.serverless_option is not None and result.serverless_option.serverless is not None
    assert result.serverless_option.serverless.settings is None
    assert "serverless endpoint settings" not in [p.used_for for p in result.price_dates]
    assert "The bill assumes these settings" not in render_memo(result)
    # The same workload on the shipped catalog names them, once among the sources.
    shipped = run(WAITING_HR)
    assert [p.used_for for p in shipped.price_dates].count("serverless endpoint settings") == 1
    assert "The bill assumes these settings" in render_memo(shipped)


# 405B in FP8 takes four H200 a Modal container; the public chat's 70B takes two.
MODAL_405B: dict[str, Any] = {
    "name": "m405",
    "model": {"name": "llama-3.1-405b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 2000,
    "load_pattern": "variable",
    "latency_sensitive": False,
    "company_country": "US",
}
WAITS = "usually wait longer to start"


def test_modal_s_longer_waits_for_more_than_two_gpus_a_container_are_said_where_they_apply() -> None:
    option = run(MODAL_405B).serverless_option
    assert option is not None and option.serverless is not None
    assert (option.provider, option.gpu, option.serverless.instance_gpus) == ("modal", "h200", 4)
    assert option.serverless.longer_waits_above_gpus == 2
    assert (
        "\nModal serverless functions says that instances of more than 2 GPUs usually wait longer to start: "
        "with 4 an instance, expect its starts, and the waits of the requests that meet them, to last longer "
        "than the floors counted here.\n"
    ) in memo(MODAL_405B)
    # Two H200 a container (70B in BF16 on Modal): no such sentence.
    two = dict(MODAL_405B, model={"name": "llama-3.1-70b", "precision": "bf16", "custom_weights": True})
    option = run(two).serverless_option
    assert option is not None and option.serverless is not None
    assert (option.provider, option.serverless.instance_gpus) == ("modal", 2)
    assert WAITS not in memo(two)


# 405B in FP8 with personal data of a German company: four H200 an instance at Hugging Face's Irish
# endpoints (RunPod sells one GPU a worker, Modal's region is not the EU), scaled to zero.
HUGGING_FACE_ZERO: dict[str, Any] = {
    "name": "hf405",
    "model": {"name": "llama-3.1-405b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 300,
    "load_pattern": "variable",
    "latency_sensitive": False,
    "personal_data": True,
    "company_country": "DE",
}
HEADER = "answers a request with status 503 unless it sends the `X-Scale-Up-Timeout` header"


def test_hugging_face_scaled_to_zero_needs_the_header_that_holds_a_request_while_an_instance_starts() -> None:
    option = run(HUGGING_FACE_ZERO).serverless_option
    assert option is not None and option.serverless is not None
    billing = option.serverless
    assert (option.provider, billing.instance_gpus, billing.instances_kept) == ("huggingface", 4, 0)
    text = memo(HUGGING_FACE_ZERO)
    assert (
        "`Number of Replicas: Min` 0; `Number of Replicas: Max` at least 1, the instances at the peak; "
        "`Automatic Scale-to-Zero` 3,600 s, the product's default.\nWhile an instance starts from zero, "
        "Hugging Face Inference Endpoints " + HEADER + " (the seconds it may wait): send it, or the requests "
        "counted as waiting for a start fail instead.\n"
    ) in text
    # Replicas kept all through the paid hours: no request meets a start, no header needed.
    assert HEADER not in memo(HUGGING_FACE)


def test_a_batch_is_priced_with_its_run_s_instances_and_told_no_idle_timeout_advice() -> None:
    """The nightly batch of the examples: four Modal containers a run. A queued batch scales out to the
    maximum, so the maximum is what the bill assumes, not a floor; runs a day apart share no instance,
    so a longer idle timeout would only bill more."""
    text = invoke("recommend", str(EXAMPLES_DIR / "nightly-batch.yaml")).stdout
    assert (
        "The bill assumes these settings of the endpoint, as Modal serverless functions names them: "
        "`min_containers` 0; `max_containers` 4, the instances a run is priced with (more finish it sooner, "
        "each adding a start and an idle timeout to the bill); `scaledown_window` 60 s, the product's "
        "default.\n"
    ) in text
    assert "A longer `scaledown_window`" not in text


def test_paid_hours_below_the_month_s_keep_the_minimum_for_them_only() -> None:
    """Around the clock but 300 hours a month paid (PRC009 warns of it): the bill keeps its two warm
    instances for the 300 paid hours, so the minimum is set for them and to zero outside."""
    workload = dict(SPORADIC, requests_per_day=2000, latency_sensitive=True, hours_per_month=300)
    option = run(workload).serverless_option
    assert option is not None and option.serverless is not None
    assert option.serverless.instances_kept == 2
    text = memo(workload)
    assert "`Active workers` 2 in the 300 paid hours a month, 0 outside them;" in text
    assert "\nOutside the 300 paid hours a month no instance is kept:" in text
