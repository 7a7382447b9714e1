"""Words of the memo's robustness section that come from data rather than from the template: the shapes,
the origins of a range, and the shipped uncertain inputs' descriptions (``knowledge/uncertainty.yaml``)."""

from __future__ import annotations

from gpu_advisor.engine.domain.distributions import SHAPES
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

ORIGINS = ("your overrides file", "the workload file")
WORKLOAD_INPUTS = ("requests a day", "volume growth within a year")


def words() -> tuple[str, ...]:
    shipped = tuple(entry.description for entry in load_knowledge().uncertainty.inputs)
    return (*SHAPES, *ORIGINS, *WORKLOAD_INPUTS, *shipped)
