"""The HTTP service as a client meets it: a real ``gpu-advisor serve`` process on loopback, a real HTTP
client, concurrent callers, and a schema-driven fuzz run against the service's own OpenAPI document.

An in-process test client would skip the parts that break in production (the server's request parsing,
the thread pool, the size limit on a real socket), so everything except the error-handler unit test
goes over TCP to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
import yaml
from helpers import EVALUATED_ON, EXAMPLES_DIR
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import positive_data_acceptance
from web_pages import served

from gpu_advisor.api import check, recommend
from gpu_advisor.engine.common.user_input import MAX_INPUT_BYTES
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.rulebook.loading import load_rulebook

REQUEST_TIMEOUT_S = 30.0
AS_OF = {"as_of": EVALUATED_ON.isoformat()}
FUZZ_EXAMPLES = 30
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml"))


def read_example(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``gpu-advisor serve`` on a free loopback port, once /healthz answers; stopped afterwards."""
    with served(tmp_path_factory.mktemp("service") / "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def client(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT_S) as http:
        yield http


def post_recommend(http: httpx.Client, body: Any, **kwargs: Any) -> httpx.Response:
    return http.post("/recommend", params=AS_OF, json=body, **kwargs)


def problem_fields(response: httpx.Response) -> list[list[str | int]]:
    """The ``loc`` of every field error in a 422 answer (after checking the answer's shape)."""
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail and all(set(problem) == {"loc", "msg", "type"} for problem in detail), detail
    return [problem["loc"] for problem in detail]


# --- contract ----------------------------------------------------------------------------------------


def test_healthz(client: httpx.Client) -> None:
    from gpu_advisor import __version__

    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "version": __version__}


def test_recommend_equals_the_library(client: httpx.Client) -> None:
    workload = read_example(EXAMPLES_DIR / "public-chat.yaml")
    response = post_recommend(client, workload)
    assert response.status_code == 200, response.text
    expected = recommend(workload, evaluated_on=dt.date(2026, 11, 30)).model_dump(mode="json")
    assert response.json() == expected


def test_as_of_dates_the_evaluation(client: httpx.Client) -> None:
    workload = read_example(EXAMPLES_DIR / "prototype.yaml")
    response = client.post("/recommend", params={"as_of": "2027-01-15"}, json=workload)
    assert response.status_code == 200, response.text
    assert response.json()["evaluated_on"] == "2027-01-15"
    assert problem_fields(client.post("/recommend", params={"as_of": "2026-02-30"}, json=workload)) == [
        ["query", "as_of"]
    ]
    # A number is not a date, though pydantic would read it as a Unix timestamp (found by schemathesis).
    for number in ("0", "-5.879917941734593e-255"):
        response = client.post("/recommend", params={"as_of": number}, json=workload)
        assert problem_fields(response) == [["query", "as_of"]]


@pytest.mark.parametrize(
    ("change", "field", "message_part"),
    [
        ({"load_patern": "steady"}, ["body", "load_patern"], "did you mean 'load_pattern'?"),
        (
            {"model": {"name": "llama-3.1-70b", "precision": "fp8", "weights": "own"}},
            ["body", "model", "weights"],
            "allowed fields: name, params_b, active_params_b, precision, custom_weights",
        ),
        ({"requests_per_day": "5"}, ["body", "requests_per_day"], "integer"),
        ({"load_pattern": "bursty"}, ["body", "load_pattern"], "'steady', 'variable' or 'batch'"),
        ({"model": {"name": "llama-3.1-70b", "precision": "fp9"}}, ["body", "model", "precision"], "fp8"),
        (
            {"model": {"name": "llama-3.1-70x", "precision": "fp8"}},
            ["body", "model", "name"],
            "llama-3.1-70b",
        ),
        ({"company_country": "de"}, ["body", "company_country"], "pattern"),
        ({"utilization": 1.5}, ["body", "utilization"], "less than or equal to 1"),
    ],
)
def test_invalid_body_names_the_field(
    client: httpx.Client, change: dict[str, Any], field: list[str], message_part: str
) -> None:
    workload = {**read_example(EXAMPLES_DIR / "public-chat.yaml"), **change}
    response = post_recommend(client, workload)
    assert problem_fields(response) == [field]
    assert message_part in response.json()["detail"][0]["msg"]


