"""A batch run's replicas load the weights and start the serving engine before they serve, and the work
is done in what that start leaves of the window. A custom model of 2,200B parameters in FP8 reads 2,200 GB
at the catalog's 2.5 GB/s, 880 s, and vLLM starts in 21.8 s more: 901.8 s, more than a window of a quarter
hour (900 s). The window's replicas were worked out in a remaining window clamped to one second, which
planned 3,442 replicas of 16 B200 for 20,000 requests; no count whose start leaves nothing of the window
is planned now, and SIZ041 says why, in ``recommend`` and ``size`` alike. A model of 2,150B starts in
881.8 s and is planned in the 18.2 s its start leaves."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import flat, invoke, knowledge_with, run

from gpu_advisor import api
from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.calc.batch_window import batch_window_replicas
from gpu_advisor.engine.calc.policy import sizing_policy
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.pipeline.capacity import workload_load_for
from gpu_advisor.engine.pipeline.defaults import complete_workload

EVALUATED_ON = dt.date(2026, 12, 7)
LOAD_GB_PER_SECOND = 2.5  # knowledge/serverless.yaml weights_load_gb_per_second
VLLM_START = 21.8  # knowledge/throughput.yaml, vLLM's start_seconds
WINDOW_HOURS = 0.25
REQUESTS = 20_000


def batch(params_b: float) -> dict[str, Any]:
    return {
        "name": "huge-batch",
        "model": {"params_b": params_b, "precision": "fp8"},
        "requests_per_day": REQUESTS,
        "avg_input_tokens": 1000,
        "avg_output_tokens": 300,
        "load_pattern": "batch",
        "batch_window_hours": WINDOW_HOURS,
        "latency_sensitive": False,
        "company_country": "CH",
    }


def start_seconds(params_b: float) -> float:
    """The weights in FP8 (a byte a parameter) at the load rate, and the engine's start."""
    return params_b / LOAD_GB_PER_SECOND + VLLM_START


SIZ041 = (
    "SIZ041 A run's start takes the whole batch window: The batch's window gives a run 900 s "
    "(batch_window_hours: 0.25), but its replicas serve only once they have started: reading the 2,200 GB "
    "of weights takes 880 s at the catalog's load rate of 2.5 GB/s (a floor: the instances' boot comes on "
    "top), and vLLM starts in 21.8 s more: 901.8 s before any replica serves, on the GPU and card count "
    "that start soonest (16 × b200). No replica does any of the day's work within the window, however many "
    "run, so no GPU is planned or priced for it. A batch_window_hours well beyond the start leaves the work "
    "time to run in (a window only a little longer spreads it over very many replicas); a smaller "
    "precision reads less at each start; replicas kept running with the model loaded between runs start "
    "once, which is not planned here."
)


def test_the_figures() -> None:
    assert start_seconds(2200) == pytest.approx(901.8)
    assert WINDOW_HOURS * 3600 == 900
    assert start_seconds(2150) == pytest.approx(881.8)


def test_recommend_plans_no_card_count_whose_start_fills_the_window() -> None:
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
        "load and the serving engine's, takes its whole window (SIZ041, under Why), so no rental or "
        "serverless product does its work in time." in memo
    )
    assert (
        "| b200 | 192 GB | 16 | 16 | 752 | — | — | — | — | — | "
        "a run's start takes the whole batch window (SIZ041) |" in memo
    )
    # No option bills the engine's start, but SIZ041 gives it: its source is listed all the same.
    start = result.engine_start
    assert start is not None and (start.engine, start.seconds) == ("vLLM", 21.8)
    assert "vLLM's start beyond the weights' load (21.8 s at best)" in memo


def test_recommend_on_the_command_line(tmp_path: Path) -> None:
    workload = tmp_path / "huge.yaml"
    workload.write_text(yaml.safe_dump(batch(2200)), encoding="utf-8")
    result = invoke("recommend", str(workload), "--no-pager")
    assert result.exit_code == 0, result.output
    assert f"- **{SIZ041.replace('SIZ041', 'SIZ041**', 1)}" in flat(result.output)


def test_size_says_so_for_every_gpu_that_holds_the_model() -> None:
    args = ("size", "--params-b", "2200", "--precision", "fp8", "--requests-per-day", str(REQUESTS))
    load = ("--input-tokens", "1000", "--output-tokens", "300", "--load-pattern", "batch")
    result = invoke(*args, *load, "--batch-window-hours", str(WINDOW_HOURS))
    assert result.exit_code == 0, result.output
    assert SIZ041 in result.output.splitlines()
    rows = [line for line in result.output.splitlines() if line.startswith(("b200", "mi300x"))]
    assert [" ".join(row.split()) for row in rows] == [
        "b200 192 GB 16 16 - - - - - a run's start takes the",
        "mi300x 192 GB 16 16 - - - - - a run's start takes the",
    ]
    sized = api.size(
        params_b=2200,
        precision="fp8",
        load={
            "requests_per_day": REQUESTS,
            "avg_input_tokens": 1000,
            "avg_output_tokens": 300,
            "load_pattern": "batch",
            "batch_window_hours": WINDOW_HOURS,
        },
    )
    assert [g.gpu for g in sized.gpus if g.replicas is not None] == []
    assert [f.rule_id for f in sized.findings if f.rule_id == "SIZ041"] == ["SIZ041"]


