"""Writing a command's output to standard output so that a full disk is an error, not a cut file.

Python's buffered writer takes a short count from the operating system (a redirect to a file on a disk
with less room than the output) as written and drops the rest without an error: ``recommend > memo.md``
on a nearly full disk left 4,096 bytes of a 250 KB JSON and exited 0. Where standard output is a file
or a pipe, the text is written to its descriptor until every byte is taken, and a write that takes
none is the full disk it is (exit 5, ``cli.Commands``)."""

from __future__ import annotations

import errno
import io
import os
import sys

import click


def write_stdout(text: str) -> None:
    """``text`` to standard output, every byte or an ``OSError``; through click where standard output is
    a terminal or has no descriptor (a test's captured stream)."""
    stream = sys.stdout
    try:
        descriptor = stream.fileno()
        terminal = stream.isatty()
    except (AttributeError, OSError, io.UnsupportedOperation):
        descriptor, terminal = -1, True
    if terminal:
        click.echo(text, nl=False)
        return
    stream.flush()
    # UTF-8 whatever the locale says: a memo's ×, λ and € do not encode in ASCII, Latin-1 or cp1252 (a
    # Windows redirect), and a file or pipe of output is read as UTF-8.
    data = memoryview(text.encode("utf-8"))
    while data:
        written = os.write(descriptor, data)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        data = data[written:]
