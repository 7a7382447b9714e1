"""What the web page of ``gpu-advisor serve`` refuses, over HTTP, and how it explains it in the page's
language: an answer of the questionnaire beside its field, a what-if answer or price out of range, an
uploaded workload or proposal file that is empty, malformed or too large to check."""

from __future__ import annotations

import json

import httpx
import yaml
from helpers import EXAMPLES_DIR
from web_pages import AS_OF, FAILING_PROPOSAL, FormValues, Page, load_into_form, submit

from gpu_advisor.engine.common.user_input import MAX_INPUT_BYTES

# --- the questionnaire ------------------------------------------------------------------------------------


def test_problems_are_shown_beside_their_field_in_the_chosen_language(client: httpx.Client) -> None:
    response = client.get(
        "/memo",
        params={"lang": "de", "name": "x", "model.name": "llama-3.1-70b", "requests_per_day": "viele"},
    )
    assert response.status_code == 422
    page = Page(response.text)
    assert (
        page.by_id("f-requests-per-day-error").content
        == "Bitte geben Sie eine ganze Zahl an, zum Beispiel 150.000."
    )
    assert page.by_id("f-requests-per-day").attrs["aria-invalid"] == "true"
    assert "f-requests-per-day-error" in page.by_id("f-requests-per-day").attrs["aria-describedby"]
    assert page.by_id("f-requests-per-day").attrs["value"] == "viele"  # the answer as typed, to correct


def test_a_missing_answer_and_a_context_too_short_are_explained(client: httpx.Client) -> None:
    response = client.get(
        "/memo",
        params={
            "lang": "en",
            "model.name": "llama-3.1-70b",
            "requests_per_day": "1000",
            "avg_input_tokens": "9000",
            "avg_output_tokens": "1000",
            "context_tokens": "8192",
        },
    )
    assert response.status_code == 422
    page = Page(response.text)
    assert page.by_id("f-name-error").content == "An answer is needed here."
    assert page.by_id("f-context-tokens-error").content == (
        "The context window must hold an average request: at least 10,000 tokens (prompt plus answer)."
    )


def test_the_extra_fields_are_read_as_every_json_input_is(client: httpx.Client) -> None:
    """The form's free JSON field refuses a key given twice and nesting past 20 levels, as a workload
    file does: Python's own parser took the second key silently and a deep nesting ended in a server
    error."""
    base = {"lang": "en", "name": "x", "model.name": "llama-3.1-8b", "requests_per_day": "1000"}
    for extra, said in [
        ('{"min_replicas": 1, "min_replicas": 2}', "extra: key 'min_replicas' is given twice"),
        ("[" * 3000 + "]" * 3000, "extra: input is nested deeper than 20 levels"),
        ('{"utilization": NaN}', "extra: utilization: 'NaN' is not a finite number"),
    ]:
        response = client.get("/memo", params={**base, "extra": extra})
        assert response.status_code == 422
        assert Page(response.text).by_id("form-problems").content.count(said) == 1


# --- what-if --------------------------------------------------------------------------------------------


def test_a_what_if_answer_out_of_range_is_explained_in_the_panels_language(client: httpx.Client) -> None:
    form = load_into_form(client, EXAMPLES_DIR / "public-chat.yaml", "de", "EUR")
    whatif = FormValues(submit(client, form.text).text, "whatif-form").values
    response = client.get("/memo", params={**whatif, "utilization": "1,5"})
    assert response.status_code == 422
    assert (
        Page(response.text).by_id("f-utilization-error").content.startswith("Dieser Wert ist nicht zulässig")
    )


def test_a_what_if_price_that_is_no_price_is_explained(client: httpx.Client) -> None:
    form = load_into_form(client, EXAMPLES_DIR / "public-chat.yaml", "de", "EUR")
    whatif = FormValues(submit(client, form.text).text, "whatif-form").values
    response = client.get("/memo", params={**whatif, "whatif.offer_price": "-3"})
    assert response.status_code == 422
    expected = (
        "Ein Was-wäre-wenn-Preis muss eine Zahl über 0 sein, in der Währung der Seite (EUR), "
        "nicht höher, als eine Overrides-Datei zulässt."
    )
    assert Page(response.text).by_id("form-problems").content.endswith(expected)


