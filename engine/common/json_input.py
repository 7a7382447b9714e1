"""JSON as gpu-advisor reads it, on the command line, in a batch and over HTTP alike: RFC 8259 JSON, which
is what ``json.dumps`` writes (``1e-05``, ``\\ud83d\\ude00``), under the value rules of ``values.py``: keys
given once, numbers finite and in range (``NaN``, ``Infinity`` and ``1e400`` are refused), no lone
surrogate. Python's parser is given hooks that keep every number and object as written, and the document
is then built into values here, so a problem names its field.
"""

from __future__ import annotations

import json
from typing import Any

from gpu_advisor.engine.common.read_problems import json_problem
from gpu_advisor.engine.common.values import (
    Path,
    ValueProblem,
    given_twice,
    integer,
    key,
    nested_deeper,
    number,
    text,
)
from gpu_advisor.engine.common.wording import Words


class _Number(str):
    """A number as written, converted by the value rules once its path is known."""


class _Integer(_Number):
    pass


class _Pairs(list[tuple[str, Any]]):
    """An object's members in order, keys given twice and all."""


class NotJson(ValueError):
    """Not JSON text: the parser's message, line and column (``words``: said in any language)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        self.words: Words = json_problem(message, line, column)
        super().__init__(str(self.words))
        self.line = line


_DECODER = json.JSONDecoder(
    object_pairs_hook=_Pairs,
    parse_int=_Integer,
    parse_float=_Number,
    parse_constant=_Number,
)


def parse_json(source: str, *, max_depth: int | None = None) -> Any:
    """A JSON document's value; raises ``NotJson`` or ``ValueProblem`` (naming the field), or
    ``RecursionError`` for nesting deeper than Python's parser goes."""
    try:
        raw = _DECODER.decode(source)
    except json.JSONDecodeError as error:
        raise NotJson(error.msg, error.lineno, error.colno) from None
    return build(raw, (), max_depth)


def build(raw: Any, path: Path, max_depth: int | None) -> Any:
    if isinstance(raw, _Integer):
        return integer(str(raw), path)
    if isinstance(raw, _Number):
        return number(str(raw), path)
    if isinstance(raw, str):
        return text(raw, path)
    if isinstance(raw, (_Pairs, list)):
        if max_depth is not None and len(path) >= max_depth:
            raise ValueProblem(path, nested_deeper(max_depth))
        if isinstance(raw, _Pairs):
            result: dict[str, Any] = {}
            for name, value in raw:
                name = key(name, path)
                if name in result:
                    raise ValueProblem(path, given_twice(name))
                result[name] = build(value, (*path, name), max_depth)
            return result
        return [build(item, (*path, index), max_depth) for index, item in enumerate(raw)]
    return raw  # true, false, null
