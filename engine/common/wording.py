"""Messages that are said in the reader's language, built where the problem is found (``common`` knows no
language): an English sentence with ``%(name)s`` places, which is the key of the language catalogs
(``templates/i18n/<lang>.yaml``), and the values for its places, which may be such messages themselves.

``Words("line %(line)s: %(what)s", line=2, what=Words("found unexpected end of stream"))`` is said in
English as it is written and in German by the catalog; ``str()`` is the English text. The translation
tests find every sentence written as ``Words("...")`` or ``marked("...")`` in the code
(``present/translations.py``) and require a translation of each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Kind = Literal["sentence", "layout", "verbatim"]


class Words:
    """A message: an English sentence (the catalogs' key) and the values of its places."""

    __slots__ = ("kind", "msgid", "otherwise", "values")

    def __init__(self, msgid: str, /, **values: object) -> None:
        self.msgid = msgid
        self.values = values
        self.kind: Kind = "sentence"
        self.otherwise: Words | None = None

    @classmethod
    def joined(cls, pattern: str, /, **values: object) -> Words:
        """Parts put together by ``pattern`` (``"%(origin)s: %(problem)s"``), the same in every language."""
        words = cls(pattern, **values)
        words.kind = "layout"
        return words

    @classmethod
    def verbatim(cls, text: str, otherwise: Words) -> Words:
        """A text no catalog can know (a parser's own message): as it is in English, ``otherwise`` in
        every other language."""
        words = cls("%(text)s", text=text)
        words.kind = "verbatim"
        words.otherwise = otherwise
        return words

    def say(
        self, catalog: Mapping[str, str] | None = None, number: Callable[[float, int], str] | None = None
    ) -> str:
        """The message in the language of ``catalog`` (None: English, as written), a ``Grouped`` number
        written by ``number`` (English: ``1,234``)."""
        text = self.msgid
        if catalog is not None:
            if self.otherwise is not None:
                return self.otherwise.say(catalog, number)
            if self.kind == "sentence":
                text = catalog.get(self.msgid, self.msgid)
        return text % {name: _said(value, catalog, number) for name, value in self.values.items()}

    def __str__(self) -> str:
        return self.say()

    def __repr__(self) -> str:
        return f"Words({self.msgid!r}, {self.values!r})"


class WordsError(ValueError):
    """A validator's complaint (pydantic passes it on as a ``value_error``) that is said in the reader's
    language: ``str()`` is the English text."""

    def __init__(self, words: Words, names_input: bool = False) -> None:
        super().__init__(str(words))
        self.words = words
        self.names_input = names_input
        """The words name the value given already: a message need not repeat it."""


def at(origin: str | Words, problem: str | Words) -> Words:
    """A problem after the file (and line, option) it is in: ``examples/chat.yaml:4: ...``."""
    return Words.joined("%(origin)s: %(problem)s", origin=origin, problem=problem)


def runs(values: Sequence[int]) -> list[tuple[int, int]]:
    """Ascending ``values`` as runs of consecutive ones, each (first, last): (1, 2, 3, 4, 8) -> [(1, 4),
    (8, 8)]; how instance sizes are written, as a range where a run is long ("1 to 4", "1-4")."""
    found: list[tuple[int, int]] = []
    for value in values:
        if found and value == found[-1][1] + 1:
            found[-1] = (found[-1][0], value)
        else:
            found.append((value, value))
    return found


@dataclass(frozen=True)
class Grouped:
    """A number a message writes in the reader's way (``128,000`` in English, ``128.000`` in German);
    ``digits``: the decimals it keeps (0: the formats' own choice)."""

    value: float
    digits: int = 0


def _said(
    value: object, catalog: Mapping[str, str] | None, number: Callable[[float, int], str] | None
) -> object:
    if isinstance(value, Words):
        return value.say(catalog, number)
    if isinstance(value, Grouped):
        if number is not None:
            return number(value.value, value.digits)
        return f"{value.value:,.{value.digits}f}" if value.digits else f"{value.value:,}"
    return value


def marked(msgid: str) -> str:
    """``msgid`` as it is: marks a sentence that a table holds for the translation tests, which find
    only sentences written in the code as ``Words("...")`` or ``marked("...")``."""
    return msgid


def listed(items: list[str]) -> str | Words:
    """Names as a sentence lists them: "A", "A and B", "A, B and C", the "and" in the reader's language."""
    if len(items) < 2:
        return "".join(items)
    return Words("%(items)s and %(last)s", items=", ".join(items[:-1]), last=items[-1])
