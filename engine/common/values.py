"""The values every input is read into, whatever its format (YAML, JSON, a CSV cell, a sweep bound):
one set of rules for numbers, text and keys, so the same text means the same value everywhere.

- A number is finite and, unless it is zero, lies between ``MIN_MAGNITUDE`` and ``MAX_MAGNITUDE`` in size:
  every calculation on such numbers stays finite, and no figure is rounded to zero or to infinity on the
  way in. ``.inf``, ``.nan``, ``NaN``, ``Infinity`` and ``1e400`` are refused, not read as infinity.
- A whole number is written in decimal without a leading zero (``05000`` is refused: YAML 1.1 reads it
  as the octal 2560, YAML 1.2 as 5000, JSON not at all); YAML may also write ``0x1F`` or ``0o17``.
- Text is Unicode: a lone surrogate (``"\\ud83d"`` alone) is refused; a pair is one character.
- A key is text and given once.

A value that breaks a rule raises ``ValueProblem``, which names where it is (``path``) and says what is
wrong; the reader of each format adds the file and line.
"""

from __future__ import annotations

import math
import re
from typing import Any

from gpu_advisor.engine.common.wording import Words

MAX_MAGNITUDE = 1e15
"""The largest number read: far above every bound a field declares (ten billion requests a day), far
below where sums and products of a few such numbers leave the floating-point range."""


MIN_MAGNITUDE = 1e-15
"""The smallest non-zero number read: smaller ones would turn into zero or infinity in a division."""


MAX_NESTING_DEPTH = 20
"""Levels of lists and mappings in user input; data files may nest deeper."""


