"""A light load may run on fewer cards than the usual count (8 full-context sequences of KV cache beside
the weights) that hold at least two full-context sequences, each replica carrying at most the rate whose
requests in flight its cache holds at their own length beside the room kept for full-context ones
(``full_context_room_under_light_load``: one in the shipped knowledge, which a light count's cache
always has to spare at the catalog's loads; two in ``ROOM_TWO``, where the cap binds and its figures
and texts can be tested). Worked out by hand from the model's KV cache per token and the cards'
memory."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import EVALUATED_ON, room_for

from gpu_advisor.api import ProposalDocument, check, render_memo
from gpu_advisor.cli import main
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.calc.count_limits import full_context_sequences, kv_held_sequences
from gpu_advisor.engine.calc.fleets import replicas_by_hour
from gpu_advisor.engine.calc.latency import at_rate
from gpu_advisor.engine.calc.replicas import at_throughput, latency_at_peak, plans_by_gpu
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.proposal import CheckResult
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.pipeline.capacity import plan_capacity
from gpu_advisor.engine.pipeline.defaults import complete_workload

# A 13B model without grouped-query attention (40 layers x 40 heads x 128, 16 bits): 2 x 40 x 40 x 128 x 2
# = 819,200 bytes of KV cache per token; a full 60,000-token sequence holds 49.2 GB of it, a request of
# 6,500 tokens 5.3 GB.
SHAPE = {"num_hidden_layers": 40, "num_attention_heads": 40, "num_key_value_heads": 40, "head_dim": 128}
CUSTOM_13B: dict[str, Any] = {
    "name": "custom-13b",
    "model": {"params_b": 13, "precision": "fp16", "custom_weights": True, "attention_shape": SHAPE},
    "requests_per_day": 20_000,
    "avg_input_tokens": 6000,
    "avg_output_tokens": 500,
    "context_tokens": 60_000,
    "load_pattern": "steady",
    "company_country": "DE",
}
GIB = 2**30
# A 32B FP8 contract checker on its own weights: long prompts, a 32k context, around the clock, latency-
# sensitive unless a test says otherwise.
CHECKER: dict[str, Any] = {
    "name": "checker",
    "model": {"name": "qwen2.5-32b", "precision": "fp8", "custom_weights": True},
    "avg_input_tokens": 6000,
    "avg_output_tokens": 400,
    "context_tokens": 32_768,
    "load_pattern": "steady",
    "schedule": "always",
    "latency_sensitive": True,
    "company_country": "DE",
}


# The checker in 16 bits at a 14,200-token context: 65.52 GB of weights (the exact 32.76B x 2 bytes) leave
# one 80 GiB card 0.9 x 85.9 GB - 3.76 GB - 65.52 GB = 8.03 GB, 30,637 tokens of KV cache (262,144 bytes a
# token): two full-context sequences and 2,237 tokens beside them. At a 16k context it held 1.87, and a
# light count took two cards.
CHECKER_BF16: dict[str, Any] = {
    **CHECKER,
    "model": {"name": "qwen2.5-32b", "precision": "bf16", "custom_weights": True},
    "context_tokens": 14_200,
}


ROOM_TWO = room_for(2)
"""Room for two full-context requests: a light count's cache then holds few more, and the cap binds."""


def result(knowledge: Knowledge | None = None, **changes: Any) -> Recommendation:
    workload = validate_workload({**CUSTOM_13B, **changes}, "test")
    return recommend(workload, EVALUATED_ON, knowledge=knowledge or ROOM_TWO)


def checked_with(knowledge: Knowledge, document: dict[str, Any]) -> CheckResult:
    """``check`` on ``knowledge`` instead of the shipped one."""
    proposal = ProposalDocument.model_validate(document)
    return check_document(proposal, "<test>", 1, EVALUATED_ON, knowledge=knowledge)


def fits(knowledge: Knowledge, params_b: float, precision: str, model: Any, context: int) -> dict[str, Any]:
    figures = size_model(knowledge, params_b, params_b, precision, model, context)
    return {fit.gpu: fit for fit in figures.fits}


