"""Reading data files, and the private cache directory of the compiled templates."""

from __future__ import annotations

import hashlib
import json
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


def test_a_data_file_is_parsed_once_and_then_read_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _private_directory.cache_clear()
    source = tmp_path / "offers.yaml"
    source.write_text(
        "offers:\n  - id: a\n    price: 2.5\n    linked: [8, 4]\n    eu: true\n", encoding="utf-8"
    )
    expected = {"offers": [{"id": "a", "price": 2.5, "linked": [8, 4], "eu": True}]}
    assert read_yaml(source) == expected
    [kept] = (tmp_path / "cache" / "gpu-advisor" / "data").glob("*.json")
    # The second read does not parse: it is the cached values, even where the cache says otherwise (an
    # entry is its JSON's SHA-256 on the first line, then the JSON).
    cached = '{"offers": "from the cache"}'
    kept.write_text(hashlib.sha256(cached.encode()).hexdigest() + "\n" + cached, encoding="utf-8")
    assert read_yaml(source) == {"offers": "from the cache"}
    # An entry whose text is not the one its digest names (a byte flipped, "{}" written over it) is a
    # miss: the file is parsed afresh, and the entry written anew.
    kept.write_text("{}", encoding="utf-8")
    assert read_yaml(source) == expected
    assert read_yaml(source) == expected
    # Other bytes are another entry: an edited file is parsed afresh.
    source.write_text("offers: []\n", encoding="utf-8")
    assert read_yaml(source) == {"offers": []}
    # A damaged entry is parsed again and written anew.
    kept.write_text('{"offers": [', encoding="utf-8")
    source.write_text(
        "offers:\n  - id: a\n    price: 2.5\n    linked: [8, 4]\n    eu: true\n", encoding="utf-8"
    )
    assert read_yaml(source) == expected
    assert read_yaml(source) == expected
    assert len(list(kept.parent.glob("*.json"))) == 2


def test_values_json_would_change_are_not_cached_and_errors_never_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _private_directory.cache_clear()
    from gpu_advisor.engine.common import data_files

    source = tmp_path / "sizes.yaml"
    source.write_text("a: 1\n", encoding="utf-8")
    # A parse whose values JSON cannot give back (an integer key) is used but not kept.
    monkeypatch.setattr(data_files, "parse_yaml", lambda text, origin, aliases=True: {8: "eight"})
    assert read_yaml(source) == {8: "eight"}
    assert not list((tmp_path / "cache" / "gpu-advisor" / "data").glob("*.json"))
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [unclosed\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(KnowledgeError, match="not valid YAML"):
            read_yaml(broken)


def test_the_parse_cache_keeps_the_newest_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpu_advisor.engine.common import data_files

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(data_files, "PARSED_FILES_KEPT", 3)
    _private_directory.cache_clear()
    for index in range(5):
        source = tmp_path / f"f{index}.yaml"
        source.write_text(f"n: {index}\n", encoding="utf-8")
        read_yaml(source)
        kept = tmp_path / "cache" / "gpu-advisor" / "data"
        for entry in kept.glob("*.json"):  # distinct times, oldest first, whatever the clock's resolution
            os.utime(entry, (entry.stat().st_mtime - 10, entry.stat().st_mtime - 10))
    assert sorted(
        json.loads(e.read_text(encoding="utf-8").partition("\n")[2])["n"] for e in kept.glob("*.json")
    ) == [2, 3, 4]


def test_a_damaged_compiled_template_is_compiled_afresh(tmp_path: Path) -> None:
    """A byte flipped in a cached template's bytecode read as an internal error on every run; the entry is
    a miss instead."""
    import jinja2

    from gpu_advisor.engine.i18n.template_cache import ForgivingBytecodeCache

    cache = ForgivingBytecodeCache(str(tmp_path))
    environment = jinja2.Environment(bytecode_cache=cache, loader=jinja2.DictLoader({"t": "{{ 1 + 1 }}"}))
    assert environment.get_template("t").render() == "2"
    [entry] = tmp_path.iterdir()
    damaged = bytearray(entry.read_bytes())
    damaged[30:] = b"\xff" * (len(damaged) - 30)
    entry.write_bytes(bytes(damaged))
    again = jinja2.Environment(bytecode_cache=cache, loader=jinja2.DictLoader({"t": "{{ 1 + 1 }}"}))
    assert again.get_template("t").render() == "2"


def test_a_template_compiled_by_one_environment_is_not_run_by_another(tmp_path: Path) -> None:
    """The web page's environment escapes HTML, the memo's does not, and both compile ``_labels.j2`` into
    one cache keyed by name and source: the second to load it ran the first's code. A filter that takes
    the context was called without it where code compiled before it took one was found in the cache."""
    import jinja2

    from gpu_advisor.engine.i18n.template_cache import ForgivingBytecodeCache

    cache = ForgivingBytecodeCache(str(tmp_path))
    source = {"t": "{{ x }} {{ 2 | show }}"}

    def environment(autoescape: bool, show: object) -> jinja2.Environment:
        env = jinja2.Environment(
            bytecode_cache=cache, loader=jinja2.DictLoader(source), autoescape=autoescape
        )
        env.filters["show"] = show
        return env

    def plain(value: int) -> str:
        return f"<{value}>"

    @jinja2.pass_context
    def with_context(context: jinja2.runtime.Context, value: int) -> str:
        return f"[{value}]"

    assert environment(False, plain).get_template("t").render(x="a&b") == "a&b <2>"
    assert environment(True, plain).get_template("t").render(x="a&b") == "a&amp;b &lt;2&gt;"
    assert environment(False, with_context).get_template("t").render(x="a&b") == "a&b [2]"
    assert len(list(tmp_path.iterdir())) == 3
    # The same environment again finds its own entry.
    assert environment(False, plain).get_template("t").render(x="a&b") == "a&b <2>"
    assert len(list(tmp_path.iterdir())) == 3
