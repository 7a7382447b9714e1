"""NET005: where a replica needs more cards than one own server holds, its servers reach each other over
InfiniBand, which the own figure does not price (the documents leave it outside the server's three
lines). DeepSeek-R1 in FP8 (about 700 GB of weights) needs 16 H100 a replica: two HGX H100 8-GPU
servers; Llama 3.1 70B needs no more than one."""

from __future__ import annotations

import re
from typing import Any

from helpers import EVALUATED_ON

from gpu_advisor.engine.apps.recommend import evaluate_workload, recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

R1: dict[str, Any] = {
    "name": "r1-agents",
    # Own weights: no hosted API serves them, so the choice is between renting and owning (with
    # DeepSeek's own API at its price, the API is the cheaper route at this load).
    "model": {"name": "deepseek-r1", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 500_000,
    "avg_input_tokens": 2000,
    "avg_output_tokens": 1500,
    "company_country": "US",
}


def test_a_replica_over_two_own_servers_needs_their_network_priced() -> None:
    result = recommend(validate_workload(R1, "test"), EVALUATED_ON)
    assert result.decision.deployment == "own_hardware"
    message = next(f.message for f in result.findings if f.rule_id == "NET005")
    assert message == (
        "One replica of this model needs 16 × h100-sxm cards, more than one HGX H100 8-GPU holds (8): each "
        "replica spans 2 servers, whose cards reach each other over InfiniBand, not NVLink (a rental "
        "splits a replica so only over a network its provider documents between its instances and includes "
        "in its price, NET003 and NET006). Its adapters, switches and cables are not in the own hardware's "
        "figure: add them before comparing it."
    )


def test_a_replica_within_one_own_server_needs_no_network_between_servers() -> None:
    workload = {**R1, "model": {"name": "llama-3.1-70b", "precision": "fp8"}}
    result = recommend(validate_workload(workload, "test"), EVALUATED_ON)
    assert "NET005" not in result.fired_rules


def test_buying_several_nodes_speaks_of_the_nodes() -> None:
    """TCO001 spoke of 'the owned node' where several HGX servers were bought for DeepSeek-R1. A US
    company's 16 nodes cost $152,870.31 a month at the documents' lines and 16 x $377.17 of staff (5 % of
    $90,520 a year each): $158,904.98. A French company's carry no staff line (no cost defaults for
    France), and the sentence that says so speaks of the nodes too."""
    result = recommend(validate_workload(R1, "test"), EVALUATED_ON)
    assert (result.decision.deployment, result.decision.deciding_rule_id) == ("own_hardware", "TCO001")
    assert result.own_hardware.nodes == 16
    message = next(f.message for f in result.findings if f.rule_id == "TCO001")
    assert message.startswith("The 16 owned nodes' cards would emit tokens in 100 % of their calendar hours")
    assert round(152_870.31 + 16 * 90_520 * 0.05 / 12, 2) == 158_904.98
    assert "and the nodes' $158,904.98/month undercuts" in message
    assert "node's" not in message and "staff" not in message
    french = recommend(validate_workload({**R1, "company_country": "NO"}, "test"), EVALUATED_ON)
    message = next(f.message for f in french.findings if f.rule_id == "TCO001")
    assert french.own_hardware.nodes == 16
    own, least = (float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+\.\d\d)/month", message))
    assert own == 152_870.31
    assert message.endswith(
        "The nodes' figure leaves staff out, not costed (the catalog has no sourced salary for NO): a staff "
        "cost above "
        f"${least - own:,.0f} a month makes that rental the cheaper; add yours before relying on the "
        "comparison."
    )
    assert "node's" not in message


def _economics_message(rule_id: str, nodes: int, lang: str) -> str:
    """``rule_id``'s message for an economics fact and details with ``nodes`` owned servers."""
    import typing

    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.i18n.formats import Format
    from gpu_advisor.engine.report.findings import render_rule_message
    from gpu_advisor.engine.rulebook.details import EconomicsDetails
    from gpu_advisor.engine.rulebook.loading import load_rulebook

    rulebook = load_rulebook()
    blank = {
        field: "" if str in (info.annotation, *typing.get_args(info.annotation)) else 0
        for field, info in EconomicsDetails.model_fields.items()
    }
    details = EconomicsDetails.model_construct(**{**blank, "own_nodes": nodes, "own_gpus": 8 * nodes})
    import yaml
    from helpers import TESTS_DIR

    # The rule cases' economics fact (every field a message may read), at 30 % node utilization.
    base = yaml.safe_load((TESTS_DIR / "rule_cases" / "base_facts.yaml").read_text(encoding="utf-8"))
    fact = {**base["economics"], "node_utilization": 0.3}
    return render_rule_message(
        rulebook.rule(rule_id), fact, load_knowledge(), rulebook, Format.named(lang), details
    )


def test_the_node_rules_count_the_nodes() -> None:
    """TCO012 and TCO017 speak of one node or of the nodes bought, in both languages."""
    # The share is the cards' time with a request in flight, not their throughput: "utilization" read as
    # the latter beside the memo's capacity figures.
    assert "That the node's cards would emit tokens in 30 % of their calendar hours (a request in flight" in (
        _economics_message("TCO012", 1, "en")
    )
    assert "That the nodes' cards would emit tokens in 30 %" in _economics_message("TCO012", 3, "en")
    assert "Dass die Karten der Nodes in 30 % ihrer Kalenderstunden Tokens ausgeben" in (
        _economics_message("TCO012", 3, "de")
    )
    assert _economics_message("TCO017", 1, "en").startswith("The owned node's cards would emit tokens")
    assert _economics_message("TCO017", 3, "en").startswith("The 3 owned nodes' cards would emit tokens")
    assert _economics_message("TCO017", 3, "de").startswith("Die Karten der 3 eigenen Nodes würden")


CHAT_70B: dict[str, Any] = {
    "name": "chat-70b-1m",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 1_000_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "latency_sensitive": True,
    "business_critical": True,
    "company_country": "US",
}
"""A US business-critical 70B chat at a million requests a day: seven 2-card replicas on two HGX."""

UNIVERSITY: dict[str, Any] = {
    "name": "uni-research-llm",
    "model": {"name": "llama-3.1-70b", "precision": "bf16"},
    "requests_per_day": 150_000,
    "avg_input_tokens": 3_000,
    "avg_output_tokens": 600,
    "load_pattern": "steady",
    "latency_sensitive": True,
    "on_premises_required": True,
    "company_country": "AT",
}
"""An Austrian university's 70B BF16 service on premises (a walkthrough's workload)."""


def test_replicas_that_share_an_owned_server_are_said_to_fail_with_it() -> None:
    """Seven 2-card replicas (six for the peak and a spare) of a business-critical chat: the servers bought
    keep the peak through the loss of one with replicas on all their cards, three HGX (two full servers
    of four would leave four). As planned, up to three replicas share a server, which the one spare does
    not cover; the idle cards hold five more, and with them a lost server leaves eight. R1's replicas fill
    a server each: nothing is said."""
    from gpu_advisor.engine.present.memo import render_memo

    chat = CHAT_70B
    result = recommend(validate_workload(chat, "test"), EVALUATED_ON)
    assert (result.decision.deployment, result.own_hardware.nodes, result.decision.gpus) == (
        "own_hardware",
        3,
        24,
    )
    memo = " ".join(render_memo(result).split())
    # Seven replicas on three servers: three on one.
    assert (
        "On the owned servers (replicas of 2 × h100-sxm) up to 3 replicas share a server: losing one (a "
        "power supply, a board, its network) takes them all down, which 1 spare replica does not cover "
        "alone."
    ) in memo
    assert "plan a server's worth of spare replicas" not in memo
    # 24 cards less the 14 the plan runs hold 5 replicas: 12 in all, 4 a server, 8 left after a loss.
    assert (
        "The 10 cards the bought servers leave idle hold 5 more replicas: run them there, and the loss of "
        "any one server still leaves 8 replicas, where the peak needs 6, with no further purchase."
    ) in memo
    assert "one more than costed here" not in memo
    # 320,000 a day, steady, on premises: three replicas (the spare on a server of its own, SIZ015) on
    # the two servers, two on the other: not four. (At 300,000 one replica of 2 x H100 carries the peak:
    # it and the spare run on a server each, and no server is shared.)
    small = {**chat, "requests_per_day": 320_000, "load_pattern": "steady", "on_premises_required": True}
    steady = recommend(validate_workload(small, "test"), EVALUATED_ON)
    assert steady.best_option is not None
    assert (steady.own_hardware.nodes, steady.best_option.replicas, steady.best_option.spare_replicas) == (
        2,
        3,
        1,
    )
    assert "On the owned servers (replicas of 2 × h100-sxm) up to 2 replicas share a server" in render_memo(
        steady
    )
    r1 = recommend(validate_workload(R1, "test"), EVALUATED_ON)
    assert r1.decision.deployment == "own_hardware"
    assert "replicas share each server" not in render_memo(r1)


def test_the_cards_the_servers_leave_idle_may_hold_a_servers_worth_of_replicas() -> None:
    """A university's 70B BF16 service on premises (150,000 requests a day): 3 replicas of 4 H100, two
    for the peak and the spare, on 2 HGX servers of 8, two replicas on one. Losing that server leaves one
    replica; the 4 idle cards hold a fourth, and with it either server lost leaves 2, the peak's count.
    Where the idle cards would not make up for a lost server, nothing is said (below)."""
    from gpu_advisor.engine.present.memo import render_memo

    university = UNIVERSITY
    result = recommend(validate_workload(university, "test"), EVALUATED_ON)
    own = result.own_hardware
    row = next(g for g in result.sizing.gpus if g.gpu == own.gpu)
    assert (own.nodes, own.gpus_needed, row.cards_per_replica, row.replicas, row.spare_replicas) == (
        2,
        12,
        4,
        3,
        1,
    )
    memo = " ".join(render_memo(result).split())
    assert (
        "The 4 cards the bought servers leave idle hold one more replica: run it there, and the loss of any "
        "one server still leaves 2 replicas, where the peak needs 2, with no further purchase."
    ) in memo
    # A 405B FP8 replica fills a server of 8: no card is left idle to hold another.
    full = {**UNIVERSITY, "model": {"name": "llama-3.1-405b", "precision": "fp8"}, "requests_per_day": 20_000}
    assert "leave idle hold" not in render_memo(recommend(validate_workload(full, "test"), EVALUATED_ON))


def test_what_losing_a_server_takes_is_worked_out_from_whole_replicas_per_server() -> None:
    """server_loss, by hand. 3 replicas of 4 cards (one a spare) on 2 servers of 8: 2 slots a server, 2
    replicas on the fuller one; 1 free slot; with it, 4 replicas, 2 a server, 2 left after a loss. 7
    replicas of 3 cards on 4 servers of 8 (2 slots each: 2 cards a server can hold no third): 8 slots,
    1 free; 2 a server at most; 8 - 2 = 6 left. A replica of 16 cards holds no whole server: None."""
    from gpu_advisor.engine.calc.own_hardware import server_loss
    from gpu_advisor.engine.calc.replicas import ReplicaPlan
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    hgx = load_knowledge().own_server()
    assert hgx.gpus_per_server == 8

    # Any evaluated plan, its counts replaced: server_loss reads only the replicas and the cards.
    evaluated = evaluate_workload(validate_workload(R1, "test"), EVALUATED_ON).market.plans["h200"]

    def plan(replicas: int, cards: int, spare: int) -> ReplicaPlan:
        return evaluated._replace(
            replicas=replicas, cards_per_replica=cards, spare_replicas=spare, gpus=replicas * cards
        )

    loss = server_loss(plan(3, 4, 1), hgx, 2)
    assert loss is not None
    assert (loss.peak_replicas, loss.replicas_per_server_max, loss.idle_card_replicas) == (2, 2, 1)
    assert loss.replicas_left_with_idle == 2
    odd = server_loss(plan(7, 3, 1), hgx, 4)
    assert odd is not None
    assert (odd.replicas_per_server_max, odd.idle_card_replicas, odd.replicas_left_with_idle) == (2, 1, 6)
    assert server_loss(plan(1, 16, 0), hgx, 2) is None


def test_a_replica_that_fills_its_own_server_is_not_said_to_share_one() -> None:
    """A German Qwen3-235B service in BF16 kept in the building runs 8-card replicas, one per HGX server,
    with no spare (not latency-sensitive): the memo said "up to 1 replicas share a server ... which 0
    spare replicas do not cover"."""
    workload = {
        "name": "qwen-agents",
        "model": {"name": "qwen3-235b-a22b", "precision": "bf16"},
        "requests_per_day": 400_000,
        "avg_input_tokens": 6000,
        "avg_output_tokens": 1500,
        "context_tokens": 32768,
        "load_pattern": "steady",
        "latency_sensitive": False,
        "personal_data": True,
        "on_premises_required": True,
        "company_country": "DE",
    }
    result = recommend(validate_workload(workload, "test"), EVALUATED_ON)
    assert result.decision.deployment == "own_hardware"
    assert result.own_hardware.server_loss.replicas_per_server_max == 1
    assert result.own_hardware.server_loss.spare_replicas == 0
    memo = " ".join(render_memo(result).split())
    assert (
        "On the owned servers each replica of 8 × h100-sxm fills a server of its own: losing one (a power "
        "supply, a board, its network) takes its replica down, and no spare replica covers it; where the "
        "service must survive the loss of a server, plan a spare replica on another server."
    ) in memo
    assert "replicas share a server" not in memo
    german = " ".join(render_memo(result, Format.named("de")).split())
    assert "Auf den eigenen Servern füllt jedes Replikat aus 8 × h100-sxm einen eigenen Server" in german


def test_one_replica_on_one_owned_server_is_said_to_run_there_and_its_idle_cards_to_hold_a_spare() -> None:
    """A 70B FP8 chat that stays in the building, latency-sensitive, min_replicas 1: one replica of 2
    H100 on one HGX of 8. The memo said the replica "fills a server of its own" and SIZ014 named a
    RunPod rental, which data that stays in the building cannot use. The 8 - 2 = 6 idle cards hold
    6 // 2 = 3 more replicas; a spare there survives a failed card, not the server's loss."""
    workload = {
        "name": "onprem-chat",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 200_000,
        "latency_sensitive": True,
        "on_premises_required": True,
        "min_replicas": 1,
    }
    result = recommend(validate_workload(workload, "test"), EVALUATED_ON)
    assert (result.decision.deployment, result.own_hardware.nodes, result.own_hardware.gpus_needed) == (
        "own_hardware",
        1,
        2,
    )
    memo = " ".join(render_memo(result).split())
    assert (
        "On the owned servers each replica of 2 × h100-sxm runs on a server of its own: losing one"
    ) in memo
    assert "fills a server" not in memo
    assert (
        "The 6 cards the bought server leaves idle hold 3 more replicas: a spare run there keeps the peak "
        "served through a failed card or an update with no further purchase, though not through the loss "
        "of the server."
    ) in memo
    assert (
        "The owned servers, the only route for data that stays in the building, run only the replicas the "
        "peak needs: with a card down or during an update, users queue behind fewer replicas than the peak "
        "needs, or the service stops where it runs one; the cards the bought servers leave idle could hold "
        'a spare with no further purchase ("Load and capacity" says how many).'
    ) in memo
    assert "The cheapest rental (" not in memo
    german = " ".join(render_memo(result, Format.named("de")).split())
    assert "Die 6 Karten, die der gekaufte Server ungenutzt lässt, fassen 3 weitere Replikate" in german
    assert "läuft jedes Replikat aus 2 × h100-sxm auf einem eigenen Server" in german


def test_servers_bought_for_the_spare_of_a_replica_over_two_servers_leave_it_to_stop() -> None:
    """DeepSeek-R1 on premises, 10,000 requests a day on workdays: one 16-card replica over two HGX H100
    servers carries the load, and the latency-sensitive spare two more (4 servers). Without the spare,
    the one replica spans two servers, and losing either stops the service: the memo said a failed server
    would only take the capacity it holds, as it counted servers left (two), not replicas (one)."""
    workload = {
        "name": "deepseek-onprem-at",
        "model": {"name": "deepseek-r1", "precision": "fp8"},
        "requests_per_day": 10_000,
        "avg_input_tokens": 3000,
        "avg_output_tokens": 1500,
        "load_pattern": "variable",
        "schedule": "workdays",
        "on_premises_required": True,
        "company_country": "AT",
    }
    result = recommend(validate_workload(workload, "test"), EVALUATED_ON)
    own = result.own_hardware
    assert (own.nodes, own.replicas, own.spare_replicas, own.spare_servers) == (4, 2, 1, 2)
    memo = " ".join(render_memo(result).split())
    assert "min_replicas: 1 leaves them out; a failed server or an update then stops the service." in memo
