"""Where a result bills the serving engine's start (with each batch run on rented cards, in each serverless
cold start), the memo's "Sources and dates" lists the measurement and its date, and says where another
engine's measured start stands in; the JSON splits each serverless cold start into the platform's start,
the weights' load and the engine's start, which sum to its ``cold_start_seconds``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import EXAMPLES_DIR, flat, knowledge_with, read_example, run

from gpu_advisor import api
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.results import EngineStartSource, Recommendation
from gpu_advisor.engine.domain.workload import load_workload
from gpu_advisor.engine.report.sources import dated_sources, engine_start_source, start_sources

TITLE = (
    "Breaking the Ice: Analyzing Cold Start Latency in vLLM (MLSys 2026, read 2026-12-07): an 8B model on an "
    "H100 NVL, vLLM 0.10.1.1, 51.6 s to ready, 29.8 s of it the weights (data: "
    "upb-cn/vllm-startup-profiler at 9ef96f47)"
)
# The German memo quotes the title as the knowledge base words it in German.
TITLE_DE = (
    "Breaking the Ice: Analyzing Cold Start Latency in vLLM (MLSys 2026, gelesen am 2026-12-07): ein "
    "8B-Modell auf einer H100 NVL, vLLM 0.10.1.1, 51,6 s bis bereit, davon 29,8 s die Gewichte (Daten: "
    "upb-cn/vllm-startup-profiler bei 9ef96f47)"
)
VLLM_ROW = f"| {TITLE} | 2026-12-07 | vLLM's start beyond the weights' load (21.8 s at best) |"
VLLM_ROW_DE = (
    f"| {TITLE_DE} | 2026-12-07 | Start von vLLM über das Laden der Gewichte hinaus (im besten Fall 21,8 s) |"
)
SGLANG_ROW = (
    f"| {TITLE} | 2026-12-07 | SGLang's start beyond the weights' load: vLLM's measured start stands in "
    "(21.8 s at best), as the catalog has no measurement of SGLang's |"
)
SGLANG_ROW_DE = (
    f"| {TITLE_DE} | 2026-12-07 | Start von SGLang über das Laden der Gewichte hinaus: Der gemessene Start "
    "von vLLM wird ersatzweise angesetzt (im besten Fall 21,8 s), da der Katalog keine Messung für "
    "SGLang hat |"
)
VLLM_START = EngineStartSource(
    engine="vLLM", seconds=21.8, document="https://arxiv.org/abs/2606.07362", title=TITLE, as_of="2026-12-07"
)

KYC: dict[str, Any] = {
    "name": "kyc-small",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 200,
    "load_pattern": "batch",
    "batch_window_hours": 4,
    "schedule": "workdays",
    "business_critical": True,
    "min_replicas": 2,
    "personal_data": True,
    "company_country": "AT",
}
"""A short batch on rented cards, each run billed with the engine's start (test_batch_engine_start.py)."""


def example(name: str) -> Recommendation:
    return api.recommend(load_workload(str(EXAMPLES_DIR / f"{name}.yaml")))


def sources(memo: str) -> list[str]:
    """The rows of the memo's "Sources and dates" table (the section is the memo's last)."""
    section = memo.split("\n## ")[-1]
    return [line for line in section.splitlines() if line.startswith("| ")][1:]


def test_a_cold_start_s_parts_sum_to_it_exactly() -> None:
    """The nightly batch's Modal B200: Modal's 1 s platform start, the 16-bit checkpoint vLLM quantizes
    to FP8 as it loads it (Qwen2.5-72B's 72.71B parameters x 2 bytes = 145.42 GB at 2.5 GB/s: 58.168 s)
    and vLLM's 21.8 s: 80.968 s. Every serverless option's three parts sum to its cold start, in the
    JSON too."""
    result = example("nightly-batch")
    (modal,) = [o for o in result.options if (o.provider, o.gpu) == ("modal", "b200")]
    billing = modal.serverless
    assert billing is not None
    assert billing.cold_start_platform_seconds == 1.0
    assert billing.cold_start_weights_seconds == pytest.approx(72.71 * 2 / 2.5) == 58.168
    assert billing.cold_start_engine_seconds == 21.8
    assert billing.cold_start_seconds == pytest.approx(1.0 + 58.168 + 21.8) == 80.968
    written = json.loads(result.model_dump_json())
    shown = [o["serverless"] for o in written["options"] if o["serverless"] is not None]
    assert len(shown) == 12
    for part in shown:
        whole = part["cold_start_platform_seconds"] + part["cold_start_weights_seconds"]
        assert whole + part["cold_start_engine_seconds"] == part["cold_start_seconds"]
    assert {(p["cold_start_platform_seconds"], p["cold_start_engine_seconds"]) for p in shown} == {
        (1.0, 21.8),  # Modal
        (2.3, 21.8),  # RunPod
        (120.0, 21.8),  # Hugging Face
    }


