"""Reading the shipped data files (knowledge base, rules, translations, questionnaire) and policy files:
YAML under the same schema and value rules as user input (``yaml_core.py``: the YAML 1.2 core schema,
keys given once, numbers finite and in range), parsed with libyaml where PyYAML has it; every failure a
``KnowledgeError`` naming the file, the field and the line.

Parsing the knowledge base and the rules takes a third of a short command's own time, and they are the
same on every run. A file's parsed values are therefore kept as JSON in the user's cache directory
(``cache_directory``), named by a hash of the file's bytes and of the code that parses it: a changed file
or a changed parser is parsed afresh, and only values that JSON gives back exactly are kept.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from gpu_advisor.engine.common import read_problems, values, yaml_core
from gpu_advisor.engine.common.cache_directory import cache_directory
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.common.values import ValueProblem
from gpu_advisor.engine.common.wording import Words, at


def read_yaml(path: Path, *, aliases: bool = True) -> Any:
    """A data file, parsed; ``aliases=False`` refuses anchors and aliases (an organization's policy: a
    few nested aliases can expand into billions of values)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise KnowledgeError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise KnowledgeError(f"{path}: not UTF-8 text ({error})") from None
    kept = _kept_file(data, aliases)
    if kept is not None:
        with contextlib.suppress(OSError, ValueError):
            found = _kept_value(kept.read_text(encoding="utf-8"))
            if found is not _DAMAGED:
                return found
    value = parse_yaml(text, str(path), aliases=aliases)
    if kept is not None:
        _keep(kept, value)
    return value


PARSED_FILES_KEPT = 256
"""Parsed files kept in the cache directory: every data file of a few versions of the tool."""


@functools.cache
def _parser_digest() -> str | None:
    """A hash of the code that turns YAML into values: a cache entry of another parser is never read.
    None where the code cannot be read (then nothing is cached)."""
    digest = hashlib.sha256()
    try:
        for module_file in (yaml_core.__file__, values.__file__, __file__):
            digest.update(Path(module_file).read_bytes())
    except (OSError, TypeError):
        return None
    digest.update(yaml.__version__.encode("utf-8"))
    return digest.hexdigest()


def _kept_file(data: bytes, aliases: bool) -> Path | None:
    """Where the parsed values of a file with these bytes are kept; None without a cache directory."""
    parser = _parser_digest()
    directory = cache_directory("data") if parser is not None else None
    if directory is None:
        return None
    key = hashlib.sha256(f"{parser}:{aliases}:".encode() + data).hexdigest()
    return directory / f"{key}.json"


_DAMAGED = object()
"""What ``_kept_value`` gives for an entry whose text is not the one written: a miss, parsed afresh."""


def _kept_value(entry: str) -> Any:
    """The value of a cache entry, its first line the SHA-256 of the JSON after it; ``_DAMAGED`` where
    the two disagree (a byte changed on disk, a file written by hand), so a damaged cache costs a parse,
    not a run that fails on values no data file holds."""
    digest, _, text = entry.partition("\n")
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != digest:
        return _DAMAGED
    return json.loads(text)


def _keep(kept: Path, value: Any) -> None:
    """Write ``value`` as JSON where ``_kept_file`` said, atomically, if JSON gives it back exactly
    (text keys, lists, finite numbers); then let the oldest entries go beyond ``PARSED_FILES_KEPT``. A
    cache that cannot be written costs a parse on the next run, not this one."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        if json.loads(text) != value:
            return
    except (TypeError, ValueError):
        return
    with contextlib.suppress(OSError):
        handle, temporary = tempfile.mkstemp(dir=kept.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(hashlib.sha256(text.encode("utf-8")).hexdigest() + "\n" + text)
            os.replace(temporary, kept)
        except OSError:
            Path(temporary).unlink(missing_ok=True)
            raise
        entries = sorted(kept.parent.glob("*.json"), key=lambda entry: entry.stat().st_mtime)
        for old in entries[:-PARSED_FILES_KEPT]:
            old.unlink(missing_ok=True)
        # A run stopped between writing and renaming leaves its temporary file behind.
        for abandoned in kept.parent.glob("*.tmp"):
            if abandoned.stat().st_mtime < time.time() - ABANDONED_SECONDS:
                abandoned.unlink(missing_ok=True)


ABANDONED_SECONDS = 3600


def parse_yaml(text: str, origin: str, *, aliases: bool = True) -> Any:
    """Data file text, parsed; ``origin`` names it in errors."""
    try:
        return yaml_core.build(yaml_core.compose(text, data_file=True), aliases=aliases)
    except yaml.YAMLError as error:
        # Said in the reader's language where an organization's policy is read (``rulebook.loading``).
        problem = Words("not valid YAML (%(problem)s)", problem=read_problems.yaml_problem(error))
        raise KnowledgeError(at(origin, problem)) from None
    except ValueProblem as problem:
        line = "" if problem.line is None else f":{problem.line}"
        raise KnowledgeError(f"{origin}{line}: {problem}") from None
    except RecursionError:
        raise KnowledgeError(f"{origin}: nested too deeply") from None
