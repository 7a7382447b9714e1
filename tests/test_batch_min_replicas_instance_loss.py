"""A business-critical batch whose min_replicas stands in for its spare (SIZ036): a rental that runs more
replicas than the window needs, because its instances hold more, still makes the run late where the loss
of one instance leaves fewer than the window needs. SIZ036 said nothing there, as the replicas beyond the
need counted as a spare though they share the instance that fails."""

from __future__ import annotations

from typing import Any

from helpers import flat, run

# 380,000 requests of 2,000 tokens in and 500 out within 3 hours: 9 replicas of one B200 each (the 8-card
# instances of Lambda's 8-gpu-plan), which SIZ038 puts on two instances, 8 on each.
NINE: dict[str, Any] = {
    "name": "nightly-summaries",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 380_000,
    "avg_input_tokens": 2_000,
    "avg_output_tokens": 500,
    "load_pattern": "batch",
    "batch_window_hours": 3,
    "business_critical": True,
    "min_replicas": 9,
}

PREFIX = (
    "The workload sets min_replicas: {m}, which turns off the spare replica a business-critical batch gets "
    "(SIZ035). The cheapest rental (lambda 8-gpu-plan, {cards} × b200) runs {run} replicas on "
)
REMEDY = (
    " Remove min_replicas so that every plan gets its spare, placed so that a lost instance leaves the "
    "window's replicas (SIZ038), or set it above the window's need (at least {least} for this rental), "
    "which SIZ038 places so too."
)


def siz036(result: Any) -> str:
    (finding,) = [f for f in result.findings if f.rule_id == "SIZ036"]
    return flat(finding.message)


def test_two_instances_whose_loss_leaves_fewer_than_the_window_needs() -> None:
    result = run(NINE)
    best = result.best_option
    assert best is not None
    assert (best.offer, best.replicas, best.gpus_rented, best.replicas_on_fullest_instance) == (
        "8-gpu-plan",
        16,
        16,
        8,
    )
    row = next(g for g in result.sizing.gpus if g.gpu == "b200")
    assert (row.replicas, row.spare_replicas) == (9, 0)
    assert siz036(result) == (
        PREFIX.format(m=9, cards=16, run=16)
        + "2 instances, up to 8 on one: the loss of one early in a run leaves 8 where the window needs 9, "
        "and the run ends late (a failed card alone leaves enough)." + REMEDY.format(least=10)
    )


def test_a_minimum_above_the_need_is_placed_to_survive_and_is_silent() -> None:
    """min_replicas 10 is one spare: SIZ038 places 24 replicas on three instances, 8 on each, and the loss of
    one leaves 16."""
    result = run({**NINE, "min_replicas": 10})
    best = result.best_option
    assert best is not None
    assert (best.replicas, best.gpus_rented, best.replicas_on_fullest_instance) == (24, 24, 8)
    assert "SIZ036" not in result.fired_rules


def test_one_instance_whose_loss_leaves_none() -> None:
    """20,000 requests a night need one replica; min_replicas 1 leaves it alone, and the 8-card instance
    runs 8 replicas of it on one machine: its loss leaves none. The owned server's loss takes that one
    replica too (PRC032, in the singular)."""
    result = run({**NINE, "requests_per_day": 20_000, "min_replicas": 1})
    assert siz036(result) == (
        PREFIX.format(m=1, cards=8, run=8)
        + "one instance: its loss early in a run leaves none where the window needs 1, and the run ends late "
        "(a failed card alone leaves enough)." + REMEDY.format(least=2)
    )
    (prc032,) = [f for f in result.findings if f.rule_id == "PRC032"]
    assert flat(prc032.message).endswith(
        "1 × HGX H100 8-GPU, about $11,007 a month (see Buy versus rent), though a lost server takes the one "
        "replica the window needs and makes that run late."
    )


def test_check_of_the_same_rental_warns_as_recommend_does() -> None:
    """check of recommend's own plan (16 × B200 on Lambda's 8-card instances) passed SIZ039, as a stated
    min_replicas turned off the instance-loss check a service's spares are held to (SIZ030 is theirs): a
    batch's run uses every replica its instances hold, so the loss is judged there too, and the cards that
    survive it are priced with a spare in place of the min_replicas."""
    from gpu_advisor.api import check

    proposal = {
        "name": "n16",
        "deployment": "dedicated_cloud",
        "provider": "lambda",
        "offer": "8-gpu-plan",
        "gpu": "b200",
        "gpus": 16,
        "pricing": "on_demand",
    }
    (item,) = [i for i in check({"workload": NINE, "proposal": proposal}).results if i.rule_id == "SIZ039"]
    assert item.status == "warn" and item.message is not None
    assert flat(item.message).startswith(
        "The proposal runs 16 replicas on 8-gpu-plan, up to 8 on one instance: its loss early in a run "
        "leaves 8 where the window needs 9, and the run ends late. A business-critical batch keeps its "
        "window through the loss of any one instance (SIZ038): on this offer that takes 24 cards, each run "
        "on all of them, about "
    )
    assert flat(item.message).endswith(
        "a month for the runs, with one replica beyond the window's need in place of the workload's "
        "min_replicas; or accept a late run until the instance is replaced."
    )
