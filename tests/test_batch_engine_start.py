"""A batch run on rented cards starts its serving engine before it serves: beyond the weights' load, vLLM
takes 21.8 s at best (an 8B model with its compiled graphs cached, arXiv 2606.07362's data), which each
run bills on every card it rents. Without it, a 20,000-request KYC batch whose run takes under a minute
was put on 16 H100 (two 8-card instances) at $21.55 a month against $21.73 for 8: the memo's own
break-even said 8 cards bill less from 1 second of start-up. An engine the catalog has no measurement of
is billed no start, and the memo says so."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from helpers import flat, knowledge_with, run

from gpu_advisor.api import render_memo
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge_from
from gpu_advisor.knowledge import KNOWLEDGE_DIR as KNOWLEDGE

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
VLLM_START = 21.8


def test_each_run_bills_the_engine_start_and_a_short_batch_takes_fewer_cards() -> None:
    """Scaleway's 2-card H100 instances, two of them (SIZ038), by the minute: each of the 4 replicas runs
    205.75 s, loads the 16-bit checkpoint vLLM quantizes to FP8 as it loads it (16.06 GB at 2.5 GB/s:
    6.42 s) and starts vLLM in 21.8 s: 233.97 s, billed as 4 minutes on 22 workdays,
    1.4667 hours x 4 cards x $3.83948 = $22.52."""
    result = run(KYC)
    best = result.best_option
    assert best is not None and (best.offer, best.gpus_rented, best.replicas) == ("h100-sxm-2-80g", 4, 4)
    assert best.engine_start_hours == pytest.approx(VLLM_START / 3600)
    assert best.weights_load_hours == pytest.approx(16.06 / 2.5 / 3600)
    run_seconds = (best.hours_per_day_running or 0.0) * 3600
    assert round(run_seconds, 2) == 205.75
    minutes = math.ceil((run_seconds + 16.06 / 2.5 + VLLM_START) / 60)
    assert minutes == 4 and best.billed_hours_per_month == pytest.approx(minutes * 22 / 60)
    assert best.usd_per_month == pytest.approx(4 * best.usd_per_gpu_hour * minutes * 22 / 60)
    # The 8-card instances' 16 replicas each start the engine too, for a run of 51 s: $43 a month.
    (eight,) = [o for o in result.options if (o.provider, o.offer) == ("scaleway", "h100-sxm-8-80g")]
    assert (eight.gpus_rented, round(eight.usd_per_month)) == (16, 43)
    memo = flat(render_memo(result))
    assert "The batch runs 3 minutes a day, within its 4-hour window, and is billed for that time." in memo
    assert (
        "An hourly rental is billed here for each run, for the weights' load at its start (6.4 s on the "
        "best rental, at the load rate the serverless cold starts are counted with: a floor) and for vLLM's "
        "own start beyond it (21.8 s, a floor: measured for an 8B model with its compiled graphs cached, "
        "Breaking the Ice: Analyzing Cold Start Latency in vLLM (MLSys 2026, read 2026-12-07): an 8B model "
        "on an H100 NVL, vLLM 0.10.1.1, 51.6 s to ready, 29.8 s of it the weights (data: "
        "upb-cn/vllm-startup-profiler at 9ef96f47) <https://arxiv.org/abs/2606.07362>); booting the "
        "instances is not priced for dedicated offers" in memo
    )
    assert "From about 1.4 minutes of start-up a run beyond that counted, the latter bills less" in memo


def test_an_engine_without_a_measured_start_bills_none_and_says_so() -> None:
    """SGLang's start is not in the catalog: no start is billed (the 16 cards' 52-second run is the
    cheapest again), and the memo says that its start is left out."""
    result = run({**KYC, "serving_engine": "sglang"})
    best = result.best_option
    assert best is not None and (best.offer, best.gpus_rented, best.engine_start_hours) == (
        "h100-sxm-8-80g",
        16,
        0.0,
    )
    memo = flat(render_memo(result))
    assert (
        "at the load rate the serverless cold starts are counted with: a floor); SGLang's own start beyond "
        "it is not counted, as the catalog has no measurement of it, and booting the instances is not "
        "priced for dedicated offers, as the catalog has no sourced start-up time of a dedicated instance. "
        "Where the run is short, add both." in memo
    )
    assert "The batch runs 52 seconds a day" in memo


def test_a_service_bills_no_engine_start() -> None:
    service = {**KYC, "load_pattern": "steady", "business_critical": False}
    del service["batch_window_hours"]
    best = run(service).best_option
    assert best is not None and best.engine_start_hours is None


def test_a_start_without_its_source_is_refused_at_load(tmp_path: Path) -> None:
    source = (KNOWLEDGE / "throughput.yaml").read_text(encoding="utf-8")
    line = next(line for line in source.splitlines() if line.startswith("    start_source: "))
    directory = knowledge_with(tmp_path, "throughput.yaml", line + "\n", "")
    with pytest.raises(KnowledgeError, match="give start_seconds and start_source together"):
        load_knowledge_from(directory)
