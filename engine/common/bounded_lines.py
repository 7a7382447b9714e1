"""Reading a text file line by line without holding more than a bound of it: a file of one endless line
(``/dev/zero``, a single-line export, a pipe) was read whole into memory before any check saw it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO


def lines_within(
    handle: IO[str],
    line_limit: int,
    too_long: Callable[[int], Exception],
    total_limit: int | None = None,
    too_much: Callable[[int], Exception] | None = None,
) -> Iterator[str]:
    """The lines of ``handle``, each read up to ``line_limit`` characters: a longer one raises
    ``too_long(line number)``; past ``total_limit`` characters in all, ``too_much(characters read)``."""
    number = read = 0
    # A line of the limit and its line break is within it: two characters more are read to tell.
    while line := handle.readline(line_limit + 2):
        number += 1
        read += len(line)
        if len(line.rstrip("\r\n")) > line_limit:
            raise too_long(number)
        if total_limit is not None and too_much is not None and read > total_limit:
            raise too_much(read)
        yield line


def line_of_byte(stream: IO[bytes], position: int, chunk: int = 1 << 16) -> int | None:
    """The line (from 1) of the byte at ``position`` in ``stream``, counted from its start in chunks (flat
    memory); None where the stream cannot be read again from its start (a pipe)."""
    try:
        if not stream.seekable():
            return None
        stream.seek(0)
        newlines, left = 0, position
        while left > 0 and (data := stream.read(min(chunk, left))):
            newlines += data.count(b"\n")
            left -= len(data)
    except (OSError, ValueError):
        return None
    return newlines + 1
