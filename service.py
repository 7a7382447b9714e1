"""HTTP service: the library API over HTTP, for tools that approve GPU spending from another process.

``create_app()`` builds a FastAPI application; ``gpu-advisor serve`` runs it with uvicorn. The request
body of ``POST /recommend`` is the strict ``Workload`` model itself, so the OpenAPI document describes
exactly what is accepted and FastAPI answers schema violations with 422 before the engine runs. What
the schema cannot express (an unknown catalog model, numbers that contradict it) is rejected by the
engine as an ``InputError`` and answered in the same 422 shape.

Endpoints are plain ``def`` functions, so FastAPI runs them in its thread pool: the engine adapter
serializes what durable-rules cannot share, and the event loop stays free for other requests. ``POST
/recommend``, the heaviest and most frequent, goes to a pool of evaluation processes where ``serve``
starts one (``engine/commands/evaluation_pool.py``), so that its requests use every core.
"""

from __future__ import annotations

import datetime as dt
import logging
import sys
import warnings
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from . import __version__
from .engine.apps.rule_docs import RuleDoc
from .engine.commands import http_errors
from .engine.commands.body_reader import BodyReader
from .engine.commands.evaluation_pool import EvaluationPool, recommend_json
from .engine.commands.http_errors import BODY_MODELS, invalid_body
from .engine.commands.http_limits import BodyLimits
from .engine.commands.http_query import AS_OF, CURRENCY, LANG, TOPIC
from .engine.commands.http_settings import SWITCH_INTERVAL_SECONDS, WORKER_THREADS, limits
from .engine.commands.input_route import InputRoute, invalid_input
from .engine.common.errors import EngineError, InputError, KnowledgeError, unknown_value_message
from .engine.common.signals import exit_with_parent
from .engine.common.user_input import MAX_INPUT_BYTES
from .engine.domain.proposal import CheckResult, ProposalDocument
from .engine.domain.requests import SizeRequest, TcoRequest
from .engine.domain.results import Recommendation, SizeResult, TcoResult
from .engine.domain.workload import Workload
from .engine.web import routes as web

MAX_BODY_BYTES = MAX_INPUT_BYTES
"""As for a workload file: a workload is a few hundred bytes; near this is a mistake or an attack."""

logger = logging.getLogger("gpu_advisor.service")

# FastAPI builds each body parameter's model with an alias pydantic 2.12 and later warns has no effect
# there (the parameter's name: 'workload', 'request'); the warning names nothing wrong with this service,
# and printed in its log on the first request of each route it reads as a fault.
warnings.filterwarnings(
    "ignore",
    message=r"The 'alias' attribute with value '\w+' was provided to the `Field\(\)` function",
    module=r"pydantic\._internal\._generate_schema",
)


# --- response models (they document the error shapes in the OpenAPI document) -------------------------


class FieldError(BaseModel):
    """One problem with the input: where (``loc``, starting with ``body`` or ``query``), what, which kind."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    loc: list[str | int]
    msg: str
    type: str


class InvalidInput(BaseModel):
    """422: the problems found, each naming its field (an unknown query parameter too, with those the
    endpoint takes); at most ``MAX_REPORTED_ERRORS``, and where there
    were more, ``error_count`` and a ``note`` say so."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    detail: list[FieldError]
    error_count: int | None = None
    note: str | None = None


