"""Parsed YAML kept between runs, and the user's cache directory it shares with the compiled templates.

Every start reads the knowledge base and the rules (28 YAML files), and parsing them is most of that
time: even libyaml's loader builds every node in Python. The parsed data is kept in the user's cache
directory under the SHA-256 of the file's bytes (and of the parser), so an edited file is parsed afresh.
An entry is read back with pickle restricted to the types a safe YAML load makes (dicts, lists, strings,
numbers, dates): it cannot name any other class. Validation is not cached: the data is validated at
every load as before. Any problem with the cache costs a parse, never the run.

The cache keeps the newest ``KEPT_ENTRIES`` entries: each edit of a file adds one.

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
import time
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


KEPT_ENTRIES = 256
"""Entries kept when a new one is written; the oldest written go first. The knowledge base and the rules
are 28 files, so this leaves room for many edited versions of them and of organization policies (an
entry is a few kilobytes). An entry removed while still in use costs its file one parse."""


ABANDONED_AFTER_SECONDS = 3600
"""A temporary file this old was left by a writer that was killed mid-write (a write takes milliseconds)."""


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
    if _store(path, data):
        _prune(directory)
    else:
        # The directory may have been deleted since it was checked (a long-running service outlives a
        # user's cache clean-up): check it again at the next store.
        _private_directory.cache_clear()
    return data


@functools.cache
def parser_version(loader: Any) -> str:
    """The loader class and the versions of PyYAML and, where the loader uses it, libyaml."""
    version = f"{loader.__module__}.{loader.__qualname__} PyYAML {yaml.__version__}"
    if getattr(yaml, "__with_libyaml__", False):
        from yaml import _yaml  # type: ignore[attr-defined]

        version += f" libyaml {_yaml.get_version_string()}"
    return version


def _store(path: Path, data: Any) -> bool:
    """Best effort: written to a temporary file and moved into place, so a reader never sees half an
    entry; a cache that cannot take it costs the next run a parse. False when the directory failed (it
    may have been deleted), True when it worked or only the data could not be kept."""
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as file:
            pickle.dump(data, file, protocol=PICKLE_PROTOCOL)
        os.replace(temporary, path)
        return True
    except OSError:
        directory_works = False
    except (pickle.PicklingError, RecursionError, TypeError, ValueError):
        directory_works = True  # data nested too deep to keep says nothing about the directory
    with contextlib.suppress(OSError):
        os.unlink(temporary)
    return directory_works


def _prune(directory: Path) -> None:
    """Removes the entries written before the newest ``KEPT_ENTRIES``, and abandoned temporary files.
    Runs only after a new entry was written, which is rare (a file was edited), so a start that finds
    everything cached never lists the directory. Another process pruning at the same time is harmless:
    whatever either removes costs a parse at most."""
    abandoned_before = time.time() - ABANDONED_AFTER_SECONDS
    written: list[tuple[float, str]] = []
    with contextlib.suppress(OSError), os.scandir(directory) as found:
        for item in found:
            with contextlib.suppress(OSError):
                modified = item.stat(follow_symlinks=False).st_mtime
                if item.name.endswith(".pickle"):
                    written.append((modified, item.path))
                elif item.name.endswith(".tmp") and modified < abandoned_before:
                    os.unlink(item.path)
    written.sort()
    for _, path in written[: max(len(written) - KEPT_ENTRIES, 0)]:
        with contextlib.suppress(OSError):
            os.unlink(path)
