"""Where the operating system refuses to let an output be written (no permission to create the chart
directory, to search a directory on the way), the command exits with 5 whichever option named it; a path
that cannot name a file (a file where a directory should be) is bad input, exit code 2."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main

PROTOTYPE = str(EXAMPLES_DIR / "prototype.yaml")
AS_ROOT = os.geteuid() == 0


def recommend(*args: str) -> Result:
    return CliRunner().invoke(main, ["recommend", PROTOTYPE, *args, "--as-of", "2026-11-30"])


def read_only(monkeypatch: pytest.MonkeyPatch, directory: Path) -> None:
    """``directory`` refuses new entries: by its mode, or for root, who may write anywhere, by refusing
    the creation of a directory in it as the system refuses another user."""
    directory.mkdir()
    if not AS_ROOT:
        directory.chmod(0o555)
        return
    mkdir = Path.mkdir

    def refusing(self: Path, *args: Any, **kwargs: Any) -> None:
        if self.parent == directory:
            raise PermissionError(13, "Permission denied", str(self))
        mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", refusing)


def test_a_chart_directory_that_cannot_be_created_exits_with_5(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "ro"
    read_only(monkeypatch, locked)
    try:
        result = recommend("--charts", str(locked / "sub"))
        assert result.exit_code == 5
        assert result.output == f"error: --charts: cannot create {locked}/sub (Permission denied)\n"
        german = recommend("--charts", str(locked / "sub"), "--lang", "de")
        assert german.exit_code == 5
        assert german.output == (
            f"Fehler: --charts: {locked}/sub kann nicht angelegt werden (keine Berechtigung)\n"
        )
        assert not (locked / "sub").exists()
    finally:
        locked.chmod(0o755)


def test_a_directory_on_the_way_that_may_not_be_searched_exits_with_5(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed = tmp_path / "closed"
    closed.mkdir()
    stat = os.stat

    def refusing(path: Any, *args: Any, **kwargs: Any) -> Any:
        # Every lookup of a name in the directory, as the system refuses one without search permission.
        if Path(path).parent == closed:
            raise PermissionError(13, "Permission denied", str(path))
        return stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", refusing)
    monkeypatch.setattr(os, "lstat", lambda path: refusing(path, follow_symlinks=False))
    charts = recommend("--charts", str(closed / "sub"))
    assert charts.exit_code == 5
    assert charts.output == f"error: --charts: cannot create {closed}/sub (Permission denied)\n"
    memo = recommend("-o", str(closed / "memo.md"))
    assert memo.exit_code == 5
    assert memo.output == f"error: -o/--output: cannot write '{closed}/memo.md' (Permission denied)\n"


def test_a_file_where_a_directory_should_be_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    charts = recommend("--charts", str(tmp_path / "file" / "sub"))
    assert charts.exit_code == 2
    assert charts.output == f"error: --charts: cannot create {tmp_path}/file/sub (Not a directory)\n"
    memo = recommend("-o", str(tmp_path / "file" / "memo.md"))
    assert memo.exit_code == 2
    assert memo.output == f"error: -o/--output: cannot write '{tmp_path}/file/memo.md' (Not a directory)\n"
