"""Reading the web page's HTML in tests: elements by id with their attributes and text, the controls of a
form as a browser would submit them, a workload file loaded on the form and the questionnaire submitted
as a browser without JavaScript does, and a server of the page started on a free loopback port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import httpx
from helpers import EVALUATED_ON, TESTS_DIR

START_TIMEOUT_S = 30.0
AS_OF = EVALUATED_ON.isoformat()
FAILING_PROPOSAL = TESTS_DIR / "web" / "failing-proposal.yaml"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: list[str] = field(default_factory=list)

    @property
    def content(self) -> str:
        return " ".join("".join(self.text).split())


class Page(HTMLParser):
    """Every element with its attributes; the text of each element (its descendants' included)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.elements.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                return

    def handle_data(self, data: str) -> None:
        for element in self.open:
            element.text.append(data)

    def by_id(self, element_id: str) -> Element:
        found = [e for e in self.elements if e.attrs.get("id") == element_id]
        assert len(found) == 1, f"{len(found)} elements with id {element_id!r}"
        return found[0]

    def has_id(self, element_id: str) -> bool:
        return any(e.attrs.get("id") == element_id for e in self.elements)

    def all(self, tag: str, **attrs: str) -> list[Element]:
        return [
            e
            for e in self.elements
            if e.tag == tag and all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
        ]

    def with_class(self, name: str) -> list[Element]:
        return [e for e in self.elements if name in e.attrs.get("class", "").split()]


class FormValues(HTMLParser):
    """What the form with ``form_id`` sends: text and hidden inputs, and the selected option of each
    select (the first where none is selected)."""

    def __init__(self, html: str, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.select: str | None = None
        self.first_option: str | None = None
        self.values: dict[str, str] = {}
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or "disabled" in a:
            return
        if tag == "input" and a.get("type", "text") in ("text", "hidden") and a.get("name"):
            self.values[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select, self.first_option = a["name"], None
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = a.get("value", "")
                self.values[self.select] = self.first_option
            if "selected" in a:
                self.values[self.select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def load_into_form(client: httpx.Client, path: Path, lang: str, currency: str) -> httpx.Response:
    """Upload a workload file on the form page; the answer the redirect leads to."""
    response = client.post(
        "/load",
        params={"lang": lang, "currency": currency, "as_of": AS_OF},
        files={"workload": (path.name, path.read_bytes(), "application/yaml")},
        follow_redirects=True,
    )
    assert response.status_code == 200, response.text
    return response


def submit(client: httpx.Client, form_html: str, action: str = "/memo") -> httpx.Response:
    """The questionnaire submitted as a browser submits it (no JavaScript: every field as shown)."""
    return client.get(action, params=FormValues(form_html, "questionnaire").values)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served(log_path: Path, *options: str) -> Iterator[str]:
    """``gpu-advisor serve`` on a free loopback port (with ``options``); its base URL once /healthz
    answers."""
    with served_process(log_path, *options) as (url, _):
        yield url


@contextmanager
def served_process(log_path: Path, *options: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """As ``served``, with the server's process."""
    port = free_port()
    command = [sys.executable, "-m", "gpu_advisor.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [*command, *options],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while True:
                if server.poll() is not None:
                    raise RuntimeError(f"the server exited with {server.returncode}:\n{log_path.read_text()}")
                try:
                    if httpx.get(f"{url}/healthz", timeout=1.0).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"the server did not answer in {START_TIMEOUT_S} s:\n{log_path.read_text()}"
                    )
                time.sleep(0.1)
            yield url, server
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
