"""Reading a portfolio: CSV, JSON Lines or a YAML list, one workload at a time."""

from __future__ import annotations

import codecs
import contextlib
import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

import yaml

from gpu_advisor.engine.apps.batch.csv_cells import FieldKind, convert_cell, csv_field_kinds
from gpu_advisor.engine.apps.batch.messages import said
from gpu_advisor.engine.common import json_input, read_problems, yaml_core
from gpu_advisor.engine.common.bounded_lines import line_of_byte, lines_within
from gpu_advisor.engine.common.errors import InputError, close_match
from gpu_advisor.engine.common.read_problems import csv_problem, not_utf8, os_problem, yaml_problem
from gpu_advisor.engine.common.user_input import MAX_INPUT_BYTES
from gpu_advisor.engine.common.values import MAX_NESTING_DEPTH, ValueProblem
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.i18n.environment import say

InputFormat = Literal["csv", "jsonl", "yaml"]


INPUT_FORMATS: dict[str, InputFormat] = {".csv": "csv", ".jsonl": "jsonl", ".yaml": "yaml", ".yml": "yaml"}


_NOT_UTF8 = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as the CSV reader's ``surrogateescape`` decoding keeps it."""


@dataclass(frozen=True)
class Row:
    """One workload as read: its data, or why it could not be read."""

    line: int
    data: dict[str, Any] | None
    error: str | None = None
    name: str | None = None
    """A row that could not be read: its name where the format still gives it (a CSV row's name cell)."""
    ends_reading: bool = False
    """The file cannot be read past this row (a YAML error within the list): the rest is not run."""
    last_line: int | None = None
    """A CSV record whose quoted cell runs over several lines ends on this one: messages name them all."""
    cell_problems: tuple[dict[str, Any], ...] = ()
    """A CSV row's cells that are not their field's type, each as a validation problem (type ``cell``,
    said in the run's language); ``data`` holds the other cells, so that their problems are said too."""

    @property
    def lines(self) -> str:
        """Where the row is in its file: its line, or its first and last (``3-5``)."""
        return (
            f"{self.line}-{self.last_line}"
            if self.last_line and self.last_line > self.line
            else f"{self.line}"
        )


def input_format_for(path: str, given: str | None, lang: str = "en") -> InputFormat:
    if given is not None:
        return given  # type: ignore[return-value]
    if path == "-":
        raise InputError(said(lang, "input_format_required"))
    if Path(path).is_dir():
        raise InputError(said(lang, "input_is_directory", origin=path))
    suffix = Path(path).suffix.lower()
    if suffix not in INPUT_FORMATS:
        raise InputError(said(lang, "unknown_extension", origin=path, suffix=repr(suffix or "(none)")))
    return INPUT_FORMATS[suffix]


def open_input(path: str, lang: str = "en") -> IO[bytes]:
    if path == "-":
        import sys

        return sys.stdin.buffer
    try:
        return Path(path).open("rb")
    except FileNotFoundError:
        raise InputError(said(lang, "no_such_file", origin=path)) from None
    except OSError as error:
        raise InputError(
            said(lang, "cannot_read", origin=path, problem=say(lang, os_problem(error)))
        ) from None


def read_rows(stream: IO[bytes], input_format: InputFormat, origin: str, lang: str = "en") -> Iterator[Row]:
    """The workloads of ``stream`` one at a time. A row that cannot be read is a ``Row`` with an error;
    a file that cannot be read further raises ``InputError``. Messages are in ``lang``."""
    if input_format == "jsonl":
        return jsonl_rows(stream, origin, lang)
    if input_format == "csv":
        return csv_rows(stream, origin, lang)
    return yaml_rows(stream, origin, lang)


