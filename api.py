"""gpu-advisor as a Python library: typed functions that return the pydantic result models.

    from gpu_advisor.api import recommend, load_workload, render_memo
    result = recommend(load_workload("examples/public-chat.yaml"))
    print(result.decision.deployment, result.decision.usd_per_month)
    print(render_memo(result, lang="de", currency="EUR"))

Every input is validated as on the command line and over HTTP (the same models): bad input raises
``InputError`` naming the field, a broken knowledge base ``KnowledgeError``; both are ``AdvisorError``.
Every function is safe to call from many threads at once: the rules-engine adapter serializes what
durable-rules cannot share. The first call builds the engine (tens of milliseconds); later calls cost a
few milliseconds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .engine.apps.check.run import check_document, check_file
from .engine.apps.recommend import decide_workload
from .engine.apps.recommend import recommend as _recommend
from .engine.apps.size import size as _size
from .engine.apps.tco import tco as _tco
from .engine.common.errors import AdvisorError, InputError, KnowledgeError, unknown_value_message
from .engine.common.user_input import iso_date
from .engine.common.values import MAX_NESTING_DEPTH, nested_deeper
from .engine.common.wording import at
from .engine.domain.input_errors import input_error
from .engine.domain.knowledge.base import franc_rate
from .engine.domain.knowledge.loading import load_knowledge
from .engine.domain.proposal import CheckResult, ProposalDocument
from .engine.domain.requests import LoadRequest, SizeRequest, TcoRequest
from .engine.domain.results import DecisionSummary, Recommendation, SizeResult, TcoResult
from .engine.domain.workload import (
    Workload,
    WorkloadInput,
    load_workload,
    parse_workload_text,
    validate_workload,
)
from .engine.i18n.formats import CURRENCIES, LANGUAGES, Format
from .engine.present.memo import render_memo as _render_memo

__all__ = [
    "AdvisorError",
    "CheckResult",
    "DecisionSummary",
    "InputError",
    "KnowledgeError",
    "LoadRequest",
    "ProposalDocument",
    "Recommendation",
    "SizeRequest",
    "SizeResult",
    "TcoRequest",
    "TcoResult",
    "Workload",
    "WorkloadInput",
    "check",
    "check_path",
    "decide",
    "load_workload",
    "parse_workload_text",
    "recommend",
    "render_memo",
    "size",
    "tco",
    "workload_from_dict",
]


def workload_from_dict(data: dict[str, Any], origin: str = "<dict>") -> WorkloadInput:
    """Validate a workload given as a mapping (as parsed from YAML or JSON)."""
    return validate_workload(data, origin)


def _plain(value: Any, level: int = 0) -> Any:
    """``value`` with every mapping a dict and every list or tuple a list, as a YAML or JSON parser gives
    them: a caller's read-only or ordered mapping is read as the dict it holds. Nested deeper than a
    workload file may be (a mapping that holds itself, say), it is refused as the file would be."""
    if level > MAX_NESTING_DEPTH:
        raise InputError(at("workload", nested_deeper(MAX_NESTING_DEPTH)))
    if isinstance(value, Mapping):
        return {key: _plain(item, level + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item, level + 1) for item in value]
    return value


def _workload(workload: WorkloadInput | Mapping[str, Any]) -> WorkloadInput:
    if isinstance(workload, Mapping):
        return workload_from_dict(_plain(workload))
    if isinstance(workload, WorkloadInput):
        return workload
    raise InputError(
        f"workload: a mapping of workload fields or a WorkloadInput, not {type(workload).__name__} "
        "(a file: load_workload(path))",
        field="workload",
    )


def _date(evaluated_on: dt.date | str | None) -> dt.date:
    """``evaluated_on`` as a date: today where it is None; a date, or its ISO text (2026-11-30)."""
    if evaluated_on is None:
        return dt.date.today()
    if isinstance(evaluated_on, dt.datetime):
        return evaluated_on.date()
    if isinstance(evaluated_on, dt.date):
        return evaluated_on
    if isinstance(evaluated_on, str):
        return iso_date(evaluated_on, "evaluated_on")
    raise InputError(
        f"evaluated_on: a date or its ISO text (2026-11-30), not {evaluated_on!r}", field="evaluated_on"
    )


def _policy(policy_dir: str | Path | None) -> str | None:
    """An absolute path, so that one directory given two ways shares one engine; an ``InputError``
    naming ``policy_dir`` (not the command line's ``--policy``) if it is not a directory."""
    if policy_dir is None:
        return None
    if not isinstance(policy_dir, (str, Path)) or not str(policy_dir):
        # An empty text would be the current directory, read as a policy directory unasked.
        raise InputError(f"policy_dir: a directory's path, not {policy_dir!r}", field="policy_dir")
    if not Path(policy_dir).is_dir():
        raise InputError(f"policy_dir: {policy_dir} is not a directory", field="policy_dir")
    return str(Path(policy_dir).resolve())


def _check_format(lang: str, currency: str) -> None:
    """An ``InputError`` naming ``lang`` or ``currency`` where it names no format."""
    for name, value, known in (("lang", lang, LANGUAGES), ("currency", currency, CURRENCIES)):
        if not isinstance(value, str):
            raise InputError(f"{name}: one of {', '.join(known)}, not {value!r}", field=name)
    if lang not in LANGUAGES:
        raise InputError(unknown_value_message("lang", lang, LANGUAGES), field="lang")
    if currency not in CURRENCIES:
        raise InputError(unknown_value_message("currency", currency, CURRENCIES), field="currency")


def recommend(
    workload: WorkloadInput | Mapping[str, Any],
    evaluated_on: dt.date | str | None = None,
    policy_dir: str | Path | None = None,
    lang: str = "en",
    currency: str = "USD",
) -> Recommendation:
    """The full decision for one workload; ``evaluated_on`` (default today; a date or its ISO text) dates
    the price ages;
    ``policy_dir`` adds an organization's rules (``DIR/*.yaml``), as ``--policy`` does; ``lang`` and
    ``currency`` are those of the findings' texts (and of ``render_memo`` after it)."""
    _check_format(lang, currency)
    fmt = load_knowledge().display_format(lang, currency)
    return _recommend(_workload(workload), _date(evaluated_on), policy_dir=_policy(policy_dir), fmt=fmt)


def decide(
    workload: WorkloadInput | Mapping[str, Any],
    evaluated_on: dt.date | str | None = None,
    policy_dir: str | Path | None = None,
) -> DecisionSummary:
    """The decision of ``recommend`` with the IDs of the rules that fired and of those that need
    attention, without the findings' texts and the tables: for portfolios and sweeps."""
    return decide_workload(_workload(workload), _date(evaluated_on), policy_dir=_policy(policy_dir))


def render_memo(
    result: Recommendation,
    lang: str = "en",
    currency: str = "USD",
    chart_files: Mapping[str, str] | None = None,
    overridden: Sequence[str] = (),
) -> str:
    """The Markdown memo of a result, as the command line writes it. Give the ``lang`` and ``currency``
    the result was made with (``recommend``'s): the findings' texts are the result's own. Amounts are
    converted at the result's own exchange rate."""
    if not isinstance(result, Recommendation):
        raise InputError(
            f"result: a Recommendation from recommend(), not {type(result).__name__}", field="result"
        )
    if chart_files is not None and not isinstance(chart_files, Mapping):
        raise InputError(
            f"chart_files: a mapping of chart titles to files, not {type(chart_files).__name__}",
            field="chart_files",
        )
    if not isinstance(overridden, (list, tuple)) or not all(isinstance(name, str) for name in overridden):
        # A text would be read letter by letter as the names of the figures replaced.
        raise InputError(
            f"overridden: a list of the figures' names, not {type(overridden).__name__}", field="overridden"
        )
    _check_format(lang, currency)
    if result.exchange_rate_chf_per_eur is None:
        # A result made before the franc's rate was recorded: shown in CHF at the catalog's.
        result = result.model_copy(update=franc_rate(load_knowledge()))
    fmt = Format.named(lang, currency, result.exchange_rate_usd_per_eur, result.usd_per_chf)
    return _render_memo(result, fmt, chart_files, overridden)


def size(**request: Any) -> SizeResult:
    """Card counts per GPU for one model. Keyword arguments are the fields of ``SizeRequest``: ``model``
    (a catalog ID) or ``params_b``, ``precision``, optionally ``active_params_b`` and ``attention_shape``
    (with ``params_b``), ``context_tokens``, ``load`` (the fields of ``LoadRequest``: replicas per GPU
    for its peak), ``serving_engine``, ``input_tokens`` and ``output_tokens`` (without a load),
    ``concurrency`` (throughput and latency at that many requests in flight) and ``gpu`` with ``cards``
    (one configuration)."""
    return _size(SizeRequest.read(request, "size"))


def tco(**request: Any) -> TcoResult:
    """Own-server cost per GPU-hour and break-even per offer. Keyword arguments are the fields of
    ``TcoRequest`` (country, server_price_usd, gpus_per_server, months or depreciation_years,
    hours_per_month, gpu_watts, power_overhead, usd_per_kwh, rack_usd_per_month, colocation_usd_per_month,
    staff_usd_per_month, residual); an unknown one is an ``InputError``."""
    return _tco(TcoRequest.read(request, "tco"))


def check(
    document: ProposalDocument | Mapping[str, Any],
    evaluated_on: dt.date | str | None = None,
    policy_dir: str | Path | None = None,
) -> CheckResult:
    """Check one proposal (a workload, what someone intends to do, waivers) against every applicable rule."""
    if isinstance(document, Mapping):
        from pydantic import ValidationError

        try:
            document = ProposalDocument.model_validate(_plain(document))
        except ValidationError as error:
            raise input_error("<dict>", error, ProposalDocument, "proposal") from None
    if not isinstance(document, ProposalDocument):
        raise InputError(
            f"document: a mapping (workload, proposal, waivers) or a ProposalDocument, not "
            f"{type(document).__name__} (a file: check_path(path))",
            field="document",
        )
    return check_document(document, "<api>", 1, _date(evaluated_on), policy_dir=_policy(policy_dir))


def check_path(
    path: str | Path, evaluated_on: dt.date | str | None = None, policy_dir: str | Path | None = None
) -> list[CheckResult]:
    """Check every proposal of a YAML or JSON file (or of every such file of a directory)."""
    if not isinstance(path, (str, Path)) or not str(path):
        # An empty text would be the current directory, checked unasked (as ``_policy`` refuses it).
        raise InputError(f"path: a file's or a directory's path, not {path!r}", field="path")
    return check_file(str(path), _date(evaluated_on), policy_dir=_policy(policy_dir))
