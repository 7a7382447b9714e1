"""Numbers as people type them, read the way their language writes them: German '1.234,5' and English
'1,234.5'. One reader for every number the questionnaire asks for."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import NamedTuple

import yaml

SEPARATORS: dict[str, tuple[str, str]] = {"en": (".", ","), "de": (",", ".")}
"""Language -> (decimal separator, thousands separator)."""

_SPACES = re.compile(r"[\s_\u00a0\u202f]")
_SWISS_GROUPS = re.compile(r"(?<=\d)['\u2019](?=\d{3}(?!\d))")
"""An apostrophe (or a typographic one) before a group of three digits: Swiss thousands, 250'000."""
_SCIENTIFIC = re.compile(r"\d+(?:\.\d+)?[eE][+-]?\d+")


def number_text(text: str, lang: str) -> str | None:
    """The number in ``text`` written as Python reads it ('1234.5'), or None where it is no number.

    - '5.000' (de) and '5,000' (en) are five thousand: the language's thousands separator in groups of
      three; spaces and '_' between digits are ignored ('150 000').
    - '0,7' (de) and '0.7' (en) are seven tenths.
    - The other language's decimal mark is read as typed where it cannot be a thousands group: '0.7' in
      German and '0,7' in English are 0.7 too, but '5.000' stays five thousand in German.
    - The Swiss apostrophe between groups of three digits is ignored in every language ('250'000').
    """
    decimal, group = SEPARATORS.get(lang, SEPARATORS["en"])
    cleaned = _SWISS_GROUPS.sub("", _SPACES.sub("", text))
    sign = ""
    if cleaned[:1] in ("+", "-"):
        sign, cleaned = cleaned[0], cleaned[1:]
    d, g = re.escape(decimal), re.escape(group)
    if re.fullmatch(rf"\d{{1,3}}(?:{g}\d{{3}})+(?:{d}\d+)?", cleaned):
        body = cleaned.replace(group, "").replace(decimal, ".")
    elif re.fullmatch(rf"\d+(?:{d}\d+)?|{d}\d+", cleaned):
        body = cleaned.replace(decimal, ".")
    elif re.fullmatch(rf"\d*{g}\d+", cleaned):
        body = cleaned.replace(group, ".")
    elif _SCIENTIFIC.fullmatch(cleaned):
        body = cleaned
    else:
        return None
    return sign + body


_THOUSANDS_DOTS = re.compile(r"[1-9][0-9]{0,2}(?:\.[0-9]{3})+")


def thousands_dotted(text: str) -> int | None:
    """The whole number ``text`` writes with a dot between groups of three digits, as German does
    (``250.000``: 250000), where a program reading it as a decimal would take 250; None otherwise."""
    stripped = text.strip()
    return int(stripped.replace(".", "")) if _THOUSANDS_DOTS.fullmatch(stripped) else None


class DottedReadings(NamedTuple):
    """A number written with one thousands dot (``240.000``), as the messages that refuse it say it."""

    read: str
    """What YAML reads: ``240``."""
    whole: int
    """The whole number meant: 240000."""
    plain: str
    """How to write the decimal reading, where it is meant: ``240.0``."""


def dotted_readings(written: str) -> DottedReadings | None:
    """The readings of a number with exactly one thousands dot; None for any other text (several dots
    make text, which validation refuses as not a number)."""
    whole = thousands_dotted(written)
    if whole is None or written.count(".") != 1:
        return None
    read = f"{float(written):g}"
    return DottedReadings(read, whole, read if "." in read else f"{read}.0")


def thousands_dotted_values(text: str) -> list[tuple[int, tuple[str, ...], str]] | None:
    """Every value of a mapping in a YAML (or JSON) text written as a number with dots between groups of
    three digits, with its line and the keys that lead to it (``("ranges", "server_price", "low")``);
    None where the text does not compose."""
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return None
    found: list[tuple[int, tuple[str, ...], str]] = []
    pending: list[tuple[tuple[str, ...], yaml.Node]] = [((), root)] if root is not None else []
    while pending:
        path, node = pending.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if not isinstance(key, yaml.ScalarNode):
                    continue
                where = (*path, key.value)
                # Quoted too: an amount's field reads "240.000" as the number 240.0 all the same.
                if isinstance(value, yaml.ScalarNode) and thousands_dotted(value.value) is not None:
                    found.append((value.start_mark.line + 1, where, value.value))
                pending.append((where, value))
        elif isinstance(node, yaml.SequenceNode):
            pending.extend((path, item) for item in node.value)
    return sorted(found)


def thousands_dotted_lines(text: str, keys: Collection[str]) -> list[tuple[int, str, str]]:
    """The lines of a text that does not compose as YAML that give one of ``keys`` a number with dots
    between groups of three digits (``price_eur: 240.000``): (line number, key, the number as written).
    ``thousands_dotted_values`` reads a text that composes, in any style."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _DOTTED_LINE.match(line)
        if match and match["key"] in keys and thousands_dotted(match["value"]) is not None:
            found.append((number, match["key"], match["value"]))
    return found


_DOTTED_LINE = re.compile(r"\s*(?:-\s+)?(?P<key>[A-Za-z_]+)\s*:\s*(?P<value>[0-9.]+)\s*(?:#.*)?$")
