"""gpu-advisor as a Python library: typed functions that return the pydantic result models.

    from gpu_advisor.api import recommend, load_workload
    result = recommend(load_workload("examples/public-chat.yaml"))
    print(result.decision.deployment, result.decision.usd_per_month)

Every function is safe to call from many threads at once: the rules-engine adapter serializes what
durable-rules cannot share. The first call builds the engine (tens of milliseconds); later calls cost a
few milliseconds. Errors a caller can act on are raised as ``InputError`` (bad input) or
``KnowledgeError`` (a broken knowledge base), both ``AdvisorError``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from .engine.apps.check.run import check_document, check_file
from .engine.apps.recommend import decide_workload as _decide_workload
from .engine.apps.recommend import recommend as _recommend
from .engine.apps.size import LoadInput
from .engine.apps.size import size as _size
from .engine.apps.tco import tco as _tco
from .engine.common.errors import AdvisorError, InputError, KnowledgeError
from .engine.domain.proposal import CheckResult, ProposalDocument
from .engine.domain.results import DecisionSummary, Recommendation, SizeResult, TcoResult
from .engine.domain.workload import Workload, load_workload, parse_workload_text, validate_workload

__all__ = [
    "AdvisorError",
    "CheckResult",
    "DecisionSummary",
    "InputError",
    "KnowledgeError",
    "LoadInput",
    "ProposalDocument",
    "Recommendation",
    "SizeResult",
    "TcoResult",
    "Workload",
    "check",
    "check_path",
    "decide",
    "load_workload",
    "parse_workload_text",
    "recommend",
    "size",
    "tco",
    "workload_from_dict",
]


def workload_from_dict(data: dict[str, Any], origin: str = "<dict>") -> Workload:
    """Validate a workload given as a mapping (as parsed from YAML or JSON)."""
    return validate_workload(data, origin)


def recommend(workload: Workload | dict[str, Any], evaluated_on: dt.date | None = None) -> Recommendation:
    """The full decision for one workload; ``evaluated_on`` (default today) dates the price ages."""
    if isinstance(workload, dict):
        workload = workload_from_dict(workload)
    return _recommend(workload, evaluated_on or dt.date.today())


def decide(workload: Workload | dict[str, Any], evaluated_on: dt.date | None = None) -> DecisionSummary:
    """The decision of ``recommend`` with the IDs of the rules that fired and of those that need
    attention, without the findings' texts and the tables: for portfolios and sweeps, in about two
    thirds of the time."""
    if isinstance(workload, dict):
        workload = workload_from_dict(workload)
    return _decide_workload(workload, evaluated_on or dt.date.today())


def size(
    *,
    precision: str,
    model_id: str | None = None,
    params_b: float | None = None,
    active_params_b: float | None = None,
    context_tokens: int | None = None,
    load: LoadInput | None = None,
) -> SizeResult:
    """Card counts per GPU for one model; with ``load``, replicas per GPU for its peak."""
    return _size(
        precision=precision,
        model_id=model_id,
        params_b=params_b,
        active_params_b=active_params_b,
        context_tokens=context_tokens,
        load_input=load,
    )


def tco(**overrides: float) -> TcoResult:
    """Own-server cost per GPU-hour and break-even per offer; keyword arguments replace assumptions
    (server_price_usd, gpus_per_server, months, gpu_watts, power_overhead, usd_per_kwh,
    rack_usd_per_month, residual)."""
    return _tco(overrides)


def check(
    document: ProposalDocument | dict[str, Any],
    evaluated_on: dt.date | None = None,
    policy_dir: str | None = None,
) -> CheckResult:
    """Check one proposal (a workload, what someone intends to do, waivers) against every applicable rule."""
    if isinstance(document, dict):
        from pydantic import ValidationError

        from .engine.domain.input_errors import input_error

        try:
            document = ProposalDocument.model_validate(document)
        except ValidationError as error:
            raise input_error("<dict>", error, ProposalDocument, "proposal") from None
    return check_document(document, "<api>", 1, evaluated_on or dt.date.today(), policy_dir=policy_dir)


def check_path(
    path: str, evaluated_on: dt.date | None = None, policy_dir: str | None = None
) -> list[CheckResult]:
    """Check every proposal of a YAML or JSON file."""
    return check_file(path, evaluated_on or dt.date.today(), policy_dir=policy_dir)
