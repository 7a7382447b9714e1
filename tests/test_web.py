"""The web page of ``gpu-advisor serve`` over HTTP, as a browser without JavaScript meets it: the
questionnaire as a form, the memo page against ``recommend`` for every example, the what-if panel against
``sweep``, the proposal check against ``check``, the rule pages, /docs offline. What the page refuses, and
how it explains it, is in ``test_web_refusals.py``; the browser tests (``test_web_browser.py``) drive the
same pages in Chromium."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR
from web_pages import AS_OF, FAILING_PROPOSAL, FormValues, Page, load_into_form, submit

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.questionnaire import load_questions
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml"))
SETTINGS = (("en", "USD"), ("de", "EUR"), ("en", "CHF"))
DECISION_FIELDS = ("deployment", "provider", "offer", "gpu", "gpus", "pricing", "deciding_rule_id")


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.output


def cli_json(*args: str) -> Any:
    return json.loads(cli(*args, "--format", "json"))


def shown_decision(page: Page) -> dict[str, Any]:
    """The decision card's figures, as the page states them in its data attributes."""
    shown: dict[str, Any] = {"deployment": page.by_id("decision-deployment").attrs["data-value"]}
    for name, element_id in (
        ("provider", "decision-provider"),
        ("offer", "decision-offer"),
        ("gpu", "decision-gpu"),
        ("gpus", "decision-gpus"),
        ("pricing", "decision-pricing"),
        ("deciding_rule_id", "decision-rule"),
    ):
        shown[name] = page.by_id(element_id).attrs["data-value"] if page.has_id(element_id) else None
    if shown["gpus"] is not None:
        shown["gpus"] = int(shown["gpus"])
    return shown


# --- the questionnaire as a form ------------------------------------------------------------------------


def test_every_question_of_ask_is_a_labelled_control(client: httpx.Client) -> None:
    page = Page(client.get("/", params={"lang": "en"}).text)
    labels = {e.attrs["for"]: e.content for e in page.all("label")}
    names = [e.attrs.get("name") for e in page.elements if e.tag in ("input", "select")]
    for question in load_questions():
        assert question.field in names, question.field
        control = next(e for e in page.elements if e.attrs.get("name") == question.field)
        assert labels[control.attrs["id"]].startswith(question.prompt), question.field
        assert page.by_id(control.attrs["id"] + "-help").content == question.help


def test_the_form_shows_the_questionnaires_defaults(client: httpx.Client) -> None:
    values = FormValues(client.get("/", params={"lang": "de"}).text, "questionnaire").values
    assert values["avg_input_tokens"] == "300"
    assert values["context_tokens"] == "8192"
    assert values["model.precision"] == "bf16"
    assert values["company_country"] == "DE"
    assert values["latency_sensitive"] == ""  # the default follows the load pattern, as in ask
    assert values["model.name"] == ""  # no default: a choice is required


def test_german_numbers_are_read_as_german(client: httpx.Client) -> None:
    """'1.000.000' is a million and '0,65' a share in German, as ask reads them."""
    params = {"lang": "de", "as_of": AS_OF, "name": "chat", "model.name": "llama-3.1-70b"}
    page = Page(
        client.get("/memo", params={**params, "requests_per_day": "1.000.000", "utilization": "0,65"}).text
    )
    saved = yaml.safe_load(
        client.get(
            "/workload.yaml", params={**params, "requests_per_day": "1.000.000", "utilization": "0,65"}
        ).text
    )
    assert saved["requests_per_day"] == 1_000_000
    assert saved["utilization"] == 0.65
    assert page.by_id("share-url").attrs["value"].count("utilization=0%2C65") == 1


# --- the memo page against the command line -----------------------------------------------------------


@pytest.mark.parametrize(("lang", "currency"), SETTINGS)
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
def test_the_page_and_the_cli_agree_on_every_example(
    client: httpx.Client, example: Path, lang: str, currency: str, tmp_path: Path
) -> None:
    """Load the example on the form, submit it: the decision and its figures are those of ``recommend
    --format json``; the memo to download is the one ``recommend`` writes from the saved answers."""
    form = load_into_form(client, example, lang, currency)
    memo_page = submit(client, form.text)
    assert memo_page.status_code == 200, memo_page.text[:2000]
    page = Page(memo_page.text)
    expected = cli_json("recommend", str(example), "--as-of", AS_OF, "--lang", lang, "--currency", currency)
    decision = expected["decision"]
    assert shown_decision(page) == {name: decision[name] for name in DECISION_FIELDS}
    fmt = load_knowledge().display_format(lang, currency)
    if decision["usd_per_month"] is not None:
        cost = page.by_id("decision-cost")
        assert float(cost.attrs["data-value"]) == decision["usd_per_month"]
        assert cost.content == fmt.money_whole(decision["usd_per_month"])
    saved = tmp_path / "saved.yaml"
    saved.write_text(submit(client, form.text, "/workload.yaml").text, encoding="utf-8")
    markdown = client.get(Page(memo_page.text).by_id("download-memo").attrs["href"]).text
    assert markdown == cli("recommend", str(saved), "--as-of", AS_OF, "--lang", lang, "--currency", currency)


