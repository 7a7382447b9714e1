"""YAML as gpu-advisor reads every YAML file, user input and shipped data alike: the YAML 1.2 core schema,
whose plain values mean what they mean in JSON, with the value rules of ``values.py``.

PyYAML implements YAML 1.1, where ``NO`` (Norway) and ``on`` are booleans, ``010`` is 8, ``1:30`` is 90
and ``2026-02-30`` is a date that fails to construct. Here a plain value is:

- a boolean only as ``true`` or ``false`` (also ``True``, ``TRUE``, ``False``, ``FALSE``);
- null as ``null`` (``Null``, ``NULL``), ``~`` or nothing;
- a number as the core schema writes one (``5000``, ``-2.5``, ``1e-05``, ``.5``, ``0x1F``, ``0o17``), under
  the rules of ``values.py`` (``05000``, ``.inf`` and ``.nan`` are refused);
- text otherwise: ``yes``, ``on``, ``NO``, ``1:30`` and ``2026-02-30`` are text, which a field of another
  type then refuses by name.

Tags may only be the core ones (``!!str``, ``!!int``, ``!!float``, ``!!bool``, ``!!null``, ``!!seq``,
``!!map``), and a tagged value must be written as that type is (``!!bool maybe`` is refused). Keys are text,
each given once; aliases are refused in user input. The document is composed by PyYAML's parser
(libyaml's where PyYAML has it) and built into values here, so a problem is reported with the path of the
field and its line, never as a traceback.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from gpu_advisor.engine.common import read_problems
from gpu_advisor.engine.common.values import (
    Path,
    ValueProblem,
    given_twice,
    integer,
    key,
    nested_deeper,
    number,
    shown,
    text,
)
from gpu_advisor.engine.common.wording import Words

_TAG = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = (f"{_TAG}{name}" for name in ("str", "int", "float", "bool", "null"))
SEQ, MAP = f"{_TAG}seq", f"{_TAG}map"

_BOOLEAN = re.compile(r"true|True|TRUE|false|False|FALSE")
_NULL = re.compile(r"~|null|Null|NULL|")
_INTEGER = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(
    r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
)


class CoreResolver(yaml.resolver.BaseResolver):
    """The YAML 1.2 core schema's tags for plain values (and nothing of YAML 1.1's timestamps, sexagesimal
    numbers, yes/no/on/off booleans or merge keys)."""

    yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012 - PyYAML reads it per class


for _tag, _pattern, _first in (
    (BOOL, _BOOLEAN, "tTfF"),
    (INT, _INTEGER, "-+0123456789"),
    (FLOAT, _FLOAT, "-+.0123456789"),
    (NULL, _NULL, "~nN"),
):
    CoreResolver.add_implicit_resolver(_tag, re.compile(f"^(?:{_pattern.pattern})$"), list(_first))
CoreResolver.add_implicit_resolver(NULL, re.compile("^$"), [""])


class CoreLoader(
    yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, CoreResolver
):
    """The pure-Python composer with the core resolver. It refuses aliases (``*name``) where it meets
    them, so that the error names the alias's line: a few nested aliases expand to billions of nodes."""

    refuse_aliases = True

    def __init__(self, stream: Any) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        CoreResolver.__init__(self)

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.refuse_aliases and self.check_event(yaml.events.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in gpu-advisor input", event.start_mark
            )
        return super().compose_node(parent, index)


try:
    from yaml._yaml import CParser

    LIBYAML = True
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    LIBYAML = False


if LIBYAML:

    class DataLoader(CParser, CoreResolver):
        """libyaml's parser with the core resolver, for the shipped data files read at every start: it
        composes them several times faster than the pure-Python parser."""

        def __init__(self, stream: Any) -> None:
            CParser.__init__(self, stream)
            CoreResolver.__init__(self)

else:  # pragma: no cover - PyYAML built without libyaml

    class DataLoader(CoreLoader):  # type: ignore[no-redef]
        refuse_aliases = False