def test_the_light_load_count_holds_two_full_context_sequences() -> None:
    knowledge = load_knowledge()
    llama = next(m for m in knowledge.models.models if m.id == "llama-3.1-70b")
    found = fits(knowledge, 70, "fp8", llama, 8192)
    # vLLM keeps 90 % of the cards' memory, less 3.5 GiB a card, beside the weights for its KV cache. One
    # H100 (80 GiB): 0.9 x 85.9 GB - 3.76 GB - 70 GB = 3.55 GB, one 8,192-token sequence of 327,680 bytes a
    # token (2.68 GB): one, not two, so a 70B FP8 replica stays on 2 x H100 however light its load; one
    # H200 (141 GB) holds the two and the eight alike.
    one_h100 = 0.9 * 80 * GIB - 3.5 * GIB - 70e9
    assert one_h100 // (8192 * 327_680) == 1
    assert (found["h100-sxm"].gpus_for_light_load, found["h100-sxm"].gpus_with_kv_reserve) == (2, 2)
    assert (found["h200"].gpus_for_light_load, found["h200"].gpus_with_kv_reserve) == (1, 1)


def test_a_light_long_context_load_runs_on_one_h200_a_replica() -> None:
    r = result()
    decision = r.decision
    # 26 GB of weights; one H200 (141 GiB): 0.9 x 151.4 GB - 3.76 GB - 26 GB = 106.5 GB, 130,004.6 tokens:
    # two 60,000-token sequences and 1.54 requests of 6,500 tokens beside room for both, 3.54 in flight
    # on average; the usual eight need four cards. The peak keeps about one request in flight a replica.
    one_h200 = 0.9 * 141 * GIB - 3.5 * GIB - 26e9
    assert one_h200 // (60_000 * 819_200) == 2
    assert 2 + (one_h200 / 819_200 - 2 * 60_000) / 6500 == pytest.approx(3.5392, abs=1e-4)
    assert (decision.deployment, decision.provider, decision.gpu, decision.gpus) == (
        "dedicated_cloud",
        "runpod",
        "h200",
        2,
    )
    assert decision.usd_per_month == pytest.approx(2 * 3.59 * 730)  # $5,241.40: a replica and its spare
    row = next(g for g in r.sizing.gpus if g.gpu == "h200")
    assert (row.cards_per_replica, row.gpus_with_kv_reserve, row.replicas) == (1, 4, 2)
    knowledge = load_knowledge()
    figures = size_model(knowledge, 13, 13, "fp16", r.workload.attention_shape, 60_000)
    assert full_context_sequences(knowledge, figures, "h200", 1) == 2
    assert "| h200 | 141 GB | 1 | 1 |" in render_memo(r)
    # 3.54 requests in flight: at most 0.452 requests/s a replica (less than the headroom's
    # 0.880 x 70 % / 1.061 = 0.58), more than the peak's 0.391.
    assert row.kv_held_requests_per_second == pytest.approx(0.4525, abs=1e-4)
    assert (
        "light load: 4 cards usual; 2 full-context sequences fit; at most 3.5 in flight on average, so "
        "planned at most 0.45 req/s a replica |"
    ) in render_memo(r)
    assert row.full_context_sequences == 2
    assert row.kv_held_sequences == pytest.approx(3.5392, abs=1e-4)
    # With the shipped room for one full-context request, 11.77 fit beside it: more than the replica keeps
    # in flight within the headroom, so nothing caps it.
    shipped = next(g for g in result(load_knowledge()).sizing.gpus if g.gpu == "h200")
    assert shipped.kv_held_sequences == pytest.approx(1 + (one_h200 / 819_200 - 60_000) / 6500)
    assert (shipped.kv_held_sequences, shipped.kv_held_requests_per_second) == (
        pytest.approx(11.77, abs=0.01),
        None,
    )


