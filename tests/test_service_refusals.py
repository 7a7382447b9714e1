"""Input the HTTP service refuses, over TCP to a real ``gpu-advisor serve``: a body that is no workload, a
field that is wrong (named by its ``loc``, in the validator's own words), a body too large or not
declared as JSON, the malformed-input corpus (``tests/malformed/``) read as the command line reads it, and
``/check`` locating each problem of its workload, proposal and waivers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from helpers import AS_OF, EXAMPLES_DIR, post_recommend, problem_fields, read_example

from gpu_advisor.engine.common.user_input import MAX_INPUT_BYTES

CORPUS = Path(__file__).resolve().parent / "malformed"
CORPUS_WORKLOADS: dict[str, Any] = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))[
    "workloads"
]


# --- a field the service refuses, by name ------------------------------------------------------------


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
        ({"company_country": "Deutschland"}, ["body", "company_country"], "pattern"),
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


ONE_LINE_SAID = "one line of text, without control characters such as tabs or line breaks"


def test_a_control_character_in_free_text_is_422_in_words_not_as_a_pattern(client: httpx.Client) -> None:
    """A name with a tab said "String should match pattern '^[^\\x00-\\x1f\\x7f]+$'", where the command
    line says in words what the field allows."""
    workload = {**read_example(EXAMPLES_DIR / "public-chat.yaml"), "name": "a\tb"}
    said = post_recommend(client, workload).json()
    assert said == {
        "detail": [{"loc": ["body", "name"], "msg": ONE_LINE_SAID, "type": "string_pattern_mismatch"}]
    }
    proposal = yaml.safe_load((EXAMPLES_DIR / "proposals" / "public-chat.yaml").read_text(encoding="utf-8"))
    proposal["proposal"]["name"] = "x\ny"
    proposal["waivers"] = [{"rule": "NET002", "reason": "a\x07", "owner": "b\x01"}]
    checked = client.post("/check", params=AS_OF, json=proposal).json()
    assert checked == {
        "detail": [
            {"loc": ["body", "proposal", "name"], "msg": ONE_LINE_SAID, "type": "string_pattern_mismatch"},
            {
                "loc": ["body", "waivers", 0, "reason"],
                "msg": "text without control characters other than tabs and line breaks",
                "type": "string_pattern_mismatch",
            },
            {"loc": ["body", "waivers", 0, "owner"], "msg": ONE_LINE_SAID, "type": "string_pattern_mismatch"},
        ]
    }


def test_an_unknown_query_parameter_is_422_naming_those_the_endpoint_takes(client: httpx.Client) -> None:
    """A query parameter the endpoint does not take was ignored (200 with an answer that did not heed
    it); now it is refused as an unknown body field is: by name, with the ones allowed and the one
    meant. A browser's request for a rules page keeps the page's own settings (``?lang=de``)."""
    workload = read_example(EXAMPLES_DIR / "public-chat.yaml")
    response = client.post("/recommend", params={**AS_OF, "curency": "CHF", "format": "json"}, json=workload)
    allowed = "unknown query parameter; allowed query parameters: as_of, lang, currency"
    assert response.status_code == 422
    assert response.json() == {
        "detail": [
            {
                "loc": ["query", "curency"],
                "msg": f"{allowed} (did you mean 'currency'?)",
                "type": "extra_forbidden",
            },
            {"loc": ["query", "format"], "msg": allowed, "type": "extra_forbidden"},
        ]
    }
    takes_none = "unknown query parameter; this endpoint takes none"
    for path in ("/size", "/tco"):
        refused = client.post(path, params={"lang": "de"}, json={})
        assert refused.status_code == 422, path
        assert refused.json() == {
            "detail": [{"loc": ["query", "lang"], "msg": takes_none, "type": "extra_forbidden"}]
        }
    # A liveness or readiness probe may add a parameter of its own (a cache-buster): still healthy.
    for path in ("/healthz", "/readyz"):
        assert client.get(path, params={"nocache": "1"}).status_code == 200, path
    # A parameter given twice would be heeded once, silently: refused.
    twice = client.post("/recommend", params=[("currency", "CHF"), ("currency", "USD")], json=workload)
    assert twice.status_code == 422
    assert twice.json() == {
        "detail": [
            {"loc": ["query", "currency"], "msg": "given more than once; give it once", "type": "value_error"}
        ]
    }
    rules = client.get("/rules", params={"topic": "sizing", "lang": "de"})
    assert rules.json() == {
        "detail": [
            {
                "loc": ["query", "lang"],
                "msg": "unknown query parameter; allowed query parameters: topic",
                "type": "extra_forbidden",
            }
        ]
    }
    assert problem_fields(client.get("/rules/DEP010", params={"lang": "de"})) == [["query", "lang"]]
    page = client.get("/rules/DEP010", params={"lang": "de"}, headers={"accept": "text/html"})
    assert page.status_code == 200
    assert '<html lang="de">' in page.text


def test_body_that_is_not_a_workload(client: httpx.Client) -> None:
    listed = post_recommend(client, [1, 2])
    assert problem_fields(listed) == [["body"]]
    assert listed.json()["detail"][0]["msg"] == (
        "the body is a JSON object of the request's fields, not a list or a single value"
    )
    nothing = client.post("/recommend", content=b"", headers={"content-type": "application/json"})
    assert nothing.status_code == 422
    assert nothing.json()["detail"][0]["msg"] == "no body: send the request's fields as a JSON object"
    empty = client.post("/recommend", content=b"null", headers={"content-type": "application/json"})
    assert problem_fields(empty) == [["body"]]
    assert empty.json()["detail"][0]["msg"] == "no fields given: the body is null"
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
    assert response.json()["detail"][0]["msg"].startswith("unknown value 'llama-9'; allowed: ")
    # A proposal's own field stays where it is.
    proposal = {"deployment": "dedicated_cloud", "gpu": "h900"}
    response = client.post(
        "/check",
        params=AS_OF,
        json={"workload": read_example(EXAMPLES_DIR / "public-chat.yaml"), "proposal": proposal},
    )
    assert problem_fields(response) == [["body", "proposal", "gpu"]]


def test_a_body_with_a_byte_order_mark_is_read_as_the_command_line_reads_it(
    client: httpx.Client, tmp_path: Path
) -> None:
    """Windows tools write a UTF-8 byte-order mark; the command line read such a file and the service
    answered 422 "not valid JSON (line 1, column 1)". RFC 8259 lets a reader ignore it."""
    body = (
        b'\xef\xbb\xbf{"name": "windows-export", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, '
        b'"requests_per_day": 5000, "utilization": 0.25}'
    )
    response = client.post(
        "/recommend", params=AS_OF, content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["workload"]["name"] == "windows-export"
