"""``check`` states a bought node's utilization as the memo does: the busy card-hours of the cards the
workload needs on the server's own GPU over all the node's calendar card-hours. It read the busy share
of the recommendation's GPU instead (a rented H200 beside the bought H100 node): 11 % against the memo's
8 % for the same machine, whose cards are busy when their own replica is."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import DOCS_ASSISTANT, EVALUATED_ON, run
from test_serverless_set_aside_gpu_time import BIG_STEADY

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument

WORKLOAD = DOCS_ASSISTANT
NODE = {"name": "one HGX node", "deployment": "own_hardware", "gpu": "h100-sxm", "gpus": 8, "servers": 1}


def test_the_check_and_the_memo_count_the_same_node_utilization() -> None:
    result = run(WORKLOAD)
    own = result.own_hardware
    assert (own.gpu, own.gpus_needed, own.nodes, own.gpus_per_server) == ("h100-sxm", 4, 1, 8)
    assert result.decision.gpu != "h100-sxm"  # the load's GPU is another: the case that differed
    assert result.load.busy_share_gpu == "h200"
    # 4 cards (two 2-card replicas) busy in each replica's share of 176 paid hours (69.6 %: each decode
    # step reads the 70.55 GB of FP8 weights, not 70 GB, so a request stays in flight a little longer than
    # the 69.4 % at the nominal size), over 8 cards' 730 calendar hours. The H200 the load is sized on has
    # a request in flight on any replica in 88.4 % (the check's former figure, 11 %).
    assert (own.replicas, own.replica_busy_share) == (2, 0.696)
    assert own.node_utilization == pytest.approx(4 * 0.696 * 176 / (8 * 730), abs=1e-9)
    on_h200 = 4 * result.load.busy_share * 176 / (8 * 730)
    assert (f"{own.node_utilization:.0%}", f"{on_h200:.0%}") == ("8%", "11%")
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": NODE})
    checked = check_document(document, "node.yaml", 1, EVALUATED_ON)
    idle = next(item for item in checked.results if item.rule_id == "TCO010")
    assert idle.message == (
        "The workload needs 4 of the 8 cards bought (1 server of 8); the idle cards count against the whole "
        "machine's utilization (8 %)."
    )
    busy_under_half = next(item for item in checked.results if item.rule_id == "TCO009")
    assert busy_under_half.message.startswith(
        "The server's 8 cards would emit tokens in only 8 % of their calendar hours, under 50 %"
    )


def test_a_fourth_server_beyond_the_three_that_survive_a_loss_is_said_idle() -> None:
    """The 14 H100 the recommendation needs fit two 8-card servers; a third, with replicas on its cards,
    keeps the peak's six replicas through the loss of any one (four to a server: 8 of 12 left), as the
    recommendation's memo prices it, and is not called idle (TCO027), the 24 cards busy 58 % of their
    calendar hours, above the rent line TCO010 reads. A fourth is bought whole and stands idle."""
    results = {}
    for servers in (3, 4):
        proposal = {"name": "own", "deployment": "own_hardware", "server": "hgx-h100-8", "servers": servers}
        document = ProposalDocument.model_validate({"workload": BIG_STEADY, "proposal": proposal})
        checked = check_document(document, "p.yaml", 1, EVALUATED_ON)
        results[servers] = {item.rule_id: item for item in checked.results}
    assert results[3]["TCO010"].status == "pass"
    assert results[3]["TCO027"].status == "pass"
    assert results[4]["TCO027"].status == "warn"
    assert results[4]["TCO027"].message == (
        "The workload needs 14 cards, placed on 2 servers of 8, and 3 with replicas on their cards keep the "
        "peak through the loss of any one; the proposal buys 4, so 1 stands idle and is paid for all the "
        "same."
    )


def test_the_second_server_of_a_business_critical_spread_is_not_said_idle() -> None:
    """A business-critical 70B at 20,000 requests a day needs 4 H100 (a 2-card replica and its spare),
    which one server holds; the recommendation buys two so that the replicas are spread (SIZ015). A
    proposal of those two servers is not told that one stands idle (TCO027 counted whole servers for the
    cards, 1); a third is, with the reason the two are needed."""
    workload = {
        "name": "support",
        "model": {"name": "llama-3.3-70b", "precision": "fp8"},
        "requests_per_day": 20_000,
        "avg_input_tokens": 1500,
        "avg_output_tokens": 400,
        "load_pattern": "steady",
        "schedule": "workdays",
        "latency_sensitive": True,
        "personal_data": True,
        "on_premises_required": True,
        "business_critical": True,
        "company_country": "DE",
    }
    assert (run(workload).own_hardware.nodes, run(workload).own_hardware.gpus_needed) == (2, 4)

    assert tco027(workload, 2)[0] == "pass"
    assert tco027(workload, 3) == (
        "warn",
        "The workload needs 4 cards, placed on 2 servers of 8 (the business-critical service's replicas "
        "spread so that the peak survives the loss of any one, SIZ015); the proposal buys 3, so 1 stands "
        "idle and is paid for all the same.",
    )


def test_the_servers_that_survive_a_server_s_loss_are_not_said_idle() -> None:
    """A business-critical 70B at 1,100,000 requests a day needs 12 H100, which two HGX servers hold; the
    recommendation buys three, which keep the peak through the loss of one. A proposal of those three is
    not told that one stands idle; a fourth is."""
    workload = {
        "name": "own-bc",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 1_100_000,
        "avg_input_tokens": 1000,
        "avg_output_tokens": 300,
        "on_premises_required": True,
        "business_critical": True,
        "company_country": "DE",
    }
    own = run(workload).own_hardware
    assert (own.nodes, own.gpus_needed) == (3, 12)
    assert own.server_loss is not None and own.server_loss.servers_to_survive_loss == 3

    assert tco027(workload, 3)[0] == "pass"
    assert tco027(workload, 4) == (
        "warn",
        "The workload needs 12 cards, placed on 3 servers of 8 (the business-critical service's replicas "
        "spread so that the peak survives the loss of any one, SIZ015); the proposal buys 4, so 1 stands "
        "idle and is paid for all the same.",
    )


def tco027(workload: dict[str, Any], servers: int) -> tuple[str, str | None]:
    """TCO027's status and message for a purchase of ``servers`` HGX H100 servers for ``workload``."""
    proposal = {"name": "own", "deployment": "own_hardware", "server": "hgx-h100-8", "servers": servers}
    document = ProposalDocument.model_validate({"workload": workload, "proposal": proposal})
    item = next(
        i for i in check_document(document, "p.yaml", 1, EVALUATED_ON).results if i.rule_id == "TCO027"
    )
    return item.status, item.message
