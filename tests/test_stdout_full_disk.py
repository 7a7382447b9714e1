"""Standard output redirected to a file on a full disk: every byte is written or the command fails with
exit 5. Python's buffered writer took a short count as written and dropped the rest (a 250 KB JSON left
4,096 bytes and exit 0)."""

from __future__ import annotations

import errno
import io
from typing import Any

import pytest

from gpu_advisor.engine.common import stdout


class FileStdout(io.StringIO):
    """A redirected standard output: a descriptor, no terminal."""

    encoding = "utf-8"  # type: ignore[assignment]
    errors = "strict"  # type: ignore[assignment]

    def fileno(self) -> int:
        return 99

    def isatty(self) -> bool:
        return False


def disk(room: int, chunk: int) -> tuple[list[bytes], Any]:
    """An os.write that takes at most ``chunk`` bytes a call until ``room`` bytes are written, then 0."""
    taken: list[bytes] = []

    def write(descriptor: int, data: memoryview) -> int:
        assert descriptor == 99
        left = room - sum(len(part) for part in taken)
        count = min(chunk, len(data), left)
        taken.append(bytes(data[:count]))
        return count

    return taken, write


def test_short_writes_are_continued_until_every_byte_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    taken, write = disk(room=10_000, chunk=7)
    monkeypatch.setattr(stdout.sys, "stdout", FileStdout())
    monkeypatch.setattr(stdout.os, "write", write)
    stdout.write_stdout("Kosten: 1.234 € — 100 %\n" * 20)
    assert b"".join(taken).decode("utf-8") == "Kosten: 1.234 € — 100 %\n" * 20


def test_a_write_that_takes_nothing_is_a_full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    taken, write = disk(room=4096, chunk=4096)
    monkeypatch.setattr(stdout.sys, "stdout", FileStdout())
    monkeypatch.setattr(stdout.os, "write", write)
    with pytest.raises(OSError) as raised:
        stdout.write_stdout("x" * 20_000)
    assert raised.value.errno == errno.ENOSPC
    assert sum(len(part) for part in taken) == 4096


def test_the_command_says_the_full_disk_and_exits_5(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the command line: cli.Commands turns it into the system error (exit 5)."""
    from click.testing import CliRunner

    from gpu_advisor.cli import main

    def full(text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(stdout, "write_stdout", full)
    result = CliRunner().invoke(main, ["schema", "workload"])
    assert result.exit_code == 5
    assert "No space left on device: '<standard output>'" in result.output


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
def test_a_stdout_in_another_encoding_is_written_in_utf8(
    monkeypatch: pytest.MonkeyPatch, encoding: str
) -> None:
    """PYTHONIOENCODING=ascii, a C locale or a Windows redirect (cp1252): the memo's ×, λ and € are written
    as UTF-8, not refused as an internal error."""

    class Redirected(FileStdout):
        pass

    Redirected.encoding = encoding  # type: ignore[assignment]
    taken, write = disk(room=10_000, chunk=10_000)
    monkeypatch.setattr(stdout.sys, "stdout", Redirected())
    monkeypatch.setattr(stdout.os, "write", write)
    stdout.write_stdout("2 × h100, λ, 3 €\n")
    assert b"".join(taken) == "2 × h100, λ, 3 €\n".encode()
