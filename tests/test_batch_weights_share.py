"""A replica larger than one server instance runs one pipeline stage on each, and each instance reads only
its own stage's share of the weights as the replica starts, all of them at once: the load takes one
share's time at the catalog's rate, not the whole checkpoint's at one instance's. 16 B200 on two
instances read 2,222.78 GB in 444.6 s, 1,111.39 GB each, where 889.1 s were counted.

The models given by their size here take Llama 3.1 405B's share of embedding and output layer (the catalog
model nearest in size), 4,202,692,608 x P / 405.85 parameters, at 2 bytes in FP8, the rest at 1: 2,200B
weigh 2,177.22B + 2 x 22.78B = 2,222.78 GB, 1,000B 989.64B + 2 x 10.36B = 1,010.36 GB."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import flat, run

from gpu_advisor.engine.calc.batch_window import run_start
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.pipeline.capacity import size
from gpu_advisor.engine.pipeline.defaults import complete_workload
from gpu_advisor.engine.present.memo import render_memo

LOAD_GB_PER_SECOND = 2.5  # knowledge/serverless.yaml weights_load_gb_per_second
WEIGHTS_2200B_FP8 = 2222.781628
WEIGHTS_1000B_FP8 = 1010.355285
VLLM_START = 21.8  # knowledge/throughput.yaml, vLLM's start_seconds


def batch(model: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "name": "two-instance-batch",
        "model": model,
        "requests_per_day": 20_000,
        "avg_input_tokens": 1000,
        "avg_output_tokens": 300,
        "load_pattern": "batch",
        "latency_sensitive": False,
        **more,
    }


def test_each_instance_of_a_replica_reads_its_own_share() -> None:
    knowledge = load_knowledge()
    resolved = complete_workload(
        validate_workload(batch({"params_b": 2200, "precision": "fp8"}), "t"), knowledge
    )
    figures = size(resolved, knowledge, resolved.precision)
    assert figures.weights_gb == WEIGHTS_2200B_FP8
    weights, engine = run_start(knowledge, figures, "b200", 16)
    # Two instances of eight cards, one pipeline stage each: 1,111.39 GB on each at 2.5 GB/s.
    assert weights * 3600 == pytest.approx(WEIGHTS_2200B_FP8 / 2 / LOAD_GB_PER_SECOND)
    assert weights * 3600 == pytest.approx(444.5563, abs=1e-4)
    assert engine * 3600 == pytest.approx(VLLM_START)
    # One instance of eight reads all it holds.
    assert run_start(knowledge, figures, "b200", 8)[0] * 3600 == pytest.approx(
        WEIGHTS_2200B_FP8 / LOAD_GB_PER_SECOND
    )


def test_a_rental_on_two_instances_bills_one_shares_load() -> None:
    """A 16-card H200 replica of a 1,000B FP8 model loads 505.18 GB on each of its two instances, 202.1 s;
    its runs start in 223.9 s."""
    workload = batch(
        {"params_b": 1000, "precision": "fp8"},
        requests_per_day=2000,
        avg_output_tokens=12_000,
        context_tokens=32768,
        batch_window_hours=0.25,
    )
    result = run(workload)
    (h200,) = [o for o in result.options if (o.provider, o.gpu) == ("runpod", "h200")]
    assert h200.weights_load_hours is not None
    assert h200.weights_load_hours * 3600 == pytest.approx(WEIGHTS_1000B_FP8 / 2 / LOAD_GB_PER_SECOND)
    assert h200.weights_load_hours * 3600 == pytest.approx(202.0711, abs=1e-4)
    (row,) = [g for g in result.sizing.gpus if g.gpu == "h200"]
    assert (row.cards_per_replica, row.pipeline_stages) == (16, 2)


REASONING = batch(
    {"name": "deepseek-r1", "precision": "fp8"},
    requests_per_day=200_000,
    avg_output_tokens=1500,
    personal_data=True,
    company_country="FR",
)


def test_the_memo_says_each_instance_loads_its_share() -> None:
    """DeepSeek-R1's 672.9 GB of FP8 weights (669.18B at 1 byte, the embedding and lm_head at 2) on 16
    H100 at AWS, two p5 instances over EFA: 336.4 GB each, 134.6 s, where 269.2 s were billed with each
    run."""
    result = run(REASONING)
    best = result.best_option
    assert best is not None and (best.provider, best.gpu) == ("aws", "h100-sxm")
    assert result.sizing.weights_gb == pytest.approx(672.883358)
    assert best.weights_load_hours is not None
    assert best.weights_load_hours * 3600 == pytest.approx(672.883358 / 2 / LOAD_GB_PER_SECOND)
    memo = flat(render_memo(result))
    assert (
        "An hourly rental is billed here for each run, for the weights' load at its start (135 s on the "
        "best rental," in memo
    )
    assert (
        "A replica of 16 cards spans 2 server instances, one pipeline stage each: each reads only its own "
        "share of the weights, all of them at once, so the load counted is one share's." in memo
    )
    german = flat(render_memo(result, Format.named("de")))
    assert (
        "Ein Replikat aus 16 Karten erstreckt sich über 2 Server-Instanzen, eine Pipeline-Stufe je "
        "Instanz: Jede liest nur ihren eigenen Teil der Gewichte, alle zugleich, daher zählt das Laden "
        "eines Teils." in german
    )


def test_a_replica_on_one_instance_says_nothing_of_shares() -> None:
    result = run({**REASONING, "model": {"name": "llama-3.1-70b", "precision": "fp8"}})
    best = result.best_option
    assert best is not None and best.weights_load_hours is not None
    assert "share of the weights" not in flat(render_memo(result))
