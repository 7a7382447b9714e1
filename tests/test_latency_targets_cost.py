"""What the latency targets cost at least: the decision's bill against the same GPU on the same offer (or
the same servers) sized for throughput alone, the cards per replica included
(``capacity.plan_for_throughput_alone``; ``Option.throughput_alone``, ``OwnHardware.throughput_alone``).
Where no other offer or server would be cheaper, the figure equals the difference to an evaluation of the
same workload with no latency target at all (the on-premises cases below); where one would, the figure is
the smaller one (the HR assistant: Scaleway's 4-card instances, which the targets' 8-card replicas cannot
use, carry the smaller plan for less)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from helpers import EXAMPLES_DIR, flat, run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

# A contract archive searched on premises: 5,000 requests on working days, long prompts.
ON_PREMISES_RAG: dict[str, Any] = {
    "name": "contract-rag",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 5_000,
    "avg_input_tokens": 17_500,
    "avg_output_tokens": 800,
    "schedule": "workdays",
    "on_premises_required": True,
}
NO_TARGETS = {"max_time_to_first_token_ms": None, "max_time_per_output_token_ms": None}


def test_the_default_targets_double_the_own_servers_and_the_memo_prices_it() -> None:
    """The default first token within a second takes 8 H100 a replica (834 ms at the peak, its row under
    Sizing) and a spare: 16 cards, two HGX servers. Throughput alone takes two H100 a replica, two
    replicas with the spare: 4 cards, one server, as the same workload with no target is recommended."""
    result = run(ON_PREMISES_RAG)
    own = result.own_hardware
    assert result.decision.deployment == "own_hardware" and own.nodes == 2
    alone = own.throughput_alone
    assert alone is not None
    assert (alone.cards_per_replica, alone.replicas, alone.spare_replicas, alone.gpus, alone.servers) == (
        2,
        2,
        1,
        4,
        1,
    )
    per_server = own.usd_per_month / 2
    assert alone.usd_per_month == pytest.approx(per_server)
    assert own.latency_targets_usd_per_month == pytest.approx(per_server)
    unhurried = run({**ON_PREMISES_RAG, **NO_TARGETS})
    assert unhurried.own_hardware.nodes == 1 and unhurried.own_hardware.throughput_alone is None
    assert unhurried.decision.usd_per_month == pytest.approx(alone.usd_per_month)
    cost = f"${per_server:,.0f}"
    assert cost == "$10,425"
    memo = flat(render_memo(result))
    assert (
        f'At least {cost} of the monthly cost is for latency, not throughput (see "Load and capacity"): '
        "sized for throughput alone, one server would carry the load." in memo
    )
    assert (
        "On the own servers, throughput alone would take 2 replicas of 2 × h100-sxm (4 GPUs in all, spares "
        "included), one server; the latency targets take replicas of 8 × h100-sxm, 2 servers, at least "
        f"{cost} a month more in capital, power, housing and staff." in memo
    )
    assert (
        "The targets are the defaults for a latency-sensitive service, not the workload's own: where its "
        "users accept a slower answer, state theirs" in memo
    )
    assert "is for latency, not throughput" not in render_memo(unhurried)


def test_a_stated_target_is_priced_without_the_advice_to_state_one() -> None:
    stated = {"max_time_to_first_token_ms": 1_000, "max_time_per_output_token_ms": 100}
    result = run({**ON_PREMISES_RAG, **stated})
    assert result.own_hardware.latency_targets_usd_per_month == pytest.approx(
        run(ON_PREMISES_RAG).own_hardware.latency_targets_usd_per_month
    )
    memo = flat(render_memo(result))
    assert "the latency targets take replicas of 8 × h100-sxm, 2 servers" in memo
    assert "The targets are the defaults" not in memo


def test_a_dropped_default_that_chooses_the_cards_is_priced_with_the_choice_it_leaves() -> None:
    """100,000-token prompts, 5,500 a day: no GPU can be planned to the default first token (LAT010),
    which still chooses 8 H100 a replica, 4 replicas for the peak and the spare: 32 cards, 4 servers.
    Throughput alone runs 2 cards a replica, 10 replicas: 20 cards, 3 servers ($31,276 a month, as with no
    target). At 5,000 a day three replicas of 8 fill the same 3 servers, and nothing is priced."""
    workload = {**ON_PREMISES_RAG, "avg_input_tokens": 100_000, "requests_per_day": 5_500}
    result = run(workload)
    assert "LAT010" in result.fired_rules
    own = result.own_hardware
    alone = own.throughput_alone
    assert alone is not None and own.nodes == 4
    assert (alone.cards_per_replica, alone.replicas, alone.spare_replicas, alone.gpus, alone.servers) == (
        2,
        10,
        1,
        20,
        3,
    )
    unhurried = run({**workload, "max_time_to_first_token_ms": None})
    assert unhurried.decision.usd_per_month == pytest.approx(alone.usd_per_month)
    assert round(alone.usd_per_month) == 31_276
    assert own.latency_targets_usd_per_month == pytest.approx(own.usd_per_month / 4)
    memo = flat(render_memo(result))
    assert (
        "On the own servers, throughput alone would take 10 replicas of 2 × h100-sxm (20 GPUs in "
        "all, spares included), 3 servers; replicas of 8 × h100-sxm, the size that comes closest to the "
        "dropped default, take 4 servers, at least $10,425 a month more in capital, power, housing and "
        "staff." in memo
    )
    assert (
        "A first-token target the workload states settles which of the two it pays for: the faster replicas "
        "or the fewer cards." in memo
    )
    # The replicas are sized for the throughput (LAT010): the Summary says what the money goes to instead.
    assert (
        "At least $10,425 of the monthly cost is for larger replicas than the throughput needs, the size "
        'that comes closest to a default latency target no GPU can be planned to (see "Load and capacity"): '
        "sized for throughput alone, 3 servers, spares included, would carry the load." in memo
    )
    assert "is for latency, not throughput" not in memo
    assert "The targets are the defaults" not in memo


def test_a_dedicated_decision_says_what_its_targets_cost_as_the_offer_bills_them() -> None:
    """The HR assistant with 16,000-token prompts: the default targets take 8 H100 a replica, 2 for the
    peak and the spare, 24 cards on Scaleway's 8-card instances. Throughput alone: 2 cards a replica, 6
    replicas, 12 cards, billed as two 8-card instances: two thirds of the bill."""
    workload = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
    workload["avg_input_tokens"] = 16_000
    result = run(workload)
    best = result.best_option
    assert best is not None and best.chosen and (best.provider, best.offer) == ("scaleway", "h100-sxm-8-80g")
    assert (best.gpus, best.gpus_rented) == (24, 24)
    alone = best.throughput_alone
    assert alone is not None and (
        alone.cards_per_replica,
        alone.replicas,
        alone.spare_replicas,
        alone.gpus,
    ) == (2, 6, 1, 12)
    hourly = best.usd_per_gpu_hour * best.billed_hours_per_month
    assert alone.usd_per_month == pytest.approx(16 * hourly)
    assert best.latency_targets_usd_per_month == pytest.approx((24 - 16) * hourly)
    # A lower bound: with no target the workload goes to Scaleway's 4-card instances, which the 8-card
    # replicas cannot use, for less than the same plan on 8-card instances.
    unhurried = run({**workload, **NO_TARGETS})
    assert (unhurried.decision.provider, unhurried.decision.offer) == ("scaleway", "h100-sxm-4-80g")
    assert unhurried.decision.usd_per_month is not None and result.decision.usd_per_month is not None
    assert unhurried.decision.usd_per_month < alone.usd_per_month
    saved = result.decision.usd_per_month - unhurried.decision.usd_per_month
    assert saved > best.latency_targets_usd_per_month
    cost = f"${best.latency_targets_usd_per_month:,.0f}"
    memo = flat(render_memo(result))
    assert (
        f'At least {cost} of the monthly cost is for latency, not throughput (see "Load and capacity"): '
        "sized for throughput alone, 12 GPUs, spares included, would carry the load." in memo
    )
    assert (
        "Sized for throughput alone, 6 replicas of 2 × h100-sxm (12 GPUs in all, spares included) would "
        "carry the peak; the latency targets take replicas of 8 × h100-sxm, 24 GPUs, at least "
        f"{cost} a month more at scaleway (h100-sxm-8-80g) as it bills them." in memo
    )
    german = flat(render_memo(result, Format.named("de")))
    assert (
        "allein nach dem Durchsatz bemessen, trügen 12 GPUs, Ersatzreplikate eingeschlossen, die Last."
        in german
    )


def test_where_throughput_sets_cards_and_replicas_nothing_is_priced() -> None:
    """The HR assistant as it is: its 1,200-token prompts meet the defaults on the plan throughput
    chooses, so the targets cost nothing and no sentence says they do."""
    workload = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
    result = run(workload)
    best = result.best_option
    assert best is not None and best.throughput_alone is None and best.latency_targets_usd_per_month is None
    assert result.own_hardware.throughput_alone is None
    memo = render_memo(result)
    assert "throughput alone" not in memo and "is for latency, not throughput" not in memo


def test_where_the_targets_change_the_plan_but_not_the_bill_no_figure_is_given() -> None:
    """An agent chat at 150,000 requests a day, 6,000-token prompts, 600 ms and 40 ms stated: the targets
    choose another plan on the best rental's GPU and on the own servers' than throughput alone would, but
    the offer's instances and the servers bill both alike, so nothing is priced (None, not 0)."""
    result = run(
        {
            "name": "agent-chat",
            "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
            "requests_per_day": 150_000,
            "avg_input_tokens": 6_000,
            "avg_output_tokens": 300,
            "schedule": "always",
            "max_time_to_first_token_ms": 600,
            "max_time_per_output_token_ms": 40,
            "personal_data": True,
            "company_country": "DE",
        }
    )
    best, own = result.best_option, result.own_hardware
    assert best is not None
    assert (best.throughput_alone, best.latency_targets_usd_per_month) == (None, None)
    assert (own.throughput_alone, own.latency_targets_usd_per_month) == (None, None)
    assert "is for latency, not throughput" not in render_memo(result)


def test_gpus_the_targets_rule_out_are_named_even_where_no_figure_is_given() -> None:
    """An 8B chat on premises with the first token within 150 ms: the latency rules rule the small cards
    out, and the HGX H100 carries it on one server either way, so no figure; the memo still says that the
    cards the targets rule out are not costed and may be cheaper."""
    result = run(
        {
            "name": "onprem-8b-chat",
            "model": {"name": "llama-3.1-8b", "precision": "fp8"},
            "requests_per_day": 20_000,
            "avg_input_tokens": 4_000,
            "avg_output_tokens": 300,
            "schedule": "workdays",
            "on_premises_required": True,
            "max_time_to_first_token_ms": 150,
        }
    )
    assert result.own_hardware.latency_targets_usd_per_month is None
    assert "LAT001" in result.fired_rules
    memo = flat(render_memo(result))
    assert (
        "The targets also rule out l40s, l4, rtx-5090, a10g, a100-80gb-pcie (see Sizing): what the workload "
        "would cost on those without them is not worked out here, and may be less." in memo
    )
