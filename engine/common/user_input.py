"""Reading a user's input file: bounded in size, UTF-8, YAML (1.2 core schema, ``yaml_core.py``) or JSON
(``json_input.py``) under one set of value rules (``values.py``): keys given once, no aliases, numbers
finite and in range, bounded nesting; every failure an ``InputError`` naming the file and the field.
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from pathlib import Path
from typing import Any

import yaml

from gpu_advisor.engine.common import json_input, yaml_core
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.read_problems import not_utf8, os_problem, yaml_problem
from gpu_advisor.engine.common.values import MAX_NESTING_DEPTH, ValueProblem, nested_deeper
from gpu_advisor.engine.common.wording import Words, at, marked

MAX_INPUT_BYTES = 1_000_000


def load_yaml(text: str, origin: str, lines: dict[tuple[str | int, ...], int] | None = None) -> Any:
    """User input as YAML or JSON: JSON text is read by the JSON reader, anything else as YAML (1.2 core
    schema); both build the same values under the same rules (``values.py``). ``lines``, where given, is
    filled with the line of each value of a YAML text, by its path (``yaml_core.build``)."""
    if text.lstrip()[:1] in ("{", "["):
        try:
            return load_json(text, origin)
        except NotJsonText:
            pass  # YAML's flow style ({name: x}) looks like JSON and is read as YAML
    try:
        return yaml_core.build(yaml_core.compose(text), max_depth=MAX_NESTING_DEPTH, lines=lines)
    except yaml.YAMLError as error:
        raise InputError(
            at(origin, Words("not valid YAML or JSON (%(problem)s)", problem=yaml_problem(error)))
        ) from None
    except ValueProblem as problem:
        raise value_error(origin, problem) from None
    except RecursionError:
        raise InputError(at(origin, nested_deeper(MAX_NESTING_DEPTH))) from None


class NotJsonText(InputError):
    """Not JSON text at all (as opposed to JSON with a value the rules refuse)."""


def load_json(source: str | bytes, origin: str) -> Any:
    """User input as JSON (RFC 8259: what ``json.dumps`` writes), under the value rules; every failure an
    ``InputError`` naming the field where there is one."""
    if isinstance(source, bytes):
        source = decode(source, origin)
    try:
        return json_input.parse_json(source, max_depth=MAX_NESTING_DEPTH)
    except json_input.NotJson as error:
        raise NotJsonText(at(origin, Words("not valid JSON (%(problem)s)", problem=error.words))) from None
    except ValueProblem as problem:
        raise value_error(origin, problem) from None
    except RecursionError:
        raise InputError(at(origin, nested_deeper(MAX_NESTING_DEPTH))) from None


def value_error(origin: str, problem: ValueProblem) -> InputError:
    """A refused value as an input error: the origin (and line, where known), the field, what is wrong."""
    where = on_line(origin, problem.line)
    return InputError(at(where, problem.words), field=problem.field if problem.path else None, origin=origin)


def on_line(origin: str, line: int | None) -> str:
    """A file's name with the line a problem is on, where it is known: ``examples/chat.yaml:4``."""
    return origin if line is None else f"{origin}:{line}"


def read_input_text(path: str, *, error_prefix: str = "", stdin: bool = True) -> str:
    """A user's input file as text, or standard input for ``-``: bounded in size, UTF-8, and every
    failure an input error naming the file (after ``error_prefix``, e.g. the option that named it)."""
    if stdin and path == "-":
        import sys

        return decode(sys.stdin.buffer.read(MAX_INPUT_BYTES + 1), "<stdin>")
    if "\x00" in path:
        # No file system names a file with a NUL byte (open() raises ValueError, not OSError).
        raise InputError(at(f"{error_prefix}{path!r}", Words("a path cannot hold a NUL byte")))
    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(at(f"{error_prefix}{path}", Words("no such file"))) from None
    except OSError as error:
        raise InputError(unreadable(f"{error_prefix}{path}", error)) from None
    return decode(data, path)


def unreadable(origin: str, error: OSError) -> Words:
    """``origin: cannot be read (the system's reason)``."""
    return at(origin, Words("cannot be read (%(problem)s)", problem=os_problem(error)))


def too_large(origin: str) -> Words:
    return at(origin, Words("input is larger than %(limit)s bytes", limit=MAX_INPUT_BYTES))


TYPE_NAMES = {
    str: marked("a text"),
    int: marked("a whole number"),
    float: marked("a number"),
    bool: marked("a boolean"),
    list: marked("a list"),
    type(None): marked("nothing (null)"),
}
"""What a value of each type is, as another language says it where English names the type."""


def type_words(value: Any) -> Words:
    """The type of a value that is not what a field takes: its Python name in English ('str'), what it is
    in other languages."""
    name = TYPE_NAMES.get(type(value))
    otherwise = (
        Words(name) if name is not None else Words("a value of type %(type)s", type=type(value).__name__)
    )
    return Words.verbatim(type(value).__name__, otherwise)


def decode(data: bytes, origin: str) -> str:
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(too_large(origin))
    try:
        # A byte-order mark (Windows tools write one) is no text: RFC 8259 lets a reader ignore it.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        # The byte's place in the file, its byte-order mark counted (utf-8-sig reports it past the mark).
        byte = error.start + (len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0)
        raise InputError(at(origin, not_utf8(byte, data))) from None


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_NESTING_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
"""YYYY-MM-DD alone: Python 3.11 also reads '20261201' and week dates ('2026-W49-1'), which 3.10 and the
HTTP service refuse; every entry point takes the one form the messages name."""


def iso_date(value: str, name: str) -> dt.date:
    """A date given as text (YYYY-MM-DD), by the option or argument ``name`` (``--as-of``, the library's
    ``evaluated_on``); an ``InputError`` naming it otherwise."""
    try:
        if not ISO_DATE.fullmatch(value):
            raise ValueError(value)
        return dt.date.fromisoformat(value)
    except ValueError:
        raise InputError(at(name, not_a_date(value)), field=name) from None


def not_a_date(value: str) -> Words:
    """What is wrong with ``value`` where a date is asked for, as every entry point says it."""
    return Words("%(value)s is not a date; use YYYY-MM-DD", value=repr(value))
