"""A spot batch's hours carry the work redone after interruptions for each instance a replica spans: a
replica on two linked instances loses its work when either is taken back, twice as often as one on a
single instance (``calc.listings.replica_spot_overhead``)."""

from __future__ import annotations

import math

import pytest
from helpers import run

from gpu_advisor.engine.calc.listings import replica_spot_overhead
from gpu_advisor.engine.domain.knowledge.entries import Offer
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo

DEEPSEEK_BATCH = {
    "name": "deepseek-batch",
    "model": {"name": "deepseek-r1", "precision": "fp8"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 2_000,
    "avg_output_tokens": 1_000,
    "load_pattern": "batch",
    "company_country": "US",
}


def offer(provider: str, name: str) -> Offer:
    return next(o for o in load_knowledge().current_offers(provider) if o.offer == name)


def test_the_overhead_counts_each_instance_a_replica_spans() -> None:
    p5_spot = offer("aws", "p5-spot")
    assert p5_spot.instance_gpus[-1] == 8
    assert replica_spot_overhead(p5_spot, 16, 0.05) == pytest.approx(0.10)  # two p5.48xlarge
    assert replica_spot_overhead(p5_spot, 8, 0.05) == pytest.approx(0.05)
    assert replica_spot_overhead(p5_spot, 2, 0.05) == pytest.approx(0.05)  # four replicas share one
    assert replica_spot_overhead(offer("aws", "p5-on-demand-stockholm"), 16, 0.05) == 0.0


def test_a_16_card_replica_on_spot_bills_twice_the_redone_work() -> None:
    result = run(DEEPSEEK_BATCH)
    azure = next(o for o in result.options if (o.provider, o.offer) == ("azure", "nd-h100-v5-spot"))
    assert (azure.gpus, azure.replicas, azure.instances[0].count) == (16, 1, 2)
    assert azure.spot_overhead == pytest.approx(0.10)
    # The run's hours and its weights' load (its published FP8 checkpoint, 669.18B parameters at one byte
    # and the embedding and lm_head at two, each of the two instances reading its 336.4 GB at 2.5 GB/s at
    # once: 134.6 s), billed by the minute on the days it runs, plus 2 x 5 % redone.
    assert result.sizing.weights_gb == pytest.approx(672.883358)
    minutes = math.ceil(azure.hours_per_day_running * 60 + 672.883358 / 2 / 2.5 / 60)
    days = 30.42  # the catalog's days a month (730 h / 24)
    assert azure.billed_hours_per_month == pytest.approx(minutes / 60 * days * 1.10)
    memo = " ".join(render_memo(result).split())
    assert (
        'spot hours carry 5 % more for work redone after interruptions (an assumption; see "Assumptions"), '
        "for each instance a replica spans (it loses its work when any of them is taken back)."
    ) in memo
