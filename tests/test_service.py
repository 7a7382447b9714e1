"""The HTTP service's contract as a client meets it: a real ``gpu-advisor serve`` process on loopback, a
real HTTP client, concurrent callers, and a schema-driven fuzz run against the service's own OpenAPI
document. Refused input is in ``test_service_refusals.py``.

An in-process test client would skip the parts that break in production (the server's request parsing,
the thread pool, the size limit on a real socket), so everything except the error-handler unit test
goes over TCP to 127.0.0.1 (the server and its client: ``base_url`` and ``client`` in conftest.py).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import schemathesis
from helpers import AS_OF, EXAMPLES_DIR, PUBLIC_CHAT, invoke, post_recommend, problem_fields, read_example
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import positive_data_acceptance

from gpu_advisor.api import check, recommend
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.rulebook.loading import load_rulebook

REQUEST_TIMEOUT_S = 30.0
FUZZ_EXAMPLES = 30
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml"))

RUNPOD_PCIE: dict[str, Any] = {
    "deployment": "dedicated_cloud",
    "provider": "runpod",
    "offer": "community",
    "gpu": "h100-pcie",
    "gpus": 2,
    "pricing": "on_demand",
}
"""Two H100 PCIe cards at RunPod's community cloud: the proposal the check endpoint is asked about."""


# --- contract ----------------------------------------------------------------------------------------


def test_healthz(client: httpx.Client) -> None:
    from gpu_advisor import __version__

    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "version": __version__}
    # Load balancers that probe with HEAD get the same answer without its body, not 405.
    for path in ("/healthz", "/readyz"):
        head = client.head(path)
        assert (head.status_code, head.content) == (200, b""), path


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
    # A day that does not exist, a word, or a number (which pydantic would read as a Unix timestamp, found
    # by schemathesis) is refused in the words of --as-of, not pydantic's "Input should be a valid date".
    for path, value in (
        ("/recommend", "2026-02-30"),
        ("/recommend", "yesterday"),
        ("/recommend", "0"),
        ("/recommend", "-5.879917941734593e-255"),
        ("/check", "2026-13-01"),
    ):
        body = {"workload": workload, "proposal": RUNPOD_PCIE} if path == "/check" else workload
        response = client.post(path, params={"as_of": value}, json=body)
        assert response.status_code == 422, path
        message = f"{value!r} is not a date; use YYYY-MM-DD"
        assert response.json() == {
            "detail": [{"loc": ["query", "as_of"], "msg": message, "type": "value_error"}]
        }
        printed = invoke("recommend", PUBLIC_CHAT, "--as-of", value)
        assert (printed.exit_code, printed.stderr) == (2, f"error: --as-of: {message}\n")


def test_lang_and_currency_give_the_command_lines_json(client: httpx.Client, tmp_path: Any) -> None:
    """``?currency=CHF`` and ``?lang=de`` answer what ``--currency CHF`` and ``--lang de`` print (they
    were ignored: USD amounts and English texts), spelled as the options take them (``chf``, a locale's
    name); another value is 422 naming the parameter and the values allowed."""
    workload = read_example(EXAMPLES_DIR / "public-chat.yaml")
    for options, params in (
        (["--currency", "CHF"], {"currency": "CHF"}),
        (["--lang", "de", "--currency", "CHF"], {"lang": "de_DE.UTF-8", "currency": "chf"}),
    ):
        printed = invoke("recommend", PUBLIC_CHAT, "--format", "json", "--as-of", AS_OF["as_of"], *options)
        assert printed.exit_code == 0, printed.output
        expected = json.loads(printed.stdout)
        response = client.post("/recommend", params={**AS_OF, **params}, json=workload)
        assert response.status_code == 200, response.text
        assert response.json() == expected
    assert expected["findings"][0]["message"] == (
        "Dedizierte Cloud-GPUs zu mieten ist der grundlegende Self-Hosting-Weg; die günstigste zulässige "
        "Option kostet 6.233,43 CHF pro Monat."
    )
    document = {
        "workload": workload,
        "proposal": RUNPOD_PCIE,
    }
    proposal = tmp_path / "proposal.json"
    proposal.write_text(json.dumps(document), encoding="utf-8")
    options = ["--lang", "de", "--currency", "EUR", "--as-of", AS_OF["as_of"]]
    printed = invoke("check", str(proposal), "--format", "json", "--soft-fail", *options)
    assert printed.exit_code == 0, printed.output
    [entry] = json.loads(printed.stdout)
    response = client.post("/check", params={**AS_OF, "lang": "de", "currency": "eur"}, json=document)
    assert response.status_code == 200, response.text
    assert response.json() == {**entry, "file": "<api>"}
    for name, value, message in (
        ("currency", "YEN", "unknown value 'YEN'; allowed: CHF, EUR, USD"),
        ("lang", "fr", "unknown value 'fr'; allowed: de, en"),
    ):
        refused = client.post("/recommend", params={**AS_OF, name: value}, json=workload)
        assert refused.status_code == 422
        assert refused.json() == {"detail": [{"loc": ["query", name], "msg": message, "type": "value_error"}]}


