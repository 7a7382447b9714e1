"""The parse cache: cached YAML equals a fresh parse, edits are seen, and a bad or foreign cache entry
costs a parse, never the run or anything else."""

from __future__ import annotations

import datetime as dt
import os
import pickle
import shutil
import stat
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpu_advisor.engine.common import parse_cache
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.common.parse_cache import SAFE_LOADER, cache_directory, parsed, parser_version
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge_from, read_yaml
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
    cached = [parsed(path.read_bytes(), SAFE_LOADER, not_again) for path in files]
    assert [tagged(data) for data in cached] == [tagged(data) for data in fresh]


def not_again(text: bytes) -> Any:
    pytest.fail("parsed again: the entry was not read back")


def tagged(data: Any) -> Any:
    """Data with every value's type and every mapping's key order spelled out: ``==`` alone takes 1 for
    1.0 and True, and ignores key order and time zones."""
    if isinstance(data, dict):
        return ("dict", [(tagged(key), tagged(value)) for key, value in data.items()])
    if isinstance(data, list | tuple):
        return (type(data).__name__, [tagged(item) for item in data])
    if isinstance(data, set):
        return ("set", sorted(repr(tagged(item)) for item in data))
    if isinstance(data, dt.datetime):
        return ("datetime", data.isoformat(), repr(data.tzinfo))
    return (type(data).__name__, repr(data))


EVERY_KIND = """
z_first: 1
a_second: 1.0
flag: true
nothing: null
day: 2026-03-27
moment: 2026-03-27T10:15:00+02:00
naive: 2026-03-27 10:15:00
large: 123456789012345678901234567890
not_a_number: .nan
text: "ünïcode"
raw: !!binary aGVsbG8=
members: !!set {a, b}
ordered: !!omap [{x: 1}, {y: 2}]
shared: &shared {price: 1.5}
again: *shared
"""


@pytest.mark.parametrize("loader", [yaml.SafeLoader, SAFE_LOADER], ids=["python", "default"])
def test_every_kind_of_safe_yaml_value_reads_back_with_its_type_and_order(
    cache_home: Path, loader: Any
) -> None:
    text = EVERY_KIND.encode("utf-8")

    def parse(raw: bytes) -> Any:
        return yaml.load(raw.decode("utf-8"), Loader=loader)

    fresh = parse(text)
    assert tagged(parsed(text, loader, parse)) == tagged(fresh)  # parsed, and stored
    cached = parsed(text, loader, not_again)
    assert tagged(cached) == tagged(fresh)
    assert cached["again"] is cached["shared"]  # an alias stays one object


def test_each_parser_keeps_its_own_entries(cache_home: Path) -> None:
    text = b"price: 1.5\n"
    parsed(text, yaml.SafeLoader, lambda raw: yaml.load(raw, Loader=yaml.SafeLoader))
    parsed(text, yaml.FullLoader, lambda raw: yaml.load(raw, Loader=yaml.FullLoader))
    assert len(entries(cache_home)) == 2
    assert "PyYAML " + yaml.__version__ in parser_version(yaml.SafeLoader)


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


def test_a_file_too_deeply_nested_to_keep_is_parsed_and_not_kept(cache_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("[" * 900 + "]" * 900 + "\n", encoding="utf-8")
    data = read_yaml(path)
    for _ in range(899):
        (data,) = data
    assert data == []
    assert entries(cache_home) == []


def test_a_cache_directory_others_may_write_is_made_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shared = tmp_path / "gpu-advisor" / "parsed"
    shared.mkdir(parents=True)
    os.chmod(shared.parent, 0o777)
    os.chmod(shared, 0o775)
    assert cache_directory("parsed") == shared
    assert stat.S_IMODE(shared.parent.stat().st_mode) == 0o755
    assert stat.S_IMODE(shared.stat().st_mode) == 0o755


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no user IDs on this system")
def test_a_cache_directory_another_user_owns_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "gpu-advisor" / "parsed").mkdir(parents=True)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(tmp_path).st_uid + 1)
    assert cache_directory("parsed") is None
    path = tmp_path / "file.yaml"
    path.write_text("price: 1.5\n", encoding="utf-8")
    assert read_yaml(path) == {"price": 1.5}
    assert list((tmp_path / "gpu-advisor" / "parsed").iterdir()) == []


def write_entry(cache_home: Path, tmp_path: Path, price: int) -> Path:
    """Reads a file of its own through the cache, so that one entry is written; returns that entry."""
    before = set(entries(cache_home))
    path = tmp_path / f"file-{price}.yaml"
    path.write_text(f"price: {price}\n", encoding="utf-8")
    assert read_yaml(path) == {"price": price}
    (entry,) = set(entries(cache_home)) - before
    return entry


def test_writing_an_entry_removes_the_oldest_beyond_those_kept(
    cache_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parse_cache, "KEPT_ENTRIES", 3)
    written = []
    for price in range(5):
        entry = write_entry(cache_home, tmp_path, price)
        os.utime(entry, (1_000_000 + price, 1_000_000 + price))  # written in this order, whatever the clock
        written.append(entry)
    assert entries(cache_home) == sorted(written[2:])
    assert len(entries(cache_home)) == 3


def test_reading_cached_entries_removes_nothing(
    cache_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parse_cache, "KEPT_ENTRIES", 1)
    entry = write_entry(cache_home, tmp_path, 1)
    stray = entry.with_name("0" * 64 + ".pickle")
    stray.write_bytes(entry.read_bytes())
    assert read_yaml(tmp_path / "file-1.yaml") == {"price": 1}
    assert entries(cache_home) == sorted([entry, stray])


def test_a_temporary_file_a_killed_writer_left_is_removed_once_abandoned(
    cache_home: Path, tmp_path: Path
) -> None:
    entry = write_entry(cache_home, tmp_path, 1)
    abandoned = entry.with_name("abandoned.tmp")
    in_progress = entry.with_name("in-progress.tmp")
    for temporary in (abandoned, in_progress):
        temporary.write_bytes(b"half an entr")
    hours_ago = time.time() - parse_cache.ABANDONED_AFTER_SECONDS - 60
    os.utime(abandoned, (hours_ago, hours_ago))
    write_entry(cache_home, tmp_path, 2)
    assert not abandoned.exists()
    assert in_progress.exists()


def test_caching_resumes_when_the_directory_is_deleted_while_running(
    cache_home: Path, tmp_path: Path
) -> None:
    write_entry(cache_home, tmp_path, 1)
    shutil.rmtree(cache_home)
    path = tmp_path / "file-2.yaml"
    path.write_text("price: 2\n", encoding="utf-8")
    assert read_yaml(path) == {"price": 2}  # the directory is found gone: parsed, not kept
    assert read_yaml(path) == {"price": 2}  # checked again: made afresh, and kept
    assert len(entries(cache_home)) == 1
    assert stat.S_IMODE((cache_home / "gpu-advisor" / "parsed").stat().st_mode) == 0o700
