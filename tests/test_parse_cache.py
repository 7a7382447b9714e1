"""The parse cache: cached YAML equals a fresh parse, edits are seen, and a bad or foreign cache entry
costs a parse, never the run or anything else."""

from __future__ import annotations

import datetime as dt
import os
import pickle
from pathlib import Path
from typing import Any

import pytest
import yaml
from gpu_advisor.engine.errors import KnowledgeError
from gpu_advisor.engine.knowledge import SAFE_LOADER, load_knowledge_from, read_yaml
from gpu_advisor.knowledge import KNOWLEDGE_DIR
from gpu_advisor.rules import RULES_DIR


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


def entries(cache_home: Path) -> list[Path]:
    return sorted((cache_home / "gpu-advisor" / "parsed").glob("*.pickle"))


def shipped_yaml_files() -> list[Path]:
    return sorted(KNOWLEDGE_DIR.glob("*.yaml")) + sorted(RULES_DIR.glob("*.yaml"))


def test_every_shipped_file_reads_back_from_the_cache_as_a_fresh_parse_gives_it(cache_home: Path) -> None:
    files = shipped_yaml_files()
    fresh = [yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER) for path in files]
    assert [read_yaml(path) for path in files] == fresh  # parsed, and stored
    assert len(entries(cache_home)) == len(set(path.read_bytes() for path in files))
    stamps = {entry: entry.stat().st_mtime_ns for entry in entries(cache_home)}
    assert [read_yaml(path) for path in files] == fresh  # read back
    assert {entry: entry.stat().st_mtime_ns for entry in entries(cache_home)} == stamps
    assert any(isinstance(value, dt.date) for value in _leaves(fresh))  # dates survive the round trip


def _leaves(data: Any) -> list[Any]:
    if isinstance(data, dict):
        return [leaf for value in data.values() for leaf in _leaves(value)]
    if isinstance(data, list):
        return [leaf for value in data for leaf in _leaves(value)]
    return [data]


def test_an_edited_file_is_parsed_afresh(cache_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "file.yaml"
    path.write_text("price: 1.5\nas_of: 2026-03-27\n", encoding="utf-8")
    assert read_yaml(path) == {"price": 1.5, "as_of": dt.date(2026, 3, 27)}
    path.write_text("price: 2.5\nas_of: 2026-03-27\n", encoding="utf-8")
    assert read_yaml(path) == {"price": 2.5, "as_of": dt.date(2026, 3, 27)}
    assert len(entries(cache_home)) == 2


def test_an_edited_knowledge_base_loads_with_the_edit(cache_home: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    before = load_knowledge_from(copy).offers.offers[0].usd_per_gpu_hour
    offers = copy / "offers.yaml"
    data = yaml.safe_load(offers.read_text(encoding="utf-8"))
    data["offers"][0]["usd_per_gpu_hour"] = before + 1
    offers.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert load_knowledge_from(copy).offers.offers[0].usd_per_gpu_hour == before + 1


class RunsCode:
    """Pickles as a call of os.getpid: what a foreign cache entry could try."""

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return os.getpid, ()


@pytest.mark.parametrize(
    "content",
    [b"", b"not a pickle at all", pickle.dumps({"price": 1.5})[:-3], pickle.dumps(RunsCode())],
    ids=["empty", "garbage", "truncated", "foreign class"],
)
def test_a_bad_or_foreign_entry_costs_a_parse_and_is_replaced(
    cache_home: Path, tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "file.yaml"
    path.write_text("price: 1.5\n", encoding="utf-8")
    read_yaml(path)
    (entry,) = entries(cache_home)
    entry.write_bytes(content)
    assert read_yaml(path) == {"price": 1.5}
    assert pickle.loads(entry.read_bytes()) == {"price": 1.5}


def test_without_a_writable_cache_directory_files_are_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    path = tmp_path / "file.yaml"
    path.write_text("price: 1.5\n", encoding="utf-8")
    assert read_yaml(path) == {"price": 1.5}


def test_a_file_that_is_not_utf8_or_not_yaml_is_a_knowledge_error_and_is_not_kept(
    cache_home: Path, tmp_path: Path
) -> None:
    not_text = tmp_path / "offers.yaml"
    not_text.write_bytes(b"provider: \xff\xfe\n")
    with pytest.raises(KnowledgeError, match=r"offers\.yaml: not UTF-8 text"):
        read_yaml(not_text)
    not_yaml = tmp_path / "gpus.yaml"
    not_yaml.write_text("gpus: [unclosed\n", encoding="utf-8")
    with pytest.raises(KnowledgeError, match=r"gpus\.yaml: not valid YAML"):
        read_yaml(not_yaml)
    assert entries(cache_home) == []
