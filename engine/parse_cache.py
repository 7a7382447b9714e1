"""Parsed YAML kept between runs, and the user's cache directory it shares with the compiled templates.

Every start reads the knowledge base and the rules (28 YAML files), and parsing them is most of that
time: even libyaml's loader builds every node in Python. The parsed data is kept in the user's cache
directory under the SHA-256 of the file's bytes (and of the parser's version), so an edited file is
parsed afresh. An entry is read back with pickle restricted to the types a safe YAML load makes (dicts,
lists, strings, numbers, dates), so no entry can run code or make other objects. Validation is not
cached: the data is validated at every load as before. Any problem with the cache costs a parse, never
the run.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

CACHE_FORMAT = "1"
"""Part of every key: change it when the stored form changes."""

PLAIN_DATA_CLASSES = frozenset(
    {("datetime", "date"), ("datetime", "datetime"), ("datetime", "timedelta"), ("datetime", "timezone")}
)
"""The classes a safe YAML load makes beyond what pickle writes without naming a class (dict, list, str,
bytes, int, float, bool, None, set)."""


def cache_directory(part: str) -> Path | None:
    """``gpu-advisor/<part>`` in the user's cache directory, created if need be; None where it cannot be
    written (then nothing is cached)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return _writable_directory(Path(base) / "gpu-advisor" / part)


@functools.cache
def _writable_directory(directory: Path) -> Path | None:
    """Checked once per process and directory: every file read at start-up asks."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return None
    return directory


class _PlainDataUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in PLAIN_DATA_CLASSES:
            raise pickle.UnpicklingError(f"{module}.{name} is not plain data")
        return super().find_class(module, name)


def parsed(text: bytes, loader: Any, parse: Callable[[bytes], Any]) -> Any:
    """``parse(text)``, from the cache when this text was parsed before with the same ``loader``."""
    directory = cache_directory("parsed")
    if directory is None:
        return parse(text)
    key = hashlib.sha256(f"{CACHE_FORMAT}:{yaml.__version__}:{loader.__name__}:".encode() + text)
    path = directory / f"{key.hexdigest()}.pickle"
    # Missing, unreadable, truncated or not plain data: whatever is wrong with an entry, parse instead.
    with contextlib.suppress(Exception), path.open("rb") as file:
        return _PlainDataUnpickler(file).load()
    data = parse(text)
    _store(path, data)
    return data


def _store(path: Path, data: Any) -> None:
    """Best effort: written to a temporary file and moved into place, so a reader never sees half an
    entry; a cache that cannot take it costs the next run a parse."""
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as file:
            pickle.dump(data, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except (OSError, pickle.PicklingError, RecursionError, TypeError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
