"""From load to replicas: how many replicas the peak needs on each GPU, and the utilization that follows."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.calc.performance import ReplicaPerformance, replica_performances
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.load import Load


class ReplicaPlan(BaseModel):
    """How one GPU type carries the load: replicas for the peak, cards in all, utilization that follows."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gpu: str
    cards_per_replica: int
    replicas: int
    gpus: int
    requests_per_second_per_replica: float
    output_tokens_per_second_per_replica: float
    utilization: float
    """Average load over provisioned capacity in the paid hours: the share in which the cards emit tokens."""
    time_to_first_token_ms: float
    time_per_output_token_ms: float
    batch: int
    decode_bound: str


def plan_replicas(performance: ReplicaPerformance, load: Load) -> ReplicaPlan:
    replicas = max(1, math.ceil(load.peak_requests_per_second / performance.requests_per_second))
    capacity = replicas * performance.requests_per_second
    return trusted(
        ReplicaPlan,
        gpu=performance.gpu,
        cards_per_replica=performance.cards,
        replicas=replicas,
        gpus=replicas * performance.cards,
        requests_per_second_per_replica=performance.requests_per_second,
        output_tokens_per_second_per_replica=performance.output_tokens_per_second,
        utilization=min(1.0, load.average_requests_per_second * load.served_share_of_paid_hours / capacity),
        time_to_first_token_ms=performance.time_to_first_token_ms,
        time_per_output_token_ms=performance.time_per_output_token_ms,
        batch=performance.batch,
        decode_bound=performance.decode_bound,
    )


def plans_by_gpu(
    knowledge: Knowledge, figures: SizingFigures, load: Load, input_tokens: int, output_tokens: int
) -> dict[str, ReplicaPlan]:
    """A replica plan for every GPU type that can hold the model with KV reserve."""
    return {
        performance.gpu: plan_replicas(performance, load)
        for performance in replica_performances(knowledge, figures, input_tokens, output_tokens)
    }
