"""Settings for the whole suite, and the fixtures several test modules share: a ``gpu-advisor serve`` on
loopback with an HTTP client for it, and the sample repository of proposals the CI examples run on."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import settings

# CI runs every property test derandomized (the same examples on every run, none from a database): a
# failure there is reproducible. Locally the default profile explores new examples each run.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_cache_home: list[str] = []
_STARTED: list[float] = [time.time()]
"""When this process loaded the suite's settings: artifacts newer than that are this run's."""
_terminal_size: dict[str, str] = {}


def pytest_configure(config: pytest.Config) -> None:
    """The suite's parse and template caches live in a directory of its own, never in the user's:
    no run depends on what an earlier one left there. Set before collection, since some test modules
    load the knowledge base when imported; commands run in subprocesses inherit it."""
    _cache_home.append(tempfile.mkdtemp(prefix="gpu-advisor-test-cache-"))
    _cache_home.append(os.environ.get("XDG_CACHE_HOME", ""))
    os.environ["XDG_CACHE_HOME"] = _cache_home[0]
    # Text output is tested as a pipe gets it, whatever terminal the suite is started from: pytest-xdist
    # gives each worker the controller's terminal size in COLUMNS and LINES, and a developer's shell may
    # export them. Tests of wrapping set COLUMNS themselves.
    for name in ("COLUMNS", "LINES"):
        if name in os.environ:
            _terminal_size[name] = os.environ.pop(name)


def pytest_unconfigure(config: pytest.Config) -> None:
    directory, before = _cache_home
    if before:
        os.environ["XDG_CACHE_HOME"] = before
    else:
        os.environ.pop("XDG_CACHE_HOME", None)
    shutil.rmtree(directory, ignore_errors=True)
    os.environ.update(_terminal_size)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``gpu-advisor serve`` on a free loopback port, once /healthz answers; one server per test module,
    stopped after it."""
    # Imported here, not at the top of this module: web_pages imports gpu-advisor, and none of it is
    # loaded before pytest_configure has set the cache directory.
    from web_pages import served

    with served(tmp_path_factory.mktemp("server") / "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def client(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=60.0) as http:
        yield http


@pytest.fixture(scope="module")
def ci_sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A repository of proposals: the base, a pull request that changes a proposal and adds a passing
    one, and one that adds a failing one (``ci_runs.sample_repository``)."""
    from ci_runs import sample_repository  # here, as web_pages in base_url: it imports gpu-advisor

    return sample_repository(tmp_path_factory.mktemp("sample") / "gpu-proposals")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Where the browser tests left their screenshots and the printed memo, said by the process that
    reports (with pytest-xdist the tests run in workers, whose output the terminal does not show)."""
    folder = Path(
        os.environ.get("GPU_ADVISOR_ARTIFACTS", Path(__file__).resolve().parents[1] / "test-artifacts")
    )
    browser = folder / "browser"
    if any(path.stat().st_mtime >= _STARTED[0] for path in browser.glob("*")) if browser.is_dir() else False:
        terminalreporter.write_line(f"browser test screenshots and the printed memo: {browser}")
