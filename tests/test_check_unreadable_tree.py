"""``check DIR`` reads every proposal file under the directory or says which it could not: a symbolic link
to a directory is followed (once, so a link back up is no loop), and a broken link, a directory it may not
list or a file it may not open is named, with exit code 2, where a gate that skipped them would pass."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_check_compare import RUNPOD_SXM, proposal
from test_check_pipeline import as_json, invoke, write

AS_ROOT = os.geteuid() == 0


def test_a_linked_directory_is_followed_and_a_link_back_up_is_no_loop(tmp_path: Path) -> None:
    tree, elsewhere = tmp_path / "tree", tmp_path / "elsewhere"
    write(tree / "a.yaml", proposal("a", **RUNPOD_SXM))
    write(elsewhere / "b.yaml", proposal("b", **RUNPOD_SXM))
    (tree / "linked").symlink_to(elsewhere, target_is_directory=True)
    (elsewhere / "up").symlink_to(tree, target_is_directory=True)
    results = as_json(str(tree))
    assert [(r["file"], r["index"]) for r in results] == [
        (f"{tree}/a.yaml", 1),
        (f"{tree}/linked/b.yaml", 1),
    ]


def test_a_broken_link_is_named_with_exit_code_2(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", proposal("a", **RUNPOD_SXM))
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "missing.yaml")
    result = invoke(str(tmp_path))
    assert result.exit_code == 2
    assert (
        result.output == f"error: {tmp_path}/gone.yaml: a broken symbolic link (to {tmp_path}/missing.yaml)\n"
    )


def refuse_listing(monkeypatch: pytest.MonkeyPatch, *refused: Path) -> None:
    """``os.scandir`` refuses the ``refused`` directories as the system refuses a user without the right
    to read them (root reads every directory, so the tests cannot rely on ``chmod``)."""
    scandir = os.scandir

    def refusing(path: Any) -> Any:
        if Path(path) in refused:
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)


def test_every_directory_and_link_that_cannot_be_read_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "a.yaml", proposal("a", **RUNPOD_SXM))
    write(tmp_path / "locked" / "b.yaml", proposal("b", **RUNPOD_SXM))
    (tmp_path / "gone.yml").symlink_to("nowhere.yml")
    refuse_listing(monkeypatch, tmp_path / "locked")
    result = invoke(str(tmp_path))
    assert result.exit_code == 2
    assert result.output == (
        f"error: {tmp_path}: 2 files or directories under it cannot be read:\n"
        f"  {tmp_path}/gone.yml: a broken symbolic link (to nowhere.yml)\n"
        f"  {tmp_path}/locked: cannot be read (Permission denied)\n"
    )
    german = invoke(str(tmp_path), "--lang", "de")
    assert german.exit_code == 2
    assert german.output == (
        f"Fehler: {tmp_path}: 2 Dateien oder Verzeichnisse darin können nicht gelesen werden:\n"
        f"  {tmp_path}/gone.yml: ein defekter symbolischer Link (auf nowhere.yml)\n"
        f"  {tmp_path}/locked: kann nicht gelesen werden (keine Berechtigung)\n"
    )


def test_a_top_directory_that_cannot_be_listed_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "a.yaml", proposal("a", **RUNPOD_SXM))
    refuse_listing(monkeypatch, tmp_path)
    result = invoke(str(tmp_path))
    assert result.exit_code == 2
    assert result.output == f"error: {tmp_path}: cannot be read (Permission denied)\n"


@pytest.mark.skipif(AS_ROOT, reason="root reads every file and directory whatever its mode")
def test_unreadable_files_and_directories_under_chmod_0(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    write(tree / "a.yaml", proposal("a", **RUNPOD_SXM))
    write(tree / "locked" / "b.yaml", proposal("b", **RUNPOD_SXM))
    write(tree / "sealed.json", proposal("c", **RUNPOD_SXM))
    os.chmod(tree / "locked", 0)
    os.chmod(tree / "sealed.json", 0)
    try:
        result = invoke(str(tree))
        assert result.exit_code == 2
        assert result.output == (
            f"error: {tree}: 2 files or directories under it cannot be read:\n"
            f"  {tree}/locked: cannot be read (Permission denied)\n"
            f"  {tree}/sealed.json: cannot be read (Permission denied)\n"
        )
        os.chmod(tree, 0)
        result = invoke(str(tree))
        assert result.exit_code == 2
        assert result.output == f"error: {tree}: cannot be read (Permission denied)\n"
    finally:
        os.chmod(tree, 0o755)
        os.chmod(tree / "locked", 0o755)


def test_a_named_pipe_is_no_proposal_file(tmp_path: Path) -> None:
    """Only regular files are proposal files: a named pipe called pipe.yaml, opened to see whether it can
    be read, would wait for a writer for ever."""
    write(tmp_path / "a.yaml", proposal("a", **RUNPOD_SXM))
    os.mkfifo(tmp_path / "pipe.yaml")
    results = as_json(str(tmp_path))
    assert [r["file"] for r in results] == [f"{tmp_path}/a.yaml"]
