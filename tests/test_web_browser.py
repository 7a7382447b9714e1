"""The web page in a real browser: Debian's Chromium, driven by Playwright for Python, against a
``gpu-advisor serve`` the tests start on a free loopback port.

Fills the form for two examples and compares the decision with ``recommend --format json``, switches the
language, runs a what-if on the slider by keyboard, uploads a failing proposal, checks every page with
axe-core (WCAG 2.1 A and AA, light and dark) and that no request leaves the machine. Screenshots and the
memo printed to PDF are kept in ``test-artifacts/browser/`` (the path is printed at the end).

Chromium is Debian's (``apt-get install chromium``, ``/usr/bin/chromium``), never a browser Playwright
downloads; without it the tests are skipped, except under CI (``CI=true``), where they must run.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, EXAMPLES_DIR, REPO_ROOT, TESTS_DIR
from web_pages import served

from gpu_advisor.cli import main

CHROMIUM = Path("/usr/bin/chromium")
IN_CI = os.environ.get("CI") == "true"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(os.environ.get("GPU_ADVISOR_ARTIFACTS", REPO_ROOT / "test-artifacts")) / "browser"
AXE = TESTS_DIR / "vendor" / "axe.min.js"
AS_OF = EVALUATED_ON.isoformat()
FAILING_PROPOSAL = TESTS_DIR / "web" / "failing-proposal.yaml"
TIMEOUT_MS = 60_000

if not CHROMIUM.exists() and not IN_CI:
    pytest.skip(
        f"Chromium is not installed at {CHROMIUM} (apt-get install chromium); under CI=true this fails",
        allow_module_level=True,
    )
try:
    from playwright.sync_api import BrowserContext, Page, Request, Route, sync_playwright
except ImportError:
    if not IN_CI:
        pytest.skip("playwright is not installed: pip install -e '.[browser]'", allow_module_level=True)
    # Under CI the browser tests must run: each fails, and the rest of the run goes on.
    PLAYWRIGHT_MISSING = True
else:
    PLAYWRIGHT_MISSING = False


@pytest.fixture(scope="module", autouse=True)
def _playwright_installed() -> None:
    if PLAYWRIGHT_MISSING:
        pytest.fail("playwright is not installed (pip install -e '.[test,browser]'); CI=true needs it")


# One worker runs the whole module: its server, the artifacts folder it empties and the list of requests
# that left the machine, which the last test reads, are the module's own (pytest-xdist, --dist loadgroup).
pytestmark = pytest.mark.xdist_group("browser")

LEFT_THE_MACHINE: list[str] = []
"""Every request of a page to anywhere but the test's server (refused, and reported by the last test)."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("browser") / "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def artifacts() -> Iterator[Path]:
    """The folder of screenshots and the printed memo, emptied for this run (conftest.py names it at the
    end of the run)."""
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield ARTIFACTS


@pytest.fixture(scope="module")
def context(base_url: str) -> Iterator[BrowserContext]:
    if not CHROMIUM.exists():
        pytest.fail(f"CI=true and no Chromium at {CHROMIUM}: .ci/run installs it (apt-get install chromium)")
    profile = tempfile.mkdtemp(prefix="gpu-advisor-chromium-")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            headless=True,
            args=ARGS,
            viewport={"width": 1280, "height": 900},
            locale="en-US",
        )
        browser.set_default_timeout(TIMEOUT_MS)

        def local_only(route: Route, request: Request) -> None:
            if request.url.startswith(base_url + "/"):
                route.continue_()
            else:
                LEFT_THE_MACHINE.append(request.url)
                route.abort()

        browser.route("**/*", local_only)
        try:
            yield browser
        finally:
            browser.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on(
        "console",
        lambda message: errors.append(message.text) if console_error(message.text, message.type) else None,
    )
    yield tab
    tab.close()
    assert errors == []


def console_error(text: str, kind: str) -> bool:
    """An error the page's script or the browser reports; a page answered 422 (answers with problems,
    shown to correct) is no error of the page."""
    return kind == "error" and "status of 422" not in text


def cli_json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def shown_decision(page: Page) -> dict[str, Any]:
    def value(element_id: str) -> str | None:
        element = page.locator(f"#{element_id}")
        return element.get_attribute("data-value") if element.count() else None

    gpus = value("decision-gpus")
    return {
        "deployment": value("decision-deployment"),
        "provider": value("decision-provider"),
        "offer": value("decision-offer"),
        "gpu": value("decision-gpu"),
        "gpus": int(gpus) if gpus else None,
        "pricing": value("decision-pricing"),
        "deciding_rule_id": value("decision-rule"),
    }


DECISION_FIELDS = ("deployment", "provider", "offer", "gpu", "gpus", "pricing", "deciding_rule_id")


