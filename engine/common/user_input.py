"""Reading a user's input file: bounded in size, UTF-8, safe YAML (JSON is YAML) with unique plain keys,
no aliases, bounded nesting; every failure an ``InputError`` naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from gpu_advisor.engine.common.errors import InputError

MAX_INPUT_BYTES = 1_000_000


MAX_NESTING_DEPTH = 20


class UniqueKeyLoader(yaml.SafeLoader):
    """Safe YAML for user input: a key given twice is an error instead of the last value winning, keys
    must be plain values, and aliases are refused (a few nested aliases expand to billions of nodes)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.events.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in gpu-advisor input", event.start_mark
            )
        return super().compose_node(parent, index)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                duplicate = key in seen
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a key must be a plain value, not a list or mapping", key_node.start_mark
                ) from None
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is given twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load_yaml(text: str, origin: str) -> Any:
    """User input as YAML (JSON is YAML): safe, strict about keys, bounded in depth."""
    try:
        return yaml.load(text, Loader=UniqueKeyLoader)
    except yaml.YAMLError as error:
        raise InputError(f"{origin}: not valid YAML or JSON ({_one_line(error)})") from None
    except RecursionError:
        raise InputError(f"{origin}: input is nested deeper than {MAX_NESTING_DEPTH} levels") from None


def read_input_text(path: str, *, error_prefix: str = "", stdin: bool = True) -> str:
    """A user's input file as text, or standard input for ``-``: bounded in size, UTF-8, and every
    failure an input error naming the file (after ``error_prefix``, e.g. the option that named it)."""
    if stdin and path == "-":
        import sys

        return decode(sys.stdin.buffer.read(MAX_INPUT_BYTES + 1), "<stdin>")
    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{error_prefix}{path}: no such file") from None
    except OSError as error:
        raise InputError(f"{error_prefix}{path}: cannot be read ({error.strerror})") from None
    return decode(data, path)


def decode(data: bytes, origin: str) -> str:
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{origin}: input is larger than {MAX_INPUT_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{origin}: not UTF-8 text (byte {error.start})") from None


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_NESTING_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level