def test_the_saved_workload_file_is_what_ask_saves(client: httpx.Client) -> None:
    form = load_into_form(client, EXAMPLES_DIR / "hr-assistant.yaml", "en", "USD")
    saved = yaml.safe_load(submit(client, form.text, "/workload.yaml").text)
    original = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
    assert {k: v for k, v in saved.items() if k in original} == original
    assert saved["avg_input_tokens"] == 1200 and saved["context_tokens"] == 8192  # a default, as ask saves


def test_the_memo_page_shows_findings_by_severity_with_rule_links(client: httpx.Client) -> None:
    form = load_into_form(client, EXAMPLES_DIR / "hr-assistant.yaml", "de", "EUR")
    page = Page(submit(client, form.text).text)
    result = cli_json("recommend", str(EXAMPLES_DIR / "hr-assistant.yaml"), "--as-of", AS_OF, "--lang", "de")
    groups = [
        e.attrs["id"].removeprefix("findings-")
        for e in page.all("h3")
        if e.attrs.get("id", "").startswith("findings-")
    ]
    order = ("critical", "warning", "advice", "info")
    assert groups == [s for s in order if any(f["severity"] == s for f in result["findings"])]
    listed = [e.attrs["data-rule"] for e in page.with_class("finding")]
    assert sorted(set(listed)) == sorted({f["rule_id"] for f in result["findings"]})
    assert page.by_id("findings-critical").content.startswith("Kritisch")
    links = {e.attrs["href"] for e in page.all("a")}
    assert "/rules/RES001?lang=de" in links
    # Every rule link of the German page opens the German rule page: those in the memo's text too.
    rule_links = [link for link in links if link.startswith("/rules/")]
    assert rule_links and all(link.endswith("?lang=de") for link in rule_links), rule_links
    assert page.all("svg", role="img") and len(page.with_class("chart")) == 2
    assert not [e for e in page.all("code") if e.attrs.get("class") == "language-mermaid"]


def test_a_workload_name_cannot_put_a_link_or_an_image_on_the_page(client: httpx.Client) -> None:
    """The name reaches the memo's title, which the page renders as Markdown: a name written as a link
    and an image stays text (it travels in the share link, so it must not point elsewhere)."""
    form = load_into_form(client, EXAMPLES_DIR / "internal-assistant.yaml", "en", "USD")
    shared = Page(submit(client, form.text).text).by_id("share-url").attrs["value"]
    name = "[b](http://evil.example) ![i](http://evil.example/x.png) <b>x</b>"
    shared = re.sub(r"(?<=[?&])name=[^&]*", "name=" + quote(name), shared)
    response = client.get(shared)
    html = response.text
    assert response.status_code == 200
    assert "GPU decision memo: [b](http://evil.example)" in html
    assert 'href="http://evil' not in html and 'src="http://evil' not in html and "<b>x</b>" not in html


def test_the_share_link_and_the_language_switch_keep_every_answer(client: httpx.Client) -> None:
    form = load_into_form(client, EXAMPLES_DIR / "internal-assistant.yaml", "en", "USD")
    english = Page(submit(client, form.text).text)
    shared = Page(client.get(english.by_id("share-url").attrs["value"]).text)
    assert shown_decision(shared) == shown_decision(english)
    german = Page(client.get(english.by_id("lang-de").attrs["href"]).text)
    assert german.all("html")[0].attrs["lang"] == "de"
    assert shown_decision(german) == shown_decision(english)
    assert "utilization=0%2C6" in english.by_id("lang-de").attrs["href"]
    assert german.by_id("decision-heading").content.startswith("Entscheidung:")


# --- what-if --------------------------------------------------------------------------------------------


def test_the_flip_points_on_the_slider_are_those_of_sweep(client: httpx.Client) -> None:
    example = EXAMPLES_DIR / "public-chat.yaml"
    form = load_into_form(client, example, "en", "USD")
    page = Page(submit(client, form.text).text)
    flips = [e for e in page.with_class("flip") if e.attrs.get("data-below")]
    values = page.by_id("w-requests-per-day-range").attrs["data-values"].split("|")
    assert flips, "public-chat's decision changes along the requests per day"
    shown = {(int(e.attrs["data-below"]), int(e.attrs["data-above"])): e.attrs for e in flips}
    for below, above in itertools.pairwise(values):
        result = cli_json(
            "sweep",
            str(example),
            "--as-of",
            AS_OF,
            "--vary",
            f"requests_per_day={below}:{above}:{int(above) - int(below)}",
        )
        decisions = {d["label"]: d for d in result["decisions"]}
        key = (int(below), int(above))
        assert bool(result["flips"]) == (key in shown), key
        if result["flips"]:
            flip = result["flips"][0]
            for side, label in (("data-from", flip["from_decision"]), ("data-to", flip["to_decision"])):
                d = decisions[label]
                assert shown[key][side] == "|".join(
                    str(d[n] or "") for n in ("deployment", "pricing", "provider", "offer", "gpu")
                )


