"""The sizing policy, and what it lets one replica carry.

A service is sized for its peak with headroom: the busiest minutes may fill at most the target share
(``knowledge/throughput.yaml``, headroom) of what the replicas deliver, after the throughput estimate's
error band is taken off. Latency targets may lower what a replica carries further: the highest arrival
rate at which the peak still meets them. A target that even a lone request misses cannot be met by any
number of replicas: the replicas keep the documented target in its place where a lone request meets it
(a stricter target never gets a slower plan than the documented one), else the other targets.
"""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.engine.calc.latency import highest_rate_within, lone_request
from gpu_advisor.engine.calc.performance import ReplicaPerformance
from gpu_advisor.engine.calc.roofline import Roofline
from gpu_advisor.engine.domain.knowledge.base import Knowledge


class Sizing(NamedTuple):
    """The sizing policy: what a replica's estimated capacity is worth, and the replicas a rule adds."""

    capacity_share: float
    """The share of the estimated capacity the replicas are sized to use (headroom and error band)."""
    batch_capacity_share: float
    """The same for a batch: the error band only."""
    spare_replicas: int
    min_replicas: int
    max_time_to_first_token_ms: float | None = None
    max_time_per_output_token_ms: float | None = None
    """A service's latency targets at peak; None: none."""
    documented_time_to_first_token_ms: float | None = None
    documented_time_per_output_token_ms: float | None = None
    """The documented targets (knowledge/workload_defaults.yaml) of a service whose users wait: where a
    lone request misses the workload's own target, the replicas are sized for the documented one if it
    is looser and met, so that a stricter target never gets a slower plan; None: none."""
    spread: bool = False
    """A rule asked for the replicas on at least two instances (SIZ015): a failed host takes one down."""


def sizing_policy(
    knowledge: Knowledge,
    highest_error: float,
    spare: bool,
    min_replicas: int,
    max_time_to_first_token_ms: float | None = None,
    max_time_per_output_token_ms: float | None = None,
    spread: bool = False,
    users_wait: bool = False,
) -> Sizing:
    """``highest_error``: the most the estimate overstated a published measurement (estimate / published
    - 1, docs/calibration.md); ``users_wait``: a service that answers users, held to the documented
    targets where its own cannot be met."""
    derate = 1 / (1 + max(0.0, highest_error))
    return Sizing(
        capacity_share=derate * knowledge.throughput.headroom.target_share,
        batch_capacity_share=derate,
        spare_replicas=knowledge.throughput.redundancy.spare_replicas if spare else 0,
        min_replicas=min_replicas,
        max_time_to_first_token_ms=max_time_to_first_token_ms,
        max_time_per_output_token_ms=max_time_per_output_token_ms,
        documented_time_to_first_token_ms=knowledge.latency_target("max_time_to_first_token_ms")
        if users_wait
        else None,
        documented_time_per_output_token_ms=knowledge.latency_target("max_time_per_output_token_ms")
        if users_wait
        else None,
        spread=spread,
    )


class KeptTargets(NamedTuple):
    """The latency targets a replica's peak is sized to keep: the workload's where a lone request meets
    them, else the documented ones in their place where a lone request meets those; None: none kept."""

    time_to_first_token_ms: float | None
    time_per_output_token_ms: float | None


def kept_targets(roofline: Roofline, sizing: Sizing) -> KeptTargets:
    alone = lone_request(roofline)
    return KeptTargets(
        _met(
            alone.time_to_first_token_ms,
            sizing.max_time_to_first_token_ms,
            sizing.documented_time_to_first_token_ms,
        ),
        _met(
            alone.time_per_output_token_ms,
            sizing.max_time_per_output_token_ms,
            sizing.documented_time_per_output_token_ms,
        ),
    )


def rate_within_targets(performance: ReplicaPerformance, sizing: Sizing) -> float | None:
    """The request rate one replica carries within the latency targets and the headroom; None without
    targets. A target that even a lone request misses is one no number of replicas meets: the replicas
    are sized for the documented target in its place where a lone request meets that, else for the
    other targets (0 where none is left, and the headroom alone sizes them: ``kept_targets``)."""
    if sizing.max_time_to_first_token_ms is None and sizing.max_time_per_output_token_ms is None:
        return None
    ttft, tpot = kept_targets(performance.roofline, sizing)
    if ttft is None and tpot is None:
        return 0.0
    return highest_rate_within(
        performance.roofline, performance.requests_per_second * sizing.capacity_share, ttft, tpot
    )


def _met(alone_ms: float, target: float | None, documented: float | None) -> float | None:
    """The target the replicas are sized for: the workload's where a lone request meets it, else the
    documented one where it does (a lone request that misses a target misses every stricter one)."""
    if target is None:
        return None
    return next((t for t in (target, documented) if t is not None and alone_ms <= t), None)


def shortfall_alone(performance: ReplicaPerformance, sizing: Sizing) -> float:
    """How far a lone request on the replica is from the latency targets: the largest ratio of its time
    to a target, 1 where it meets them all (or there are none)."""
    ttft, tpot = sizing.max_time_to_first_token_ms, sizing.max_time_per_output_token_ms
    if ttft is None and tpot is None:
        return 1.0
    alone = lone_request(performance.roofline)
    return max(
        1.0,
        alone.time_to_first_token_ms / ttft if ttft is not None else 1.0,
        alone.time_per_output_token_ms / tpot if tpot is not None else 1.0,
    )


def usable_rate(rps: float, within: float | None, sizing: Sizing) -> float:
    """What one replica of a service is sized to carry: the rate within the latency targets, else its
    estimated capacity times the headroom share."""
    return within if within else rps * sizing.capacity_share
