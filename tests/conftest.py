"""Settings for the whole suite."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from hypothesis import settings

# CI runs every property test derandomized (the same examples on every run, none from a database): a
# failure there is reproducible. Locally the default profile explores new examples each run.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_cache_home: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """The suite's parse and template caches live in a directory of its own, never in the user's:
    no run depends on what an earlier one left there. Set before collection, since some test modules
    load the knowledge base when imported; commands run in subprocesses inherit it."""
    _cache_home.append(tempfile.mkdtemp(prefix="gpu-advisor-test-cache-"))
    _cache_home.append(os.environ.get("XDG_CACHE_HOME", ""))
    os.environ["XDG_CACHE_HOME"] = _cache_home[0]


def pytest_unconfigure(config: pytest.Config) -> None:
    directory, before = _cache_home
    if before:
        os.environ["XDG_CACHE_HOME"] = before
    else:
        os.environ.pop("XDG_CACHE_HOME", None)
    shutil.rmtree(directory, ignore_errors=True)