def test_a_load_that_keeps_more_requests_in_flight_than_one_card_holds_gets_larger_replicas() -> None:
    # Fifty times the load: 1-card replicas, each carrying at most the rate that keeps three requests in
    # flight, need more cards in all than 2-card ones, which hold four full-context sequences and 28.4
    # requests beside room for two of them, more than they keep in flight within the headroom: not capped.
    r = result(requests_per_day=1_000_000)
    row = next(g for g in r.sizing.gpus if g.gpu == "h200")
    assert (row.cards_per_replica, row.kv_held_requests_per_second) == (2, None)
    assert row.kv_held_sequences == pytest.approx(28.42, abs=0.01)
    line = render_memo(r).split("## Options considered")[0].split("| h200 |")[1].split("\n")[0]
    assert line.endswith("| light load: 4 cards usual; 4 full-context sequences fit |")


def test_size_shows_the_cards_the_load_runs_on_and_the_usual_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpu-advisor size with a load: the cards per replica column is the plan's (its GPUs column is
    replicas times it), marked where a light load runs below the usual count."""
    args = [
        "size",
        "--params-b",
        "13",
        "--attention-shape",
        "40,40,40,128",
        "--precision",
        "fp16",
        "--context-tokens",
        "60000",
        "--requests-per-day",
        "20000",
        "--input-tokens",
        "6000",
        "--output-tokens",
        "500",
    ]
    monkeypatch.setattr("gpu_advisor.engine.apps.size.load_knowledge", lambda: ROOM_TWO)
    output = CliRunner().invoke(main, args, env={"COLUMNS": "250"}).output
    h200 = next(line for line in output.splitlines() if line.startswith("h200"))
    assert h200.split()[:8] == ["h200", "141", "GB", "1", "1", "0.88", "1", "1"]
    assert h200.endswith(
        "light load: 4 cards usual; 2 full-context sequences fit; at most 3.5 in flight on average, so "
        "planned at most 0.45 req/s a replica"
    )


def test_one_card_replicas_carry_at_most_what_their_cache_holds_so_two_cards_win() -> None:
    """With room for two full-context requests: at 100,000 requests a day 1-card H200 replicas would
    carry the peak on as few cards in all as
    2-card ones by the headroom alone (four, spares aside), but each holds three requests (two at the full
    context, one at its own length): capped at the rate that keeps three in flight, 1-card replicas need
    five, so the H200 replicas take two cards."""
    knowledge = ROOM_TWO
    workload = validate_workload({**CUSTOM_13B, "requests_per_day": 100_000}, "test")
    capacity = plan_capacity(complete_workload(workload, knowledge), knowledge)
    tokens = (6000, 500)
    one_card = plans_by_gpu(
        knowledge, capacity.figures, capacity.load, *tokens, capacity.sizing, cards={"h200": 1}, only={"h200"}
    )["h200"]
    chosen = capacity.plans["h200"]
    assert (chosen.cards_per_replica, chosen.gpus, chosen.rate_kv_holds) == (2, 4, None)
    held = one_card.rate_kv_holds
    assert held is not None
    assert kv_held_sequences(knowledge, capacity.figures, "h200", 1, 6500) == pytest.approx(3.5392, abs=1e-4)
    assert at_rate(one_card.roofline, held).in_flight == pytest.approx(3.5392, abs=1e-4)
    peak = capacity.load.peak_requests_per_second
    by_headroom = math.ceil(
        peak / (one_card.requests_per_second_per_replica * capacity.sizing.capacity_share)
    )
    assert (by_headroom, one_card.replicas) == (4, math.ceil(peak / held)) == (4, 5)
    assert latency_at_peak(one_card).in_flight <= 3.54


def one_card_h200(requests_per_day: int) -> tuple[Any, Any]:
    """The capacity of the 13B at ``requests_per_day`` and its plan on 1-card H200 replicas."""
    knowledge = ROOM_TWO
    workload = validate_workload({**CUSTOM_13B, "requests_per_day": requests_per_day}, "test")
    capacity = plan_capacity(complete_workload(workload, knowledge), knowledge)
    tokens = (6000, 500)
    plan = plans_by_gpu(
        knowledge, capacity.figures, capacity.load, *tokens, capacity.sizing, cards={"h200": 1}, only={"h200"}
    )["h200"]
    return capacity, plan


def test_at_equal_cards_the_replica_its_cache_does_not_cap_wins() -> None:
    """At 70,000 requests a day three 1-card H200 replicas would carry the peak by the headroom, but each
    would keep more requests in flight than the three its cache holds beside room for two at the full
    context: capped,
    four of them carry it, as many cards as two 2-card replicas. The 2-card replicas win the tie: a capped
    replica carries less a card in every hour below the peak (a serverless endpoint of 1-card instances
    cost more at 23,000 requests a day of a 70B than at 24,000)."""
    capacity, one_card = one_card_h200(70_000)
    held, peak = one_card.rate_kv_holds, capacity.load.peak_requests_per_second
    assert held is not None
    by_headroom = math.ceil(
        peak / (one_card.requests_per_second_per_replica * capacity.sizing.capacity_share)
    )
    assert (by_headroom, one_card.replicas) == (3, math.ceil(peak / held)) == (3, 4)
    assert latency_at_peak(one_card).in_flight <= 3.54
    chosen = capacity.plans["h200"]
    assert (chosen.cards_per_replica, chosen.replicas, chosen.rate_kv_holds) == (2, 2, None)


def test_a_light_load_keeps_single_pcie_cards_that_the_usual_count_would_rule_out() -> None:
    """A 32B BF16 tool on its own weights, 2,000 requests on workdays: 64 GB of weights leave one H100
    PCIe room for four 8k sequences (usual: two cards, a multi-card replica over PCIe, NET001). The load
    runs on single cards, so the PCIe card stays in: 2 x 1-card replicas at RunPod, 2 x $1.99 x 264 h."""
    workload = {
        "name": "q32-tool",
        "model": {"name": "qwen2.5-32b", "precision": "bf16", "custom_weights": True},
        "requests_per_day": 2000,
        "schedule": "workdays",
    }
    r = recommend(validate_workload(workload, "test"), EVALUATED_ON)
    d = r.decision
    assert (d.deployment, d.provider, d.gpu, d.gpus) == ("dedicated_cloud", "runpod", "h100-pcie", 2)
    assert d.usd_per_month == pytest.approx(2 * 1.99 * 264)
    row = next(g for g in r.sizing.gpus if g.gpu == "h100-pcie")
    assert (row.cards_per_replica, row.gpus_with_kv_reserve, row.not_recommended_by) == (1, 2, ())
    proposal = {"name": "pcie", "deployment": "dedicated_cloud", "provider": "runpod", "offer": "community"}
    checked = check(
        {"workload": workload, "proposal": {**proposal, "gpu": "h100-pcie", "gpus": 2}}, EVALUATED_ON
    )
    net = {item.rule_id: item.status for item in checked.results if item.rule_id.startswith("NET")}
    assert "fail" not in net.values()


def test_a_load_a_single_card_no_longer_holds_costs_no_less_than_a_larger_one() -> None:
    """The 16-bit checker around the clock, nobody waiting, with room for two full-context requests: at
    4,750 requests a day one 1-card A100 PCIe replica would carry the peak's 0.0929 requests/s within the
    headroom (0.144 x 70 % / 1.061 = 0.0951), but the 2.35 requests in flight its cache holds beside that
    room (2 + 2,237 / 6,400 tokens) carry only 0.0927; the load takes two of them, not one 2-card replica
    over PCIe (NET001), so it costs less than the same load at 6,000 (before, the A100 was dropped at such
    a boundary and a dearer H100 recommended)."""
    checker = {**CHECKER_BF16, "latency_sensitive": False, "personal_data": True, "model_stable": True}
    light, heavier = (
        recommend(
            validate_workload({**checker, "requests_per_day": n}, "test"), EVALUATED_ON, knowledge=ROOM_TWO
        )
        for n in (4_750, 6_000)
    )
    row = next(g for g in light.sizing.gpus if g.gpu == "a100-80gb-pcie")
    held = row.kv_held_requests_per_second
    assert held == pytest.approx(0.0927, abs=1e-4) and row.full_context_sequences == 2
    assert row.kv_held_sequences == pytest.approx(2 + (30_637 - 2 * 14_200) / 6_400, abs=1e-3)
    peak = light.sizing.load.peak_requests_per_second  # type: ignore[union-attr]
    assert peak == pytest.approx(4_750 / 86_400 * 1.6891)
    assert peak < (row.requests_per_second_per_replica or 0) * 0.7 / 1.06063377
    assert (row.cards_per_replica, row.replicas, row.not_recommended_by) == (1, math.ceil(peak / held), ())
    assert row.replicas == 2
    assert (light.decision.gpu, light.decision.gpus) == ("a100-80gb-pcie", 2)
    assert light.decision.usd_per_month < heavier.decision.usd_per_month


def test_single_pcie_cards_are_kept_where_capped_ones_take_more_cards_than_a_linked_pair() -> None:
    """The latency-sensitive 16-bit checker with 3,000-token prompts at 35,000 requests a day: 1-card H100
    PCIe replicas, with room for two full-context requests capped at what 2.66 requests in flight allow,
    take five cards and a spare; two PCIe cards a replica are the wrong offer (NET001), so the
    H100 PCIe keeps single cards rather than being ruled out, and a proposal of six of them passes NET002
    (it failed, told to choose 'one with enough memory for a single-card replica', which it is)."""
    checker = {**CHECKER_BF16, "avg_input_tokens": 3000, "requests_per_day": 35_000}
    r = recommend(validate_workload(checker, "test"), EVALUATED_ON, knowledge=ROOM_TWO)
    row = next(g for g in r.sizing.gpus if g.gpu == "h100-pcie")
    held, peak = row.kv_held_requests_per_second, r.sizing.load.peak_requests_per_second  # type: ignore[union-attr]
    assert held is not None and (row.cards_per_replica, row.not_recommended_by) == (1, ())
    assert row.kv_held_sequences == pytest.approx(2 + (30_637 - 2 * 14_200) / 3_400, abs=1e-3)
    assert (row.replicas, row.spare_replicas) == (math.ceil(peak / held) + 1, 1) == (6, 1)
    proposal = {
        "name": "pcie",
        "deployment": "dedicated_cloud",
        "provider": "ovhcloud",
        "offer": "h100-monthly",
        "gpu": "h100-pcie",
        "gpus": 6,
        "pricing": "reserved",
        "region": "gra",
    }
    checked = checked_with(ROOM_TWO, {"workload": checker, "proposal": proposal})
    assert [i.status for i in checked.results if i.rule_id == "NET002"] == ["pass"]


def test_check_says_when_the_kv_cache_not_the_headroom_sets_the_cards_for_the_peak() -> None:
    """One H100 PCIe for the 16-bit checker with 3,000-token prompts at 20,000 requests a day: the
    headroom alone would take two replicas for the peak's 0.39 requests/s (0.394 x 70 % / 1.07 = 0.26
    each), but with room for two full-context requests a replica carries at most 0.14 with the 2.66
    requests in flight its cache holds, so SIZ009 asks for three cards and says why (it gave the
    headroom alone as the reason)."""
    checker = {**CHECKER_BF16, "avg_input_tokens": 3000, "requests_per_day": 20_000}
    proposal = {
        "name": "one",
        "deployment": "dedicated_cloud",
        "provider": "ovhcloud",
        "offer": "h100-monthly",
    }
    proposal |= {"gpu": "h100-pcie", "gpus": 1, "pricing": "reserved", "region": "gra"}
    checked = checked_with(ROOM_TWO, {"workload": checker, "proposal": proposal})
    (item,) = [i for i in checked.results if i.rule_id == "SIZ009"]
    assert item.status == "warn" and item.message is not None
    assert (
        "1 × h100-pcie holds the weights, but the peak needs about 3 cards of this GPU (4 with the replicas "
        "the workload keeps beyond its peak): replicas sized so that the busiest minutes fill at most 70 % "
        "of the estimated throughput, after the estimate's error band is taken off, and so that a replica "
        "of 1 card, fewer than the usual count, carries at most 0.14 requests/s, the rate at which the "
        "requests in flight fill its KV cache on average, with room kept for requests of the full serving "
        "context."
    ) in item.message


def test_size_caps_the_cards_asked_about_below_the_usual_count() -> None:
    """``size --gpu h100-sxm --cards 1`` for the 13B at 20,000 requests a day with a 56,000-token context:
    one H100 holds 58,046 tokens, room for one full-context request and 0.31 of a 6,500-token one beside
    it, so a replica is planned at most the rate that keeps 1.31 requests in flight on average (0.18
    requests/s), and the peak's 0.39 takes three of them, where the headroom alone (0.529 x 70 % / 1.061
    = 0.35) would take two. At a 32,768-token context the same card holds 4.89 (one beside 25,278 tokens,
    3.89 of 6,500), and the headroom sizes the replicas."""
    args = ["size", "--params-b", "13", "--attention-shape", "40,40,40,128", "--precision", "fp16"]
    args += ["--requests-per-day", "20000", "--input-tokens", "6000"]
    args += ["--output-tokens", "500", "--gpu", "h100-sxm", "--cards", "1"]
    (row,) = json.loads(
        CliRunner().invoke(main, [*args, "--context-tokens", "56000", "--format", "json"]).stdout
    )["gpus"]
    held, peak = row["kv_held_requests_per_second"], 20_000 / 86_400 * 1.6891
    assert (row["replica_kv_tokens_capacity"], row["full_context_sequences"]) == (58_046, 1)
    assert row["kv_held_sequences"] == pytest.approx(1 + (58_046 - 56_000) / 6_500, abs=1e-4)
    assert held == pytest.approx(0.1762, abs=1e-4)
    assert math.ceil(peak / (row["requests_per_second_per_replica"] * 0.7 / 1.06063377)) == 2
    assert row["replicas"] == math.ceil(peak / held) == 3
    text = CliRunner().invoke(main, [*args, "--context-tokens", "56000"], env={"COLUMNS": "250"}).stdout
    assert (
        text.count("1 full-context sequence fits; at most 1.3 in flight on average, so planned at most 0.18")
        == 1
    )
    (row,) = json.loads(
        CliRunner().invoke(main, [*args, "--context-tokens", "32768", "--format", "json"]).stdout
    )["gpus"]
    assert (row["kv_held_requests_per_second"], row["replicas"]) == (None, 2)
    assert row["kv_held_sequences"] == pytest.approx(1 + (58_046 - 32_768) / 6_500, abs=1e-4)


def test_a_scenario_s_throughput_factor_scales_the_cap_with_the_rate() -> None:
    """A scenario that draws the estimate 20 % low (``at_throughput``): a capped replica carries 20 % less
    before its requests in flight fill its cache, as it does before its headroom, and the replicas
    follow (80,000 a day on 1-card H200s: four at the estimate, five at 0.8 of it)."""
    capacity, plan = one_card_h200(80_000)
    slower = at_throughput(plan, 0.8, capacity.load, capacity.sizing)
    assert plan.rate_kv_holds is not None and slower.rate_kv_holds == pytest.approx(0.8 * plan.rate_kv_holds)
    peak = capacity.load.peak_requests_per_second
    assert (plan.replicas, slower.replicas) == (4, math.ceil(peak / (0.8 * plan.rate_kv_holds))) == (4, 5)


def test_a_fleet_s_hours_count_capped_replicas() -> None:
    """The hourly fleet counts each hour's replicas at the capped rate, as the peak's: an hour at the
    peak's rate needs four 1-card H200s (as the cards given plan them), not the three the headroom alone
    would give."""
    capacity, plan = one_card_h200(70_000)
    hours = replicas_by_hour(plan, capacity.traffic, capacity.load, capacity.sizing)
    assert max(hours) == plan.replicas == 4
    uncapped = plan._replace(rate_kv_holds=None)
    assert max(replicas_by_hour(uncapped, capacity.traffic, capacity.load, capacity.sizing)) == 3


def test_the_memo_says_what_keeping_room_for_full_context_requests_costs() -> None:
    """A latency-sensitive 8B FP8 service with 6,500-token prompts in a 64k context at 100,000 requests a
    day, on single RTX 5090s, with room for two full-context requests: a card's 137,977 tokens of KV cache
    (0.9 x 32 GiB - 3.5 GiB - 9.08 GB of weights: 6.98B in FP8 and the embedding and lm_head, 2 x 128,256 x
    4,096, in 16 bit; at 131,072 bytes a token) keep that room and 0.99 requests of 7,000 tokens beside
    it, so a replica carries at most 0.46 requests/s and the peak's 1.95 takes five; with no room kept,
    every request at its own length, the headroom's 1.00 x 70 % / 1.061 = 0.66 would take three. The
    Summary and "Load and capacity" say so; with the shipped room for one, nothing is capped and neither
    does."""
    service = {
        "name": "long-8b",
        "model": {"name": "llama-3.1-8b", "precision": "fp8", "custom_weights": True},
        "context_tokens": 65_536,
        "avg_input_tokens": 6_500,
        "avg_output_tokens": 500,
        "requests_per_day": 100_000,
        "latency_sensitive": True,
        "company_country": "DE",
    }
    r = recommend(validate_workload(service, "test"), EVALUATED_ON, knowledge=ROOM_TWO)
    assert (r.decision.provider, r.decision.gpu, r.decision.gpus) == ("runpod", "rtx-5090", 6)
    row = next(g for g in r.sizing.gpus if g.gpu == "rtx-5090")
    tokens = math.floor((0.9 * 32 * GIB - 3.5 * GIB - 9.080673e9) / 131_072)
    assert (row.replica_kv_tokens_capacity, row.full_context_sequences) == (tokens, 2) == (137_977, 2)
    assert row.kv_held_sequences == pytest.approx(2 + (tokens - 2 * 65_536) / 7_000, abs=1e-3)
    policy = r.sizing_policy
    assert policy is not None and row.requests_per_second_per_replica is not None
    usable = row.requests_per_second_per_replica * policy.headroom_target_share
    usable /= 1 + policy.estimate_error_taken_off
    peak, held = r.load.peak_requests_per_second, row.kv_held_requests_per_second
    assert held == pytest.approx(0.4558, abs=1e-4)  # the rate at which 2.99 are in flight on average
    assert row.replicas_without_kv_cap == math.ceil(peak / usable) == 3
    assert (row.replicas, row.spare_replicas) == (math.ceil(peak / held) + 1, 1) == (6, 1)
    memo = " ".join(render_memo(r).split())
    assert (
        "which runs up to 19 requests of this length at once in its KV cache. That is at saturation, with no "
        "room kept for a long prompt: the replicas are planned with fewer in flight (below)."
    ) in memo
    assert (
        "A replica of 1 × rtx-5090, fewer cards than the usual 4, keeps room in its KV cache of 137,977 "
        "tokens for 2 requests of the full 65,536-token context and about 1.0 more of this workload's length "
        "beside them, so it is planned to carry at most 0.46 requests/s, the rate at which about 3.0 are in "
        "flight on average (the room is gpu-advisor's margin for long prompts; vLLM keeps none). "
        "With no room kept for full-context requests, every request counted at its own length (7,000 "
        "tokens), the peak would take 3 replicas of this size instead of 5, spares aside"
    ) in memo
    assert (
        "The replicas are sized with room kept in their KV cache for requests of the full 65,536-token "
        "context: with none kept the peak would take 3 replicas instead of 5, spares aside (the rtx-5090 row "
        'under "Sizing").'
    ) in memo
    plain = recommend(validate_workload(service, "test"), EVALUATED_ON)
    assert all(g.replicas_without_kv_cap is None for g in plain.sizing.gpus)
    assert "with none kept the peak would take" not in render_memo(plain)
    assert "That is at saturation" not in render_memo(plain)
