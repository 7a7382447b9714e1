"""The web page's routes, mounted by the HTTP service (``service.py``) beside the API. They answer HTML
and are left out of the OpenAPI document, which describes the JSON API only.

Pages that evaluate run in FastAPI's thread pool (plain ``def``); the two uploads read their body on the
event loop and evaluate in the pool. Every HTML answer carries a Content-Security-Policy that lets the
page load nothing and send nothing beyond this server."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.types import Scope

from gpu_advisor.engine.apps.rule_docs import RuleDoc
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.file_names import attachment, file_stem
from gpu_advisor.engine.web.form import FormState, Problem
from gpu_advisor.engine.web.more_pages import check_page, problem_of, run_check
from gpu_advisor.engine.web.pages import (
    Evaluated,
    Settings,
    evaluate,
    form_page,
    markdown_memo,
    memo_page,
    read_settings,
    url,
)
from gpu_advisor.engine.web.upload import UploadProblem, uploaded_file

PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""The page loads its script, styles and images from this server only, and sends requests nowhere else."""

DOCS_POLICY = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""Swagger UI starts from an inline script; it too reaches this server only."""

OFFLINE_DOCS: dict[str, Any] = {"docs_url": None, "redoc_url": None}
"""FastAPI's own /docs and /redoc load their scripts from a CDN: the service turns them off, and ``docs``
serves Swagger UI from the package instead (ReDoc has no copy here and is not served)."""

router = APIRouter(include_in_schema=False)


def params_of(request: Request) -> dict[str, str]:
    """The query string, the last value of a name given twice."""
    return dict(request.query_params.multi_items())


def settings_of(request: Request) -> Settings:
    return read_settings(params_of(request), request.headers.get("accept-language"))


def html(text: str, status_code: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status_code, headers={"Content-Security-Policy": PAGE_POLICY})


def wants_html(request: Request) -> bool:
    """A browser asking for a page (``text/html`` in Accept), not a client of the JSON API."""
    return "text/html" in request.headers.get("accept", "")


@router.get("/", response_class=HTMLResponse)
def questionnaire(request: Request) -> Response:
    """The questionnaire of ``gpu-advisor ask`` as a form; a query string pre-fills it."""
    params = params_of(request)
    return html(form_page(settings_of(request), params))


def evaluated_or_form(request: Request) -> tuple[Settings, Evaluated | Response]:
    settings = settings_of(request)
    params = params_of(request)
    outcome = evaluate(settings, params)
    if isinstance(outcome, FormState):
        return settings, html(form_page(settings, params, outcome), 422)
    return settings, outcome


@router.get("/memo", response_class=HTMLResponse)
def memo(request: Request) -> Response:
    """The decision memo of the answers in the query string, with the what-if panel; the form with
    its problems beside the fields where an answer is not valid."""
    settings, outcome = evaluated_or_form(request)
    if isinstance(outcome, Response):
        return outcome
    return html(memo_page(settings, outcome))


@router.get("/memo.md")
def memo_markdown(request: Request) -> Response:
    """The memo as ``gpu-advisor recommend`` writes it, to download."""
    settings, outcome = evaluated_or_form(request)
    if isinstance(outcome, Response):
        return outcome
    name = file_stem(outcome.result.workload.name)
    return Response(
        markdown_memo(settings, outcome),
        media_type="text/markdown; charset=utf-8",
        headers={"Content-Disposition": attachment(f"{name}-memo.md")},
    )


@router.get("/workload.yaml")
def workload_file(request: Request) -> Response:
    """The answers as a workload file, as ``ask --save`` writes it."""
    import yaml

    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.web.form import read_form

    settings = settings_of(request)
    params = params_of(request)
    state = read_form(params, load_knowledge(), settings.format(load_knowledge()))
    if state.document is None:
        return html(form_page(settings, params, state), 422)
    text = yaml.safe_dump(state.document, sort_keys=False, allow_unicode=True)
    return Response(
        text,
        media_type="application/yaml; charset=utf-8",
        headers={"Content-Disposition": attachment(f"{file_stem(str(state.document['name']))}.yaml")},
    )


@router.post("/load")
async def load(request: Request) -> Response:
    """A workload file (YAML or JSON) into the form: a redirect to the form with its answers."""
    from gpu_advisor.engine.domain.workload import parse_workload_text_with_ranges
    from gpu_advisor.engine.web.form import query_from_document

    settings = settings_of(request)
    body = await request.body()
    try:
        name, text = uploaded_file(body, request.headers.get("content-type"), "workload")
        workload, ranges = await run_in_threadpool(parse_workload_text_with_ranges, text, name or "upload")
    except (UploadProblem, InputError) as error:
        problem = problem_of(error, settings.lang)
        return html(form_page(settings, None, problems=(problem,)), 422)
    query = query_from_document(workload.model_dump(exclude_none=True), settings.lang, ranges)
    return RedirectResponse(url("/", {**query, **settings.query()}), status_code=303)


@router.get("/check", response_class=HTMLResponse)
def check_form(request: Request) -> Response:
    """The proposal check: upload a proposal file."""
    return html(check_page(settings_of(request)))


@router.post("/check/upload", response_class=HTMLResponse)
async def check_upload(request: Request) -> Response:
    """An uploaded proposal file checked as ``gpu-advisor check FILE`` checks it."""
    settings = settings_of(request)
    body = await request.body()
    try:
        name, text = uploaded_file(body, request.headers.get("content-type"), "proposal")
        results = await run_in_threadpool(run_check, settings, name or "upload", text)
    except (UploadProblem, InputError) as error:
        problem: Problem = problem_of(error, settings.lang)
        return html(check_page(settings, problem=problem), 422)
    return html(check_page(settings, results, file=name))


@router.get("/docs", response_class=HTMLResponse)
def docs(request: Request) -> Response:
    """Swagger UI from the package (``templates/web/static/swagger-ui``), not from a CDN."""
    from fastapi.openapi.docs import get_swagger_ui_html

    page: Any = get_swagger_ui_html(
        openapi_url=request.app.openapi_url or "/openapi.json",
        title=f"{request.app.title} API",
        swagger_js_url="/static/swagger-ui/swagger-ui-bundle.js",
        swagger_css_url="/static/swagger-ui/swagger-ui.css",
        swagger_favicon_url="/static/swagger-ui/favicon-32x32.png",
        swagger_ui_parameters={"validatorUrl": None},
    )
    page.headers["Content-Security-Policy"] = DOCS_POLICY
    return page  # type: ignore[no-any-return]


def rules_answer(request: Request, docs: list[RuleDoc]) -> list[RuleDoc] | Response:
    """``GET /rules``: the catalog as JSON, or as a page for a browser."""
    if not wants_html(request):
        return docs
    from gpu_advisor.engine.web.more_pages import rules_page

    return html(rules_page(settings_of(request), docs))


def rule_answer(request: Request, doc: RuleDoc) -> RuleDoc | Response:
    """``GET /rules/ID``: one rule as JSON, or its documentation page for a browser."""
    if not wants_html(request):
        return doc
    from gpu_advisor.engine.web.more_pages import rule_page

    return html(rule_page(settings_of(request), doc))


def missing_rule(request: Request, message: str) -> Response:
    if not wants_html(request):
        from fastapi.responses import JSONResponse

        return JSONResponse({"detail": message}, status_code=404)
    from gpu_advisor.engine.web.more_pages import missing_rule_page

    return html(missing_rule_page(settings_of(request), message), 404)


def refused_upload_page(scope: Scope, status: int, limit: float) -> Response | None:
    """A browser's upload that ``BodyLimits`` refuses before reading it (413: larger than ``limit`` bytes;
    408: not complete within ``limit`` seconds): the page it was sent from, with the problem in its
    language, as the page answers its other problems (these routes answer pages only), rather than the
    JSON API's answer; None for anything else."""
    request = Request(scope)
    if request.method != "POST":
        return None
    problem = Problem("too_large" if status == 413 else "too_slow", name=str(limit))
    settings = settings_of(request)
    if request.url.path == "/load":
        return html(form_page(settings, None, problems=(problem,)), status)
    if request.url.path == "/check/upload":
        return html(check_page(settings, problem=problem), status)
    return None


def mount(app: Any) -> None:
    """The page's routes and its static files (``/static``) on the service's application."""
    from fastapi.staticfiles import StaticFiles

    from gpu_advisor.engine.web.environment import STATIC_DIR

    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