def test_a_batch_window_beside_a_steady_load_is_422_in_the_validators_words(client: httpx.Client) -> None:
    workload = {**read_example(EXAMPLES_DIR / "public-chat.yaml"), "batch_window_hours": 6}
    response = post_recommend(client, {**workload, "load_pattern": "steady"})
    assert problem_fields(response) == [["body", "batch_window_hours"]]
    # The validator's own words, without pydantic's "Value error, " before them.
    assert response.json()["detail"][0]["msg"] == (
        "applies to load_pattern: batch only, and this workload's load_pattern is steady; set "
        "load_pattern: batch or leave batch_window_hours out"
    )


def test_body_that_is_not_a_workload(client: httpx.Client) -> None:
    assert problem_fields(post_recommend(client, [1, 2])) == [["body"]]
    response = client.post("/recommend", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422
    # Python's JSON parser accepts NaN; the answer must still be valid JSON and name the field.
    nan = b'{"name": "x", "model": {"params_b": NaN, "precision": "fp8"}, "requests_per_day": 5}'
    response = client.post("/recommend", content=nan, headers={"content-type": "application/json"})
    assert problem_fields(response) == [["body", "model", "params_b"]]


def test_oversized_body_is_refused(client: httpx.Client) -> None:
    padding = b" " * (MAX_INPUT_BYTES + 1)
    declared = client.post("/recommend", content=padding, headers={"content-type": "application/json"})
    assert declared.status_code == 413
    assert str(MAX_INPUT_BYTES) in declared.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: the server has to count
        for _ in range(MAX_INPUT_BYTES // 65_536 + 2):
            yield b" " * 65_536

    streamed = client.post("/recommend", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413
    # The limit refuses the body, not the service.
    assert client.get("/healthz").status_code == 200


def test_rules(client: httpx.Client) -> None:
    response = client.get("/rules")
    assert response.status_code == 200
    assert [rule["id"] for rule in response.json()] == [rule.id for rule in load_rulebook().rules]
    sizing = client.get("/rules", params={"topic": "sizing"}).json()
    assert sizing and {rule["topic"] for rule in sizing} == {"sizing"}
    assert problem_fields(client.get("/rules", params={"topic": "colour"})) == [["query", "topic"]]


def test_one_rule(client: httpx.Client) -> None:
    from gpu_advisor.engine.apps.rule_docs import rule_doc

    rule = load_rulebook().rules[0]
    response = client.get(f"/rules/{rule.id.lower()}")
    assert response.status_code == 200
    assert response.json() == rule_doc(rule, load_knowledge()).model_dump(mode="json")
    unknown = client.get("/rules/DEP9999")
    assert unknown.status_code == 404
    assert "unknown value 'DEP9999'" in unknown.json()["detail"]


# --- concurrency -------------------------------------------------------------------------------------


def test_concurrent_answers_equal_serial_ones(client: httpx.Client, base_url: str) -> None:
    workloads = [read_example(path) for path in EXAMPLES]
    serial = [post_recommend(client, workload).json() for workload in workloads]
    jobs = [index % len(workloads) for index in range(40)]

    def call(index: int) -> tuple[int, Any]:
        with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT_S) as own:
            response = post_recommend(own, workloads[index])
        return response.status_code, response.json()

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(call, jobs))
    for index, (status, answer) in zip(jobs, answers, strict=True):
        assert status == 200
        assert answer == serial[index], EXAMPLES[index].name
    assert len({json.dumps(s["decision"], sort_keys=True) for s in serial}) > 1  # the examples differ


# --- schema-driven fuzzing ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def api_schema(base_url: str) -> Any:
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json", timeout=REQUEST_TIMEOUT_S)
    schema.config.update(base_url=base_url)
    return schema


@pytest.mark.parametrize(
    "change",
    [
        {"model": {"params_b": 1e-5, "precision": "fp16"}},
        {"utilization": 1e-9},
        {"hours_per_month": 1e-10},
    ],
    ids=["params_b", "utilization", "hours_per_month"],
)
def test_tiny_numbers_get_an_answer(client: httpx.Client, change: dict[str, Any]) -> None:
    """Numbers Python writes with an exponent (1e-05) once made the rules engine fail; facts now carry
    numbers it can parse (engine/facts.py)."""
    workload = {**read_example(EXAMPLES_DIR / "prototype.yaml"), **change}
    assert post_recommend(client, workload).status_code < 500


@pytest.mark.parametrize("mode", list(GenerationMode), ids=lambda mode: mode.value)
def test_fuzz_against_the_openapi_document(api_schema: Any, mode: GenerationMode) -> None:
    """Generated requests (schema-valid ones, and in negative mode schema-violating ones) never get a
    5xx, and every answer matches the document: status code, content type, headers, body schema.

    Every operation of the live document is fuzzed, so a new endpoint is covered without a change
    here. Hypothesis drives schemathesis' strategies directly rather than through its pytest plugin,
    which does not support the pytest release in use.

    Schema-valid requests may still be refused with 422: a JSON Schema cannot say that ``model.name``
    must be a catalog ID or that numbers given beside it must agree with the catalog, so the check
    that every schema-valid request succeeds is left out; every other check of schemathesis runs.
    """
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert {f"{op.method.upper()} {op.path}" for op in operations} >= {
        "POST /recommend",
        "GET /rules",
        "GET /rules/{rule_id}",
        "GET /healthz",
    }
    for operation in operations:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=FUZZ_EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def call(case: Any) -> None:
            case.call_and_validate(excluded_checks=[positive_data_acceptance], timeout=REQUEST_TIMEOUT_S)

        try:
            call()
        except Unsatisfiable:
            # No request can violate the schema of, e.g., a free-text path parameter.
            assert mode is GenerationMode.NEGATIVE and operation.path != "/recommend", operation.label


# --- error handling, in process ----------------------------------------------------------------------


def test_errors_become_json_not_crashes() -> None:
    """A broken knowledge base or a bug gets a JSON 500 and the service keeps answering. (In process:
    these failures cannot be provoked from outside a correctly installed server.)"""
    from gpu_advisor.engine.common.errors import KnowledgeError
    from gpu_advisor.service import create_app

    app = create_app()

    @app.get("/broken-knowledge")
    def broken_knowledge() -> None:
        raise KnowledgeError("knowledge/offers.yaml: entry 'x': price: must be positive")

    @app.get("/bug")
    def bug() -> None:
        raise RuntimeError("a bug")

    async def calls() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            return [await http.get(path) for path in ("/broken-knowledge", "/bug", "/healthz")]

    broken, crashed, healthy = asyncio.run(calls())
    assert broken.status_code == 500
    assert broken.json() == {"detail": "knowledge/offers.yaml: entry 'x': price: must be positive"}
    assert crashed.status_code == 500
    assert "internal error" in crashed.json()["detail"]
    assert healthy.status_code == 200


def test_check_endpoint_matches_the_library(client: httpx.Client) -> None:
    document = {
        "workload": read_example(EXAMPLES_DIR / "public-chat.yaml"),
        "proposal": {
            "deployment": "dedicated_cloud",
            "provider": "runpod",
            "offer": "community",
            "gpu": "h100-pcie",
            "gpus": 2,
            "pricing": "on_demand",
        },
    }
    response = client.post("/check", params={"as_of": "2026-11-30"}, json=document)
    assert response.status_code == 200, response.text
    expected = check(document, evaluated_on=dt.date(2026, 11, 30)).model_dump(mode="json")
    assert response.json() == expected
    assert response.json()["status"] == "fail"
    bad = client.post("/check", json={"workload": {}, "proposal": {"deployment": "gpu"}})
    assert bad.status_code == 422


CORPUS = Path(__file__).resolve().parent / "malformed"
CORPUS_WORKLOADS: dict[str, Any] = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))[
    "workloads"
]