# --- uploaded files ------------------------------------------------------------------------------------


def test_a_file_that_is_no_proposal_is_explained(client: httpx.Client) -> None:
    response = client.post(
        "/check/upload", params={"lang": "de"}, files={"proposal": ("x.yaml", b"\n", "text/yaml")}
    )
    assert response.status_code == 422
    assert Page(response.text).by_id("check-problem").content.endswith("Die Datei x.yaml ist leer.")
    response = client.post(
        "/check/upload", params={"lang": "en"}, files={"proposal": ("x.yaml", b"proposal: 1\n", "text/yaml")}
    )
    assert response.status_code == 422
    assert "workload" in Page(response.text).by_id("check-problem").content


def test_a_bad_workload_file_is_explained_on_the_form(client: httpx.Client) -> None:
    body = b"name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: -5\n"
    response = client.post(
        "/load", params={"lang": "en"}, files={"workload": ("bad.yaml", body, "text/yaml")}
    )
    assert response.status_code == 422
    assert "requests_per_day" in Page(response.text).by_id("form-problems").content


def test_an_upload_of_more_proposals_than_the_page_checks_is_refused(client: httpx.Client) -> None:
    """Each proposal is an evaluation: 3,000 in a 713 KB file held a worker for 25 s."""
    proposals = yaml.safe_load(FAILING_PROPOSAL.read_text(encoding="utf-8"))["proposals"]
    many = json.dumps({"proposals": (proposals * 26)[:51]})  # JSON: YAML would write aliases
    response = client.post(
        "/check/upload",
        params={"as_of": AS_OF},
        files={"proposal": ("many.json", many.encode("utf-8"), "application/json")},
    )
    assert response.status_code == 422
    assert "many.json: 51 proposals; the page checks at most 50 a file" in response.text


def test_a_file_the_parser_refuses_is_explained_in_the_page_language(client: httpx.Client) -> None:
    body = b"name: chat\n\tmodel: x\n"
    response = client.post(
        "/load", params={"lang": "de"}, files={"workload": ("bad.yaml", body, "text/yaml")}
    )
    assert response.status_code == 422
    problem = Page(response.text).by_id("form-problems").content
    assert problem.endswith(
        "bad.yaml: kein gültiges YAML oder JSON (Zeile 2, Spalte 1: Tabulatorzeichen sind in YAML nicht "
        "erlaubt; rücken Sie mit Leerzeichen ein)"
    )
    proposal = b"workload: {name: a}\nworkload: {name: b}\nproposal: {deployment: api}\n"
    response = client.post(
        "/check/upload", params={"lang": "de"}, files={"proposal": ("p.yaml", proposal, "text/yaml")}
    )
    assert response.status_code == 422
    problem = Page(response.text).by_id("check-problem").content
    assert problem.endswith("p.yaml:2: Schlüssel 'workload' ist doppelt angegeben")


def test_a_file_too_large_for_the_page_is_refused_on_the_page_in_its_language(client: httpx.Client) -> None:
    """The body limit refuses an upload before anything reads it: a page, not the JSON API's answer."""
    big = b"# " + b"x" * MAX_INPUT_BYTES + b"\n"
    loaded = client.post("/load", params={"lang": "de"}, files={"workload": ("big.yaml", big, "text/yaml")})
    assert loaded.status_code == 413 and loaded.headers["content-type"].startswith("text/html")
    # The body was not read: the connection closes, or its bytes would be read as the next request.
    assert loaded.headers["connection"] == "close"
    assert (
        Page(loaded.text)
        .by_id("form-problems")
        .content.endswith(
            f"Die Datei ist größer als {MAX_INPUT_BYTES:,}".replace(",", ".")
            + " Bytes, das Höchstmaß, das die Seite annimmt: Eine Workload- oder Vorschlagsdatei hat wenige "
            "Kilobytes."
        )
    )
    checked = client.post("/check/upload", files={"proposal": ("big.yaml", big, "text/yaml")})
    assert checked.status_code == 413
    assert f"The file is larger than {MAX_INPUT_BYTES:,} bytes" in checked.text
    # The JSON API keeps its JSON answer.
    api = client.post("/recommend", content=big, headers={"content-type": "application/json"})
    assert api.status_code == 413 and str(MAX_INPUT_BYTES) in api.json()["detail"]