def _bounded_lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """Lines with their numbers; a line longer than one workload may be is None (and not kept)."""
    number = 0
    while True:
        line = stream.readline(MAX_INPUT_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_INPUT_BYTES and not line.endswith(b"\n"):
            while (rest := stream.readline(MAX_INPUT_BYTES)) and not rest.endswith(b"\n"):
                pass
            yield number, None
            continue
        yield number, line


def no_fields(origin: str, line: int, lang: str) -> str:
    """A list item or a JSON line that is null: no workload, as a workload file of null says it."""
    nothing = Words("no fields given: a workload is a mapping of fields")
    return f"{origin}:{line}: {say(lang, nothing)}"


def jsonl_rows(stream: IO[bytes], origin: str, lang: str = "en") -> Iterator[Row]:
    for number, raw in _bounded_lines(stream):
        where = f"{origin}:{number}"
        if raw is None:
            yield Row(number, None, said(lang, "line_too_long", origin=where, limit=MAX_INPUT_BYTES))
            continue
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as error:
            marked = len(codecs.BOM_UTF8) if number == 1 and raw.startswith(codecs.BOM_UTF8) else 0
            problem = not_utf8(error.start + marked, raw if number == 1 else b"")
            yield Row(number, None, say(lang, at(where, problem)))
            continue
        if not text.strip():
            continue
        try:
            data = json_input.parse_json(text, max_depth=MAX_NESTING_DEPTH)
        except RecursionError:
            yield Row(number, None, said(lang, "nested", origin=where))
            continue
        except json_input.NotJson as error:
            yield Row(number, None, said(lang, "not_json", origin=where, problem=say(lang, error.words)))
            continue
        except ValueProblem as problem:
            yield Row(number, None, f"{origin}:{number}: {say(lang, problem.words)}")
            continue
        if data is None:  # JSON's null, which the run would call an empty row
            yield Row(number, None, no_fields(origin, number, lang))
            continue
        yield Row(number, data)


@dataclass(frozen=True)
class Column:
    name: str
    path: tuple[str, ...]
    kind: FieldKind


def csv_columns(header: list[str], origin: str, lang: str = "en") -> list[Column]:
    """The header's columns, each a known workload field; an unknown or repeated column stops the file."""
    kinds = csv_field_kinds()
    groups = sorted({name.split(".")[0] for name in kinds if "." in name} - set(kinds))
    columns: list[Column] = []
    seen: set[str] = set()
    if len(header) == 1 and ";" in header[0]:
        # Excel's CSV where the decimal mark is a comma (German) separates columns with semicolons.
        raise InputError(said(lang, "semicolon_columns", origin=f"{origin}:1"))
    for raw in header:
        name = raw.strip()
        if name in seen:
            raise InputError(said(lang, "column_twice", origin=f"{origin}:1", name=repr(name)))
        seen.add(name)
        if name in groups:
            members = ", ".join(k for k in kinds if k.startswith(f"{name}."))
            raise InputError(
                said(lang, "column_group", origin=f"{origin}:1", name=repr(name), members=members)
            )
        if name not in kinds:
            suggestion = close_match(name, kinds)
            raise InputError(
                said(
                    lang,
                    "unknown_column",
                    origin=f"{origin}:1",
                    name=repr(name),
                    allowed=", ".join(kinds),
                    suggestion=repr(suggestion) if suggestion else None,
                )
            )
        columns.append(Column(name, tuple(name.split(".")), kinds[name]))
    return columns


def csv_record(
    columns: list[Column], cells: list[str], lang: str = "en"
) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """One CSV row as a workload mapping (an empty cell leaves its field out), and the cells that are not
    their field's type, as validation problems (``Row.cell_problems``), left out of the mapping."""
    data: dict[str, Any] = {}
    problems: list[dict[str, Any]] = []
    for column, cell in zip(columns, cells, strict=True):
        if cell.strip() == "":
            continue
        try:
            value = convert_cell(cell, column.kind, lang)
        except ValueError as error:
            problems.append(cell_problem(column.name, str(error)))
            continue
        target = data
        for part in column.path[:-1]:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):  # a point beside its range: requests_per_day and its .low
                raise ValueError(said(lang, "point_and_range", name=part))
        if isinstance(target.get(column.path[-1]), dict):
            raise ValueError(said(lang, "point_and_range", name=column.name))
        target[column.path[-1]] = value
    return data, tuple(problems)