def test_an_unknown_offer_in_the_what_if_is_said_as_such(client: httpx.Client) -> None:
    """An offer the catalog lacks was told 'a what-if price must be a number greater than 0', of a price
    that was fine: the offer is named, with the one meant."""
    form = load_into_form(client, EXAMPLES_DIR / "public-chat.yaml", "en", "USD")
    whatif = FormValues(submit(client, form.text).text, "whatif-form").values
    whatif["whatif.offer"] = "runpod/comunity/h200"
    whatif["whatif.offer_price"] = "1.2"
    text = client.get("/memo", params=whatif).text
    assert "whatif.offer: unknown value &#39;runpod/comunity/h200&#39;" in text
    assert "did you mean &#39;runpod/community/h200&#39;?" in text
    assert "A what-if price must be a number" not in text


def test_a_price_set_in_place_gives_the_decision_of_sweep_at_that_price(client: httpx.Client) -> None:
    example = EXAMPLES_DIR / "public-chat.yaml"
    form = load_into_form(client, example, "en", "USD")
    page = Page(submit(client, form.text).text)
    whatif = FormValues(submit(client, form.text).text, "whatif-form").values
    key = whatif["whatif.offer"]
    assert key == "runpod/community/h200"
    whatif["whatif.offer_price"] = "1.2"
    changed = Page(client.get("/memo", params=whatif).text)
    result = cli_json("sweep", str(example), "--as-of", AS_OF, "--vary", f"price:{key}=1.2:1.2:1")
    point = result["points"][0]
    decision = next(d for d in result["decisions"] if d["label"] == point["decision"])
    shown = shown_decision(changed)
    assert {n: shown[n] for n in ("deployment", "provider", "offer", "gpu")} == {
        n: decision[n] for n in ("deployment", "provider", "offer", "gpu")
    }
    assert float(changed.by_id("decision-cost").attrs["data-value"]) == pytest.approx(point["usd_per_month"])
    assert shown_decision(changed) != shown_decision(page)
    assert "runpod/community/h200" in changed.by_id("whatif-banner").content


# --- proposal check, rules, docs, offline ---------------------------------------------------------------


@pytest.mark.parametrize(("lang", "currency"), SETTINGS)
def test_an_uploaded_proposal_gets_the_results_of_check(
    client: httpx.Client, lang: str, currency: str
) -> None:
    response = client.post(
        "/check/upload",
        params={"lang": lang, "currency": currency, "as_of": AS_OF},
        files={"proposal": (FAILING_PROPOSAL.name, FAILING_PROPOSAL.read_bytes(), "application/yaml")},
    )
    assert response.status_code == 200, response.text
    page = Page(response.text)
    expected = cli_json(
        "check", str(FAILING_PROPOSAL), "--as-of", AS_OF, "--lang", lang, "--currency", currency
    )
    assert [s.attrs["data-status"] for s in page.with_class("proposal")] == [c["status"] for c in expected]
    for index, checked in enumerate(expected, start=1):
        assert page.by_id(f"proposal-{index}").attrs["data-status"] == checked["status"]
    shown = sorted(
        (e.attrs["data-rule"], e.attrs["data-status"], e.attrs.get("data-waived") == "true")
        for e in page.with_class("item")
        if e.tag == "tr"
    )
    everything = sorted((i["rule_id"], i["status"], i["waived"]) for c in expected for i in c["results"])
    assert shown == everything
    assert expected[0]["status"] == "fail" and expected[1]["counts"]["waived"] == 1
    waiver = page.with_class("waiver")[0].content
    assert "a second region takes over while a card is down" in waiver and "platform team" in waiver


def test_an_uploaded_api_proposal_names_the_api_it_was_judged_as(client: httpx.Client) -> None:
    """A provider named alone: the page says which of its APIs the checks judged, as Markdown does."""
    document = {
        "workload": {
            "name": "contracts",
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 5000,
        },
        "proposal": {"deployment": "api", "provider": "deepinfra"},
    }
    response = client.post(
        "/check/upload",
        params={"as_of": AS_OF},
        files={"proposal": ("api.yaml", yaml.safe_dump(document).encode(), "application/yaml")},
    )
    assert response.status_code == 200, response.text
    assert "(judged as deepinfra llama-3.1-70b-deepinfra)" in Page(response.text).by_id("proposal-1").content


