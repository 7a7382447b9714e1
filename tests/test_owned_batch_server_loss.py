"""A business-critical batch on owned servers: recommend's memo says where the loss of one server during a
run leaves fewer replicas than the window needs, and check of such a proposal warns of it (SIZ040), as
SIZ033 warns of a service's peak."""

from __future__ import annotations

from typing import Any

from gpu_advisor.api import check

ON_PREMISES_BATCH: dict[str, Any] = {
    "name": "onprem-batch",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 12_000,
    "avg_output_tokens": 800,
    "context_tokens": 16_384,
    "load_pattern": "batch",
    "batch_window_hours": 8,
    "business_critical": True,
    "on_premises_required": True,
    "personal_data": True,
    "company_country": "DE",
}


def siz040(servers: int, workload: dict[str, Any] = ON_PREMISES_BATCH) -> Any:
    document = {
        "workload": workload,
        "proposal": {
            "name": f"{servers} HGX H100",
            "deployment": "own_hardware",
            "server": "hgx-h100-8",
            "servers": servers,
        },
    }
    return {item.rule_id: item for item in check(document).results}.get("SIZ040")


def test_two_servers_leave_the_window_short_after_a_loss() -> None:
    """Replicas of 2 H100 on all 16 cards: 8, four a server; losing one leaves 4, where the window needs
    6 (the plan's 7 replicas, one of them the spare)."""
    item = siz040(2)
    assert item is not None and item.status == "warn"
    assert item.message == (
        "The proposal runs 8 replicas of the batch on its 2 servers' cards: the loss of the fullest server "
        "during a run leaves 4 where the window needs 6, and the run ends late. A business-critical batch "
        "keeps its window through the loss of any one server only with more servers, or replicas on more of "
        "their cards; or accept a late run until the server is back."
    )


def test_three_servers_keep_the_window() -> None:
    """12 replicas on 3 servers: a loss leaves 8 of the 6 needed."""
    item = siz040(3)
    assert item is not None and item.status == "pass"


def test_a_batch_that_is_not_business_critical_is_not_held_to_it() -> None:
    relaxed = {**ON_PREMISES_BATCH, "business_critical": False}
    assert siz040(2, relaxed) is None


def test_recommend_buys_the_servers_a_loss_leaves_the_window_on() -> None:
    """The plan's 7 replicas of 2 H100 (6 for the window and a spare) take 14 cards, two 8-card servers;
    four replicas a server, the loss of one of two leaves 3 (with the idle cards' replica, 4) of the 6.
    SIZ038 buys servers as it places rentals: ceil(6 / 4) + 1 = 3, the count check passes above."""
    from gpu_advisor.api import recommend, render_memo

    result = recommend(ON_PREMISES_BATCH)
    own = result.own_hardware
    assert own is not None and own.server_loss is not None
    assert (own.replicas, own.spare_replicas, own.gpus_needed, own.nodes) == (7, 1, 14, 3)
    assert (own.server_loss.peak_replicas, own.server_loss.replicas_left_with_idle) == (6, 8)
    assert (
        "The cards the load needs would fit fewer servers: the business-critical batch's replicas, its "
        "spare among them (SIZ035), are spread over servers so that a failed one leaves those its window "
        "needs (SIZ038), so 3 are bought."
    ) in " ".join(render_memo(result).split())
    relaxed = recommend({**ON_PREMISES_BATCH, "business_critical": False})
    assert relaxed.own_hardware is not None and relaxed.own_hardware.nodes == 2


def test_with_min_replicas_in_place_of_the_spare_the_memo_says_a_lost_server_makes_the_run_late() -> None:
    """min_replicas: 1 drops the spare: 6 replicas of 2 cards on two servers, three on each (four slots
    each); a lost one leaves 3 and the replicas on the other's idle card (1): 4 of the 6 the window needs.
    SIZ040 warns of the same plan in check; the memo says so too."""
    from gpu_advisor.api import recommend, render_memo

    lean = {**ON_PREMISES_BATCH, "min_replicas": 1}
    result = recommend(lean)
    own = result.own_hardware
    assert own is not None and own.server_loss is not None
    assert (own.nodes, own.replicas, own.spare_replicas) == (2, 6, 0)
    loss = own.server_loss
    assert (loss.replicas_per_server_max, loss.replicas_left_with_idle, loss.peak_replicas) == (3, 4, 6)
    assert (
        "A lost server takes the replicas on it, up to 3 of the 6: the other servers' cards hold 4, replicas "
        "started on those the load leaves idle included, fewer than the 6 the window needs, so such a loss "
        "makes the run late." in " ".join(render_memo(result).split())
    )
    item = siz040(2, lean)
    assert item is not None and item.status == "warn"
