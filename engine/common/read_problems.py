"""What the readers of input report, as messages said in the reader's language (``wording.py``): a YAML or
JSON parser's complaint and an operating system's error.

The parsers and the operating system write their own English. In English it is shown as they wrote it; in
another language a complaint of a known kind is said by the catalog with its values (the character, the
token found), and one of an unknown kind as a general sentence with its position: never an English
phrase in a German message. Operating system errors are known by their number, not by their text.
"""

from __future__ import annotations

import codecs
import errno
import re
from collections.abc import Callable
from functools import cache

import yaml

from gpu_advisor.engine.common.wording import Words, marked

SYNTAX_ERROR = marked("syntax error")
"""What another language says of a parser's complaint of a kind it does not know (with the position)."""

YAML_PROBLEMS = (
    # The scanner's (context, problem), joined as the message shows them; %(name)s: a value it names.
    marked("while scanning for the next token, found character '\\t' that cannot start any token"),
    marked("while scanning for the next token, found character %(char)s that cannot start any token"),
    marked("mapping values are not allowed here"),
    marked("sequence entries are not allowed here"),
    marked("mapping keys are not allowed here"),
    marked("while scanning a simple key, could not find expected ':'"),
    marked("while scanning a quoted scalar, found unexpected end of stream"),
    marked("while scanning a quoted scalar, found unexpected document separator"),
    marked("while scanning a double-quoted scalar, found unknown escape character %(char)s"),
    marked(
        "while scanning a double-quoted scalar, expected escape sequence of %(count)s hexadecimal numbers, "
        "but found %(char)s"
    ),
    marked("while scanning a block scalar, expected chomping or indentation indicators, but found %(char)s"),
    marked("while scanning a block scalar, expected a comment or a line break, but found %(char)s"),
    marked("while scanning a block scalar, expected indentation indicator in the range 1-9, but found 0"),
    marked("while scanning an anchor, expected alphabetic or numeric character, but found %(char)s"),
    marked("while scanning an alias, expected alphabetic or numeric character, but found %(char)s"),
    marked("while scanning a tag, expected ' ', but found %(char)s"),
    # The parser's and the composer's.
    marked("while parsing a block mapping, expected <block end>, but found %(token)s"),
    marked("while parsing a block collection, expected <block end>, but found %(token)s"),
    marked("while parsing a flow sequence, expected ',' or ']', but got %(token)s"),
    marked("while parsing a flow mapping, expected ',' or '}', but got %(token)s"),
    marked("while parsing a block node, expected the node content, but found %(token)s"),
    marked("while parsing a flow node, expected the node content, but found %(token)s"),
    marked("while parsing a node, found undefined tag handle %(handle)s"),
    marked("expected '<document start>', but found %(token)s"),
    marked("expected a single document in the stream, but found another document"),
    marked("found duplicate anchor %(anchor)s; first occurrence, second occurrence"),
    marked("found duplicate YAML directive"),
    marked("found incompatible YAML document (version 1.* is required)"),
    marked("aliases (*name) are not allowed in gpu-advisor input"),
)
"""The complaints of PyYAML's pure-Python parser (which reads user input) that a user's file can cause,
written as PyYAML writes them."""

YAML_TOKENS = {
    token: token
    for token in (
        marked("'<alias>'"),
        marked("'<anchor>'"),
        marked("'<block end>'"),
        marked("'-'"),
        marked("'<block mapping start>'"),
        marked("'<block sequence start>'"),
        marked("'<directive>'"),
        marked("'<document end>'"),
        marked("'<document start>'"),
        marked("','"),
        marked("'}'"),
        marked("'{'"),
        marked("']'"),
        marked("'['"),
        marked("'?'"),
        marked("'<scalar>'"),
        marked("'<stream end>'"),
        marked("'<stream start>'"),
        marked("'<tag>'"),
        marked("':'"),
    )
}
"""What the parser found, as it names it: said by the catalog ('<scalar>' is a value)."""

