"""What latency targets let one replica carry (``calc/policy.py``), where a lone request misses one.

A target that even a lone request misses cannot be met by any number of replicas. The replica is then
sized for the documented target in its place where the workload's users wait and a lone request meets
that (a stricter target never gets a slower plan than the documented one), else for the targets it
meets, else by the headroom alone; and among card counts, the one whose lone request comes closest
runs it."""

from __future__ import annotations

import pytest

from gpu_advisor.engine.calc.latency import highest_rate_within, lone_request
from gpu_advisor.engine.calc.performance import ReplicaPerformance, candidate_performances
from gpu_advisor.engine.calc.policy import Sizing, rate_within_targets, shortfall_alone, sizing_policy
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge


@pytest.fixture(scope="module")
def knowledge() -> Knowledge:
    return load_knowledge()


@pytest.fixture(scope="module")
def replica(knowledge: Knowledge) -> ReplicaPerformance:
    """Llama 3.1 70B FP8 on 8 H100 SXM, 20,000-token prompts and 400-token answers."""
    llama = next(m for m in knowledge.models.models if m.id == "llama-3.1-70b")
    figures = size_model(knowledge, 70, 70, "fp8", llama, 32_768)
    candidates = candidate_performances(knowledge, figures, 20_000, 400)["h100-sxm"]
    return next(p for p in candidates if p.cards == 8)


def policy(knowledge: Knowledge, ttft: float | None, tpot: float | None, users_wait: bool) -> Sizing:
    return sizing_policy(knowledge, 0.09, False, 1, ttft, tpot, users_wait=users_wait)


def headroom(knowledge: Knowledge) -> float:
    """The share of a replica's estimated rate it is sized to use: 70 % over 1.09, the error band's top."""
    share = policy(knowledge, None, None, users_wait=False).capacity_share
    assert share == pytest.approx(0.7 / 1.09, rel=1e-12)
    return share


def test_a_missed_target_gives_way_to_the_documented_one_where_users_wait(
    knowledge: Knowledge, replica: ReplicaPerformance
) -> None:
    alone = lone_request(replica.roofline).time_to_first_token_ms
    # The lone prompt misses 400 ms and meets the documented second: the replica carries what keeps
    # 1,000 ms at its peak, the rate the search finds for that target alone.
    assert 400 < alone < 1000
    ceiling = replica.requests_per_second * headroom(knowledge)
    within = rate_within_targets(replica, policy(knowledge, 400, None, users_wait=True))
    assert within == highest_rate_within(replica.roofline, ceiling, 1000.0, None)
    assert 0 < within < ceiling
    # Where nobody waits for the answers, there is no documented target to keep: the headroom sizes it.
    assert rate_within_targets(replica, policy(knowledge, 400, None, users_wait=False)) == 0.0
    # Its shortfall ranks it among card counts: its lone time over the target.
    assert shortfall_alone(replica, policy(knowledge, 400, None, users_wait=True)) == alone / 400


def test_the_targets_a_lone_request_meets_still_size_the_replica(
    knowledge: Knowledge, replica: ReplicaPerformance
) -> None:
    alone = lone_request(replica.roofline)
    tpot = alone.time_per_output_token_ms * 1.5
    ceiling = replica.requests_per_second * headroom(knowledge)
    # The first-token target no replica meets is dropped, the time per token still holds.
    within = rate_within_targets(replica, policy(knowledge, 100, tpot, users_wait=False))
    assert within == highest_rate_within(replica.roofline, ceiling, None, tpot)
    assert within > 0


def test_a_replica_that_meets_every_target_has_no_shortfall(
    knowledge: Knowledge, replica: ReplicaPerformance
) -> None:
    assert shortfall_alone(replica, policy(knowledge, 100_000, 1000, users_wait=True)) == 1.0
    assert shortfall_alone(replica, policy(knowledge, None, None, users_wait=True)) == 1.0
    assert rate_within_targets(replica, policy(knowledge, None, None, users_wait=True)) is None
    # A documented target stricter than the workload's is never taken in its place.
    lenient = policy(knowledge, 100_000, None, users_wait=True)
    ceiling = replica.requests_per_second * headroom(knowledge)
    assert rate_within_targets(replica, lenient) == highest_rate_within(
        replica.roofline, ceiling, 100_000, None
    )
