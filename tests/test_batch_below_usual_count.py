"""A batch runs its replicas below the usual card count where one replica of fewer cards holds the weights,
the engine's reserve and the KV cache of the batch its throughput estimate runs at the requests' own length,
and that does the window's work on fewer cards: five million short classifications a night on Qwen2.5-7B
in 16 bits fit one 24 GB L4 a replica, where the usual count (eight 8,192-token sequences) is two cards,
which all-reduce over PCIe (NET001). Worked out by hand from the card's memory and the model's KV cache."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest
from helpers import run_waves, wave_seconds

from gpu_advisor.api import check, render_memo
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.calc.performance import replica_performance
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 12, 4)
GIB = 2**30
L4_REPLICA = ("qwen2.5-7b", "bf16", "l4", 1, (900, 8))
"""One L4 a replica of the nightly classification, as ``helpers.wave_seconds`` takes it."""

NIGHTLY: dict[str, Any] = {
    "name": "nightly-5m-classification",
    "model": {"name": "qwen2.5-7b", "precision": "bf16"},
    "requests_per_day": 5_000_000,
    "avg_input_tokens": 900,
    "avg_output_tokens": 8,
    "load_pattern": "batch",
    "batch_window_hours": 6,
    "schedule": "always",
    "latency_sensitive": False,
    "company_country": "DE",
}


def test_one_l4_holds_the_weights_and_a_batch_of_49_short_requests() -> None:
    """vLLM keeps 90 % of the L4's 24 GB less 3.5 GiB beside 15.23 GB of weights (7,615,616,512 x 2):
    2.60 GB, 45,378 tokens of 57,344 bytes (28 layers x 4 KV heads x 128 x 2 x 2 bytes). That holds five
    8,192-token sequences (the usual eight need two cards) and 49 requests of 908 tokens."""
    knowledge = load_knowledge()
    model = next(m for m in knowledge.models.models if m.id == "qwen2.5-7b")
    figures = size_model(knowledge, 7, 7, "bf16", model, 8192)
    l4 = next(fit for fit in figures.fits if fit.gpu == "l4")
    cache = 0.9 * 24e9 - 3.5 * GIB - 7.62e9 * 2
    per_token = 28 * 4 * 128 * 2 * 2
    assert per_token == 57_344
    assert (cache // per_token // 8192, cache // per_token // 908) == (5, 49)
    assert (l4.gpus_for_light_load, l4.gpus_with_kv_reserve) == (1, 2)
    one = replica_performance(knowledge, figures, l4, 900, 8, cards=1)
    assert one is not None and (one.cards, one.batch) == (1, 49)


def test_the_batch_runs_on_48_single_l4_replicas_not_76_cards_over_pcie() -> None:
    result = recommend(validate_workload(NIGHTLY, "test"), EVALUATED_ON)
    row = next(g for g in result.sizing.gpus if g.gpu == "l4")
    rate = row.requests_per_second_per_replica
    # A 16-bit pass reads every weight but the token embedding's 152,064 x 3,584, which it only looks up.
    assert rate == pytest.approx(5.2239, abs=1e-4)
    # A full wave of 49 takes 49 / 5.2239 = 9.380 s. The run's start (15.23 GB at 2.5 GB/s and vLLM's
    # 21.8 s: 27.9 s) leaves 21,572.1 s of the 6 hours, 20,338.9 s for the run over 1.06063 (the error
    # band's top): 2,168 full waves (20,335.8 s) and in the 3.1 s left a wave of 14 (2.96 s; 15 take
    # 3.15 s), 106,246 requests a replica. 5,000,000 / 106,246 = 47.06 replicas: 48.
    policy = result.sizing_policy
    assert policy is not None and policy.estimate_error_taken_off == pytest.approx(0.0606, abs=1e-4)
    assert row.run_start_hours is not None and round(row.run_start_hours * 3600, 1) == 27.9
    seconds = (6 * 3600 - row.run_start_hours * 3600) / (1 + policy.estimate_error_taken_off)
    full = 49 / rate
    waves = math.floor(seconds / full)
    left = seconds - waves * full
    assert (waves, round(left, 1)) == (2168, 3.1)
    assert wave_seconds(14, *L4_REPLICA) <= left < wave_seconds(15, *L4_REPLICA)
    assert math.ceil(5_000_000 / (waves * 49 + 14)) == 48
    assert (row.cards_per_replica, row.replicas, row.gpus_total, row.concurrent_requests) == (1, 48, 48, 49)
    # Each replica runs its 104,167 requests (5,000,000 / 48, whole) 49 at a time: 2,125 full waves and
    # one of 42, which takes 8.10 s (42 over the replica's rate at a batch of 42): 19,940.6 s, 5.539 hours.
    assert run_waves(5_000_000, 48, 49) == (2125, 42)
    assert round(wave_seconds(42, *L4_REPLICA), 2) == 8.10
    assert (
        row.hours_per_day_running
        == pytest.approx((2125 * full + wave_seconds(42, *L4_REPLICA)) / 3600)
        == pytest.approx(5.539, 1e-3)
    )
    assert (row.below_usual_count, row.kv_held_sequences, row.kv_held_requests_per_second) == (
        True,
        None,
        None,
    )
    assert row.not_recommended_by == ()
    # OVHcloud bills the L4 by the hour, EUR 0.75 ($0.87): 6 hours a run (5.539 and the 27.9 s start),
    # every day of the month's 30.42: 48 x 0.87 x 182.52 = $7,622 (76 cards of 2-card replicas: $12,068).
    ovh = next(o for o in result.options if (o.provider, o.offer) == ("ovhcloud", "l4"))
    assert (ovh.gpus_rented, ovh.billed_hours_per_month) == (48, pytest.approx(6 * 30.42))
    assert ovh.usd_per_month == pytest.approx(48 * 0.87 * 182.52)
    memo = render_memo(result)
    assert "**NET001**" not in memo and "excluded by NET001" not in memo
    assert (
        "| l4 | 24 GB | 1 | 1 | 49 | 5.22 | 48 | 48 | 23 % | 9.4 s a request | 2 cards usual; a batch runs "
        "the requests its KV cache holds at their own length; 5 full-context sequences fit |"
    ) in memo


def test_fewer_cards_a_replica_win_only_where_they_take_fewer_cards_in_all() -> None:
    """The two-card replica (were it linked) holds the usual eight sequences and runs more at once; it is
    chosen only where its rate carries the window on fewer cards than one-card replicas do."""
    knowledge = load_knowledge()
    model = next(m for m in knowledge.models.models if m.id == "qwen2.5-7b")
    figures = size_model(knowledge, 7, 7, "bf16", model, 8192)
    l4 = next(fit for fit in figures.fits if fit.gpu == "l4")
    one = replica_performance(knowledge, figures, l4, 900, 8, cards=1)
    two = replica_performance(knowledge, figures, l4, 900, 8, cards=2)
    assert one is not None and two is not None

    def cards(rate: float, per_replica: int) -> int:
        return math.ceil(5_000_000 * 1.0606 / rate / (6 * 3600)) * per_replica

    # Over the whole window, each run's start aside: 47 one-card replicas (48 with it) against 76 cards.
    assert (cards(one.requests_per_second, 1), cards(two.requests_per_second, 2)) == (47, 76)


def test_where_the_usual_count_takes_fewer_cards_in_all_the_batch_keeps_it() -> None:
    """Qwen2.5-32B in 16 bits on H100 SXM: one card holds the weights and a small KV cache, whose batch
    runs 0.19 requests a second; two cards run 1.28. Twenty thousand 6,600-token requests in a 4-hour
    window take 8 one-card replicas or 2 two-card ones: the plan keeps the two-card replicas (4 cards)."""
    import json

    from helpers import invoke

    args = ("size", "--model", "qwen2.5-32b", "--precision", "bf16", "--requests-per-day", "20000")
    args += ("--input-tokens", "6000", "--output-tokens", "600", "--load-pattern", "batch")
    args += ("--batch-window-hours", "4", "--gpu", "h100-sxm", "--format", "json")
    knowledge = load_knowledge()
    model = next(m for m in knowledge.models.models if m.id == "qwen2.5-32b")
    figures = size_model(knowledge, model.params_b, model.params_b, "bf16", model, 8192)
    h100 = next(fit for fit in figures.fits if fit.gpu == "h100-sxm")
    rates = {
        cards: performance.requests_per_second
        for cards in (1, 2)
        if (performance := replica_performance(knowledge, figures, h100, 6000, 600, cards=cards)) is not None
    }
    needed = {cards: math.ceil(20_000 * 1.0606 / rate / (4 * 3600)) * cards for cards, rate in rates.items()}
    assert needed == {1: 8, 2: 4}
    (row,) = json.loads(invoke(*args).output)["gpus"]
    assert (row["cards_per_replica"], row["replicas"], row["gpus_total"]) == (2, 2, 4)


def test_check_sizes_48_l4_as_48_single_card_replicas() -> None:
    """48 x L4 on OVHcloud on demand: 48 one-card replicas finish in 5.56 hours (it failed NET002 and
    SIZ019 as 24 two-card replicas over PCIe taking 8.9 hours); only the price warns (DEP033)."""
    proposal = {
        "name": "48 L4 on OVHcloud",
        "deployment": "dedicated_cloud",
        "provider": "ovhcloud",
        "offer": "l4",
        "gpu": "l4",
        "gpus": 48,
        "pricing": "on_demand",
    }
    checked = check({"workload": NIGHTLY, "proposal": proposal}, EVALUATED_ON)
    assert {i.rule_id: i.status for i in checked.results if i.status != "pass"} == {"DEP033": "warn"}
