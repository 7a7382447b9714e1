"""The closed sets of names the inputs, the knowledge base and the rules share, defined once: the
command line's choices and the JSON Schemas derive from them.
"""

from __future__ import annotations

import typing
from typing import Literal

Precision = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4"]


PRECISIONS: tuple[str, ...] = ("fp32", "bf16", "fp16", "fp8", "int8", "int4")


Interconnect = Literal["nvlink", "xgmi", "pcie"]


PricingKind = Literal["on_demand", "spot", "reserved", "capacity_block"]


Jurisdiction = Literal["EU", "US", "UK", "CH", "unknown"]


LoadPattern = Literal["steady", "variable", "batch"]


Framework = Literal["pytorch", "jax", "tensorflow"]


ScheduleId = Literal["always", "workdays", "office_hours"]


Topic = Literal[
    "deployment",
    "sizing",
    "interconnect",
    "pricing",
    "residency",
    "provider",
    "tco",
    "export_control",
    "optimization",
    "knowledge",
]


TOPICS: tuple[str, ...] = typing.get_args(Topic)


Severity = Literal["info", "advice", "warning", "critical"]


ATTENTION_SEVERITIES = frozenset({"critical", "warning"})
"""A finding of these severities means the workload needs attention (batch summaries, decision summaries)."""


Deployment = Literal["api", "serverless", "dedicated_cloud", "own_hardware", "hybrid"]


DEPLOYMENTS: tuple[str, ...] = typing.get_args(Deployment)
