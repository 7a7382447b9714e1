"""Reading a price catalog's CSV: every row validated by its format's model, every problem named by
its line and column. A file with any bad row is refused as a whole (exit code 2)."""

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
from gpu_advisor.engine.common.errors import InputError, unknown_value_message, validator_message
from gpu_advisor.engine.common.read_problems import utf16_problem
from gpu_advisor.engine.domain.import_rows import GpuhuntRow, PlainRow, Row, SkyPilotRow

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
    problems: list[str] = []
    records = csv_records(path, model)
    path = import_origin(path)
    for line, cells in records:
        try:
            rows.append((line, model.model_validate(cells)))
        except ValidationError as error:
            problems += [row_problem(line, problem) for problem in error.errors()]
    if problems:
        shown = problems[:MAX_PROBLEMS_SHOWN]
        more = len(problems) - len(shown)
        tail = [f"  ... and {more} more"] if more else []
        raise InputError("\n".join([f"{path}: invalid {fmt} catalog", *[f"  {p}" for p in shown], *tail]))
    if not rows:
        # A header alone is a truncated export, as batch refuses one: an empty overrides file would
        # replace nothing and say nothing.
        raise InputError(f"{path}: a header and no rows; nothing to import")
    return rows


def row_problem(line: int, problem: ErrorDetails) -> str:
    location = problem["loc"]
    column = str(location[0]) if isinstance(location, tuple) and location else "?"
    given = problem.get("input")
    shown = f" (given {given!r})" if isinstance(given, str) else ""
    message = validator_message(str(problem["msg"]))
    return f"line {line}, column {column}: {message}{shown}"


def header_problem(path: str, header: list[str], model: type[Row]) -> None:
    """A column named twice would be read from its last cell alone; in the plain CSV, whose columns are
    all gpu-advisor's own, a column it does not know is a misspelt one (``region`` for ``regions``),
    which would be dropped unsaid. The published formats carry columns gpu-advisor does not read."""
    # An unnamed column is a trailing comma, as spreadsheets export it: its cells are not read.
    named = [name for name in header if name]
    seen: set[str] = set()
    for name in named:
        if name in seen:
            raise InputError(f"{path}: line 1, column {name}: named twice in the header")
        seen.add(name)
    if model is not PlainRow:
        return
    known = list(PlainRow.model_fields)
    for name in named:
        if name not in known:
            raise InputError(f"{path}: line 1: {unknown_value_message('column', name, known)}")


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
        raise InputError(f"{path}: cannot be read ({error.strerror})") from None
    if size > MAX_IMPORT_BYTES:
        raise InputError(f"{path}: {size:,} bytes is more than the {MAX_IMPORT_BYTES:,} bytes read")
    try:
        return file.open("rb")
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror})") from None


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
                raise InputError(f"{path}: {utf16}")
            # A pipe or device has no size to check first: its lines and its whole are bounded as read.
            long_line = f"longer than the {MAX_IMPORT_LINE:,} characters a row is read to"
            reader = csv.reader(
                lines_within(
                    handle,
                    MAX_IMPORT_LINE,
                    lambda number: InputError(f"{path}: line {number}: {long_line}"),
                    MAX_IMPORT_BYTES,
                    lambda read: InputError(f"{path}: more than the {MAX_IMPORT_BYTES:,} bytes read"),
                )
            )
            header = next(reader, None)
            if header is None:
                raise InputError(f"{path}: line 1: the file is empty; a header row is needed")
            header = [name.strip() for name in header]
            header_problem(path, header, model)
            missing = [name for name in model.REQUIRED_COLUMNS if name not in header]  # type: ignore[attr-defined]
            if missing:
                raise InputError(
                    f"{path}: line 1, column {missing[0]}: missing from the header "
                    f"(required: {', '.join(model.REQUIRED_COLUMNS)})"  # type: ignore[attr-defined]
                )
            line = reader.line_num + 1
            for cells in reader:
                start, line = line, reader.line_num + 1
                if not any(cell.strip() for cell in cells):
                    continue
                if len(cells) > len(header):
                    raise InputError(
                        f"{path}: line {start}: {len(cells)} cells, "
                        f"but the header names {len(header)} columns"
                    )
                if len(cells) < len(header):
                    column = header[len(cells)]
                    raise InputError(
                        f"{path}: line {start}, column {column}: the row ends before this column"
                    )
                yield start, dict(zip(header, cells, strict=True))
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    except csv.Error as error:
        raise InputError(f"{path}: not valid CSV ({error})") from None
    except OSError as error:
        # A directory, a file that vanished or lost its permissions after its size was read.
        raise InputError(f"{path}: cannot be read ({error.strerror})") from None