def compose(source: Any, *, data_file: bool = False) -> Node | None:
    """The document's node tree (None for an empty document); raises ``yaml.YAMLError`` or
    ``RecursionError``."""
    loader = DataLoader(source) if data_file else CoreLoader(source)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def build(
    node: Node | None,
    path: Path = (),
    *,
    max_depth: int | None = None,
    aliases: bool = False,
    lines: dict[Path, int] | None = None,
) -> Any:
    """The value of a composed node under the core schema; raises ``ValueProblem`` naming the field (and
    its line). ``aliases``: an alias shares the value of the node it names, as PyYAML's constructor does
    (the shipped data files); otherwise it is refused. ``lines``, where given, is filled with the line
    each value starts on, by its path (``("offers", 1)``), for a later error about it to name its line as
    the builder's own do."""
    if node is None:
        return None
    return _Builder(max_depth, aliases, lines).value(node, path)


class _Builder:
    def __init__(self, max_depth: int | None, aliases: bool, lines: dict[Path, int] | None = None) -> None:
        self.max_depth = max_depth
        self.aliases = aliases
        self.built: dict[int, Any] = {}
        self.building: set[int] = set()
        self.lines = lines

    def value(self, node: Node, path: Path) -> Any:
        line = node.start_mark.line + 1
        if self.lines is not None:
            self.lines.setdefault(path, line)
        try:
            if id(node) in self.built or id(node) in self.building:
                # libyaml's parser composes an alias as the node it names. Shared, it stays one value
                # however often it is named; refused, it cannot expand into billions of values.
                if not self.aliases:
                    raise ValueProblem(path, Words("aliases (*name) are not allowed in gpu-advisor input"))
                if id(node) in self.building:
                    raise ValueProblem(path, Words("an alias refers to the mapping or list it stands in"))
                return self.built[id(node)]
            self.building.add(id(node))
            if isinstance(node, ScalarNode):
                value: Any = scalar(node.tag, node.value, path)
            elif self.max_depth is not None and len(path) >= self.max_depth:
                raise ValueProblem(path, nested_deeper(self.max_depth))
            elif isinstance(node, SequenceNode):
                _expect(node, SEQ, path)
                value = [self.value(item, (*path, index)) for index, item in enumerate(node.value)]
            elif isinstance(node, MappingNode):
                _expect(node, MAP, path)
                value = self.mapping(node, path)
            else:  # pragma: no cover - every node is one of the three
                raise ValueProblem(path, Words("not a value"))
            self.building.discard(id(node))
            self.built[id(node)] = value
            return value
        except ValueProblem as problem:
            if problem.line is None:
                problem.line = line
            raise

    def mapping(self, node: MappingNode, path: Path) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise ValueProblem(
                    path, Words("a key must be text, not a list or mapping"), key_node.start_mark.line + 1
                )
            try:
                name = key(scalar(key_node.tag, key_node.value, path), path)
            except ValueProblem as problem:
                problem.line = key_node.start_mark.line + 1
                raise
            if name in result:
                raise ValueProblem(path, given_twice(name), key_node.start_mark.line + 1)
            result[name] = self.value(value_node, (*path, name))
        return result


def _expect(node: Node, tag: str, path: Path) -> None:
    if node.tag != tag:
        raise ValueProblem(
            path, Words("the tag %(tag)s is not allowed here", tag=node.tag.replace(_TAG, "!!"))
        )


def scalar(tag: str, value: str, path: Path) -> Any:
    """A scalar's value by its tag (resolved or given): a given tag is checked like a plain value."""
    if tag == STR:
        return text(value, path)
    if tag == INT:
        return integer(value, path)
    if tag == FLOAT:
        return float(integer(value, path)) if _INTEGER.fullmatch(value) else number(value, path)
    if tag == BOOL:
        if not _BOOLEAN.fullmatch(value):
            raise ValueProblem(
                path, Words("%(value)s is not a boolean; write true or false", value=shown(value))
            )
        return value.lower() == "true"
    if tag == NULL:
        if not _NULL.fullmatch(value):
            raise ValueProblem(path, Words("%(value)s is not null", value=shown(value)))
        return None
    raise ValueProblem(
        path,
        Words(
            "the tag %(tag)s is not allowed (only !!str, !!int, !!float, !!bool, !!null)",
            tag=tag.replace(_TAG, "!!"),
        ),
    )


def yaml_problem(error: yaml.YAMLError) -> str:
    """A YAML parser's complaint on one line, in English (``read_problems.yaml_problem``: in any language)."""
    return str(read_problems.yaml_problem(error))