JSON_PROBLEMS = (
    marked("Expecting value"),
    marked("Expecting ',' delimiter"),
    marked("Expecting ':' delimiter"),
    marked("Expecting property name enclosed in double quotes"),
    marked("Extra data"),
    marked("Invalid control character at"),
    marked("Unterminated string starting at"),
    marked("Invalid \\escape"),
    marked("Invalid \\uXXXX escape"),
    marked("Illegal trailing comma before end of object"),
    marked("Illegal trailing comma before end of array"),
)
"""The complaints of Python's JSON parser (``JSONDecodeError.msg``, without the position)."""

CSV_PROBLEMS = (
    marked("%(char)s expected after %(quote)s"),
    marked("unexpected end of data"),
    marked("line contains NUL"),
    marked("field larger than field limit (%(limit)s)"),
)
"""The complaints of Python's CSV reader (strict)."""

OS_ERRORS = {
    errno.ENOENT: marked("no such file or directory"),
    errno.EACCES: marked("permission denied"),
    errno.EPERM: marked("operation not permitted"),
    errno.EISDIR: marked("is a directory"),
    errno.ENOTDIR: marked("not a directory"),
    errno.ELOOP: marked("too many levels of symbolic links"),
    errno.ENAMETOOLONG: marked("file name too long"),
    errno.EIO: marked("input/output error"),
    errno.ENOSPC: marked("no space left on device"),
    errno.EROFS: marked("read-only file system"),
    errno.EEXIST: marked("file exists"),
    errno.EMFILE: marked("too many open files"),
    errno.ENFILE: marked("too many open files"),
    errno.ENXIO: marked("no such device or address"),
    errno.EBUSY: marked("device or resource busy"),
    errno.ETXTBSY: marked("text file busy"),
    errno.EFBIG: marked("file too large"),
    errno.EINVAL: marked("invalid argument"),
    errno.EDQUOT: marked("disk quota exceeded"),
}
"""Operating system errors by number, as the catalogs say them (English shows the system's own text)."""


OPENED_CONTEXTS = ("while parsing a flow mapping", "while parsing a flow sequence", "while scanning a quoted")
"""PyYAML's contexts whose mark is a bracket or quote opened (its ``context_mark``), left open to the
problem found on a later line."""


def yaml_problem(error: yaml.YAMLError) -> Words:
    """A YAML parser's complaint on one line, without the excerpt of the text that PyYAML appends: where
    (line and column) and what it found (a character or a token kind), never more of the file. A file
    that is not YAML at all (a symbolic link to ``.git/config`` in a pull request) must not have its
    lines quoted into an error message that a CI job posts."""
    if isinstance(error, yaml.MarkedYAMLError):
        what = ", ".join(part for part in (error.context, error.problem) if part)
        mark = error.problem_mark or error.context_mark
        said = _known(what, YAML_PROBLEMS, _yaml_value)
        if mark is None:
            return said
        opened = error.context_mark
        if (
            opened is not None
            and error.problem_mark is not None
            and opened.line < mark.line
            and (error.context or "").startswith(OPENED_CONTEXTS)
        ):
            # A bracket left open on one line is found missing on a later one: both lines are named.
            return Words(
                "line %(line)s, column %(column)s: %(problem)s; opened on line %(opened)s, column "
                "%(opened_column)s",
                line=mark.line + 1,
                column=mark.column + 1,
                problem=said,
                opened=opened.line + 1,
                opened_column=opened.column + 1,
            )
        return Words(
            "line %(line)s, column %(column)s: %(problem)s",
            line=mark.line + 1,
            column=mark.column + 1,
            problem=said,
        )
    english = " ".join(str(error).split())
    if isinstance(error, yaml.reader.ReaderError):
        if error.encoding != "unicode":
            # Bytes the reader could not decode (a stream read as it comes): said as a file read whole
            # says them (``user_input.decode``), not in the parser's words ("invalid continuation byte").
            return not_utf8(error.position)
        otherwise = Words(
            "unacceptable character #x%(code)s at position %(position)s: special characters are not allowed",
            code=f"{error.character:04x}",
            position=error.position,
        )
        return Words.verbatim(english, otherwise)
    return Words.verbatim(english, Words(SYNTAX_ERROR))


