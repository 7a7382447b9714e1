"""Standard streams a process was started without (``>&-``, ``<&-``): Python leaves them ``None``, and
the first use was an internal error. Each stands in as a stream that is no terminal and whose use is the
operating system's refusal, named as the stream (exit 5, as a full disk is)."""

from __future__ import annotations

import errno
import io
import sys
from typing import Any, NoReturn


class ClosedStream(io.TextIOBase):
    """A standard stream that is not open: no terminal, nothing to read, nowhere to write."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def _refuse(self) -> NoReturn:
        raise OSError(errno.EBADF, "not open (the command was started with it closed)", self._name)

    def isatty(self) -> bool:
        return False

    def readable(self) -> bool:
        return False

    def writable(self) -> bool:
        return False

    def fileno(self) -> int:
        self._refuse()

    def write(self, text: str) -> int:
        self._refuse()

    def read(self, size: int | None = -1) -> str:
        self._refuse()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]  # text, as TextIOBase's
        self._refuse()

    @property
    def buffer(self) -> Any:
        """Reading or writing bytes is refused as text is."""
        return self


def stand_in_for_closed_streams() -> frozenset[str]:
    """Replace each standard stream that is ``None`` (closed when the process started) by a
    ``ClosedStream`` named as the messages name it; the names of every stand-in in place."""
    if sys.stdin is None:
        sys.stdin = ClosedStream("<stdin>")
    if sys.stdout is None:
        sys.stdout = ClosedStream("<standard output>")
    if sys.stderr is None:
        sys.stderr = ClosedStream("<standard error>")
    streams = (sys.stdin, sys.stdout, sys.stderr)
    return frozenset(stream.name for stream in streams if isinstance(stream, ClosedStream))