def cell_problem(field: str, said_text: str) -> dict[str, Any]:
    """A cell's problem as ``input_errors.validation_problems`` gives a field's (``input_error.txt.j2``)."""
    return {
        "field": field,
        "type": "cell",
        "said": said_text,
        "msg": said_text,
        "ctx": {},
        "input": "",
        "show_input": False,  # the message quotes the cell
        "allowed": [],
        "suggestion": None,
    }


def csv_rows(stream: IO[bytes], origin: str, lang: str = "en") -> Iterator[Row]:
    # A byte that is not UTF-8 spoils its row, not the file: it is kept as a surrogate and reported.
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="surrogateescape", newline="")

    def too_long(number: int) -> InputError:
        # A CSV row cannot be skipped past safely (a quoted cell may hold line breaks): the file stops.
        return InputError(said(lang, "line_too_long", origin=f"{origin}:{number}", limit=MAX_INPUT_BYTES))

    written = [0]  # the last physical line with text on it, read so far

    def noted(lines: Iterator[str]) -> Iterator[str]:
        for number, physical in enumerate(lines, 1):
            if number == 1:
                # A spreadsheet's "Unicode text" is UTF-16: named so, not as a header of unknown columns
                # ('n\x00a\x00m\x00e\x00') or of bytes that are not UTF-8.
                utf16 = read_problems.utf16_problem(physical.encode("utf-8", "surrogateescape"))
                if utf16 is not None:
                    raise InputError(say(lang, at(origin, utf16)))
            if physical.strip():
                written[0] = number
            yield physical

    reader = csv.reader(noted(lines_within(text, MAX_INPUT_BYTES, too_long)), strict=True)
    columns: list[Column] | None = None
    next_line = 1
    try:
        while True:
            line = next_line
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                next_line = reader.line_num + 1
                problem = say(lang, csv_problem(str(error)))
                spans = f"{origin}:{line}-{reader.line_num}" if reader.line_num > line else f"{origin}:{line}"
                if columns is None:
                    # No header, no columns: the file is refused, as a header that names no field is.
                    raise InputError(said(lang, "not_csv", origin=spans, problem=problem)) from None
                unclosed = "unexpected end of data" in str(error) or "field limit" in str(error)
                # Only lines with text taken in are rows lost (a blank line after the last row is none).
                if unclosed and written[0] > line:
                    # A quote opened here runs to the end of the file, or past any cell's size: the lines
                    # after it cannot be told apart from its cell. The file is read up to here, as a
                    # broken YAML list is.
                    message = said(lang, "csv_rest_unread", origin=f"{origin}:{line}", problem=problem)
                    yield Row(line, None, message, ends_reading=True)
                    return
                yield Row(line, None, said(lang, "not_csv", origin=spans, problem=problem))
                continue
            next_line = reader.line_num + 1
            # A record whose quoted cell runs over several lines is named by all of them.
            last = reader.line_num
            where = f"{origin}:{line}-{last}" if last > line else f"{origin}:{line}"
            bad = [index for index, cell in enumerate(cells) if _NOT_UTF8.search(cell)]
            if columns is None:
                if bad:
                    raise InputError(said(lang, "not_utf8_header", origin=where, column=bad[0] + 1))
                columns = csv_columns(cells, origin, lang)
                continue
            if not cells or all(cell.strip() == "" for cell in cells):
                continue
            if bad:
                cell = columns[bad[0]].name if bad[0] < len(columns) else None
                yield Row(line, None, said(lang, "not_utf8_cell", origin=where, cell=cell, number=bad[0] + 1))
                continue
            if len(cells) != len(columns):
                # Over several lines, a stray quote may have taken the lines after it into one cell.
                kind = "cell_count_lines" if last > line else "cell_count"
                message = said(lang, kind, origin=where, cells=len(cells), columns=len(columns))
                yield Row(line, None, message, _name_cell(columns, cells))  # its name cell names it
                continue
            try:
                data, problems = csv_record(columns, cells, lang)
                yield Row(line, data, last_line=last, cell_problems=problems)
            except ValueError as error:
                # The row's name cell still names it in the error list.
                yield Row(line, None, f"{where}: {error}", _name_cell(columns, cells))
    finally:
        # The stream may be closed already where the caller stopped early; nothing is left to hand back.
        with contextlib.suppress(ValueError):
            text.detach()


