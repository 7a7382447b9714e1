"""The closed sets of names the inputs, the knowledge base and the rules share, defined once: the
command line's choices, the JSON Schemas and the knowledge base's checks derive from them.
"""

from __future__ import annotations

import typing
from typing import Literal

Precision = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4"]
Interconnect = Literal["nvlink", "xgmi", "pcie"]
PricingKind = Literal["on_demand", "spot", "reserved", "capacity_block", "serverless"]
BATCH_API = "batch_api"
"""The ``pricing`` a hosted API's batch listing shows the rules (its standard price is ``on_demand``)."""
Jurisdiction = Literal["EU", "US", "UK", "CH", "CN", "unknown"]
"""Where a provider region is, as data-protection law sees it: the EU (the EEA's regions count as EU), the
US, the UK, Switzerland, China (where a hosted API processes requests), or not known (marketplaces with
variable locations)."""
PersonalDataRegion = Literal["eu", "ch", "uk", "us", "other"]
"""Whose personal data a workload processes: people in the EU/EEA, Switzerland, the UK, the US, or
elsewhere. The residency rules (rules/residency.yaml) decide from it which law applies."""
LoadPattern = Literal["steady", "variable", "batch"]
ScheduleId = Literal["always", "workdays", "office_hours"]
Framework = Literal["pytorch", "jax", "tensorflow"]
ServingEngineId = Literal["vllm", "sglang", "trtllm"]
"""The serving engine a self-hosted replica runs: vLLM, SGLang or TensorRT-LLM (knowledge/throughput.yaml
holds each one's defaults)."""
Deployment = Literal["api", "serverless", "dedicated_cloud", "own_hardware", "hybrid"]
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
    "robustness",
]
Severity = Literal["info", "advice", "warning", "critical"]
FactKind = Literal[
    "gpu_fit",
    "instance_fit",
    "latency_fit",
    "batch_start",
    "workload",
    "serverless",
    "economics",
    "api",
    "robustness",
    "proposal",
]
"""The kinds of facts the rules read, in the order an evaluation asserts them."""


def names(choice: object) -> tuple[str, ...]:
    """The names of a ``Literal`` choice, in declaration order."""
    return tuple(str(name) for name in typing.get_args(choice))


PRECISIONS = names(Precision)
LOAD_PATTERNS = names(LoadPattern)
SCHEDULES = names(ScheduleId)
SERVING_ENGINES = names(ServingEngineId)
FRAMEWORKS = names(Framework)
INTERCONNECTS = names(Interconnect)
DEPLOYMENTS = names(Deployment)
JURISDICTIONS = names(Jurisdiction)
PERSONAL_DATA_REGIONS = names(PersonalDataRegion)
TOPICS = names(Topic)
ATTENTION_SEVERITIES = frozenset({"critical", "warning"})
"""A finding of these severities means the workload needs attention (batch summaries, decision summaries)."""