def test_rule_pages_for_a_browser_and_json_for_everyone_else(client: httpx.Client) -> None:
    page = client.get("/rules/dep011", params={"lang": "de"}, headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    german = yaml.safe_load((Path(__file__).parents[1] / "rules" / "i18n" / "de.yaml").read_text("utf-8"))
    assert Page(page.text).all("h1")[0].content == f"DEP011 {german['rules']['DEP011']['title']}"
    assert client.get("/rules/DEP011").json()["id"] == "DEP011"
    # A rule the German rationale names opens in German too (KNB014's names KNB001).
    knb014 = Page(client.get("/rules/KNB014", params={"lang": "de"}, headers={"Accept": "text/html"}).text)
    assert "/rules/KNB001?lang=de" in {e.attrs["href"] for e in knb014.all("a")}
    listing = Page(client.get("/rules", headers={"Accept": "text/html"}).text)
    assert len(listing.all("tr")) - 1 == len(client.get("/rules").json())
    missing = client.get("/rules/XXX999", headers={"Accept": "text/html"})
    assert missing.status_code == 404 and "XXX999" in missing.text


def test_docs_work_offline(client: httpx.Client) -> None:
    docs = client.get("/docs")
    assert docs.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
    assert sources and all(source.startswith("/static/swagger-ui/") for source in sources), sources
    for source in sources:
        assert client.get(source).status_code == 200, source
    assert "validatorUrl" in docs.text and '"validatorUrl": null' in docs.text
    assert client.get("/redoc").status_code == 404
    paths = client.get("/openapi.json").json()["paths"]
    assert not [path for path in paths if path in ("/", "/memo", "/load", "/check/upload", "/docs")]
    assert list(paths["/check"]) == ["post"]  # the API's; the page's GET /check is not in it


@pytest.mark.parametrize("path", ["/", "/check", "/rules", "/rules/DEP011"])
def test_no_page_refers_beyond_the_server(client: httpx.Client, path: str) -> None:
    response = client.get(path, headers={"Accept": "text/html"})
    assert "default-src 'none'" in response.headers["content-security-policy"]
    page = Page(response.text)
    for element in page.elements:
        for name in ("src", "href", "action"):
            target = element.attrs.get(name, "")
            assert not re.match(r"^[a-z]+:|^//", target), (element.tag, target)
    for asset in {e.attrs.get("src") or e.attrs.get("href") for e in page.all("script") + page.all("link")}:
        assert asset and client.get(asset).status_code == 200


def test_a_what_if_price_is_read_as_the_pages_language_writes_numbers() -> None:
    """'300,000' (the English box's placeholder is '$285,000') read as 300.0 priced the server at $300 and
    flipped the decision to own hardware; '250.000' on the German page likewise."""
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.web.whatif import read_price_change

    assert read_price_change({"whatif.server_price": "300,000"}, 1.0, "en").server_usd == 300_000
    assert read_price_change({"whatif.server_price": "250.000"}, 1.16, "de").server_usd == (
        pytest.approx(250_000 * 1.16)
    )
    german = read_price_change(
        {"whatif.offer": "runpod/community/h200", "whatif.offer_price": "2,5"}, 1.16, "de"
    )
    assert german.offer_usd_per_gpu_hour == pytest.approx(2.5 * 1.16)
    english = read_price_change({"whatif.offer": "runpod/community/h200", "whatif.offer_price": "1.2"}, 1.0)
    assert english.offer_usd_per_gpu_hour == pytest.approx(1.2)
    with pytest.raises(InputError, match=r"whatif\.server_price: '3,00,000' is not a number"):
        read_price_change({"whatif.server_price": "3,00,000"}, 1.0, "en")


def test_a_date_that_does_not_exist_is_said_as_the_command_line_says_it(client: httpx.Client) -> None:
    """The page said 'as_of: a date is written YYYY-MM-DD' in English on a German page too, of a date
    written so (2026-02-30); now the words of --as-of and the service's as_of, in the page's language."""
    form = load_into_form(client, EXAMPLES_DIR / "public-chat.yaml", "en", "USD")
    answers = FormValues(submit(client, form.text).text, "whatif-form").values
    for lang, said in (
        ("en", "<li>as_of: &#39;2026-02-30&#39; is not a date; use YYYY-MM-DD</li>"),
        ("de", "<li>as_of: &#39;2026-02-30&#39; ist kein Datum; verwenden Sie JJJJ-MM-TT</li>"),
    ):
        text = client.get("/memo", params={**answers, "lang": lang, "as_of": "2026-02-30"}).text
        assert said in text, lang
        assert "a date is written" not in text