# --- the malformed-input corpus (tests/malformed/) ---------------------------------------------------


@pytest.mark.parametrize("name", sorted(name for name in CORPUS_WORKLOADS if name.endswith(".json")))
def test_the_service_reads_json_as_the_command_line_does(client: httpx.Client, name: str) -> None:
    expected = CORPUS_WORKLOADS[name]
    response = client.post(
        "/recommend",
        params=AS_OF,
        content=(CORPUS / name).read_bytes(),
        headers={"content-type": "application/json"},
    )
    if expected["exit"] == 0:
        assert response.status_code == 200, response.text
        assert response.json()["workload"][expected["field"]] == expected["value"]
        return
    assert response.status_code == 422, response.text
    (problem,) = response.json()["detail"]
    assert expected["field"] in problem["msg"] or expected["field"] == ".".join(map(str, problem["loc"][1:]))


def test_the_service_names_the_field_in_a_list_item(client: httpx.Client) -> None:
    document = yaml.safe_load((CORPUS / "proposal-waiver-extra-key.yaml").read_text(encoding="utf-8"))
    response = client.post("/check", params=AS_OF, json=document)
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["body", "waivers", 0, "approver"]
    assert problem["msg"] == "unknown field; allowed fields: rule, reason, owner, until"


def test_a_body_not_declared_as_json_is_415(client: httpx.Client) -> None:
    body = (CORPUS / "json-dumps.json").read_bytes()
    for headers in (
        {"content-type": "text/plain"},
        {"content-type": "application/x-www-form-urlencoded"},
        {},
    ):
        response = client.post("/recommend", content=body, headers=headers)
        assert response.status_code == 415, headers
        assert "application/json" in response.json()["detail"]
    assert (
        client.post(
            "/recommend", content=body, headers={"content-type": "application/json; charset=utf-8"}
        ).status_code
        == 200
    )