class ErrorMessage(BaseModel):
    """404, 413, 415 and 500: one message meant for a person."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    detail: str


class Health(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")

    status: str
    version: str


INVALID_INPUT: dict[int | str, dict[str, Any]] = {
    422: {"model": InvalidInput, "description": "Invalid input: the field errors."}
}
UNPARSABLE: dict[int | str, dict[str, Any]] = {
    415: {"model": ErrorMessage, "description": "The body is not declared as JSON (Content-Type)."}
}
TOO_LARGE: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorMessage, "description": f"Request body larger than {MAX_BODY_BYTES} bytes."}
}
SERVER_ERROR: dict[int | str, dict[str, Any]] = {
    500: {"model": ErrorMessage, "description": "Broken knowledge base or rule catalog, or a bug."}
}


# --- errors ------------------------------------------------------------------------------------------


async def invalid_request(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    body_model = BODY_MODELS.get(request.url.path)
    return JSONResponse(invalid_body(list(error.errors()), body_model), status_code=422)


async def broken_knowledge(request: Request, error: Exception) -> JSONResponse:
    """The shipped knowledge base or rule catalog is broken: the message names file, entry and field,
    which is what an operator needs; it reveals nothing about the request."""
    logger.error("knowledge base or rule catalog broken: %s", error)
    return JSONResponse({"detail": str(error)}, status_code=500)


async def unexpected(request: Request, error: Exception) -> JSONResponse:
    """Anything else is a bug: answer with JSON, keep serving; uvicorn logs the traceback."""
    return JSONResponse({"detail": "internal error; the server log has the details"}, status_code=500)


# --- application -------------------------------------------------------------------------------------


@asynccontextmanager
async def warm_up(app: FastAPI) -> AsyncIterator[None]:
    """Knowledge, rules, engine and models before the first request: a broken catalog stops the start, and
    the first caller waits no longer than others. Blocking work runs in ``WORKER_THREADS`` threads."""
    import anyio.to_thread

    from .engine.common.model_build import build_loaded_models
    from .engine.pipeline.engines import rules_engine

    if limits.supervised:  # a worker of serve --workers: it ends with its supervisor, even a killed one
        import os

        exit_with_parent(os.getppid())
    anyio.to_thread.current_default_thread_limiter().total_tokens = WORKER_THREADS
    # The event loop takes the interpreter back from a busy worker thread within 1 ms instead of 5 ms.
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    await anyio.to_thread.run_sync(rules_engine)
    await anyio.to_thread.run_sync(build_loaded_models)  # models defer their validators to first use
    app.state.body_reader = BodyReader()
    await anyio.to_thread.run_sync(app.state.body_reader.start)
    app.state.evaluations = EvaluationPool(limits.processes)
    if limits.processes:
        await anyio.to_thread.run_sync(app.state.evaluations.start)
    app.state.ready = True
    yield
    app.state.ready = False
    app.state.body_reader.stop()
    app.state.evaluations.stop()


def json_response(result: BaseModel) -> Response:
    """A result as JSON, written by pydantic's serializer: several times faster than ``json.dumps`` of
    ``model_dump``, the same values (numbers may be written in another but equal form, ``1e-5``)."""
    return Response(result.model_dump_json(), media_type="application/json")


router = APIRouter(route_class=InputRoute)
"""The endpoints; ``create_app`` adds them to an application with its limits and error handlers."""


@router.post(
    "/recommend",
    response_model=Recommendation,
    responses={**UNPARSABLE, **INVALID_INPUT, **TOO_LARGE, **SERVER_ERROR},
    summary="Recommend how to run a workload",
)
async def recommend(
    workload: Workload,
    request: Request,
    as_of: AS_OF = None,
    lang: LANG = "en",
    currency: CURRENCY = "USD",
) -> Response:
    """The full decision for one workload: the same JSON as ``gpu-advisor recommend --format json`` with
    the same ``--lang`` and ``--currency``."""
    # In a worker process of the pool where the service has one (``serve --processes``), else in a thread.
    # Returned as is: the result is already validated, and re-validating it would only cost time.
    evaluated_on = as_of or dt.date.today()
    text = await request.app.state.evaluations.run(recommend_json, workload, evaluated_on, lang, currency)
    return Response(text, media_type="application/json")


@router.post(
    "/check",
    response_model=CheckResult,
    responses={**UNPARSABLE, **INVALID_INPUT, **TOO_LARGE, **SERVER_ERROR},
    summary="Check a proposal against every applicable rule",
)
def check(
    document: ProposalDocument,
    as_of: AS_OF = None,
    lang: LANG = "en",
    currency: CURRENCY = "USD",
) -> Response:
    """The same JSON as one entry of ``gpu-advisor check --format json`` with the same ``--lang`` and
    ``--currency``."""
    from .engine.apps.check.run import check_document
    from .engine.domain.knowledge.loading import load_knowledge

    # Each bad field of the workload with its own loc, as /recommend reports them.
    if problems := http_errors.with_workload_errors([], ProposalDocument, {"workload": document.workload}):
        raise RequestValidationError(problems)
    fmt = load_knowledge().display_format(lang, currency)
    result = check_document(document, "<api>", 1, as_of or dt.date.today(), fmt=fmt)
    return json_response(result)


@router.post(
    "/size",
    response_model=SizeResult,
    responses={**UNPARSABLE, **INVALID_INPUT, **TOO_LARGE, **SERVER_ERROR},
    summary="Card counts per GPU for one model",
)
def size(request: SizeRequest) -> Response:
    """The same JSON as ``gpu-advisor size --format json``."""
    from .engine.apps.size import size as run_size

    return json_response(run_size(request))


@router.post(
    "/tco",
    response_model=TcoResult,
    responses={**UNPARSABLE, **INVALID_INPUT, **TOO_LARGE, **SERVER_ERROR},
    summary="The own server's cost per GPU-hour and its break-even per offer",
)
def tco(request: TcoRequest) -> Response:
    """The same JSON as ``gpu-advisor tco --format json``; the body replaces server assumptions."""
    from .engine.apps.tco import tco as run_tco

    return json_response(run_tco(request))


@router.get(
    "/rules",
    response_model=list[RuleDoc],
    responses={**INVALID_INPUT, **SERVER_ERROR},
    summary="The rule catalog",
)
def rules(
    request: Request,
    topic: TOPIC = None,
) -> list[RuleDoc] | Response:
    """Every rule with its conditions, thresholds, conclusions, rationale and source (a browser: a page)."""
    from .engine.apps.rule_docs import rule_doc
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.rulebook.loading import load_rulebook

    knowledge = load_knowledge()
    docs = [rule_doc(rule, knowledge) for rule in load_rulebook().rules if topic in (None, rule.topic)]
    return web.rules_answer(request, docs)


@router.get(
    "/rules/{rule_id}",
    response_model=RuleDoc,
    responses={
        404: {"model": ErrorMessage, "description": "No rule has this ID."},
        **INVALID_INPUT,
        **SERVER_ERROR,
    },
    summary="One rule",
)
def rule(rule_id: str, request: Request) -> RuleDoc | Response:
    """One rule, like ``gpu-advisor rules show ID``; the ID is case-insensitive (a page for a browser)."""
    from .engine.apps.rule_docs import rule_doc
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.rulebook.loading import load_rulebook

    rulebook = load_rulebook()
    if rule_id.upper() not in rulebook.ids:
        return web.missing_rule(request, unknown_value_message("rule ID", rule_id, rulebook.ids))
    return web.rule_answer(request, rule_doc(rulebook.rule(rule_id.upper()), load_knowledge()))


@router.api_route(
    "/healthz",
    methods=["GET", "HEAD"],
    response_model=Health,
    responses=INVALID_INPUT,
    summary="Liveness and version",
)
async def healthz() -> Health:
    """Cheap on purpose: a load balancer calls it often, some with HEAD (answered as GET, without the
    body). Answered on the event loop, never behind the worker threads, so it stays fast while they are
    busy."""
    return Health(status="ok", version=__version__)


@router.api_route(
    "/readyz",
    methods=["GET", "HEAD"],
    response_model=Health,
    responses={
        503: {"model": Health, "description": "Starting, stopping, or every worker busy with a queue."},
        **INVALID_INPUT,
    },
    summary="Readiness: the engine is loaded and requests do not pile up",
)
async def readyz(request: Request) -> Health | JSONResponse:
    """200 once the knowledge base, rules and engine are loaded, while requests waiting for a worker
    thread are fewer than the threads; 503 (``status`` says why) otherwise."""
    import anyio.to_thread

    waiting = anyio.to_thread.current_default_thread_limiter().statistics().tasks_waiting
    status = "ready"
    if not getattr(request.app.state, "ready", False):
        status = "starting"
    elif waiting >= WORKER_THREADS:
        status = "busy"
    if status != "ready":
        return JSONResponse({"status": status, "version": __version__}, status_code=503)
    return Health(status=status, version=__version__)


def create_app(body_timeout: float | None = None) -> FastAPI:
    """The HTTP service as an ASGI application (``uvicorn gpu_advisor.service:create_app --factory``)."""
    app = FastAPI(
        title="gpu-advisor",
        version=__version__,
        description="Decide how to run an LLM inference workload, and show why: every decision is a "
        "cited rule, every figure a dated source.",
        lifespan=warm_up,
        **web.OFFLINE_DOCS,
    )
    app.state.ready = False
    app.add_middleware(
        BodyLimits, max_bytes=MAX_BODY_BYTES, timeout=body_timeout, pages=web.refused_upload_page
    )
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(InputError, invalid_input)
    app.add_exception_handler(KnowledgeError, broken_knowledge)
    app.add_exception_handler(EngineError, broken_knowledge)
    app.add_exception_handler(Exception, unexpected)

    app.include_router(router)
    web.mount(app)  # the web page for people (engine/web/): questionnaire, memo, checks, /docs
    return app
