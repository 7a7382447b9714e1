"""Reading data files, and the private cache directory of the compiled templates."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gpu_advisor.engine.common.cache_directory import _private_directory, cache_directory
from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import KnowledgeError


def test_a_file_that_is_not_utf8_or_not_yaml_is_a_knowledge_error(tmp_path: Path) -> None:
    not_text = tmp_path / "offers.yaml"
    not_text.write_bytes(b"provider: \xff\xfe\n")
    with pytest.raises(KnowledgeError, match=r"offers\.yaml: not UTF-8 text"):
        read_yaml(not_text)
    not_yaml = tmp_path / "gpus.yaml"
    not_yaml.write_text("gpus: [unclosed\n", encoding="utf-8")
    with pytest.raises(KnowledgeError, match=r"gpus\.yaml: not valid YAML"):
        read_yaml(not_yaml)
    with pytest.raises(KnowledgeError, match=r"missing\.yaml: cannot be read"):
        read_yaml(tmp_path / "missing.yaml")


def test_a_cache_directory_others_may_write_is_made_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shared = tmp_path / "gpu-advisor" / "jinja"
    shared.mkdir(parents=True)
    os.chmod(shared.parent, 0o777)
    os.chmod(shared, 0o775)
    _private_directory.cache_clear()
    assert cache_directory("jinja") == shared
    assert stat.S_IMODE(shared.parent.stat().st_mode) == 0o755
    assert stat.S_IMODE(shared.stat().st_mode) == 0o755


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no user IDs on this system")
def test_a_cache_directory_another_user_owns_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "gpu-advisor" / "jinja").mkdir(parents=True)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(tmp_path).st_uid + 1)
    _private_directory.cache_clear()
    assert cache_directory("jinja") is None


def test_without_a_writable_cache_directory_nothing_is_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    _private_directory.cache_clear()
    assert cache_directory("jinja") is None
