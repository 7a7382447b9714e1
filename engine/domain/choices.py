"""The closed sets of names the inputs, the knowledge base and the rules share, defined once: the
command line's choices, the JSON Schemas and the knowledge base's checks derive from them.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import BeforeValidator, StringConstraints

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
    "decision",
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


def _as_listed(choices: tuple[str, ...], hyphens: bool = False) -> Callable[[object], object]:
    """A value that names one of ``choices`` in another case ('EU' for 'eu'), and with ``hyphens`` with
    a hyphen for an underscore ('on-demand' for 'on_demand'), as listed; anything else as given, for the
    choice's own check to refuse."""
    listed = {choice.casefold(): choice for choice in choices}

    def spelled(value: object) -> object:
        if not isinstance(value, str):
            return value
        key = value.casefold().replace("-", "_") if hyphens else value.casefold()
        return listed.get(key, value)

    return spelled


def _any_case_pattern(choices: tuple[str, ...], hyphens: bool = False) -> str:
    """A JSON Schema pattern that matches each of ``choices`` in any case ('eu', 'EU', 'Eu'), and with
    ``hyphens`` an underscore as a hyphen too, as the validator takes them: JSON Schema's regular
    expressions have no case-insensitive flag."""

    def letters(choice: str) -> str:
        def one(c: str) -> str:
            if c.isalpha():
                return f"[{c.lower()}{c.upper()}]"
            return "[_-]" if hyphens and c == "_" else re.escape(c)

        return "".join(map(one, choice))

    return "^(" + "|".join(letters(choice) for choice in choices) + ")$"


def any_case(choices: tuple[str, ...], hyphens: bool = False) -> BeforeValidator:
    """A region or country choice as a user types it: any case, as a country code is taken
    (``countries.CountryCodeInput``), and with ``hyphens`` as the memo prints it ('on-demand'); the JSON
    Schema's pattern takes the same spellings."""
    # The listed spellings first, for an editor to offer; the pattern for the other cases.
    pattern = StringConstraints(pattern=_any_case_pattern(choices, hyphens))
    return BeforeValidator(
        _as_listed(choices, hyphens), json_schema_input_type=Literal[choices] | Annotated[str, pattern]
    )


PersonalDataRegionInput = Annotated[PersonalDataRegion, any_case(PERSONAL_DATA_REGIONS)]
"""``personal_data_region`` as a workload gives it: 'EU' is 'eu'."""
JurisdictionInput = Annotated[Jurisdiction, any_case(JURISDICTIONS)]
"""A jurisdiction as an overrides file gives it: 'eu' is 'EU', 'UNKNOWN' is 'unknown'."""
PricingKindInput = Annotated[PricingKind, any_case(names(PricingKind), hyphens=True)]
"""A proposal's ``pricing`` as the memo prints it: 'on-demand' is 'on_demand', 'Spot' is 'spot'."""