def test_the_query_parameters_read_lang_and_currency_by_the_options_own_choices() -> None:
    """The query parameters wrote the options' reading of a language (a locale's name) and a currency
    (any case) again: both now read them by the choices ``--lang`` and ``--currency`` are made of."""
    from typing import get_args

    from pydantic import BeforeValidator

    from gpu_advisor.engine.commands.common import CURRENCY_CHOICE, LANGUAGE_CHOICE
    from gpu_advisor.engine.commands.http_query import CURRENCY, LANG
    from gpu_advisor.engine.commands.recommend import recommend as recommend_command

    def reader(parameter: Any) -> Any:
        (found,) = [item.func for item in get_args(parameter)[1:] if isinstance(item, BeforeValidator)]
        return found

    assert (reader(LANG), reader(CURRENCY)) == (LANGUAGE_CHOICE.chosen, CURRENCY_CHOICE.chosen)
    types = {param.name: param.type for param in recommend_command.params}
    assert (types["lang"], types["currency"]) == (LANGUAGE_CHOICE, CURRENCY_CHOICE)
    assert [LANGUAGE_CHOICE.chosen(v) for v in ("de_DE.UTF-8", "DE", "C.UTF-8", "en")] == [
        "de",
        "de",
        "en",
        "en",
    ]
    assert [CURRENCY_CHOICE.chosen(v) for v in ("chf", "Eur", "USD")] == ["CHF", "EUR", "USD"]
    with pytest.raises(ValueError, match=r"^unknown value 'fr_FR'; allowed: de, en$"):
        LANGUAGE_CHOICE.chosen("fr_FR")
    with pytest.raises(
        ValueError, match=r"^unknown value 'eu'; allowed: CHF, EUR, USD \(did you mean 'EUR'\?\)$"
    ):
        CURRENCY_CHOICE.chosen("eu")


def test_rules(client: httpx.Client) -> None:
    response = client.get("/rules")
    assert response.status_code == 200
    assert [rule["id"] for rule in response.json()] == [rule.id for rule in load_rulebook().rules]
    sizing = client.get("/rules", params={"topic": "sizing"}).json()
    assert sizing and {rule["topic"] for rule in sizing} == {"sizing"}
    # An unknown topic is refused as --topic refuses it: the topics, and the one meant where one is close.
    topics = "deployment, export_control, interconnect, knowledge, optimization, pricing, provider, "
    topics += "residency, robustness, sizing, tco"
    for value, hint in (("colour", ""), ("Sizing", " (did you mean 'sizing'?)")):
        response = client.get("/rules", params={"topic": value})
        assert response.status_code == 422
        message = f"unknown value {value!r}; allowed: {topics}{hint}"
        assert response.json() == {
            "detail": [{"loc": ["query", "topic"], "msg": message, "type": "value_error"}]
        }
        printed = invoke("rules", "--topic", value)
        assert (printed.exit_code, printed.stderr) == (2, f"error: --topic: {message}\n")


def test_an_unlisted_country_is_named_by_the_body_field(client: httpx.Client) -> None:
    response = client.post("/tco", json={"country": "DA"})
    assert response.status_code == 422
    assert problem_fields(response) == [["body", "country"]]
    assert "--country" not in response.text


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
        "proposal": RUNPOD_PCIE,
    }
    response = client.post("/check", params={"as_of": "2026-11-30"}, json=document)
    assert response.status_code == 200, response.text
    expected = check(document, evaluated_on=dt.date(2026, 11, 30)).model_dump(mode="json")
    assert response.json() == expected
    assert response.json()["status"] == "fail"
    bad = client.post("/check", json={"workload": {}, "proposal": {"deployment": "gpu"}})
    assert bad.status_code == 422
