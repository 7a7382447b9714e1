"""Parsed YAML kept between runs, and the user's cache directory it shares with the compiled templates.

Every start reads the knowledge base and the rules (28 YAML files), and parsing them is most of that
time: even libyaml's loader builds every node in Python. The parsed data is kept in the user's cache
directory under the SHA-256 of the file's bytes (and of the parser), so an edited file is parsed afresh.
An entry is read back with pickle restricted to the types a safe YAML load makes (dicts, lists, strings,
numbers, dates): it cannot name any other class. Validation is not cached: the data is validated at
every load as before. Any problem with the cache costs a parse, never the run.

What the cache holds decides results (prices, thresholds, rule messages, which are templates), and the
compiled templates beside it are code. So, as for any cache of code, only the user may write the
directory: ``cache_directory`` creates it private and uses none that another user owns or may write.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it: the knowledge base and the rules are read at every
start, and the C loader reads them several times faster than the pure-Python one."""

CACHE_FORMAT = "1"
"""Part of every key: change it when the stored form changes, or what a parse returns (the parse
function itself is not part of the key)."""
PICKLE_PROTOCOL = 5
"""Fixed, so interpreters of different versions sharing a cache write the same entries."""

PLAIN_DATA_CLASSES = frozenset(
    {("datetime", "date"), ("datetime", "datetime"), ("datetime", "timedelta"), ("datetime", "timezone")}
)
"""The classes a safe YAML load makes beyond what pickle writes without naming a class (dict, list, str,
bytes, int, float, bool, None, set)."""


def cache_directory(part: str) -> Path | None:
    """``gpu-advisor/<part>`` in the user's cache directory, created private if need be; None where it
    cannot be written or is not private to the user (then nothing is cached)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return _private_directory(Path(base) / "gpu-advisor" / part)


@functools.cache
def _private_directory(directory: Path) -> Path | None:
    """Checked once per process and directory: every file read at start-up asks."""
    try:
        for path in (directory.parent, directory):
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not _made_private(path):
                return None
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return None
    return directory


def _made_private(directory: Path) -> bool:
    """Owned by this user, and writable by no other: one that others may write (made so by an older
    version or a umask) is tightened, one that another user owns is not used. Where the system has no
    user IDs, any directory will do."""
    if not hasattr(os, "getuid"):
        return True
    status = directory.stat()
    if status.st_uid != os.getuid():
        return False
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        os.chmod(directory, stat.S_IMODE(status.st_mode) & ~(stat.S_IWGRP | stat.S_IWOTH))
    return True


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
    key = hashlib.sha256(f"{CACHE_FORMAT}:{parser_version(loader)}:".encode() + text)
    path = directory / f"{key.hexdigest()}.pickle"
    # Missing, unreadable, truncated or not plain data: whatever is wrong with an entry, parse instead.
    with contextlib.suppress(Exception), path.open("rb") as file:
        return _PlainDataUnpickler(file).load()
    data = parse(text)
    _store(path, data)
    return data


@functools.cache
def parser_version(loader: Any) -> str:
    """The loader class and the versions of PyYAML and, where the loader uses it, libyaml."""
    version = f"{loader.__module__}.{loader.__qualname__} PyYAML {yaml.__version__}"
    if getattr(yaml, "__with_libyaml__", False):
        from yaml import _yaml  # type: ignore[attr-defined]

        version += f" libyaml {_yaml.get_version_string()}"
    return version


def _store(path: Path, data: Any) -> None:
    """Best effort: written to a temporary file and moved into place, so a reader never sees half an
    entry; a cache that cannot take it costs the next run a parse."""
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as file:
            pickle.dump(data, file, protocol=PICKLE_PROTOCOL)
        os.replace(temporary, path)
    except (OSError, pickle.PicklingError, RecursionError, TypeError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
