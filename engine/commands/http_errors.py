"""The HTTP service's validation errors as the command line words them: the field's path, the message, and
for an unknown field the allowed names with a close match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from gpu_advisor.engine.common.errors import close_match
from gpu_advisor.engine.domain.input_errors import model_at
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.requests import SizeRequest, TcoRequest
from gpu_advisor.engine.domain.workload import Workload

BODY_MODELS: dict[str, type[BaseModel]] = {
    "/recommend": Workload,
    "/check": ProposalDocument,
    "/size": SizeRequest,
    "/tco": TcoRequest,
}
"""The body model of each path, to name the allowed fields when a body has an unknown one."""


PARSED_BODY = "gpu_advisor.parsed_body"
"""The request scope's key under which the service keeps the body as parsed, for its error handler."""

NESTED_WORKLOAD = "workload"
"""The field of a ``/check`` body that holds a workload. ``ProposalDocument`` takes it as a mapping (the
check validates it with the proposal's position in its file), so the body's own validation does not
reach into it: ``workload_errors`` does."""


def allowed_fields(model: type[BaseModel], path: Sequence[str | int]) -> list[str]:
    """The field names of the model found by following ``path`` (e.g. ``["waivers", 0]``) from ``model``;
    under the ``workload`` of a proposal document, those of ``Workload``."""
    if model is ProposalDocument and list(path[:1]) == [NESTED_WORKLOAD]:
        model, path = Workload, path[1:]
    return list(model_at(model, path).model_fields)


def workload_errors(body: Any) -> list[dict[str, Any]]:
    """Pydantic's errors of the workload in a ``/check`` body, each located under ``body.workload``, as
    ``/recommend`` reports them for a workload of its own; none if there is no mapping to validate
    (the body's own validation reports that)."""
    workload = body.get(NESTED_WORKLOAD) if isinstance(body, dict) else None
    if not isinstance(workload, dict):
        return []
    try:
        Workload.model_validate(workload)
    except ValidationError as error:
        return [{**problem, "loc": ("body", NESTED_WORKLOAD, *problem["loc"])} for problem in error.errors()]
    return []


def body_loc(field: str | None, body_model: type[BaseModel] | None) -> list[str | int]:
    """The ``loc`` of the field an ``InputError`` names (``model.name``, ``proposal.gpu``); in a ``/check``
    body, a workload's field lies under ``workload``."""
    path: list[str | int] = [
        int(part) if part.isdigit() else part for part in (field or "").split(".") if part
    ]
    if body_model is ProposalDocument and path and path[0] in Workload.model_fields:
        path.insert(0, NESTED_WORKLOAD)
    return ["body", *path]


def with_workload_errors(errors: Sequence[Any], body_model: type[BaseModel] | None, body: Any) -> list[Any]:
    """A ``/check`` body's errors with those of its workload first (the body's order), unless they are
    among them already; other bodies' errors as they are."""
    if body_model is not ProposalDocument or any(
        tuple(error.get("loc", ()))[:2] == ("body", NESTED_WORKLOAD) for error in errors
    ):
        return list(errors)
    return [*workload_errors(body), *errors]


def field_errors(errors: Sequence[Any], body_model: type[BaseModel] | None = None) -> list[dict[str, Any]]:
    """Pydantic's errors reduced to ``loc``, ``msg`` and ``type``.

    The rejected input itself is left out: it may be large, and a non-finite number (Python's JSON
    parser accepts ``NaN``) cannot be written back as JSON. An unknown body field gets the allowed
    names and a close match, as on the command line.
    """
    problems = []
    for error in errors:
        loc = list(error.get("loc", ()))
        message = str(error.get("msg", "invalid value"))
        if error.get("type") == "extra_forbidden" and body_model is not None and loc[:1] == ["body"]:
            allowed = allowed_fields(body_model, loc[1:-1])
            message = f"unknown field; allowed fields: {', '.join(allowed)}"
            suggestion = close_match(str(loc[-1]), allowed)
            if suggestion:
                message += f" (did you mean {suggestion!r}?)"
        problems.append({"loc": loc, "msg": message, "type": str(error.get("type", "value_error"))})
    return problems
