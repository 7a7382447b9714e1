"""A batch run's replicas load the weights and start the serving engine before they serve, and a replica
started as the window opens must then still finish at least one request before it closes: the work is
done in what the start leaves of the window, but a window that holds the start and not one request holds
none of it. A custom model of 2,200B parameters in FP8 (2,222.78 GB: Llama 3.1 405B's share of
embedding and output layer, 4,202,692,608 x 2,200 / 405.85 = 22.78B parameters, at 2 bytes) on 16 B200,
two instances of eight, reads 1,111.39 GB on each at the catalog's 2.5 GB/s, 444.6 s, and vLLM starts in
21.8 s more: 466.4 s. With 9,000-token answers one request alone then takes 450.5 s, so 916.8 s, more
than a window of a quarter hour (900 s): no GPU is planned, and SIZ041 says why, in ``recommend``,
``size`` and ``check`` alike."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import TESTS_DIR, flat, invoke, knowledge_with, run, wave_seconds

from gpu_advisor import api
from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.report.findings import finding_texts, render_finding_message
from gpu_advisor.engine.rulebook.loading import load_rulebook

EVALUATED_ON = dt.date(2026, 12, 7)
LOAD_GB_PER_SECOND = 2.5  # knowledge/serverless.yaml weights_load_gb_per_second
VLLM_START = 21.8  # knowledge/throughput.yaml, vLLM's start_seconds
WINDOW_HOURS = 0.25
REQUESTS = 20_000
ANSWER = 9000


def batch(params_b: float, window_hours: float = WINDOW_HOURS) -> dict[str, Any]:
    return {
        "name": "huge-batch",
        "model": {"params_b": params_b, "precision": "fp8"},
        "requests_per_day": REQUESTS,
        "avg_input_tokens": 1000,
        "avg_output_tokens": ANSWER,
        "context_tokens": 16384,
        "load_pattern": "batch",
        "batch_window_hours": window_hours,
        "latency_sensitive": False,
        "company_country": "CH",
    }


WEIGHTS_GB = {2200: 2222.781628, 200: 202.071057}
"""The models' weights in FP8: a byte a parameter, the nearest catalog model's share of embedding and
output layer at 2 (Llama 3.1 405B's: 22.78B of 2,200B, 2.07B of 200B)."""


def start_seconds(params_b: int, instances: int) -> float:
    """The weights, each instance reading its share at the load rate, and the engine's start."""
    return WEIGHTS_GB[params_b] / instances / LOAD_GB_PER_SECOND + VLLM_START


def lone_request_seconds(workload: dict[str, Any], gpu: str) -> float:
    """One request alone on ``gpu``'s replica, as planned in a window of an hour: its first token, then
    each of its other tokens at the lone request's time per token."""
    row = next(g for g in run({**workload, "batch_window_hours": 1.0}).sizing.gpus if g.gpu == gpu)
    assert row.time_to_first_token_alone_ms is not None and row.time_per_output_token_alone_ms is not None
    tokens = workload["avg_output_tokens"] - 1
    return (row.time_to_first_token_alone_ms + tokens * row.time_per_output_token_alone_ms) / 1000


def test_the_figures() -> None:
    assert run(batch(2200)).sizing.weights_gb == WEIGHTS_GB[2200]
    assert round(start_seconds(2200, 2), 1) == 466.4
    # At one instance's rate the 2,222.78 GB took 889.1 s, and the start 910.9 s.
    assert round(start_seconds(2200, 1), 1) == 910.9
    assert round(lone_request_seconds(batch(2200), "b200"), 1) == 450.5
    assert round(start_seconds(2200, 2) + lone_request_seconds(batch(2200), "b200"), 1) == 916.8
    assert WINDOW_HOURS * 3600 == 900


SIZ041 = (
    "SIZ041 A run's start and one request take the whole batch window: The batch's window gives a run "
    "900 s (batch_window_hours: 0.25), and a replica started as it opens must finish at least one request "
    "before it closes, but it serves only once it has started: reading the 2,223 GB of weights, 1,111 GB "
    "on each of its 2 server instances at once, takes 445 s at the catalog's load rate of 2.5 GB/s (a "
    "floor: the instances' boot comes on top), vLLM starts in 21.8 s more, and one request alone then "
    "takes 450.5 s (its prompt's pass and each of its output tokens at a batch of one). On the GPU and card "
    "count that finish a request soonest (16 × b200), the start and one request, 466.4 s + 450.5 s = "
    "916.8 s, take at least the window's 900 s. No replica finishes any of the day's work within the "
    "window, however many run, so no GPU is planned or priced for it. A batch_window_hours well beyond the "
    "start and one request leaves the work time to run in (a window only a little longer spreads it over "
    "very many replicas); a smaller precision reads less at each start; replicas kept running with the "
    "model loaded between runs start once, which is not planned here."
)


def test_recommend_plans_no_gpu_whose_start_and_one_request_fill_the_window() -> None:
    result = run(batch(2200))
    held = [g.gpu for g in result.sizing.gpus if g.cards_per_replica is not None]
    assert held == ["b200", "mi300x"]
    assert [g.gpu for g in result.sizing.gpus if g.replicas is not None] == []
    assert [o for o in result.options if o.gpu in held] == []
    assert "SIZ041" in result.fired_rules
    (finding,) = [f for f in result.findings if f.rule_id == "SIZ041"]
    assert (finding.severity, finding.subject) == ("critical", None)
    assert f"{finding.rule_id} {finding.title}: {finding.message}" == SIZ041
    memo = flat(render_memo(result))
    assert (
        "Recommendation: **Own hardware**. No GPU is planned for this batch: a run's start, the weights' "
        "load and the serving engine's, and one request after it take its whole window (SIZ041, under "
        "Why), so no rental or serverless product does its work in time." in memo
    )
    assert (
        "| b200 | 192 GB | 16 | 16 | 93 | — | — | — | — | — | "
        "a run's start and one request take the whole batch window (SIZ041) |" in memo
    )
    # No option bills the engine's start, but SIZ041 gives it: its source is listed all the same.
    start = result.engine_start
    assert start is not None and (start.engine, start.seconds) == ("vLLM", 21.8)
    assert "vLLM's start beyond the weights' load (21.8 s at best)" in memo


def test_the_window_an_hour_long_holds_them() -> None:
    """466.4 s of start and 450.5 s of one request fit an hour: the work is spread over the 3,133.6 s the
    start leaves."""
    result = run(batch(2200, 1.0))
    assert "SIZ041" not in result.fired_rules
    assert [g.gpu for g in result.sizing.gpus if g.replicas is not None] == ["b200", "mi300x"]


def test_recommend_on_the_command_line(tmp_path: Path) -> None:
    workload = tmp_path / "huge.yaml"
    workload.write_text(yaml.safe_dump(batch(2200)), encoding="utf-8")
    result = invoke("recommend", str(workload), "--no-pager")
    assert result.exit_code == 0, result.output
    assert f"- **{SIZ041.replace('SIZ041', 'SIZ041**', 1)}" in flat(result.output)


def test_size_says_so_for_every_gpu_that_holds_the_model() -> None:
    args = ("size", "--params-b", "2200", "--precision", "fp8", "--requests-per-day", str(REQUESTS))
    load = ("--input-tokens", "1000", "--output-tokens", str(ANSWER), "--context-tokens", "16384")
    result = invoke(*args, *load, "--load-pattern", "batch", "--batch-window-hours", str(WINDOW_HOURS))
    assert result.exit_code == 0, result.output
    assert SIZ041 in result.output.splitlines()
    rows = [line for line in result.output.splitlines() if line.startswith(("b200", "mi300x"))]
    assert [" ".join(row.split()) for row in rows] == [
        "b200 192 GB 16 16 - - - - - a run's start and one",
        "mi300x 192 GB 16 16 - - - - - a run's start and one",
    ]
    sized = api.size(
        params_b=2200,
        precision="fp8",
        context_tokens=16384,
        load={
            "requests_per_day": REQUESTS,
            "avg_input_tokens": 1000,
            "avg_output_tokens": ANSWER,
            "load_pattern": "batch",
            "batch_window_hours": WINDOW_HOURS,
        },
    )
    assert [g.gpu for g in sized.gpus if g.replicas is not None] == []
    assert [f.rule_id for f in sized.findings if f.rule_id == "SIZ041"] == ["SIZ041"]


def test_a_serverless_product_whose_cold_start_fills_the_window_is_not_priced(tmp_path: Path) -> None:
    """At a load rate of 0.25 GB/s a 200B FP8 model reads its 202.07 GB in 808.3 s, and starts in 830.1 s
    with vLLM: rentals and Modal (1 s of its own, 831.1 s) are planned in what it leaves of 900 s, a
    request alone taking less than the 68.9 s left, while Hugging Face Inference Endpoints' 120 s make
    950.1 s, more than the window: its H200 and A100 were priced with 54,629 and 162,865 instances, and
    are not priced now."""
    slow = "weights_load_gb_per_second: 0.25"
    knowledge = load_knowledge_from(
        knowledge_with(tmp_path, "serverless.yaml", f"weights_load_gb_per_second: {LOAD_GB_PER_SECOND}", slow)
    )
    workload = {**batch(200), "requests_per_day": 200_000, "avg_output_tokens": 300, "context_tokens": 8192}
    result = run(workload, knowledge=knowledge)
    serverless = [o for o in result.options if o.pricing == "serverless"]
    assert {(o.provider, o.gpu) for o in serverless} == {
        ("modal", "b200"),
        ("modal", "h100-sxm"),
        ("modal", "h200"),
        ("modal", "a100-80gb"),
    }
    assert [o.serverless.cold_start_seconds for o in serverless if o.serverless] == pytest.approx(
        [WEIGHTS_GB[200] / 0.25 + VLLM_START + 1] * 4
    )


def test_check_fails_a_proposal_whose_start_and_one_request_take_the_window() -> None:
    """Two replicas of 16 B200 run the day's 20,000 requests, start in 466.4 s first, and then take
    450.5 s for one request alone: SIZ019 says that no number of such replicas finishes in time, where it
    said so only of a start that took the whole window alone."""
    document = {
        "workload": batch(2200),
        "proposal": {"name": "two b200 replicas", "deployment": "own_hardware", "gpu": "b200", "gpus": 32},
    }
    checked = check_document(ProposalDocument.model_validate(document), "huge.yaml", 1, EVALUATED_ON)
    results = {item.rule_id: item for item in checked.results}
    assert results["SIZ019"].status == "fail"
    message = results["SIZ019"].message
    assert message.endswith(
        "more than its 0.25-hour window, even if the estimate is right. No number of such replicas finishes "
        "it in time: their start, 466.4 s, and one request alone after it, 450.5 s, take the whole window."
    )


def test_check_leaves_a_rental_unpriced_where_no_run_is_planned_on_its_gpu() -> None:
    """A rental bills a batch's runs, whose hours come from the GPU's plan: with none planned (SIZ041), 16
    B200 at RunPod are not priced, rather than billed every hour of the month as a service would be."""
    document = {
        "workload": batch(2200),
        "proposal": {
            "name": "16 b200",
            "deployment": "dedicated_cloud",
            "provider": "runpod",
            "offer": "community",
            "gpu": "b200",
            "gpus": 16,
            "pricing": "on_demand",
        },
    }
    checked = check_document(ProposalDocument.model_validate(document), "huge.yaml", 1, EVALUATED_ON)
    assert (checked.usd_per_month, checked.billed_hours_per_month) == (None, None)
    assert checked.unpriced == "no_batch_plan"
    unknown = [item for item in checked.results if item.status == "unknown"]
    assert unknown and all(
        item.message.endswith(
            "no run of the batch is planned on the proposed GPU (SIZ041 says where its start and one request "
            "take the whole window), so the hours its runs bill, and its monthly cost, are not worked out."
        )
        for item in unknown
    )


def test_the_serverless_start_break_even_searches_past_the_window() -> None:
    """One request a day in a batch of one paid hour a month: its window is 730 h / 30.42 days / 730 x 1 h
    = 118.3 s, and RunPod's L40S starts in 36.9 s. DEP018 says how many seconds more a start may take
    before it bills what the rental does; the search tried a start an hour longer, which leaves nothing
    of the window, and failed, where no bill reaches such a start."""
    workload = {
        "name": "hourly-batch",
        "model": {"name": "llama-3.1-8b", "precision": "fp32"},
        "requests_per_day": 1,
        "load_pattern": "batch",
        "hours_per_month": 1.0,
        "devops_capacity": False,
    }
    result = run(workload)
    assert result.sizing.load is not None
    window = result.sizing.load.hours_per_day * 3600
    assert round(window, 1) == 118.3
    serverless = result.serverless_option
    assert serverless is not None and serverless.serverless is not None
    assert (serverless.provider, serverless.gpu) == ("runpod", "l40s")
    assert round(serverless.serverless.cold_start_seconds, 1) == 36.9
    # Each of the month's 30.42 runs bills its request alone (a run of one request is one wave: 6.43 s, a
    # step reading every weight but the token embedding, which it only looks up), the 36.95 s cold start,
    # the 5 s idle timeout and half a second of rounding: 48.88 s, 0.4130 hours at $1.908, $0.788.
    # Scaleway's L40S bills a minute a run, $0.864: the $0.076 between them is 4.7 s a start.
    lone = wave_seconds(1, "llama-3.1-8b", "fp32", "l40s", 1, (300, 150))
    assert round(lone, 2) == 6.43
    assert serverless.hours_per_day_running == pytest.approx(lone / 3600)
    hours = (lone + serverless.serverless.cold_start_seconds + 5.5) * 30.42 / 3600
    assert serverless.billed_hours_per_month == pytest.approx(hours)
    assert serverless.usd_per_month == pytest.approx(hours * 1.908)
    (rival,) = [o for o in result.options if (o.provider, o.offer) == ("scaleway", "l40s-48g")]
    assert round(rival.usd_per_month, 3) == 0.864
    assert round(serverless.usd_per_month, 3) == 0.788
    assert round((rival.usd_per_month - serverless.usd_per_month) / (30.42 * 1.908 / 3600), 1) == 4.7
    (dep018,) = [f.message for f in result.findings if f.rule_id == "DEP018"]
    assert (
        "(more where its starts take longer: with about 5 s more a start it bills as much as the other "
        "route;" in dep018
    )
    assert window - serverless.serverless.cold_start_seconds > 5


def test_a_replica_on_one_instance_reads_all_the_weights() -> None:
    """SIZ041 names each instance's share only where the replica spans several: 70 GB on one H100."""
    base = yaml.safe_load((TESTS_DIR / "rule_cases" / "base_facts.yaml").read_text(encoding="utf-8"))
    texts = finding_texts(load_rulebook(), load_knowledge(), "en")
    fact = {**base["batch_start"], "serves_in_window": False, "window_hours": 0.01, "window_seconds": 36.0}
    said = " ".join(render_finding_message(texts.rules["SIZ041"], texts, fact, Format.named("en")).split())
    assert (
        "reading the 70 GB of weights takes 28 s at the catalog's load rate of 2.5 GB/s (a floor: the "
        "instances' boot comes on top), vLLM starts in 21.8 s more, and one request alone then takes 3.0 s "
        "(its prompt's pass and each of its output tokens at a batch of one). On the GPU and card count "
        "that finish a request soonest (1 × h100-sxm), the start and one request, 49.8 s + 3.0 s = 52.8 s, "
        "take at least the window's 36 s." in said
    )
