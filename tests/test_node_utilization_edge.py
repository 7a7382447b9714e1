"""The busy share is stated to a tenth of a percent (``calc.busy.BUSY_SHARE_DECIMALS``). A steady
service on 4 of an 8-card node's cards has requests in flight every hour, but 1 - e^(-λS) never reaches
1: its busy share came out at 0.999999994 and the node's utilization at 0.499999997, so TCO004 said
"49.99 %, under 50 %: rent" beside TCO002 and the cost table's "50 %", on a few millionths."""

from __future__ import annotations

import math

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

WORKLOAD = {
    "name": "team-chat",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 400_000,
    "avg_input_tokens": 500,
    "avg_output_tokens": 250,
    "load_pattern": "steady",
    "latency_sensitive": True,
    "company_country": "US",
}


def test_a_node_half_of_whose_cards_serve_every_hour_is_at_the_edge_not_below_it() -> None:
    result = run(WORKLOAD)
    own = result.own_hardware
    assert (own.gpus_needed, own.nodes * own.gpus_per_server, own.rent_below_utilization) == (4, 8, 0.5)
    assert result.load.busy_share == 1.0
    assert own.node_utilization == 0.5
    assert not {"TCO002", "TCO004"} & set(result.fired_rules)
    # The documents' $9,554 a month and the US staff line, 5 % of $90,520 a year: $377.17.
    assert "| Own hardware (8 cards) | $9,932 | every calendar hour | 50 % | — |" in render_memo(result)


def test_a_busy_share_keeps_its_tenths_of_a_percent() -> None:
    # 5,000 requests a day, steady: an H100 replica is idle in some hours, and the share keeps 3 decimals.
    share = run({**WORKLOAD, "requests_per_day": 5_000}).load.busy_share
    assert share is not None and 0 < share < 1
    assert share == round(share, 3) and not math.isclose(share, round(share, 2))