DECIMAL_INTEGER = re.compile(r"[-+]?[0-9]+")
HEX_INTEGER = re.compile(r"0x[0-9a-fA-F]+")
OCTAL_INTEGER = re.compile(r"0o[0-7]+")
DECIMAL_NUMBER = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
NOT_FINITE = re.compile(r"[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)|NaN|-?Infinity")
_NONZERO = re.compile("[1-9]")
_MANTISSA = re.compile("[eE]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_INTEGER_DIGITS = len(str(int(MAX_MAGNITUDE))) + 1


Path = tuple[str | int, ...]


class ValueProblem(ValueError):
    """A value the rules above refuse: where it is, what is wrong (``problem``, said in the reader's
    language), and the line where the format knows it."""

    def __init__(self, path: Path, problem: Words, line: int | None = None) -> None:
        super().__init__(str(problem))
        self.path = path
        self.problem = problem
        self.line = line

    @property
    def message(self) -> str:
        """What is wrong, in English."""
        return str(self.problem)

    @property
    def field(self) -> str:
        return dotted(self.path)

    @property
    def words(self) -> Words:
        """The field and what is wrong with it."""
        return (
            Words.joined("%(field)s: %(problem)s", field=self.field, problem=self.problem)
            if self.path
            else self.problem
        )

    def __str__(self) -> str:
        return str(self.words)


def dotted(path: Path) -> str:
    """A path as the validation messages name fields: ``offers.0.usd_per_gpu_hour``."""
    return ".".join(str(part) for part in path) or "(top level)"


def shown(text: str) -> str:
    """A value as a message quotes it: at most 40 characters."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def integer(text: str, path: Path = ()) -> int:
    """A whole number from its text (decimal, or YAML's 0x and 0o)."""
    body = text.lstrip("+-")
    if HEX_INTEGER.fullmatch(text) or OCTAL_INTEGER.fullmatch(text):
        digits, base = text[2:].lstrip("0") or "0", 16 if text[1] == "x" else 8
        if len(digits) > _MAX_INTEGER_DIGITS:
            raise ValueProblem(
                path, Words("%(value)s is too large; a number is at most 1e15 in size", value=shown(text))
            )
        return _bounded(int(digits, base), text, path)
    if thousands_grouped(text):
        # '1,500' or '1,500,000' in a CSV cell or a field read as text: thousands, as no whole number has
        # a decimal comma; Swiss 2'000'000 and DIN 5008's 2 000 000 alike.
        # The number meant, as a data file takes it: no leading zero, within the bounds (or said too large).
        whole = _bounded(int(GROUP_SEPARATORS.sub("", text)), text, path)
        raise ValueProblem(
            path,
            Words("%(value)s is not a whole number: write %(whole)s", value=shown(text), whole=str(whole)),
        )
    if not DECIMAL_INTEGER.fullmatch(text):
        raise ValueProblem(path, Words("%(value)s is not a whole number", value=shown(text)))
    if len(body) > 1 and body.startswith("0"):
        raise ValueProblem(
            path,
            Words(
                "%(value)s: a number with a leading zero is refused (YAML 1.1 reads it as octal); "
                "write %(number)s",
                value=shown(text),
                number=f"{text[0] if text[0] in '+-' else ''}{body.lstrip('0') or '0'}",
            ),
        )
    if len(body) > _MAX_INTEGER_DIGITS:
        raise ValueProblem(
            path, Words("%(value)s is too large; a number is at most 1e15 in size", value=shown(text))
        )
    return _bounded(int(text), text, path)


def _bounded(value: int, text: str, path: Path) -> int:
    if abs(value) > MAX_MAGNITUDE:
        raise ValueProblem(
            path, Words("%(value)s is too large; a number is at most 1e15 in size", value=shown(text))
        )
    return value


_SPACERS = "'\u2019 \u00a0\u202f"
"""A Swiss apostrophe (also typographic), a space, a no-break space or a narrow one (DIN 5008)."""
GROUP_SEPARATORS = re.compile(f"[,{_SPACERS}]")
"""What sets thousands apart: an English comma or one of ``_SPACERS``."""
SPACED_GROUPS = re.compile(f"[+-]?\\d{{1,3}}(?:[{_SPACERS}]\\d{{3}})+")
"""Thousands set apart by an apostrophe or a space (Swiss 2'000'000, DIN 5008's 2 000 000)."""
COMMA_GROUPS = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+")
"""A number written with commas between groups of three digits (English thousands, or one German decimal
comma before three decimals)."""


def thousands_grouped(text: str) -> bool:
    """A whole number written with commas, apostrophes or spaces between groups of three digits."""
    return bool(COMMA_GROUPS.fullmatch(text) or SPACED_GROUPS.fullmatch(text))


DECIMAL_COMMA = re.compile(r"[+-]?\d+,\d+")
"""A number written with a decimal comma (German ``0,5``)."""


def number(text: str, path: Path = ()) -> float:
    """A decimal number from its text (``2.5``, ``.5``, ``1e-05``)."""
    if NOT_FINITE.fullmatch(text):
        raise ValueProblem(path, Words("%(value)s is not a finite number", value=shown(text)))
    if not DECIMAL_NUMBER.fullmatch(text):
        if COMMA_GROUPS.fullmatch(text):
            # '1,500': English thousands, or a German decimal comma; '1,500,000' thousands alone.
            whole = text.replace(",", "")
            if text.count(",") > 1:
                raise ValueProblem(
                    path, Words("%(value)s is not a number: write %(whole)s", value=shown(text), whole=whole)
                )
            raise ValueProblem(
                path,
                Words(
                    "%(value)s is not a number: write %(whole)s, or %(number)s where the comma is a "
                    "decimal comma",
                    value=shown(text),
                    whole=whole,
                    number=f"{float(text.replace(',', '.')):g}",
                ),
            )
        if DECIMAL_COMMA.fullmatch(text):
            # German '0,5' (a CSV cell or a field read as text): a data file takes a decimal point.
            raise ValueProblem(
                path,
                Words(
                    "%(value)s is not a number: write %(number)s, with a decimal point, not a comma",
                    value=shown(text),
                    number=text.replace(",", "."),
                ),
            )
        raise ValueProblem(path, Words("%(value)s is not a number", value=shown(text)))
    return finite(float(text), path, text)


def finite(value: float, path: Path = (), text: str | None = None) -> float:
    """A float within the range numbers are read in."""
    written = text if text is not None else repr(value)
    if not math.isfinite(value):
        raise ValueProblem(path, Words("%(value)s is not a finite number", value=shown(written)))
    size = abs(value)
    if size > MAX_MAGNITUDE:
        raise ValueProblem(
            path, Words("%(value)s is too large; a number is at most 1e15 in size", value=shown(written))
        )
    if 0 < size < MIN_MAGNITUDE or (
        size == 0 and text is not None and _NONZERO.search(_MANTISSA.split(text)[0])
    ):
        raise ValueProblem(
            path,
            Words(
                "%(value)s is too small; a number other than 0 is at least 1e-15 in size",
                value=shown(written),
            ),
        )
    return value


def text(value: str, path: Path = ()) -> str:
    """Text with any surrogate pair (as JSON and YAML escape characters outside the BMP) joined; a lone
    surrogate cannot be written as UTF-8 and is refused."""
    if not _SURROGATE.search(value):
        return value
    try:
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        raise ValueProblem(path, Words("not valid Unicode text (a lone surrogate such as \\ud83d)")) from None


def key(value: Any, path: Path) -> str:
    if not isinstance(value, str):
        raise ValueProblem(path, Words("a key is text, not %(value)s; quote it", value=shown(str(value))))
    return text(value, path)


def given_twice(name: str) -> Words:
    return Words("key %(key)s is given twice", key=repr(name))


def nested_deeper(levels: int) -> Words:
    return Words("input is nested deeper than %(levels)s levels", levels=levels)