def _name_cell(columns: list[Column], cells: list[str]) -> str | None:
    """The row's name in its name column's cell; None where it has none."""
    index = next((i for i, column in enumerate(columns) if column.name == "name"), len(cells))
    return (cells[index].strip() if index < len(cells) else "") or None


def yaml_rows(stream: IO[bytes], origin: str, lang: str = "en") -> Iterator[Row]:
    """A YAML list of workloads, composed and constructed one item at a time (flat memory)."""
    # The user-input loader: the YAML 1.2 core schema, keys given once, no aliases (a few bytes could
    # expand into a structure that takes minutes to walk).
    try:
        # The reader decodes its first chunk at once: a byte that is not UTF-8 there fails here, said as
        # a workload file's is (not as YAML: the parser's "invalid continuation byte").
        loader = yaml_core.CoreLoader(stream)
    except yaml.reader.ReaderError as error:
        raise InputError(say(lang, at(origin, yaml_problem(error)))) from None
    except yaml.YAMLError as error:
        raise InputError(
            said(lang, "not_yaml", origin=origin, problem=say(lang, yaml_problem(error)))
        ) from None
    if loader.encoding != "utf-8":
        # The reader takes UTF-16 with its byte-order mark, which a workload file may not be.
        loader.dispose()
        raise InputError(say(lang, at(origin, not_utf8(0, codecs.BOM_UTF16_LE))))
    listing = False
    try:
        loader.get_event()  # type: ignore[no-untyped-call]
        if loader.check_event(yaml.StreamEndEvent):
            return
        loader.get_event()  # type: ignore[no-untyped-call]
        if not loader.check_event(yaml.SequenceStartEvent):
            raise InputError(said(lang, "yaml_not_a_list", origin=origin))
        loader.get_event()  # type: ignore[no-untyped-call]
        listing = True
        while not loader.check_event(yaml.SequenceEndEvent):
            node = loader.compose_node(None, None)
            line = node.start_mark.line + 1
            try:
                data = yaml_core.build(node, max_depth=MAX_NESTING_DEPTH)
            except ValueProblem as problem:
                yield Row(line, None, f"{origin}:{problem.line or line}: {say(lang, problem.words)}")
            else:
                # An item of null, or none (`-` alone), as a JSON line of null: no workload.
                yield Row(line, data) if data is not None else Row(line, None, no_fields(origin, line, lang))
            # The composer remembers every anchored node; forget them after each item.
            loader.anchors = {}
        loader.get_event()  # type: ignore[no-untyped-call]
        loader.get_event()  # type: ignore[no-untyped-call]
        if not loader.check_event(yaml.StreamEndEvent):
            raise InputError(said(lang, "yaml_documents", origin=origin))
    except yaml.YAMLError as error:
        reason = say(lang, yaml_problem(error))
        # A byte that is not UTF-8 is no YAML error: it is said as a workload file's is.
        undecoded = isinstance(error, yaml.reader.ReaderError) and error.encoding != "unicode"
        if listing:
            # Within the list: the items before it are kept and run, and the rest, which no reader can
            # find the start of, is one bad row that says where reading stopped (the reader's line, for
            # a byte it could not decode).
            mark = getattr(error, "problem_mark", None)
            line = mark.line + 1 if mark is not None else loader.line + 1
            if undecoded:
                # The reader decodes ahead of the parser: the bad byte's own line is further on, where a
                # file (not a pipe) can be read again to find it.
                bad = line_of_byte(stream, getattr(error, "position", 0))
                where = f"{origin}:{bad}" if bad is not None else origin
                message = said(lang, "rest_undecoded", origin=where, problem=reason, read=line)
            else:
                message = said(lang, "yaml_rest_unread", origin=f"{origin}:{line}", problem=reason)
            yield Row(line, None, message, ends_reading=True)
            return
        if undecoded:
            raise InputError(f"{origin}: {reason}") from None
        raise InputError(said(lang, "not_yaml", origin=origin, problem=reason)) from None
    except RecursionError:
        raise InputError(said(lang, "nested", origin=origin)) from None
    finally:
        loader.dispose()
