"""The HTTP service's validation errors as the command line words them: the field's path, the message, and
for an unknown field the allowed names with a close match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from gpu_advisor.engine.common.errors import close_match, validator_message
from gpu_advisor.engine.common.user_input import load_json
from gpu_advisor.engine.domain.input_errors import model_at, pattern_words
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


MAX_REPORTED_ERRORS = 50
"""Problems listed in one 422 at most: a body with 77,001 unknown keys would otherwise get a 30 MB
answer that takes seconds to build. The count of all of them is given beside the list."""


MAX_CHECKED_MEMBERS = 1_000
"""Members of one object or list that are validated at most: no request model has more than a few dozen
fields or list items, and pydantic builds its list of errors while holding the interpreter (a body with
77,001 unknown keys held it for half a second). The rest are counted, not checked."""


Cut = tuple[tuple[str | int, ...], int, int]
"""Where an object or list was cut (``loc``, from ``body``), its number of members, and the limit."""


def within_bounds(value: Any, path: tuple[str | int, ...] = ()) -> tuple[Any, list[Cut]]:
    """``value`` with every object and list cut to its first ``MAX_CHECKED_MEMBERS`` members, and where
    it was cut. No request model has an object or list that long, so each cut is itself a problem."""
    cut: list[Cut] = []
    if isinstance(value, dict):
        if len(value) > MAX_CHECKED_MEMBERS:
            cut.append((("body", *path), len(value), MAX_CHECKED_MEMBERS))
        result: dict[str, Any] = {}
        for name, member in list(value.items())[:MAX_CHECKED_MEMBERS]:
            result[name], inner = within_bounds(member, (*path, name))
            cut += inner
        return result, cut
    if isinstance(value, list):
        if len(value) > MAX_CHECKED_MEMBERS:
            cut.append((("body", *path), len(value), MAX_CHECKED_MEMBERS))
        items = []
        for index, member in enumerate(value[:MAX_CHECKED_MEMBERS]):
            item, inner = within_bounds(member, (*path, index))
            items.append(item)
            cut += inner
        return items, cut
    return value, cut


def invalid_body(
    errors: Sequence[Any],
    body_model: type[BaseModel] | None = None,
    total: int | None = None,
    cut: Sequence[Cut] = (),
) -> dict[str, Any]:
    """The 422 body: the first ``MAX_REPORTED_ERRORS`` problems, and where there were more (or members
    of an oversized object went unchecked), their count and a note that says so."""
    total = len(errors) if total is None else total
    body: dict[str, Any] = {"detail": field_errors(errors[:MAX_REPORTED_ERRORS], body_model)}
    notes = []
    if total > MAX_REPORTED_ERRORS:
        body["error_count"] = total
        notes.append(f"only the first {MAX_REPORTED_ERRORS} of {total} problems are listed")
    notes += [
        f"{'.'.join(map(str, where))} has {size} members; the first {limit} were checked"
        for where, size, limit in cut
    ]
    if notes:
        body["note"] = "; ".join(notes)
    return body


def field_errors(errors: Sequence[Any], body_model: type[BaseModel] | None = None) -> list[dict[str, Any]]:
    """Pydantic's errors reduced to ``loc``, ``msg`` and ``type``.

    The rejected input itself is left out: it may be large, and a non-finite number (Python's JSON
    parser accepts ``NaN``) cannot be written back as JSON. An unknown body field gets the allowed
    names and a close match, as on the command line.
    """
    problems = []
    for error in errors:
        loc = list(error.get("loc", ()))
        message = validator_message(str(error.get("msg", "invalid value")))
        # Free text with a control character: what the field allows, in words, as the command line says
        # it, not pydantic's "String should match pattern '^[^\\x00-\\x1f\\x7f]+$'".
        allows = pattern_words(error.get("ctx", {}).get("pattern"))
        if error.get("type") == "string_pattern_mismatch" and allows is not None:
            message = str(allows)
        if loc == ["body"] and error.get("type") == "missing":
            # No body at all: pydantic's "Field required" names no field a user could add.
            message = "no body: send the request's fields as a JSON object"
        elif loc == ["body"] and error.get("type") in ("model_type", "dict_type", "model_attributes_type"):
            # A list or a single value: "a valid dictionary or instance of Workload" names a class.
            message = "the body is a JSON object of the request's fields, not a list or a single value"
        if error.get("type") == "extra_forbidden" and body_model is not None and loc[:1] == ["body"]:
            allowed = allowed_fields(body_model, loc[1:-1])
            message = f"unknown field; allowed fields: {', '.join(allowed)}"
            suggestion = close_match(str(loc[-1]), allowed)
            if suggestion:
                message += f" (did you mean {suggestion!r}?)"
        problems.append({"loc": loc, "msg": message, "type": str(error.get("type", "value_error"))})
    return problems


def read_and_validate(body: bytes, model: type[BaseModel] | None) -> tuple[Any, dict[str, Any] | None]:
    """The body read by the JSON reader of every entry point and validated by ``model``: the data, and
    the 422 body where it is invalid (``MAX_REPORTED_ERRORS`` problems at most)."""
    from pydantic import ValidationError

    data = load_json(body, "request body")
    if model is None:
        return data, None
    if data is None:
        # JSON's null: nothing was given, which pydantic's "a valid dictionary" would not say.
        problem = {"loc": ["body"], "msg": "no fields given: the body is null", "type": "missing"}
        return data, {"detail": [problem]}
    checked, cut = within_bounds(data)
    problems: list[Any] = [
        {
            "loc": where,
            "msg": f"{size} members; no object or list of a request has more than {limit}",
            "type": "too_long",
        }
        for where, size, limit in cut
    ]
    try:
        model.model_validate(checked)
    except ValidationError as error:
        found = error.errors(include_url=False, include_input=False)[: MAX_REPORTED_ERRORS + 1]
        problems += [{**p, "loc": ("body", *p["loc"])} for p in found]
        problems = with_workload_errors(problems, model, checked)
        return data, invalid_body(
            problems, model, total=max(len(problems), len(cut) + error.error_count()), cut=cut
        )
    return data, (invalid_body(problems, model, cut=cut) if problems else None)
