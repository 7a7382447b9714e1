"""A GPU whose allowed card counts hold no usual count (eight full-context sequences of KV cache beside the
weights) may still carry a light load on the fewest cards that hold two: DeepSeek-R1 at a 128k context
on 16 x H100. Worked out by hand from the model's latent KV cache and the cards' memory."""

from __future__ import annotations

import math
from typing import Any

import pytest
from helpers import EVALUATED_ON, invoke, room_for

from gpu_advisor.api import ProposalDocument, check, render_memo
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.calc.count_limits import full_context_sequences
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.pipeline.constraints import workload_fact

GIB = 2**30
CONTEXT = 131_072
# DeepSeek-R1 on its own premises: 20,000 requests a day of 2,000 + 1,500 tokens in a 128k context.
LONG_R1: dict[str, Any] = {
    "name": "r1-long-context",
    "model": {"name": "deepseek-r1", "precision": "fp8"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 2_000,
    "avg_output_tokens": 1_500,
    "context_tokens": CONTEXT,
    "on_premises_required": True,
    "company_country": "DE",
}


def result(**changes: Any) -> Recommendation:
    return recommend(validate_workload({**LONG_R1, **changes}, "test"), EVALUATED_ON)


def test_sixteen_h100_hold_six_full_context_sequences_not_the_usual_eight() -> None:
    knowledge = load_knowledge()
    r1 = next(m for m in knowledge.models.models if m.id == "deepseek-r1")
    figures = size_model(knowledge, 671, 37, "fp8", r1, CONTEXT)
    h100 = next(fit for fit in figures.fits if fit.gpu == "h100-sxm")
    # vLLM keeps 90 % of 16 x 80 GiB, less 3.5 GiB a card, beside 672.9 GB of weights (669.18B at one
    # byte, the embedding and lm_head at two): 503.9 GB. Latent attention keeps 61 x (512 + 64) x 2 bytes =
    # 70,272 a token on every card of an 8-card tensor-parallel group (two pipeline stages of half the
    # layers each: 8 copies in all), 562,176 bytes a token: 896,406 tokens, 6.84 sequences of 131,072.
    # Eight need 589.5 GB; two fit, and 8 cards do not hold the weights.
    cache = 0.9 * 16 * 80 * GIB - 16 * 3.5 * GIB - 672.883358e9
    per_token = 61 * (512 + 64) * 2 * 8
    assert cache / per_token // CONTEXT == 6
    assert (h100.gpus_with_kv_reserve, h100.gpus_for_light_load, h100.gpus_for_weights) == (None, 16, 16)
    assert full_context_sequences(knowledge, figures, "h100-sxm", 16) == 6
    # The rules read a GPU the load is planned on as one that fits; without a plan on it, none fits.
    only_h100 = figures.model_copy(update={"fits": (h100,)})
    assert workload_fact(only_h100, knowledge).fits_any_gpu is False
    assert workload_fact(only_h100, knowledge, "h100-sxm=16").fits_any_gpu is True


def test_a_light_long_context_load_is_planned_on_sixteen_h100_and_the_owned_servers_are_priced() -> None:
    r = result()
    decision = r.decision
    # A replica's 896,406 tokens of KV cache (beside the 672.88 GB of weights: the exact 671.03B, the
    # embedding and lm_head at two bytes and the rest at one) hold six requests at the full context, or
    # room for one and 218.7 requests of 3,500 tokens beside
    # it: far more than the 7.6 the peak keeps in flight, so the headroom sizes the replicas: one for the
    # peak and a spare, each of two 8-GPU servers.
    assert (decision.deployment, decision.gpu, decision.gpus) == ("own_hardware", "h100-sxm", 32)
    row = next(g for g in r.sizing.gpus if g.gpu == "h100-sxm")
    assert (row.cards_per_replica, row.gpus_with_kv_reserve, row.below_usual_count) == (16, None, True)
    tokens = (0.9 * 16 * 80 * GIB - 16 * 3.5 * GIB - 672.883358e9) / (61 * (512 + 64) * 2 * 8)
    assert (row.full_context_sequences, row.replicas) == (6, 2)
    assert (
        row.kv_held_sequences
        == pytest.approx(1 + (tokens - CONTEXT) / 3_500)
        == pytest.approx(219.67, abs=0.01)
    )
    assert row.kv_held_requests_per_second is None
    memo = render_memo(r)
    # The prompt's pass counts its routed experts' multiplications at the measured factor once, at the
    # pass's 2,006 tokens (the prompt and 5.6 decoding sequences a stage) x 8 / 256 = 62.7 tokens an
    # expert, a factor of 1.76 on 8 cards (the refit's table: 1.55 at 32 tokens, 1.77 at 64): 108 ms to the
    # first token at the peak (107.4 ms at the table of 1.57 and 1.78 and the bandwidth share of 0.87;
    # counted twice, the factor on the prompt's multiply-adds and again on their blend, it was 114 ms).
    assert (
        "| h100-sxm | 80 GB | 16 | 16 | 256 | 2.55 | 2 | 32 | 5 % | 108 ms / 19 ms | no usual count within "
        "16 cards; 6 full-context sequences fit |"
    ) in memo
    assert "the fewest cards that hold a light load" not in memo
    assert "fewer cards than the usual None" not in memo
    # The GPU-fit rules judge the light count: an A100's 16 cards convert FP8 (SIZ004), and 16 PCIe cards
    # of H100 all-reduce over PCIe (NET001).
    assert "a100-80gb has no FP8 tensor cores" in memo
    assert "| h100-pcie | 80 GB | 16 | — | — | — | — | — | — | — | not recommended (NET001) |" in memo


def test_a_batch_runs_on_the_light_count_where_its_requests_fit() -> None:
    """A batch runs its replicas full at the batch their KV cache holds at its own request length: the
    16 cards' 896,406 tokens hold 256 requests of 3,500 tokens (it was not planned, as if a batch needed
    the usual count's eight full-context sequences). 20,000 a day within 8 hours take one replica."""
    r = result(load_pattern="batch", batch_window_hours=8, on_premises_required=False)
    row = next(g for g in r.sizing.gpus if g.gpu == "h100-sxm")
    tokens = (0.9 * 16 * 80 * GIB - 16 * 3.5 * GIB - 672.883358e9) / (61 * (512 + 64) * 2 * 8)
    assert tokens // 3_500 == 256
    assert (row.replicas, row.cards_per_replica, row.concurrent_requests, row.below_usual_count) == (
        1,
        16,
        256,
        True,
    )
    assert row.kv_held_sequences is None
    assert (
        "| h100-sxm | 80 GB | 16 | 16 | 256 | 2.55 | 1 | 16 | 9 % | 100 s a request | no usual count within "
        "16 cards; 6 full-context sequences fit |"
    ) in render_memo(r)


def test_a_busier_load_gets_more_replicas_not_a_refusal() -> None:
    # A busier load needs more 16-card replicas, with no cliff: the peak (1.33 x 1.27 = 1.69 times the
    # average) over what the headroom lets one carry, rounded up, plus the spare.
    for per_day, replicas in ((20_000, 2), (80_000, 3), (200_000, 4)):
        r = result(requests_per_day=per_day)
        row = next(g for g in r.sizing.gpus if g.gpu == "h100-sxm")
        policy = r.sizing_policy
        assert policy is not None and row.requests_per_second_per_replica is not None
        usable = row.requests_per_second_per_replica * policy.headroom_target_share
        usable /= 1 + policy.estimate_error_taken_off
        peak = r.load.peak_requests_per_second
        assert peak == pytest.approx(per_day / 86_400 * 1.33 * 1.27, rel=1e-3)
        assert row.kv_held_requests_per_second is None
        assert row.replicas == math.ceil(peak / usable) + 1 == replicas, per_day
        assert (r.decision.deployment, r.decision.gpu, r.decision.gpus) == (
            "own_hardware",
            "h100-sxm",
            16 * replicas,
        )


def test_the_growth_step_is_the_servers_of_one_more_replica() -> None:
    """A replica spans two HGX H100 servers: the next step buys both (it said one server, $10,425)."""
    memo = " ".join(render_memo(result()).split())
    assert (
        "They hold the load up to about 78,700 requests a day (294 % more than today's); beyond that 2 more "
        "servers are needed, the next replica's: $20,851 a month more and $570,000 up front."
    ) in memo
    # The rentals whose instances hold 8 linked cards cannot hold a replica of 16 (NET003).
    assert (
        "| runpod | community | h100-sxm | 32 | on-demand | unknown | $2.69 | $62,838 | 2026-10-10 | "
        "excluded by NET003; ruled out by DEP006 |" in memo
    )


def test_check_holds_owned_h100_to_the_light_load_s_replicas() -> None:
    """Owned H100 for the light load: 16 cards hold the model (SIZ008 passes, it failed them as not
    holding it) and carry the peak without the spare (SIZ012), 32 are the plan, and 48 leave two servers
    idle (TCO027) at $20,851 a month more than the recommendation (DEP033)."""
    proposal = {"name": "owned", "deployment": "own_hardware", "gpu": "h100-sxm"}
    statuses = {}
    for gpus in (16, 32, 48):
        checked = check({"workload": LONG_R1, "proposal": {**proposal, "gpus": gpus}}, EVALUATED_ON)
        statuses[gpus] = {i.rule_id: i.status for i in checked.results if i.status != "pass"}
        assert next(i.status for i in checked.results if i.rule_id == "SIZ008") == "pass"
        if gpus == 48:
            (item,) = [i for i in checked.results if i.rule_id == "TCO027"]
            assert item.message == (
                "The workload needs 32 cards, placed on 4 servers of 8; the proposal buys 6, so 2 stand idle "
                "and are paid for all the same."
            )
    assert statuses == {16: {"SIZ012": "warn"}, 32: {}, 48: {"DEP033": "warn", "TCO027": "warn"}}


def test_size_plans_a_batch_on_a_gpu_without_a_usual_count_and_says_why_none_without_a_load() -> None:
    args = ("--model", "deepseek-r1", "--precision", "fp8", "--context-tokens", "131072")
    load, day = ("--input-tokens", "2000", "--output-tokens", "1500"), ("--requests-per-day", "22000")
    refused = invoke("size", *args, *load, "--gpu", "h100-sxm")
    assert refused.exit_code == 2
    assert refused.output == (
        "error: --gpu: no count of h100-sxm up to 16 cards holds the usual 8 sequences of the full "
        "131,072-token context: --cards 16 evaluates the fewest that hold 2 of them\n"
    )
    for pattern in ("batch", "steady"):
        planned = invoke("size", *args, *load, *day, "--load-pattern", pattern, "--gpu", "h100-sxm")
        assert planned.exit_code == 0
        assert "h100-sxm  80 GB        16        16" in planned.output
        text = " ".join(planned.output.split())
        assert "no usual count within 16 cards; 6 full-context sequences fit " in text
        assert "so planned at most" not in planned.output


def test_servers_of_a_gpu_that_cannot_hold_the_model_are_not_counted_idle() -> None:
    """In BF16 (1,342 GB) no 16 H100 hold DeepSeek-R1: SIZ008 fails six HGX H100 servers, and TCO027 no
    longer adds that "the workload needs 0 cards, which 0 servers hold", nor TCO010 its idle cards."""
    bf16 = {**LONG_R1, "model": {"name": "deepseek-r1", "precision": "bf16"}}
    proposal = {"name": "owned", "deployment": "own_hardware", "gpu": "h100-sxm", "gpus": 48}
    checked = check({"workload": bf16, "proposal": proposal}, EVALUATED_ON)
    assert {i.rule_id: i.status for i in checked.results if i.status != "pass"} == {"SIZ008": "fail"}
    assert {"TCO010", "TCO027"}.isdisjoint(i.rule_id for i in checked.results)


def test_a_busy_load_on_capped_h100_servers_names_the_gpus_that_need_fewer() -> None:
    """A French bank's reasoning service, business-critical with personal data: every rental of H200,
    B200 or MI300X is excluded (EU data, an SLA, 16-card replicas over instances without a network the
    provider prices in), so the owned HGX H100 servers carry it on 8 replicas, 128 cards, and the
    Summary says the GPUs with no priced server on which it needs fewer (B200: 40), as it says where
    every rental is ruled out."""
    bank = {
        **LONG_R1,
        "requests_per_day": 50_000,
        "avg_input_tokens": 8000,
        "avg_output_tokens": 2000,
        "load_pattern": "variable",
        "schedule": "office_hours",
        "latency_sensitive": False,
        "personal_data": True,
        "business_critical": True,
        "on_premises_required": False,
        "company_country": "FR",
    }
    r = result(**bank)
    assert (r.decision.deployment, r.decision.gpu, r.decision.gpus) == ("own_hardware", "h100-sxm", 128)
    assert "dedicated_cloud" not in r.resolution.ruled_out
    memo = " ".join(render_memo(r).split())
    assert (
        "That figure is for h100-sxm. The catalog prices no server of h200, b200, mi300x, on which the load "
        "needs fewer GPUs (from 40 against 128): get a quote for one before buying"
    ) in memo


def test_an_on_premises_batch_is_priced_on_the_h100_servers() -> None:
    """The owned H100 servers hold the model at 16 cards a replica, a light load's count, and a batch
    runs its replicas full at the 257 requests of its length they hold: one replica, two HGX servers,
    priced (the Summary said a batch runs on the usual count, and priced none)."""
    r = result(load_pattern="batch", batch_window_hours=8)
    assert (r.decision.deployment, r.decision.gpu, r.decision.gpus) == ("own_hardware", "h100-sxm", 16)
    memo = " ".join(render_memo(r).split())
    assert (
        "Recommendation: **Own hardware**, 2 × HGX H100 8-GPU (16 × h100-sxm), **$20,851 per month**"
    ) in memo
    assert "a batch runs its replicas full, on the usual count" not in memo


def test_a_capped_replica_of_a_gpu_without_a_usual_count_says_so_in_the_table_and_in_siz009() -> None:
    """A 30B model in 16 bits with wide KV heads (40 layers x 12 x 384) at a 60,000-token context: no
    count of H100 NVL up to the bridged pair's four holds eight full-context sequences, two cards hold two.
    With room kept for two full-context requests (not the shipped one), a 2-card replica holds 7.36 in
    flight and carries at most 0.62 requests/s: the Sizing table and SIZ009 say it is the fewest cards
    that hold a light load, capped by its KV cache."""
    shape = {"num_hidden_layers": 40, "num_attention_heads": 12, "num_key_value_heads": 12, "head_dim": 384}
    workload = {
        "name": "nvl30",
        "model": {"params_b": 30, "precision": "fp16", "custom_weights": True, "attention_shape": shape},
        "context_tokens": 60_000,
        "avg_input_tokens": 6_000,
        "avg_output_tokens": 500,
        "requests_per_day": 100_000,
        "latency_sensitive": True,
        "company_country": "DE",
    }
    room_two = room_for(2)
    r = recommend(validate_workload(workload, "test"), EVALUATED_ON, knowledge=room_two)
    row = next(g for g in r.sizing.gpus if g.gpu == "h100-nvl")
    assert (row.cards_per_replica, row.gpus_with_kv_reserve, row.full_context_sequences) == (2, None, 2)
    assert row.kv_held_sequences == pytest.approx(7.36, abs=0.01)
    assert row.kv_held_requests_per_second == pytest.approx(0.623, abs=1e-3)
    assert (
        "no usual count within 4 cards; 2 full-context sequences fit; at most 7.4 in flight on average, so "
        "planned at most 0.62 req/s a replica |"
    ) in render_memo(r)
    proposal = {"name": "nvl", "deployment": "dedicated_cloud", "provider": "azure", "offer": "nc-h100-v5"}
    document = ProposalDocument.model_validate(
        {"workload": workload, "proposal": {**proposal, "gpu": "h100-nvl", "gpus": 2}}
    )
    checked = check_document(document, "<test>", 1, EVALUATED_ON, knowledge=room_two)
    (item,) = [i for i in checked.results if i.rule_id == "SIZ009"]
    assert item.status == "warn" and item.message is not None
    assert (
        "and so that a replica of 2 cards, the fewest that hold a light load, as no count of this GPU holds "
        "the usual count's full-context sequences, carries at most 0.62 requests/s, the rate at which the "
        "requests in flight fill its KV cache on average, with room kept for requests of the full serving "
        "context."
    ) in item.message
    # The shipped room for one keeps the pair uncapped: 11.9 fit beside it.
    shipped = recommend(validate_workload(workload, "test"), EVALUATED_ON)
    plain = next(g for g in shipped.sizing.gpus if g.gpu == "h100-nvl")
    assert plain.kv_held_requests_per_second is None
