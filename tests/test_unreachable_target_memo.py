"""The memo of a workload whose latency target the replicas cannot be planned to: which target is out of
reach (missed even by a lone request, or met by it by less than the estimate's latency error), and what
the replicas keep instead, on how many cards (``calc/policy.py``, ``_memo_load.md.j2``)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from helpers import run

from gpu_advisor.engine.calc.calibration import latency_margin
from gpu_advisor.engine.calc.performance import candidate_performances
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo

# A 70B RAG service with 20,000-token prompts: the fastest replica, 8 B200, takes about 360 ms for a lone
# prompt (its all-reduces at the share measured on H100 for each chunk's message, of B200's own link
# rate), so 300 ms to the first token is out of reach.
RAG: dict[str, Any] = {
    "name": "rag-300",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 50_000,
    "avg_input_tokens": 20_000,
    "avg_output_tokens": 400,
    "context_tokens": 32_768,
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 300,
    "company_country": "DE",
}
KEPT = (
    "Each replica runs on 8 × b200, the card count that comes closest, and the replicas keep the first token"
)


def kept_ms() -> int:
    """What the B200's replicas keep: its lone prompt's time plus the mean latency error, rounded as the
    memo."""
    row = next(g for g in run(RAG).sizing.gpus if g.gpu == "b200")
    assert row.time_to_first_token_alone_ms is not None
    kept = row.time_to_first_token_alone_ms * (1 + latency_margin(load_knowledge()))
    assert row.kept_max_time_to_first_token_ms is not None
    assert abs(row.kept_max_time_to_first_token_ms - kept) < 1e-9
    return round(kept)


def test_the_memo_names_the_missed_target_and_what_the_replicas_keep() -> None:
    result = run(RAG)
    assert "LAT003" in result.fired_rules and "LAT007" in result.fired_rules
    memo = " ".join(render_memo(result).split())
    ms, margin = kept_ms(), round(100 * latency_margin(load_knowledge()))
    # Why the target is out of reach comes first; the limits kept are not called "the latency targets".
    assert (
        "No card count meets the first token within 300 ms even for a lone request, so no number of "
        f"replicas does. {KEPT} within {ms} ms at the peak: a lone request's time plus the estimate's mean "
        f"latency error ({margin} %). The limits the replicas keep (the first token within {ms} ms, 100 ms "
        "per token at the peak), not the throughput, set their number: 3 replicas for the peak." in memo
    )
    assert "The latency targets set the replicas" not in memo
    assert "That is within the workload's latency targets" not in memo


def test_a_target_a_lone_request_meets_by_less_than_the_error_is_not_planned_to() -> None:
    # 375 ms: above a lone prompt's time, below it with the mean latency error (358 and 392 ms on 8 B200,
    # whose all-reduces reach the share of each chunk's message; 470 ms, between 452 and 497 at the one
    # link share of 0.41, is now met with the error).
    row = next(g for g in run(RAG).sizing.gpus if g.gpu == "b200")
    assert row.time_to_first_token_alone_ms is not None and round(row.time_to_first_token_alone_ms) == 358
    assert kept_ms() == 392
    memo = " ".join(render_memo(run({**RAG, "max_time_to_first_token_ms": 375})).split())
    assert (
        "A lone request meets the first token within 375 ms by less than the estimate's mean latency error, "
        "too close to plan replicas to: their number would grow without bound for a difference the "
        f"estimate cannot tell. {KEPT} within {kept_ms()} ms at the peak" in memo
    )
    assert "No card count meets" not in memo


def test_a_target_met_alone_says_nothing_of_the_kind() -> None:
    memo = render_memo(run({**RAG, "max_time_to_first_token_ms": 1000}))
    assert "No card count meets" not in memo and "Each replica runs on" not in memo


CHAT_8B: dict[str, Any] = {
    "name": "chat8b",
    "model": {"name": "llama-3.1-8b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 100_000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "latency_sensitive": True,
    "company_country": "DE",
}


def test_a_stricter_target_never_gets_a_cheaper_recommendation_or_one_beyond_what_can_be_planned() -> None:
    """An 8B chat with its own weights, time-per-token targets from 2.6 to 12 ms. The recommendation's
    monthly cost never falls as the target tightens, and its peak stays within what its replicas keep.
    At 7.7 ms the RTX 5090 (a lone step of about 7.6 ms, within the estimate's error of the target) was
    recommended at 8.2 ms a token while 2 H100 meet it at 5.4 ms: a GPU that cannot be planned to a target
    another GPU meets is ruled out (LAT002)."""
    costs = []
    for target in (2.6, 3.0, 3.3, 7.7, 9.0, 12.0):
        result = run({**CHAT_8B, "max_time_per_output_token_ms": target})
        decision = result.decision
        row = next(g for g in result.sizing.gpus if g.gpu == decision.gpu)
        assert row.time_per_output_token_ms is not None and row.kept_max_time_per_output_token_ms is not None
        assert row.time_per_output_token_ms <= row.kept_max_time_per_output_token_ms + 1e-9
        assert decision.usd_per_month is not None
        costs.append(decision.usd_per_month)
        if target == 7.7:
            assert (decision.gpu, decision.gpus) == ("h100-sxm", 2)
            assert row.time_per_output_token_ms < 7.7
            assert "LAT002" in result.fired_rules
    assert costs == sorted(costs, reverse=True)


def test_own_hardware_ruled_out_for_latency_is_not_said_to_be_unable_to_serve_the_model() -> None:
    memo = " ".join(render_memo(run(RAG)).split())
    assert (
        "The catalog's own hardware (hgx-h100-8, h100-sxm) holds this model but is not recommended for this "
        "workload (LAT007, under Findings), so buying is not compared." in memo
    )
    assert "cannot serve this model" not in memo


def test_own_hardware_that_cannot_hold_the_model_is_said_to_be_unable_to_serve_it() -> None:
    # DeepSeek-R1 in BF16: 1.3 TB of weights, more than two 8-card H100 servers hold.
    deepseek = {
        "name": "r1-bf16",
        "model": {"name": "deepseek-r1", "precision": "bf16"},
        "requests_per_day": 10_000,
        "latency_sensitive": False,
        "company_country": "DE",
    }
    memo = " ".join(render_memo(run(deepseek)).split())
    assert (
        "The catalog's own hardware (hgx-h100-8, h100-sxm) cannot serve this model, so buying is not "
        "compared." in memo
    )


def test_the_load_section_prices_what_the_latency_limits_add() -> None:
    """Throughput alone: the peak over what a replica carries at most the headroom's share full once the
    estimate's error is taken off. The limits kept (test_check_unreachable_target) take 8 B200 a
    replica, the size whose lone prompt comes closest, and three replicas of it for the peak where one
    would carry it; throughput alone would run one B200 a replica, four for the peak. Both with the spare,
    at RunPod (which sells 1- to 8-card instances) every hour of the month: 32 cards against 5."""
    result = run(RAG)
    best = result.best_option
    assert best is not None and best.gpu == "b200"
    row = next(g for g in result.sizing.gpus if g.gpu == "b200")
    assert row.requests_per_second_per_replica is not None and row.cards_per_replica == 8
    policy = result.sizing_policy
    share = policy.headroom_target_share / (1 + policy.estimate_error_taken_off)
    peak = result.load.peak_requests_per_second
    for_throughput = math.ceil(peak / (row.requests_per_second_per_replica * share) - 1e-9)
    assert (row.replicas_for_throughput, best.replicas - best.spare_replicas) == (for_throughput, 3) == (1, 3)
    # One B200 a replica: its estimated rate at these lengths, and the replicas the peak needs of it.
    knowledge = load_knowledge()
    model = knowledge.model("llama-3.1-70b")
    figures = size_model(knowledge, model.params_b, model.active_params_b, "fp8", model, 32_768)
    (one_card,) = [p for p in candidate_performances(knowledge, figures, 20_000, 400)["b200"] if p.cards == 1]
    lean_for_peak = math.ceil(peak / (one_card.requests_per_second * share) - 1e-9)
    assert lean_for_peak == 4
    alone = best.throughput_alone
    assert alone is not None
    assert (alone.cards_per_replica, alone.replicas, alone.spare_replicas, alone.gpus) == (
        1,
        lean_for_peak + 1,
        1,
        5,
    )
    assert (best.provider, best.offer, best.usd_per_gpu_hour, best.billed_hours_per_month) == (
        "runpod",
        "community",
        5.98,
        730.0,
    )
    cost = (32 - 5) * 5.98 * 730
    assert best.latency_targets_usd_per_month == pytest.approx(cost)
    assert alone.usd_per_month == pytest.approx(5 * 5.98 * 730)
    memo = " ".join(render_memo(result).split())
    assert f"${cost:,.0f}" == "$117,866"
    assert (
        "Sized for throughput alone, 5 replicas of 1 × b200 (5 GPUs in all, spares included) would carry "
        "the peak; the latency limits take replicas of 8 × b200, 32 GPUs, at least $117,866 a month more at "
        "runpod (community) as it bills them." in memo
    )
    # The limits also rule GPUs out (LAT007): the figure says what it leaves out.
    ruled_out = [g.gpu for g in result.sizing.gpus if "LAT007" in g.not_recommended_by]
    assert ruled_out == ["h100-sxm", "h100-nvl", "h200", "a100-80gb", "mi300x"]
    assert (
        f"The targets also rule out {', '.join(ruled_out)} (see Sizing): what "
        "the workload would cost on those without them is not worked out here, and may be less." in memo
    )
    # The workload states its target: no advice to state one.
    assert "The targets are the defaults" not in memo
    # The Sizing table says it of every row the limits size, beside the replicas it counts (spares in).
    (b200_row,) = [line for line in render_memo(result).splitlines() if line.startswith("| b200 |")]
    # B200's all-reduces reach the shares measured on H100 for their message, of its own 900 GB/s one way
    # (0.14 at the smallest message, 32 tokens of 8,192 elements, each token's 160 all-reduces sending 2 x
    # 7/8 x 16 KiB from every card). At the full batch of 191 the prompts replacing the finished sequences
    # come 191 x 20,000 / 399 = 9,574 tokens a step (a sequence decodes for 399 steps, its first token
    # coming from its prompt's pass), so every pass is vLLM's 8,192 batched tokens, 67.1 million elements
    # at 0.67 of the link: 2.47 requests/s a replica (its weights and KV cache read at 0.86 of the
    # bandwidth).
    (eight_cards,) = [
        p for p in candidate_performances(knowledge, figures, 20_000, 400)["b200"] if p.cards == 8
    ]
    roofline = eight_cards.roofline
    sent = 160 * 2 * 7 / 8 * 8192 * 2
    assert roofline.communication_points[0] == (32, pytest.approx(900e9 * 0.14 / sent, rel=1e-12))
    assert (eight_cards.batch, roofline.prompt_pass_tokens(191)) == (191, 8192)
    assert row.requests_per_second_per_replica == eight_cards.requests_per_second
    assert round(eight_cards.requests_per_second, 2) == 2.47
    assert b200_row.startswith(f"| b200 | 192 GB | 1 | 8 | {row.concurrent_requests} | 2.47 | 4 | 32 |")
    note = "replicas set by the latency limits; throughput alone: 1 of this size, spares aside"
    assert b200_row.endswith(f"| {note} |")


def test_where_min_replicas_buys_the_replicas_anyway_the_limits_cost_their_cards() -> None:
    """min_replicas 4: throughput alone would run 4 replicas as well, so the limits' replicas cost
    nothing; their 8 cards a replica still do, against one card a replica: 28 cards more at RunPod, every
    hour of the month."""
    result = run({**RAG, "min_replicas": 4})
    best = result.best_option
    assert best is not None and best.replicas == 4
    alone = best.throughput_alone
    assert alone is not None and (
        alone.cards_per_replica,
        alone.replicas,
        alone.spare_replicas,
        alone.gpus,
    ) == (1, 4, 0, 4)
    assert best.latency_targets_usd_per_month == pytest.approx((32 - 4) * 5.98 * 730)
    memo = " ".join(render_memo(result).split())
    assert (
        "Sized for throughput alone, 4 replicas of 1 × b200 (4 GPUs in all) would carry the peak; "
        "the latency limits take replicas of 8 × b200, 32 GPUs, at least $122,231 a month more" in memo
    )


def test_where_throughput_sets_the_replicas_no_cost_of_latency_is_stated() -> None:
    result = run({**CHAT_8B, "max_time_per_output_token_ms": 100})
    memo = " ".join(render_memo(result).split())
    assert "Replicas are sized so that the peak fills at most 70 %" in memo
    assert "Sized for throughput alone" not in memo
    assert "replicas set by the latency limits" not in memo


def test_the_kept_time_per_token_is_written_alike_in_each_sentence() -> None:
    """4 ms a token for a 70B model: 8 B200 keep 7.61 ms x 1.094 = 8.32 ms (the weights read at 0.86 of
    the bandwidth, the mean latency error 9.4 % since the calibration's refit of 2026-12-07); the Load
    section wrote such a limit "8.5" in one sentence and "8.54" in the next."""
    from test_message_wording import FAST_70B

    fast = {**FAST_70B, "max_time_to_first_token_ms": None}
    memo = " ".join(render_memo(run(fast)).split())
    assert "and the replicas keep 8.32 ms per token at the peak" in memo
    assert "The limits the replicas keep (8.32 ms per token at the peak)" in memo
    assert "8.3 ms" not in memo
