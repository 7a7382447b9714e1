"""The service's endpoints read their JSON bodies as every other entry point reads JSON: an
``APIRoute`` that parses and validates the body with the input reader (``common/json_input.py``) before
FastAPI's own validation, and the 422 answer for a value the reader refuses."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from gpu_advisor.engine.commands import http_errors
from gpu_advisor.engine.commands.body_reader import BodyReader
from gpu_advisor.engine.commands.http_errors import BODY_MODELS
from gpu_advisor.engine.commands.http_query import unknown_query_parameters
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.user_input import NotJsonText


async def invalid_input(request: Request, error: Exception) -> JSONResponse:
    """An ``InputError`` (a value the input reader refuses, an unknown catalog model): the field it
    names, if any."""
    assert isinstance(error, InputError)
    loc = http_errors.body_loc(error.field, BODY_MODELS.get(request.url.path))
    kind = "json_invalid" if isinstance(error, NotJsonText) else "value_error"
    return JSONResponse({"detail": [{"loc": loc, "msg": str(error), "type": kind}]}, status_code=422)


def is_json(content_type: str | None) -> bool:
    """``application/json`` or ``application/*+json``, with or without parameters."""
    import email.message

    if not content_type:
        return False
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


def query_problems(request: Request, taken: list[str]) -> dict[str, Any] | None:
    """The 422 body for the query parameters the endpoint does not take (``taken`` are those it does),
    as for an unknown body field; None where there is none. A browser's request for a page (``GET
    /rules`` asking for ``text/html``) is left alone: the page reads its language, currency and date from
    the query string, as every page of the web page does."""
    if request.method == "GET" and "text/html" in request.headers.get("accept", ""):
        return None
    if request.url.path in PROBES:
        return None
    problems = unknown_query_parameters(request.query_params.multi_items(), taken)
    return http_errors.invalid_body(problems) if problems else None


PROBES = frozenset({"/healthz", "/readyz"})
"""Liveness and readiness: a monitor may add a parameter of its own (a cache-buster), and a healthy
service refusing it would read as a dead one."""


class ParsedJsonRequest(Request):
    """A request whose body has been read by the input reader of every entry point."""

    parsed: Any = None

    async def json(self) -> Any:
        return self.parsed


class InputRoute(APIRoute):
    """An endpoint whose JSON body is read as the command line and ``batch`` read JSON
    (``common/json_input.py``: keys given once, numbers finite and in range, what ``json.dumps`` writes),
    not by FastAPI's own parser; a body not declared as JSON is refused with 415."""

    def get_route_handler(self) -> Any:
        handler = super().get_route_handler()
        taken = [parameter.alias for parameter in self.dependant.query_params]

        async def known_query(request: Request) -> Response:
            if problems := query_problems(request, taken):
                return JSONResponse(problems, status_code=422)
            return await handler(request)

        if self.body_field is None:
            return known_query

        async def read_body(request: Request) -> Response:
            parsed = ParsedJsonRequest(request.scope, request.receive)
            body = await parsed.body()
            content_type = request.headers.get("content-type")
            if (body or content_type) and not is_json(content_type):
                return JSONResponse(
                    {"detail": f"Content-Type must be application/json, not {content_type or '(none)'}"},
                    status_code=415,
                )
            if problems := query_problems(request, taken):
                return JSONResponse(problems, status_code=422)
            if body:
                # Parsing and validating a body of up to 1 MB is CPU work: a worker thread does it (a
                # worker process, for a large one), and FastAPI's own validation then meets only a body
                # that is known to be valid.
                reader = getattr(request.app.state, "body_reader", None) or BodyReader()
                try:
                    parsed.parsed, problems = await reader.read(body, request.url.path)
                except InputError as error:
                    return await invalid_input(request, error)
                if problems is not None:
                    return JSONResponse(problems, status_code=422)
            return await handler(parsed)

        return read_body
