"""The service's log holds its own lines, not a library's warnings: the first POST to each route that
reads a body printed pydantic's UnsupportedFieldAttributeWarning (FastAPI's body-parameter alias) with a
site-packages path, which reads as a fault to whoever runs the service."""

from __future__ import annotations

from pathlib import Path

import httpx
from web_pages import served

BODIES = {
    "/recommend": {
        "name": "t",
        "model": {"name": "llama-3.1-8b", "precision": "bf16"},
        "requests_per_day": 1000,
    },
    "/tco": {},
    "/size": {"model": "llama-3.1-8b", "precision": "bf16"},
}


def test_the_first_request_of_each_route_prints_no_warning(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with served(log) as url, httpx.Client(base_url=url, timeout=60.0) as client:
        for path, body in BODIES.items():
            assert client.post(path, json=body).status_code == 200, path
    text = log.read_text(encoding="utf-8")
    assert "Warning" not in text and "site-packages" not in text, text
