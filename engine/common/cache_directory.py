"""The user's cache directory for compiled templates: private to the user, or not used at all.

Compiled templates are code, so, as for any cache of code, only the user may write the directory:
``cache_directory`` creates it private and uses none that another user owns or may write.
"""

from __future__ import annotations

import functools
import os
import stat
import tempfile
from pathlib import Path


def cache_directory(part: str) -> Path | None:
    """``gpu-advisor/<part>`` in the user's cache directory, created private if need be; None where it
    cannot be written or is not private to the user (then nothing is cached)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return _private_directory(Path(base) / "gpu-advisor" / part)


@functools.cache
def _private_directory(directory: Path) -> Path | None:
    """Checked once per process and directory."""
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
