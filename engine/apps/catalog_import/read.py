"""Reading a price catalog's CSV: every row validated by its format's model, every problem named by
its line and column. A file with any bad row is refused as a whole (exit code 2). The messages are
``Words``, said in the reader's language (``common/wording.py``)."""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar, cast

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from gpu_advisor.engine.common.bounded_lines import lines_within
from gpu_advisor.engine.common.errors import InputError, unknown_value_problem, validator_message
from gpu_advisor.engine.common.read_problems import csv_problem, not_utf8, os_problem, utf16_problem
from gpu_advisor.engine.common.wording import Grouped, Words, WordsError, at
from gpu_advisor.engine.domain.import_rows import GpuhuntRow, PlainRow, Row, SkyPilotRow
from gpu_advisor.engine.domain.input_errors import TYPE_MESSAGES

MAX_IMPORT_BYTES = 200_000_000
"""The largest file read (SkyPilot's biggest vms.csv is some tens of megabytes)."""
MAX_IMPORT_LINE = 1_000_000
"""A row of a price catalog is a few hundred characters; a longer line is no catalog's."""

MAX_PROBLEMS_SHOWN = 20

ROW_MODELS: dict[str, type[Row]] = {"skypilot": SkyPilotRow, "gpuhunt": GpuhuntRow, "csv": PlainRow}

R = TypeVar("R", bound=Row)


def read_rows(path: str, fmt: str) -> list[tuple[int, Row]]:
    """Every data row of ``path`` with its line number, validated; an ``InputError`` listing the bad
    ones (line and column) otherwise."""
    model = ROW_MODELS[fmt]
    rows: list[tuple[int, Row]] = []
    problems: list[Words] = []
    records = csv_records(path, model)
    path = import_origin(path)
    for line, cells in records:
        try:
            rows.append((line, model.model_validate(cells)))
        except ValidationError as error:
            problems += [row_problem(line, problem) for problem in error.errors()]
    if problems:
        shown: list[Words] = problems[:MAX_PROBLEMS_SHOWN]
        more = len(problems) - len(shown)
        if more:
            shown.append(Words("... and %(more)s more", more=Grouped(more)))
        lines = {f"p{index}": problem for index, problem in enumerate(shown)}
        listing = Words.joined("".join(f"\n  %({name})s" for name in lines), **lines)
        head = at(path, Words("invalid %(format)s catalog", format=fmt))
        raise InputError(Words.joined("%(head)s%(listing)s", head=head, listing=listing))
    if not rows:
        # A header alone is a truncated export, as batch refuses one: an empty overrides file would
        # replace nothing and say nothing.
        raise InputError(at(path, Words("a header and no rows; nothing to import")))
    return rows


def at_line(line: int, problem: Words, column: str | None = None) -> Words:
    """A problem on a line of the file, in a column of it where one is named."""
    if column is None:
        return Words("line %(line)s: %(problem)s", line=line, problem=problem)
    return Words("line %(line)s, column %(column)s: %(problem)s", line=line, column=column, problem=problem)


def row_problem(line: int, problem: ErrorDetails) -> Words:
    """A row's validation problem: pydantic's words in English (the validator's own where it wrote
    them), the catalog's for its kind in another language; the cell given, where it is text."""
    location = problem["loc"]
    column = str(location[0]) if isinstance(location, tuple) and location else "?"
    english = validator_message(str(problem["msg"]))
    kind, context = problem["type"], problem.get("ctx", {})
    bound = next((context[name] for name in ("gt", "ge", "lt", "le") if name in context), None)
    message: Words
    if isinstance(context.get("error"), WordsError):
        message = context["error"].words
    elif kind in TYPE_MESSAGES:
        message = Words.verbatim(english, Words(TYPE_MESSAGES[kind]))
    elif kind in BOUNDS and bound is not None:
        # A whole-number bound in the reader's number form, as the workload's errors write it.
        limit = Grouped(int(bound)) if float(bound).is_integer() else bound
        message = Words.verbatim(english, Words(BOUNDS[kind], limit=limit))
    else:
        message = Words.verbatim(english, Words(NOT_VALID))
    given = problem.get("input")
    if isinstance(given, str):
        message = Words.joined(
            "%(problem)s (%(given)s)", problem=message, given=Words("given %(value)s", value=repr(given))
        )
    return at_line(line, message, column)


BOUNDS = {
    "greater_than": "Input should be greater than %(limit)s",
    "greater_than_equal": "Input should be greater than or equal to %(limit)s",
    "less_than": "Input should be less than %(limit)s",
    "less_than_equal": "Input should be less than or equal to %(limit)s",
}
"""pydantic's words for a number beyond a bound, as the catalogs key them (``input_error.txt.j2``)."""
NOT_VALID = "not a valid value"
"""What another language says of a problem of a kind it has no words for (an over-long text)."""