def expected_decision(result: dict[str, Any]) -> dict[str, Any]:
    return {name: result["decision"][name] for name in DECISION_FIELDS}


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.1 A and AA violations on the page as it is shown now."""
    # Evaluated through the DevTools protocol: the page's Content-Security-Policy admits no script but its
    # own, and rightly so.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    result = page.evaluate(
        """async () => {
            const found = await axe.run(document, {runOnly: {type: "tag",
                values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}});
            return found.violations.map(v => ({id: v.id, help: v.help,
                nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary)}));
        }"""
    )
    return list(result)


def fill_form(page: Page, workload: dict[str, Any]) -> None:
    """The questionnaire answered as a person answers it: the example's answers typed or chosen, the
    other fields left as the form offers them."""
    flat = {f"model.{k}": v for k, v in workload["model"].items()}
    flat.update({k: v for k, v in workload.items() if k != "model"})
    for name, value in flat.items():
        control = page.locator(f'[name="{name}"]')
        text = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        if control.evaluate("element => element.tagName") == "SELECT":
            control.select_option(text)
        else:
            control.fill(text)


@pytest.mark.parametrize("example", ["public-chat", "hr-assistant"])
def test_fill_the_form_and_get_the_decision_of_the_cli(
    page: Page, base_url: str, artifacts: Path, example: str
) -> None:
    path = EXAMPLES_DIR / f"{example}.yaml"
    workload = yaml.safe_load(path.read_text(encoding="utf-8"))
    page.goto(f"{base_url}/?lang=en&currency=USD&as_of={AS_OF}")
    fill_form(page, workload)
    if workload.get("personal_data"):
        assert page.locator("#f-personal-data-region").is_visible()  # asked only for personal data
    else:
        assert page.locator("#f-personal-data-region").is_hidden()
    page.screenshot(path=str(artifacts / f"form-{example}.png"), full_page=True)
    page.get_by_role("button", name="Show the decision").click()
    page.locator("#decision").wait_for()
    expected = cli_json("recommend", str(path), "--as-of", AS_OF)
    assert shown_decision(page) == expected_decision(expected)
    if expected["decision"]["usd_per_month"] is not None:
        cost = float(page.locator("#decision-cost").get_attribute("data-value") or "nan")
        assert cost == expected["decision"]["usd_per_month"]
    page.screenshot(path=str(artifacts / f"memo-{example}.png"), full_page=False)


def test_switch_language_and_currency(page: Page, base_url: str, artifacts: Path) -> None:
    page.goto(f"{base_url}/?lang=en&currency=USD&as_of={AS_OF}")
    page.locator("#workload-file").set_input_files(str(EXAMPLES_DIR / "internal-assistant.yaml"))
    page.get_by_role("button", name="Load", exact=True).click()
    assert page.locator("#f-name").input_value() == "internal-assistant"
    page.get_by_role("button", name="Show the decision").click()
    english = shown_decision(page)
    page.get_by_role("link", name="Deutsch", exact=True).click()
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("#decision-heading").inner_text().startswith("Entscheidung:")
    assert shown_decision(page) == english
    assert page.locator("#decision-cost").inner_text().endswith("$")  # the currency stays as chosen
    page.get_by_role("link", name="EUR", exact=True).click()
    assert page.locator("#decision-cost").inner_text().endswith("€")
    german = cli_json(
        "recommend",
        str(EXAMPLES_DIR / "internal-assistant.yaml"),
        "--as-of",
        AS_OF,
        "--lang",
        "de",
        "--currency",
        "EUR",
    )
    assert shown_decision(page) == expected_decision(german)
    page.screenshot(path=str(artifacts / "memo-german.png"))


def test_a_what_if_on_the_slider_moves_the_decision(page: Page, base_url: str, artifacts: Path) -> None:
    """public-chat's decision flips between 2,000,000 and 2,500,000 requests a day (marked on the
    slider); four steps to the right by keyboard cross it and the page updates in place."""
    page.goto(f"{base_url}/?lang=en&currency=USD&as_of={AS_OF}")
    fill_form(page, yaml.safe_load((EXAMPLES_DIR / "public-chat.yaml").read_text(encoding="utf-8")))
    page.get_by_role("button", name="Show the decision").click()
    before = shown_decision(page)
    flip = page.locator("#w-requests-per-day-flips li.flip").first
    assert (flip.get_attribute("data-below"), flip.get_attribute("data-above")) == ("2000000", "2500000")
    slider = page.get_by_role("slider", name="Requests per day")
    slider.focus()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert page.locator("#w-requests-per-day").input_value() == "2500000"
    page.wait_for_url("**requests_per_day=2500000**")
    page.locator("#result:not([aria-busy])").wait_for()
    after = shown_decision(page)
    assert after != before
    assert after["deployment"] == flip.get_attribute("data-to").split("|")[0]  # type: ignore[union-attr]
    changed = yaml.safe_load((EXAMPLES_DIR / "public-chat.yaml").read_text(encoding="utf-8"))
    changed["requests_per_day"] = 2_500_000
    file = ARTIFACTS / "public-chat-2500000.yaml"
    file.write_text(yaml.safe_dump(changed), encoding="utf-8")
    assert after == expected_decision(cli_json("recommend", str(file), "--as-of", AS_OF))
    assert page.locator("#whatif-status").inner_text().startswith("Decision:")
    assert page.evaluate("document.activeElement.id") == "w-requests-per-day-range"
    page.screenshot(path=str(artifacts / "what-if.png"))


def test_upload_a_failing_proposal(page: Page, base_url: str, artifacts: Path) -> None:
    page.goto(f"{base_url}/check?lang=de&currency=EUR&as_of={AS_OF}")
    page.get_by_label("Vorschlagsdatei (YAML oder JSON)").set_input_files(str(FAILING_PROPOSAL))
    page.get_by_role("button", name="Datei prüfen").click()
    expected = cli_json("check", str(FAILING_PROPOSAL), "--as-of", AS_OF, "--lang", "de")
    assert page.locator("#proposal-1-status").inner_text() == "nicht bestanden"
    # The second proposal's reservation costs more than the recommendation (DEP033 warns).
    assert [p["status"] for p in expected] == ["fail", "warn"]
    failed = page.locator('#proposal-1 tr[data-status="fail"]')
    assert failed.count() == 1 and failed.get_attribute("data-rule") == "RES005"
    assert page.locator('#proposal-2 tr[data-waived="true"]').get_attribute("data-rule") == "SIZ012"
    page.screenshot(path=str(artifacts / "check-failing-proposal.png"), full_page=True)
    assert axe_violations(page) == []


@pytest.mark.usefixtures("artifacts")  # its answers are saved there
def test_keyboard_alone_reaches_every_control_and_submits(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/?lang=de&currency=EUR&as_of={AS_OF}")
    controls = page.evaluate(
        """() => Array.from(document.querySelectorAll('#questionnaire input:not([type=hidden]), '
            + '#questionnaire select, #questionnaire button'))
            .filter(e => e.offsetParent !== null).map(e => e.id)"""
    )
    reached = []
    for _ in range(80):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.id"))
        if reached[-1] == "save":
            break
    assert [c for c in controls if c not in reached] == []
    page.locator("#f-name").focus()
    page.keyboard.type("tastatur")
    page.keyboard.press("Tab")
    page.keyboard.type("l")  # a select picks the first option with the letter typed: llama-3.1-8b
    page.locator("#f-requests-per-day").focus()
    page.keyboard.type("20.000")
    page.keyboard.press("Enter")
    page.locator("#decision").wait_for()
    expected = cli_json(
        "recommend",
        str(
            write_workload({"name": "tastatur", "model": {"name": "llama-3.1-8b"}, "requests_per_day": 20000})
        ),
        "--as-of",
        AS_OF,
    )
    assert shown_decision(page) == expected_decision(expected)


def write_workload(document: dict[str, Any]) -> Path:
    """The answers ask would save for these (the form fills in the other questions' defaults)."""
    full = {
        **document,
        "model": {"precision": "bf16", "custom_weights": False, **document["model"]},
    }
    path = ARTIFACTS / f"{document['name']}.yaml"
    path.write_text(yaml.safe_dump(full), encoding="utf-8")
    return path


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe_in_light_and_dark(
    page: Page, base_url: str, artifacts: Path, scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)
    query = f"lang=de&currency=EUR&as_of={AS_OF}"
    memo = (
        f"/memo?{query}&name=hr&model.name=llama-3.1-70b&model.precision=fp8&requests_per_day=40000"
        "&schedule=workdays&personal_data=yes"
    )
    for name, path in (
        ("form", f"/?{query}"),
        ("form-problems", f"/memo?{query}&requests_per_day=viele"),
        ("memo", memo),
        ("check", f"/check?{query}"),
        ("rules", f"/rules?{query}"),
        ("rule", f"/rules/RES001?{query}"),
    ):
        page.goto(base_url + path)
        page.locator("details").evaluate_all("all => all.forEach(d => d.open = true)")
        assert axe_violations(page) == [], name
        page.screenshot(path=str(artifacts / f"{name}-{scheme}.png"))


def test_the_memo_prints_as_a_memo(page: Page, base_url: str, artifacts: Path) -> None:
    page.goto(
        f"{base_url}/memo?lang=de&currency=EUR&as_of={AS_OF}&name=hr&model.name=llama-3.1-70b"
        "&model.precision=fp8&requests_per_day=40000&schedule=workdays&personal_data=yes"
    )
    page.emulate_media(media="print")
    hidden = page.evaluate(
        """() => ['#whatif', 'header.site', '.toolbar'].map(selector =>
            getComputedStyle(document.querySelector(selector)).display)"""
    )
    assert hidden == ["none", "none", "none"]
    assert page.locator("#memo svg[role=img]").count() == 2
    pdf = artifacts / "memo-hr.pdf"
    page.pdf(path=str(pdf), format="A4")
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 20_000


def test_the_api_docs_work_offline(page: Page, base_url: str, artifacts: Path) -> None:
    page.goto(f"{base_url}/docs")
    page.locator(".swagger-ui .info .title").wait_for()
    assert page.locator(".swagger-ui .info .title").inner_text().startswith("gpu-advisor")
    assert page.locator(".opblock-summary-path", has_text="/recommend").count() == 1
    page.screenshot(path=str(artifacts / "docs.png"))


def test_no_request_left_the_machine() -> None:
    """Every page above asked this server only (the browser refused anything else and noted it)."""
    assert LEFT_THE_MACHINE == []