def test_a_batch_billed_with_the_engine_s_start_lists_its_source() -> None:
    """The nightly batch's runs on RunPod's B200 bill vLLM's start: the memo's sources list it after the
    prices, with the date the paper was read, in English and German."""
    result = example("nightly-batch")
    assert result.best_option is not None and result.best_option.engine_start_hours
    assert result.engine_start == VLLM_START
    assert sources(api.render_memo(result))[-1] == VLLM_ROW
    assert sources(api.render_memo(result, "de"))[-1] == VLLM_ROW_DE


def test_a_serverless_cold_start_shown_lists_the_engine_s_source() -> None:
    """The prototype, a service: no run bills the start, but the serverless section's cold start holds
    it, and the memo's sources say where that part comes from."""
    result = example("prototype")
    assert result.best_option is not None and result.best_option.engine_start_hours is None
    assert result.serverless_option is not None and result.serverless_option.serverless is not None
    assert result.serverless_option.serverless.cold_start_engine_seconds == 21.8
    assert result.engine_start == VLLM_START
    memo = api.render_memo(result)
    assert "while it starts, at least" in flat(memo)
    assert sources(memo)[-1] == VLLM_ROW


def test_a_stand_in_is_named_in_the_sources_of_a_batch() -> None:
    """SGLang has no measured start: vLLM's, billed with each run, is listed as standing in."""
    result = run({**KYC, "serving_engine": "sglang"})
    assert result.engine_start == VLLM_START.model_copy(update={"engine": "SGLang", "stand_in": "vLLM"})
    assert sources(api.render_memo(result))[-1] == SGLANG_ROW
    assert sources(api.render_memo(result, "de"))[-1] == SGLANG_ROW_DE


def test_a_stand_in_is_named_in_the_sources_of_a_serverless_cold_start() -> None:
    result = run({**read_example(EXAMPLES_DIR / "prototype.yaml"), "serving_engine": "trtllm"})
    assert result.serverless_option is not None and result.serverless_option.serverless is not None
    assert result.serverless_option.serverless.cold_start_engine_seconds == 21.8
    assert result.engine_start == VLLM_START.model_copy(update={"engine": "TensorRT-LLM", "stand_in": "vLLM"})
    assert sources(api.render_memo(result))[-1] == (
        f"| {TITLE} | 2026-12-07 | TensorRT-LLM's start beyond the weights' load: vLLM's measured start "
        "stands in (21.8 s at best), as the catalog has no measurement of TensorRT-LLM's |"
    )


def test_no_option_that_bills_the_start_lists_no_source() -> None:
    """A service's rentals bill no start: without a serverless option beside them, nothing is listed."""
    result = example("prototype")
    rentals = [o for o in result.options if o.serverless is None]
    assert rentals and all(o.engine_start_hours is None for o in rentals)
    knowledge = load_knowledge()
    assert engine_start_source(knowledge, "vllm", rentals) is None
    assert engine_start_source(knowledge, "vllm", result.options) == VLLM_START
    memo = api.render_memo(result.model_copy(update={"engine_start": None}))
    assert not [row for row in sources(memo) if "start beyond the weights' load" in row]


def test_a_start_without_its_date_is_refused_at_load(tmp_path: Path) -> None:
    directory = knowledge_with(tmp_path, "throughput.yaml", "    start_as_of: 2026-12-07\n", "")
    with pytest.raises(KnowledgeError, match="give start_seconds and start_as_of together"):
        load_knowledge_from(directory)


LOAD_RATE_ROW = (
    "| Modal: volumes (read throughput up to 2.5 GB/s), applied to every product | 2026-08-19 "
    "| weights load rate |"
)
PLATFORM_ROWS = [
    "| RunPod FlashBoot: 95 % of cold starts under 2.3 s (measured on a Whisper endpoint, not an LLM) "
    "| 2026-05-08 | serverless platform start |",
    "| gpu-advisor assumptions | 2026-05-19 | serverless platform start |",
    "| Modal: cold start performance (containers boot in about a second) | 2026-08-19 "
    "| serverless platform start |",
]


def test_the_sources_name_the_platform_starts_and_the_load_rate_the_cold_starts_bill() -> None:
    """The nightly batch shows RunPod's, Hugging Face's (the tool's own assumption of 120 s) and Modal's
    serverless options, each with a cold start: each product's start is listed as of its price's date, and
    the load rate the weights are read at once."""
    rows = sources(api.render_memo(example("nightly-batch")))
    assert [row for row in rows if row.endswith("| serverless platform start |")] == PLATFORM_ROWS
    assert [row for row in rows if row.endswith("| weights load rate |")] == [LOAD_RATE_ROW]


def test_options_that_start_nothing_cite_no_start() -> None:
    """Dedicated options of a steady service bill no start: neither a platform's nor the load rate."""
    result = run(read_example(EXAMPLES_DIR / "public-chat.yaml"))
    knowledge = load_knowledge()
    dedicated = [o for o in result.options if o.serverless is None and not o.weights_load_hours]
    assert dedicated
    assert start_sources(dated_sources(knowledge), dedicated, ()) == set()
    with_serverless = [*dedicated, next(o for o in result.options if o.serverless is not None)]
    assert {p.used_for for p in start_sources(dated_sources(knowledge), with_serverless, ())} == {
        "serverless platform start",
        "weights load rate",
    }