def test_just_inside_the_window_the_start_leaves_is_planned() -> None:
    """2,150 GB load in 860 s, 881.8 s with vLLM's start: the 18.2 s left carry the day's work, each
    B200 replica at its estimated rate with the error band taken off."""
    result = run(batch(2150))
    assert "SIZ041" not in result.fired_rules
    left = WINDOW_HOURS * 3600 - start_seconds(2150)
    assert left == pytest.approx(18.2)
    derate = 1 + result.sizing_policy.estimate_error_taken_off
    planned = {g.gpu: g for g in result.sizing.gpus if g.replicas is not None}
    assert sorted(planned) == ["b200", "mi300x"]
    for row in planned.values():
        rate = row.requests_per_second_per_replica
        assert rate is not None and row.replicas == math.ceil(REQUESTS / rate * derate / left)
    assert planned["b200"].replicas == 185
    sized = api.size(
        params_b=2150,
        precision="fp8",
        load={
            "requests_per_day": REQUESTS,
            "avg_input_tokens": 1000,
            "avg_output_tokens": 300,
            "load_pattern": "batch",
            "batch_window_hours": WINDOW_HOURS,
        },
    )
    assert {g.gpu: g.replicas for g in sized.gpus if g.replicas is not None} == {
        gpu: row.replicas for gpu, row in planned.items()
    }
    assert "SIZ041" not in [f.rule_id for f in sized.findings]


def test_a_start_that_leaves_nothing_is_no_window_replicas() -> None:
    knowledge = load_knowledge()
    resolved = complete_workload(validate_workload(batch(2200), "test"), knowledge)
    load = workload_load_for(resolved, knowledge)
    sizing = sizing_policy(knowledge, 0.06, False, 1)
    assert batch_window_replicas(10.0, load, sizing, start_seconds(2150) / 3600) == pytest.approx(
        REQUESTS / 10.0 * 1.06 / (900 - 881.8)
    )
    with pytest.raises(ValueError, match=r"leaves nothing of a 0\.25 h window"):
        batch_window_replicas(10.0, load, sizing, start_seconds(2200) / 3600)


def test_a_serverless_product_whose_cold_start_fills_the_window_is_not_priced(tmp_path: Path) -> None:
    """At a load rate of 0.25 GB/s a 200B FP8 model reads its 200 GB in 800 s, and starts in 821.8 s with
    vLLM: rentals and Modal (1 s of its own, 822.8 s) are planned in what it leaves of 900 s, while Hugging
    Face Inference Endpoints' 120 s make 941.8 s, more than the window: its H200 and A100 were priced with
    54,629 and 162,865 instances, and are not priced now."""
    slow = "weights_load_gb_per_second: 0.25"
    knowledge = load_knowledge_from(
        knowledge_with(tmp_path, "serverless.yaml", f"weights_load_gb_per_second: {LOAD_GB_PER_SECOND}", slow)
    )
    result = run({**batch(200), "requests_per_day": 200_000}, knowledge=knowledge)
    serverless = [o for o in result.options if o.pricing == "serverless"]
    assert {(o.provider, o.gpu) for o in serverless} == {
        ("modal", "b200"),
        ("modal", "h100-sxm"),
        ("modal", "h200"),
        ("modal", "a100-80gb"),
    }
    assert [o.serverless.cold_start_seconds for o in serverless if o.serverless] == pytest.approx(
        [200 / 0.25 + VLLM_START + 1] * 4
    )


def test_check_fails_a_proposal_whose_start_alone_takes_the_window() -> None:
    """Two replicas of 16 B200 run the day's 20,000 requests and start in 901.8 s first: SIZ019 says that
    no number of such replicas finishes in time, where it named the cards the recommendation planned."""
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
        "it in time: their start alone, 901.8 s, takes the whole window."
    )


def test_check_leaves_a_rental_unpriced_where_no_run_is_planned_on_its_gpu() -> None:
    """A rental bills a batch's runs, whose hours come from the GPU's plan: with none planned (SIZ041), 16
    B200 at RunPod were billed 730 hours ($69,846) where a window 3.6 s longer billed 17."""
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
            "no run of the batch is planned on the proposed GPU (SIZ041 says where its start takes the whole "
            "window), so the hours its runs bill, and its monthly cost, are not worked out."
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
    (dep018,) = [f.message for f in result.findings if f.rule_id == "DEP018"]
    assert (
        "(more where its starts take longer: with about 11 s more a start it bills as much as the other "
        "route;" in dep018
    )
    assert window - serverless.serverless.cold_start_seconds > 11