def not_utf8(byte: int, start: bytes = b"") -> Words:
    """Text that is not UTF-8: where (``byte``, counted from 0) and what to do; a file whose first bytes
    (``start``) are a UTF-16 byte-order mark, as a Windows editor's "Unicode" writes, is named so."""
    if utf16_marked(start):
        return Words("UTF-16 text (it starts with a UTF-16 byte-order mark), not UTF-8; save it as UTF-8")
    return Words("not UTF-8 text (byte %(byte)s); save it as UTF-8", byte=byte)


def utf16_marked(start: bytes) -> bool:
    """``start`` (a file's first bytes) is a UTF-16 byte-order mark (not UTF-32's, which begins alike)."""
    utf16 = start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    return utf16 and not start.startswith(codecs.BOM_UTF32_LE)


def utf16_problem(start: bytes) -> Words | None:
    """What to say of a file whose first bytes (``start``, a line or more) are UTF-16: a byte-order mark
    (``not_utf8``'s words), or, without one, ASCII text in UTF-16, a zero byte after each character
    (little-endian) or before it (big-endian), which decodes as UTF-8 with a NUL in every other place;
    None where they are neither."""
    if utf16_marked(start):
        return not_utf8(0, start)
    pairs = start[: len(start) // 2 * 2]
    if not pairs:
        return None
    even, odd = pairs[0::2], pairs[1::2]
    if (odd.count(0) == len(odd) and 0 not in even) or (even.count(0) == len(even) and 0 not in odd):
        return Words(
            "looks like UTF-16 text (a zero byte beside each character), not UTF-8; save it as UTF-8"
        )
    return None


def json_problem(message: str, line: int, column: int) -> Words:
    """A JSON parser's complaint (``JSONDecodeError.msg``) with its line and column."""
    said = _known(message, JSON_PROBLEMS, lambda name, value: value)
    return Words("%(problem)s (line %(line)s, column %(column)s)", problem=said, line=line, column=column)


def csv_problem(message: str) -> Words:
    """A CSV reader's complaint."""
    return _known(message, CSV_PROBLEMS, lambda name, value: value)


def os_problem(error: OSError) -> Words:
    """An operating system error: its own text in English, by its number in other languages."""
    english = error.strerror or str(error)
    known = OS_ERRORS.get(error.errno) if error.errno is not None else None
    if known is not None:
        return Words.verbatim(english, Words(known))
    code = errno.errorcode.get(error.errno, str(error.errno)) if error.errno is not None else "?"
    return Words.verbatim(english, Words("operating system error %(code)s", code=code))


def _yaml_value(name: str, value: str) -> object:
    return Words(YAML_TOKENS[value]) if name == "token" and value in YAML_TOKENS else value


def _known(text: str, patterns: tuple[str, ...], value: Callable[[str, str], object]) -> Words:
    """``text`` as the first of ``patterns`` it matches, with the values found in its places (``value``
    turns each into what the message shows); an unknown text verbatim, in other languages a syntax error."""
    for pattern, compiled in _compiled(patterns):
        found = compiled.fullmatch(text)
        if found is not None:
            return Words(pattern, **{name: value(name, part) for name, part in found.groupdict().items()})
    return Words.verbatim(text, Words(SYNTAX_ERROR))


_PLACE = re.compile(r"%\((\w+)\)s")


@cache
def _compiled(patterns: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each pattern with a regular expression that finds its values in a text: ``%(name)s`` matches any
    text, the rest itself (``%%`` a single ``%``)."""
    compiled = []
    for pattern in patterns:
        parts = _PLACE.split(pattern)
        expression = "".join(
            f"(?P<{part}>.+?)" if index % 2 else re.escape(part.replace("%%", "%"))
            for index, part in enumerate(parts)
        )
        compiled.append((pattern, re.compile(expression, re.DOTALL)))
    return tuple(compiled)
