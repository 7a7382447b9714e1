"""A batch run on rented cards starts its serving engine before it serves: beyond the weights' load, vLLM
takes 21.8 s at best (an 8B model with its compiled graphs cached, arXiv 2606.07362's data), which each
run bills on every card it rents. Without it, a 20,000-request KYC batch whose run takes under a minute
was put on 16 H100 (two 8-card instances) at $21.55 a month against $21.73 for 8: the memo's own
break-even said 8 cards bill less from 1 second of start-up. An engine the catalog has no measurement of
is billed vLLM's as a stand-in, and the memo says whose figure it is."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from helpers import flat, knowledge_with, run, run_waves, wave_seconds

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
H100_REPLICA = ("llama-3.1-8b", "fp8", "h100-sxm", 1, (1_500, 200))
"""A one-card H100 replica of the KYC batch, as ``helpers.wave_seconds`` takes it."""


def test_each_run_bills_the_engine_start_and_a_short_batch_takes_fewer_cards() -> None:
    """Scaleway's 2-card H100 instances, two of them (SIZ038), by the minute: each of the 4 replicas runs
    its 5,000 requests, 289 at once (80 GiB x 0.9 less the FP8 checkpoint's 9.08 GB, 6.98B parameters x 1
    byte and the 16-bit embedding and lm_head, 2 x 128,256 x 4,096 x 2 bytes, and vLLM's 3.5 GiB leave
    64.47 GB, 289.3 requests of 1,700 tokens x 131,072 bytes), in 17 full waves of 11.905 s and one of 87,
    4.212 s: 206.59 s; it loads the 16-bit checkpoint vLLM quantizes to FP8 as it loads it (16.06 GB at
    2.5 GB/s: 6.42 s) and starts vLLM in 21.8 s: 234.81 s, billed as 4 minutes on 22 workdays, 1.4667
    hours x 4 cards x $3.83948 = $22.52."""
    result = run(KYC)
    best = result.best_option
    assert best is not None and (best.offer, best.gpus_rented, best.replicas) == ("h100-sxm-2-80g", 4, 4)
    assert best.engine_start_hours == pytest.approx(VLLM_START / 3600)
    assert best.weights_load_hours == pytest.approx(16.06 / 2.5 / 3600)
    run_seconds = (best.hours_per_day_running or 0.0) * 3600
    row = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    rate = row.requests_per_second_per_replica
    assert (row.concurrent_requests, round(289 / rate, 3)) == (289, 11.905)
    assert run_waves(20_000, 4, 289) == (17, 87)
    last = wave_seconds(87, *H100_REPLICA)
    assert round(last, 3) == 4.212
    assert run_seconds == pytest.approx(17 * 289 / rate + last)
    assert round(run_seconds, 2) == 206.59
    minutes = math.ceil((run_seconds + 16.06 / 2.5 + VLLM_START) / 60)
    assert minutes == 4 and best.billed_hours_per_month == pytest.approx(minutes * 22 / 60)
    assert best.usd_per_month == pytest.approx(4 * best.usd_per_gpu_hour * minutes * 22 / 60)
    # The 8-card instances' 16 replicas each start the engine too, for a run of 1,250 requests, 4 full
    # waves and one of 94 (4.47 s): 52.1 s, and 28.2 s of start, 2 minutes: $43 a month.
    (eight,) = [o for o in result.options if (o.provider, o.offer) == ("scaleway", "h100-sxm-8-80g")]
    assert run_waves(20_000, 16, 289) == (4, 94)
    eight_run = 4 * 289 / rate + wave_seconds(94, *H100_REPLICA)
    assert (eight.hours_per_day_running or 0.0) * 3600 == pytest.approx(eight_run)
    assert round(eight_run, 1) == 52.1
    assert (eight.gpus_rented, round(eight.usd_per_month)) == (16, 43)
    memo = flat(render_memo(result))
    assert (
        "The batch runs 3 minutes a day, within its 4-hour window, and is billed for it with each run's "
        "start." in memo
    )
    assert (
        "An hourly rental is billed here for each run, for the weights' load at its start (6.4 s on the "
        "best rental, at the load rate the serverless cold starts are counted with: a floor) and for vLLM's "
        "own start beyond it (21.8 s, a floor, measured with the compile cache an earlier start left: keep "
        "it on the instance's disk or image; Breaking the Ice: Analyzing Cold Start Latency in vLLM (MLSys "
        "2026, read 2026-12-07): an 8B model on an H100 NVL, vLLM 0.10.1.1, 51.6 s to ready, 29.8 s of it "
        "the weights (data: upb-cn/vllm-startup-profiler at 9ef96f47) <https://arxiv.org/abs/2606.07362>); "
        "booting the instances is not priced for dedicated offers" in memo
    )
    assert "From about 1.4 minutes of start-up a run beyond that counted, the latter bills less" in memo


def test_an_engine_without_a_measured_start_bills_vllm_s_and_says_so() -> None:
    """SGLang's start is not in the catalog: vLLM's measured one stands in (process and CUDA start, memory
    profiling and graph capture are every engine's), so the same 4 cards are recommended, not the 16
    whose lead a second of start-up would close, and the memo says whose figure it is."""
    result = run({**KYC, "serving_engine": "sglang"})
    best = result.best_option
    assert best is not None and (best.offer, best.gpus_rented) == ("h100-sxm-2-80g", 4)
    assert best.engine_start_hours == pytest.approx(VLLM_START / 3600)
    memo = flat(render_memo(result))
    assert (
        "and for SGLang's own start beyond it (21.8 s, vLLM's measured start standing in, as the catalog has "
        "no measurement of SGLang's; a floor, measured with the compile cache an earlier start left" in memo
    )


def test_a_stand_in_without_a_measurement_of_its_own_is_refused_at_load(tmp_path: Path) -> None:
    """SGLang's start standing in for TensorRT-LLM's, where SGLang has none of its own either."""
    directory = knowledge_with(tmp_path, "throughput.yaml", "  - id: trtllm\n", "  - id: trtllm\n")
    path = directory / "throughput.yaml"
    text = path.read_text(encoding="utf-8")
    trtllm = text.index("  - id: trtllm\n")
    path.write_text(
        text[:trtllm] + text[trtllm:].replace("start_stand_in: vllm", "start_stand_in: sglang", 1),
        encoding="utf-8",
    )
    with pytest.raises(KnowledgeError, match="trtllm: start_stand_in sglang has no start_seconds of its own"):
        load_knowledge_from(directory)


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


def test_the_window_holds_the_run_and_its_start() -> None:
    """17,750 requests of a 70B FP8 model within a quarter of an hour: five B200 replicas ran 839 s, and
    with the 56.4 s weights' load and vLLM's 21.8 s start overran the 900 s window, while the memo said
    the count kept it. The window left after the start sizes the replicas: six, each running 2,959
    requests, 117 at once (192 GB x 0.9 less the FP8 checkpoint's 72.65 GB and vLLM's 3.5 GiB leave 96.39
    GB, 117.7 requests of 2,500 tokens x 327,680 bytes), in 25 full waves of 27.843 s and one of 34,
    13.641 s: 709.7 s, whose run, load and start take 788 s, and the count still keeps the window if the
    estimate is 6 % too high. Five would each run 3,550, 30 full waves and one of 40 (14.643 s): 849.9 s,
    928.2 s with the start."""
    workload = {
        "name": "quarter-hour",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 17_750,
        "avg_input_tokens": 2_000,
        "avg_output_tokens": 500,
        "load_pattern": "batch",
        "batch_window_hours": 0.25,
    }
    result = run(workload)
    best = result.best_option
    assert best is not None and (best.provider, best.gpu, best.replicas) == ("runpod", "b200", 6)
    run_hours = best.hours_per_day_running or 0.0
    start = (best.weights_load_hours or 0.0) + (best.engine_start_hours or 0.0)
    assert round(start * 3600, 1) == round(141.1 / 2.5 + VLLM_START, 1)
    b200 = ("llama-3.1-70b", "fp8", "b200", 1, (2_000, 500))
    full = 117 / next(g for g in result.sizing.gpus if g.gpu == "b200").requests_per_second_per_replica
    assert (run_waves(17_750, 6, 117), run_waves(17_750, 5, 117), round(full, 3)) == (
        (25, 34),
        (30, 40),
        27.843,
    )
    assert run_hours * 3600 == pytest.approx(25 * full + wave_seconds(34, *b200))
    assert round((run_hours + start) * 3600) == 788
    # Five replicas' run with the start: beyond the window.
    five = 30 * full + wave_seconds(40, *b200)
    assert round(five, 1) == 849.9 and five + start * 3600 > 900
    assert (run_hours * 1.0607 + start) * 3600 <= 900


@pytest.mark.parametrize(
    ("minutes", "english", "german"),
    [
        (1 / 60, "From about 1 second of start-up", "Ab etwa 1 Sekunde Start"),
        (0.5, "From about 30 seconds of start-up", "Ab etwa 30 Sekunden Start"),
        (1.0, "From about 1 minute of start-up", "Ab etwa 1 Minute Start"),
        (1.4, "From about 1.4 minutes of start-up", "Ab etwa 1,4 Minuten Start"),
    ],
)
def test_a_break_even_of_one_second_or_minute_is_singular(minutes: float, english: str, german: str) -> None:
    result = run(KYC)
    assert result.batch_start_up is not None
    said = result.model_copy(
        update={"batch_start_up": result.batch_start_up.model_copy(update={"minutes": minutes})}
    )
    assert english in flat(render_memo(said))
    assert german in flat(render_memo(said, "de"))


QUARTER_HOUR: dict[str, Any] = {
    "name": "qh",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 34_000,
    "avg_input_tokens": 1_000,
    "avg_output_tokens": 300,
    "load_pattern": "batch",
    "batch_window_hours": 0.25,
    "latency_sensitive": False,
    "company_country": "DE",
}


def test_a_serverless_batch_s_instances_finish_within_the_window_their_cold_start_leaves() -> None:
    """Modal's B200 for 34,000 requests within a quarter of an hour: four instances ran 833 s after a
    79.2 s cold start (1 s, the 16-bit checkpoint's 56.4 s, vLLM's 21.8 s), past the 900 s window, and were
    priced as the rival; five run in the window the start leaves."""
    result = run(QUARTER_HOUR)
    (modal,) = [o for o in result.options if (o.provider, o.gpu) == ("modal", "b200")]
    assert modal.serverless is not None
    cold = modal.serverless.cold_start_seconds
    assert cold == pytest.approx(1 + 141.1 / 2.5 + VLLM_START)
    assert modal.gpus == 5 and modal.hours_per_day_running is not None
    assert modal.hours_per_day_running * 3600 + cold < 900


def test_check_holds_a_run_and_its_start_to_the_window() -> None:
    """4 × B200 at 34,700 requests: the run's 850 s and its 78.2 s start overrun the 900 s window, which
    SIZ019 passed as it held the run alone to it."""
    from gpu_advisor.api import check

    proposal = {
        "name": "four b200",
        "deployment": "dedicated_cloud",
        "provider": "runpod",
        "offer": "community",
        "gpu": "b200",
        "gpus": 4,
        "pricing": "on_demand",
    }
    workload = {**QUARTER_HOUR, "requests_per_day": 34_700}
    items = {i.rule_id: i for i in check({"workload": workload, "proposal": proposal}).results}
    assert items["SIZ019"].status == "fail"
    assert "its start included (the weights' load and the engine's)" in flat(items["SIZ019"].message or "")


def test_size_with_the_cards_given_keeps_the_start_in_the_window() -> None:
    from helpers import invoke

    args = (
        "size", "--model", "llama-3.1-70b", "--precision", "fp8", "--requests-per-day", "33500",
        "--input-tokens", "1000", "--output-tokens", "300", "--load-pattern", "batch",
        "--batch-window-hours", "0.25", "--gpu", "b200", "--format", "json",
    )  # fmt: skip
    plain = json.loads(invoke(*args).output)["gpus"][0]
    given = json.loads(invoke(*args, "--cards", "1").output)["gpus"][0]
    assert (
        (plain["cards_per_replica"], plain["replicas"])
        == (given["cards_per_replica"], given["replicas"])
        == (1, 5)
    )
