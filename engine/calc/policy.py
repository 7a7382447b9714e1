"""The sizing policy, and what it lets one replica carry.

A service is sized for its peak with headroom: the busiest minutes may fill at most the target share
(``knowledge/throughput.yaml``, headroom) of what the replicas deliver, after the throughput estimate's
error band is taken off. Latency targets may lower what a replica carries further: the highest arrival
rate at which the peak still meets them.

A lone request's latency is the least any load gives, and the replicas a target needs grow without bound
as the target nears it. So a target is planned to only where it lies at least the estimate's mean latency
error above a lone request's time (``calibration.latency_margin``): nearer than that the estimate cannot
tell a met target from a missed one. A target below that line is kept at the line instead: the lone time
plus the error, the closest the replica can be planned to. The kept target moves with the target, so a
stricter target never gets a slower plan.
"""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.engine.calc.calibration import latency_margin
from gpu_advisor.engine.calc.latency import OperatingPoint, highest_rate_within, lone_request
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
    latency_margin: float = 0.0
    """How far above a lone request's latency a target must lie to be planned to, as a share of it (the
    estimate's mean latency error)."""
    spread: bool = False
    """A rule asked for the replicas on at least two instances (SIZ015): a failed host takes one down."""
    cards_toward_ttft_ms: float | None = None
    cards_toward_tpot_ms: float | None = None
    """Default latency targets the rules dropped as out of reach (LAT010, LAT011): they choose each
    GPU's cards per replica (the count whose lone request comes closest to them), not the replicas. Two
    numbers, not a pair: the plans' cache takes the policy's fields by value."""
    estimate_error_taken_off: float = 0.0
    """The estimate's overstatement taken off the capacity (``calibration.error_taken_off``)."""
    spread_runs: bool = False
    """A rule asked a batch's replicas on rented instances placed as ``spread`` places a service's
    (SIZ038): the loss of any one instance leaves the replicas the window needs."""

    def choosing_cards(self) -> Sizing:
        """The policy that ranks card counts: the targets, and a dropped default where a target is
        missing."""
        ttft, tpot = self.cards_toward_ttft_ms, self.cards_toward_tpot_ms
        if ttft is None and tpot is None:
            return self
        return self._replace(
            max_time_to_first_token_ms=self.max_time_to_first_token_ms or ttft,
            max_time_per_output_token_ms=self.max_time_per_output_token_ms or tpot,
        )


def sizing_policy(
    knowledge: Knowledge,
    highest_error: float,
    spare: bool,
    min_replicas: int,
    max_time_to_first_token_ms: float | None = None,
    max_time_per_output_token_ms: float | None = None,
    spread: bool = False,
    dropped: tuple[str, ...] = (),
    spread_runs: bool = False,
) -> Sizing:
    """``highest_error``: the most the estimate overstated a published measurement (estimate / published
    - 1, docs/calibration.md; ``calibration.error_taken_off``). ``dropped``: the default latency targets the
    rules dropped (LAT010, LAT011), which still choose the cards per replica at their default values."""
    taken_off = max(0.0, highest_error)
    derate = 1 / (1 + taken_off)
    return Sizing(
        capacity_share=derate * knowledge.throughput.headroom.target_share,
        batch_capacity_share=derate,
        spare_replicas=knowledge.throughput.redundancy.spare_replicas if spare else 0,
        min_replicas=min_replicas,
        max_time_to_first_token_ms=max_time_to_first_token_ms,
        max_time_per_output_token_ms=max_time_per_output_token_ms,
        latency_margin=latency_margin(knowledge),
        spread=spread,
        cards_toward_ttft_ms=_dropped_default(knowledge, dropped, "max_time_to_first_token_ms"),
        cards_toward_tpot_ms=_dropped_default(knowledge, dropped, "max_time_per_output_token_ms"),
        estimate_error_taken_off=taken_off,
        spread_runs=spread_runs,
    )


def _dropped_default(knowledge: Knowledge, dropped: tuple[str, ...], field: str) -> float | None:
    return knowledge.latency_target(field) if field in dropped else None


class KeptTargets(NamedTuple):
    """The latency targets a replica's peak is sized to keep: each the workload's target, or where that
    lies less than the latency margin above a lone request's time, that time plus the margin; None where
    the workload sets none."""

    time_to_first_token_ms: float | None
    time_per_output_token_ms: float | None


def kept_targets(roofline: Roofline, sizing: Sizing) -> KeptTargets:
    alone = lone_request(roofline)
    return KeptTargets(
        kept_target(alone.time_to_first_token_ms, sizing.max_time_to_first_token_ms, sizing.latency_margin),
        kept_target(
            alone.time_per_output_token_ms, sizing.max_time_per_output_token_ms, sizing.latency_margin
        ),
    )


def kept_target(alone_ms: float, target: float | None, margin: float) -> float | None:
    """What replicas whose lone request takes ``alone_ms`` keep of ``target`` (None: no target)."""
    return None if target is None else max(target, alone_ms * (1 + margin))


def shortfall(alone: OperatingPoint, ttft: float | None, tpot: float | None, margin: float) -> float:
    """How far replicas whose lone request sees ``alone`` are from the targets: the largest ratio of a
    lone request's time plus the margin to a target (1 or less: planned to every one; 0 without
    targets)."""
    line = 1 + margin
    return max(
        alone.time_to_first_token_ms * line / ttft if ttft is not None else 0.0,
        alone.time_per_output_token_ms * line / tpot if tpot is not None else 0.0,
    )


def rate_within_targets(performance: ReplicaPerformance, sizing: Sizing) -> float | None:
    """The request rate one replica carries within its kept latency targets (``kept_targets``) and the
    headroom; None without targets."""
    if sizing.max_time_to_first_token_ms is None and sizing.max_time_per_output_token_ms is None:
        return None
    ttft, tpot = kept_targets(performance.roofline, sizing)
    return highest_rate_within(
        performance.roofline, performance.requests_per_second * sizing.capacity_share, ttft, tpot
    )


def shortfall_alone(performance: ReplicaPerformance, sizing: Sizing) -> float:
    """How far the replica is from planning to the latency targets: the largest ratio of a lone request's
    time plus the latency margin to a target, 1 where every target can be planned to (or there are
    none)."""
    ttft, tpot = sizing.max_time_to_first_token_ms, sizing.max_time_per_output_token_ms
    if ttft is None and tpot is None:
        return 1.0
    return max(1.0, shortfall(lone_request(performance.roofline), ttft, tpot, sizing.latency_margin))


def usable_rate(rps: float, within: float | None, sizing: Sizing, held: float | None = None) -> float:
    """What one replica of a service is sized to carry: the rate within the latency targets, else its
    estimated capacity times the headroom share; at most ``held``, the rate whose requests in flight a
    replica below the usual card count holds with room kept for full-context ones
    (``ReplicaPlan.rate_kv_holds``)."""
    rate = within if within else rps * sizing.capacity_share
    return rate if held is None else min(rate, held)