def header_problem(path: str, header: list[str], model: type[Row]) -> None:
    """A column named twice would be read from its last cell alone; in the plain CSV, whose columns are
    all gpu-advisor's own, a column it does not know is a misspelt one (``region`` for ``regions``),
    which would be dropped unsaid. The published formats carry columns gpu-advisor does not read."""
    # An unnamed column is a trailing comma, as spreadsheets export it: its cells are not read.
    named = [name for name in header if name]
    seen: set[str] = set()
    for name in named:
        if name in seen:
            raise InputError(at(path, at_line(1, Words("named twice in the header"), name)))
        seen.add(name)
    if model is not PlainRow:
        return
    known = list(PlainRow.model_fields)
    for name in named:
        if name not in known:
            problem = Words("column: %(problem)s", problem=unknown_value_problem(name, known))
            raise InputError(at(path, at_line(1, problem)))


STANDARD_INPUT = "-"
STANDARD_INPUT_NAME = "<stdin>"
"""How the import's messages and its overrides file name a catalog read from standard input (``-``)."""


def import_origin(path: str) -> str:
    """The name an imported file goes by in messages and in the file written."""
    return STANDARD_INPUT_NAME if path == STANDARD_INPUT else path


def opened(path: str) -> io.BufferedReader:
    """The file at ``path`` opened for reading, or standard input for ``-`` (left open when the import
    is done: the process does not own it)."""
    if path == STANDARD_INPUT:
        # A buffered reader over standard input's own (a byte stream in tests), for peek().
        return _Kept(cast(io.RawIOBase, sys.stdin.buffer))
    file = Path(path)
    try:
        size = file.stat().st_size
    except OSError as error:
        raise unreadable(path, error) from None
    if size > MAX_IMPORT_BYTES:
        problem = Words(
            "%(size)s bytes is more than the %(most)s bytes read",
            size=Grouped(size),
            most=Grouped(MAX_IMPORT_BYTES),
        )
        raise InputError(at(path, problem))
    try:
        return file.open("rb")
    except OSError as error:
        raise unreadable(path, error) from None


def unreadable(path: str, error: OSError) -> InputError:
    """A file the system would not let be read: the system's reason, as every reader says it."""
    return InputError(at(path, Words("cannot be read (%(problem)s)", problem=os_problem(error))))


class _Kept(io.BufferedReader):
    """Standard input's buffer, read through but not closed with the reader."""

    def close(self) -> None:
        pass


def csv_records(path: str, model: type[Row]) -> Iterator[tuple[int, dict[str, str]]]:
    """The rows of a CSV file (standard input for ``-``) as column -> cell, with the line each row
    starts on."""
    binary_file = opened(path)
    path = import_origin(path)
    try:
        with binary_file as binary, io.TextIOWrapper(binary, encoding="utf-8-sig", newline="") as handle:
            # A spreadsheet's "Unicode text" is UTF-16: named so, not as bytes that are not UTF-8 or a
            # header of unknown columns ('p\x00r\x00o\x00...'); its first line decides, looked at in the
            # buffer without reading it (a pipe is read once).
            utf16 = utf16_problem(binary.peek().split(b"\n", 1)[0])
            if utf16 is not None:
                raise InputError(at(path, utf16))
            # A pipe or device has no size to check first: its lines and its whole are bounded as read.
            long_line = Words(
                "longer than the %(most)s characters a row is read to", most=Grouped(MAX_IMPORT_LINE)
            )
            too_much = Words("more than the %(most)s bytes read", most=Grouped(MAX_IMPORT_BYTES))
            reader = csv.reader(
                lines_within(
                    handle,
                    MAX_IMPORT_LINE,
                    lambda number: InputError(at(path, at_line(number, long_line))),
                    MAX_IMPORT_BYTES,
                    lambda read: InputError(at(path, too_much)),
                )
            )
            header = next(reader, None)
            if header is None:
                raise InputError(at(path, at_line(1, Words("the file is empty; a header row is needed"))))
            header = [name.strip() for name in header]
            header_problem(path, header, model)
            missing = [name for name in model.REQUIRED_COLUMNS if name not in header]  # type: ignore[attr-defined]
            if missing:
                required = ", ".join(model.REQUIRED_COLUMNS)  # type: ignore[attr-defined]
                problem = Words("missing from the header (required: %(columns)s)", columns=required)
                raise InputError(at(path, at_line(1, problem, missing[0])))
            line = reader.line_num + 1
            for cells in reader:
                start, line = line, reader.line_num + 1
                if not any(cell.strip() for cell in cells):
                    continue
                if len(cells) > len(header):
                    problem = Words(
                        "%(cells)s cells, but the header names %(columns)s columns",
                        cells=len(cells),
                        columns=len(header),
                    )
                    raise InputError(at(path, at_line(start, problem)))
                if len(cells) < len(header):
                    problem = Words("the row ends before this column")
                    raise InputError(at(path, at_line(start, problem, header[len(cells)])))
                yield start, dict(zip(header, cells, strict=True))
    except UnicodeDecodeError as error:
        raise InputError(at(path, not_utf8(error.start))) from None
    except csv.Error as error:
        raise InputError(
            at(path, Words("not valid CSV (%(problem)s)", problem=csv_problem(str(error))))
        ) from None
    except OSError as error:
        # A directory, a file that vanished or lost its permissions after its size was read.
        raise unreadable(path, error) from None
