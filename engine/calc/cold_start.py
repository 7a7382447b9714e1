"""A serverless instance's cold start in its three parts: the platform's start, the weights a replica
reads at the catalog's load rate, and the serving engine's own start; each at its best, so their sum is a
floor."""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.serving import ServerlessProduct


class ColdStart(NamedTuple):
    """One cold start's parts in seconds, each at its best: a floor."""

    platform: float
    """The platform's start (``ServerlessProduct.start_seconds``)."""
    weights: float
    """The weights a replica reads at its start, at the catalog's load rate."""
    engine: float
    """The serving engine's own start beyond the weights' load (``ThroughputFile.measured_start``)."""

    @property
    def seconds(self) -> float:  # the parts added in this order, as the result's fields sum
        return self.platform + self.weights + self.engine


def cold_start(
    knowledge: Knowledge, product: ServerlessProduct, weights_gb: float, engine_start_seconds: float
) -> ColdStart:
    """``product``'s start for a replica that reads ``weights_gb``, in its three parts."""
    weights = knowledge.serverless.weights_load_seconds(weights_gb)
    return ColdStart(product.start_seconds, weights, engine_start_seconds)