def test_check_reports_every_bad_field_of_the_workload_with_its_own_loc(client: httpx.Client) -> None:
    """The workload of a /check body is located and reported field by field, as /recommend reports its
    own, together with the proposal's and the waivers' problems."""
    workload = {
        **read_example(EXAMPLES_DIR / "public-chat.yaml"),
        "requests_per_day": -5,
        "schedule": "sometimes",
        "bogus": 1,
    }
    workload["model"] = {**workload["model"], "precision": "fp9"}
    response = client.post(
        "/check", params=AS_OF, json={"workload": workload, "proposal": {"deployment": "api"}}
    )
    assert problem_fields(response) == [
        ["body", "workload", "model", "precision"],
        ["body", "workload", "requests_per_day"],
        ["body", "workload", "schedule"],
        ["body", "workload", "bogus"],
    ]
    detail = response.json()["detail"]
    assert detail[1] == {
        "loc": ["body", "workload", "requests_per_day"],
        "msg": "Input should be greater than 0",
        "type": "greater_than",
    }
    assert detail[3]["msg"].startswith("unknown field; allowed fields: name, model, requests_per_day,")
    # The same workload posted to /recommend: the same problems, one level up.
    alone = post_recommend(client, workload).json()["detail"]
    assert [{**problem, "loc": problem["loc"][2:]} for problem in detail] == [
        {**problem, "loc": problem["loc"][1:]} for problem in alone
    ]

    # A bad proposal and a bad waiver do not hide the workload's problems, nor the other way round.
    both = client.post(
        "/check",
        params=AS_OF,
        json={"workload": {}, "proposal": {"deployment": "gpu"}, "waivers": [{"rule": "RES005"}]},
    )
    assert problem_fields(both) == [
        ["body", "workload", "name"],
        ["body", "workload", "model"],
        ["body", "workload", "requests_per_day"],
        ["body", "proposal", "deployment"],
        ["body", "waivers", 0, "reason"],
    ]


def test_check_locates_a_workload_the_catalog_refuses_under_the_workload(client: httpx.Client) -> None:
    workload = {**read_example(EXAMPLES_DIR / "public-chat.yaml")}
    workload["model"] = {"name": "llama-9", "precision": "fp8"}
    response = client.post(
        "/check", params=AS_OF, json={"workload": workload, "proposal": {"deployment": "api"}}
    )
    assert problem_fields(response) == [["body", "workload", "model", "name"]]
    assert response.json()["detail"][0]["msg"].startswith("model.name: unknown value 'llama-9'; allowed: ")
    # A proposal's own field stays where it is.
    proposal = {"deployment": "dedicated_cloud", "gpu": "h900"}
    response = client.post(
        "/check",
        params=AS_OF,
        json={"workload": read_example(EXAMPLES_DIR / "public-chat.yaml"), "proposal": proposal},
    )
    assert problem_fields(response) == [["body", "proposal", "gpu"]]
