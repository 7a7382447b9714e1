"""Writing text for a person: Markdown rendered on a terminal, plain into a pipe or a file.

On a terminal, tables fit its width (``COLUMNS`` overrides it): a cell too narrow for its text wraps
within the cell, a word too long for it is folded onto the next line, never cut with an ellipsis. A
column of identifiers or figures (``keep``) is never folded: ``p5-reserved-3y`` stays whole, and its cells
wrap only at a space or after one of the column's ``breaks`` (``aws/p5-reserved-3y/`` above ``h100-sxm``).

A memo longer than the screen goes through the pager (``PAGER``, else ``less -R``), as git does; never when
the output is a file or a pipe.

The plain-text outputs (catalog, size, tco, check, sweep, the batch summary) lay their tables out with
the same folding table (``fit_table``): as wide as the text's own column widths where they fit, else each
column as wide as its longest cell, else free text (a source, a note) wrapped first and then every
column folded; ``text_layout`` says the width they fit.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import IO, Any, ClassVar, Literal

Paging = Literal["auto", "always", "never"]

FIXED_WIDTH = 100
"""The width of text written to a file or a pipe, where no terminal says one (``COLUMNS`` overrides it)."""


MAX_WIDTH = 1000
"""The widest text laid out, whatever ``COLUMNS`` says: tables are padded to the width, and
``COLUMNS=100000000`` ran out of memory."""


def is_terminal() -> bool:
    return sys.stdout.isatty()


def terminal_size() -> os.terminal_size:
    """The terminal's columns and lines; ``COLUMNS`` and ``LINES`` override them (as in tests)."""
    return shutil.get_terminal_size()


def text_layout(stream: IO[str] | None = None, to_file: bool = False) -> tuple[int, bool]:
    """The width plain text written to ``stream`` (default: standard output) or to a file fits, and
    whether its prose is wrapped too: ``COLUMNS`` where set, else a terminal's width (prose wrapped), else
    ``FIXED_WIDTH`` for the tables, the prose left in whole lines for search tools and editors."""
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return min(int(given), MAX_WIDTH), True
    if not to_file and (sys.stdout if stream is None else stream).isatty():
        return min(terminal_size().columns, MAX_WIDTH), True
    return FIXED_WIDTH, False


@dataclass(frozen=True)
class Column:
    """A column of a plain-text table: its heading, alignment (``<`` or ``>``), the width it keeps where
    the table fits (as ``%-10s`` does), ``prose`` for free text that wraps before any other column
    narrows, the spaces before it (``gap``), ``notes`` for free text that, where the table is too
    wide for it, is listed under the table as numbered notes, the cells showing their numbers, and ``keep``
    for identifiers and figures, which are never folded: they wrap at a space or after one of ``breaks``."""

    heading: str
    width: int = 0
    align: Literal["<", ">"] = "<"
    prose: bool = False
    gap: int = 1
    notes: bool = False
    keep: bool = False
    breaks: str = ""


PROSE_FLOOR = 24
"""The narrowest a free-text column wraps to before the other columns are folded too."""


def table_fits(columns: Sequence[Column], rows: Sequence[Sequence[object]], width: int | None) -> bool:
    """Whether the table fits ``width`` with every column at its own width, one line per row."""
    from rich.cells import cell_len

    if width is None:
        return True
    natural = [
        max([column.width, cell_len(column.heading), *(cell_len(str(row[index])) for row in rows)])
        for index, column in enumerate(columns)
    ]
    return sum(natural) + sum(column.gap for column in columns[1:]) <= width


def fit_table(columns: Sequence[Column], rows: Sequence[Sequence[object]], width: int | None) -> str:
    """``rows`` under ``columns``' headings (none where every heading is empty), at most ``width`` columns
    wide (``None``: as wide as the text needs), one line per row where it fits; lines end without spaces
    and with a newline."""
    from rich.cells import cell_len

    cells = [[str(cell) for cell in row] for row in rows]
    # A column of empty cells (a margin) keeps its width.
    content = [
        max([cell_len(column.heading), *(cell_len(row[index]) for row in cells)]) or column.width
        for index, column in enumerate(columns)
    ]
    widths: list[int] | None = [
        max(column.width, size) for column, size in zip(columns, content, strict=True)
    ]
    if not table_fits(columns, cells, width):
        assert width is not None
        gaps = sum(column.gap for column in columns[1:])
        widths = _narrowed(columns, cells, content, width - gaps, folding=False)
        if widths is None:  # one space between columns before a heading folds
            columns = [replace(column, gap=1) for column in columns]
            widths = _narrowed(columns, cells, content, width - len(columns) + 1, folding=True)
    return _render_table(columns, cells, widths, width)


def _narrowed(
    columns: Sequence[Column], cells: list[list[str]], content: list[int], room: int, folding: bool
) -> list[int] | None:
    """Widths within ``room``, each column at its own width and then narrowed in steps until the table
    fits: free text wrapped down to ``PROSE_FLOOR``, every other column as wide as its longest cell, the
    headings wrapped at their spaces, free text wrapped to its longest word, then (``folding``) headings
    folded (a cell keeps its width); None where that is not enough (then every column folds)."""
    from rich.cells import cell_len

    def longest(texts: list[str]) -> int:
        return max([0, *(cell_len(word) for text in texts for word in text.split())])

    values = [[row[index] for row in cells] for index in range(len(columns))]
    cell_widths = [max([0, *(cell_len(value) for value in column)]) for column in values]
    words = [longest(column) for column in values]
    heading_words = [max([0, *(cell_len(p) for p in heading_pieces(column.heading))]) for column in columns]
    prose = [column.prose for column in columns]
    kept = [column.keep for column in columns]
    # the longest part of a kept column's cells that never wraps
    unbroken = [
        max([0, *(cell_len(p) for value in values[i] for p in pieces(value, column.breaks))])
        for i, column in enumerate(columns)
    ]
    natural = [max(column.width, size) for column, size in zip(columns, content, strict=True)]
    full = [max(cell_widths[i], heading_words[i]) for i in range(len(columns))]
    wrapped = [max(unbroken[i], heading_words[i]) if kept[i] else full[i] for i in range(len(columns))]
    # free text wraps to its longest word, its heading at its spaces
    said = [max(words[i], heading_words[i]) for i in range(len(columns))]
    stages = [
        [max(PROSE_FLOOR, words[i]) if prose[i] else natural[i] for i in range(len(columns))],
        [max(PROSE_FLOOR, words[i]) if prose[i] else content[i] for i in range(len(columns))],
        [max(PROSE_FLOOR, words[i]) if prose[i] else full[i] for i in range(len(columns))],
        [said[i] if prose[i] else full[i] for i in range(len(columns))],
        # identifiers and figures wrap at their breaks, their headings at spaces
        [said[i] if prose[i] else wrapped[i] for i in range(len(columns))],
        # headings fold; a cell keeps its width, a kept cell its unbroken parts
        [words[i] if prose[i] else unbroken[i] if kept[i] else cell_widths[i] for i in range(len(columns))],
    ][: 6 if folding else 5]
    widths = list(natural)
    for floors in stages:
        _narrow(widths, floors, room)
    if sum(widths) > room and folding and any(kept):
        # The other columns fold to make room; the kept ones never do, even past the width.
        last = [unbroken[i] if kept[i] else words[i] if columns[i].notes else 1 for i in range(len(columns))]
        _narrow(widths, last, room)
        return widths
    return widths if sum(widths) <= room else None


def _narrow(widths: list[int], floors: list[int], room: int) -> None:
    """Narrow ``widths`` towards ``floors`` until they fit ``room``: one column at a time, the one with
    the most to give first, so that they narrow evenly."""
    while sum(widths) > room:
        slack, index = max((widths[i] - floors[i], i) for i in range(len(widths)))
        if slack <= 0:
            return
        widths[index] -= 1


def _parts(text: str, breaks: str) -> list[str]:
    """``text`` cut at its spaces (kept as parts of their own) and after each of ``breaks``."""
    chars = re.escape(breaks)
    pattern = rf" +|[^ {chars}]*[{chars}]|[^ {chars}]+" if breaks else r" +|[^ ]+"
    return re.findall(pattern, text)


def pieces(text: str, breaks: str = "") -> list[str]:
    """A kept cell's parts that never wrap: it wraps at a space (dropped) or after one of ``breaks``."""
    return [part for part in _parts(text, breaks) if part.strip()]


_HYPHENATED = re.compile(r"(?<=\w\w-)(?=\w\w)")
"""Where a heading's word may wrap: after a hyphen between two letters or more on each side (KV-Heads,
not $/GPU-h)."""


def heading_pieces(heading: str) -> list[str]:
    """A heading's parts that never wrap: its words, a hyphenated word cut after its hyphens."""
    return [part for word in heading.split() for part in _HYPHENATED.split(word)]


def wrap_heading(heading: str, width: int) -> str:
    """A heading's lines at ``width``: at its spaces, else after a hyphen (``heading_pieces``)."""
    return wrap_kept(_HYPHENATED.sub("\x00", heading), width, "\x00").replace("\x00", "")


def wrap_kept(text: str, width: int, breaks: str = "") -> str:
    """A kept cell's lines at ``width``: whole parts (``pieces``) on each, a part wider than it alone."""
    from rich.cells import cell_len

    lines: list[str] = []
    for line in text.split("\n"):
        current = ""
        for part in _parts(line, breaks):
            if not part.strip():
                current += " " if current else ""
            elif current and cell_len(current + part) > width:
                lines.append(current.rstrip())
                current = part
            else:
                current += part
        lines.append(current.rstrip())
    return "\n".join(lines)


def _render_table(
    columns: Sequence[Column], cells: list[list[str]], widths: list[int] | None, width: int | None
) -> str:
    from rich.console import Console
    from rich.table import Table

    headed = any(column.heading for column in columns)
    table = Table(box=None, pad_edge=False, padding=(0, 1), collapse_padding=True, show_header=headed)
    for index, column in enumerate(columns):
        extra = column.gap - 1 if index else 0
        fixed = None if widths is None else widths[index] + extra
        justify: Literal["left", "right"] = "right" if column.align == ">" else "left"
        table.add_column(
            _cell(column.heading if fixed is None else wrap_heading(column.heading, fixed - extra), extra),
            justify=justify,
            overflow="fold",
            width=fixed,
            header_style="",
        )
    for row in cells:
        kept = [
            wrap_kept(cell, widths[i], columns[i].breaks) if widths is not None and columns[i].keep else cell
            for i, cell in enumerate(row)
        ]
        table.add_row(*(_cell(cell, columns[i].gap - 1 if i else 0) for i, cell in enumerate(kept)))
    buffer = io.StringIO()
    total = width if widths is None and width is not None else 100_000
    Console(file=buffer, width=total, color_system=None, force_terminal=False).print(table)
    return "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())


def _cell(text: str, gap: int) -> Any:
    from rich.padding import Padding
    from rich.text import Text

    cell = Text(text)
    return Padding(cell, (0, 0, 0, gap), expand=False) if gap else cell


def render_markdown(text: str, width: int | None = None) -> str:
    """Markdown as a terminal shows it (with its colours), ``width`` columns wide (default: the
    terminal's), tables wrapped within their cells."""
    from rich.console import Console

    columns = min(width if width is not None else terminal_size().columns, MAX_WIDTH)
    buffer = io.StringIO()
    colours = is_terminal()
    console = Console(
        file=buffer, width=columns, force_terminal=colours, color_system="standard" if colours else None
    )
    console.print(_markdown(text))
    return buffer.getvalue()


def _markdown(text: str) -> Any:
    from rich import box
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.markdown import Markdown, TableElement
    from rich.table import Table

    class FoldingTable(TableElement):
        """Rich's Markdown table, with cells that wrap and fold instead of ending in an ellipsis."""

        def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
            table = Table(
                box=box.SIMPLE,
                pad_edge=False,
                style="markdown.table.border",
                show_edge=True,
                collapse_padding=True,
            )
            if self.header is not None and self.header.row is not None:
                for column in self.header.row.cells:
                    heading = column.content.copy()
                    heading.stylize("markdown.table.header")
                    table.add_column(heading, overflow="fold")
            if self.body is not None:
                for row in self.body.rows:
                    table.add_row(*[element.content for element in row.cells])
            yield table

    class TerminalMarkdown(Markdown):
        elements: ClassVar[dict[str, Any]] = {**Markdown.elements, "table_open": FoldingTable}

    return TerminalMarkdown(text)


def print_markdown(text: str, paging: Paging = "auto") -> None:
    """Markdown rendered for a terminal (headings, tables, emphasis), through the pager where
    ``paging`` asks for it: ``always``, or ``auto`` and longer than the screen."""
    size = terminal_size()
    shown = render_markdown(text, size.columns)
    wanted = paging == "always" or (paging == "auto" and shown.count("\n") > size.lines)
    if wanted and is_terminal() and page(shown):
        return
    sys.stdout.write(shown)
    sys.stdout.flush()


def pager_command() -> str | None:
    """``PAGER`` (empty or ``cat``: none), else ``less -R`` where it is installed."""
    chosen = os.environ.get("PAGER")
    if chosen is not None:
        return None if chosen.strip() in ("", "cat") else chosen
    return "less -R" if shutil.which("less") else None


def page(text: str) -> bool:
    """``text`` through the pager; False where there is none or it cannot start (then the caller prints)."""
    command = pager_command()
    if command is None:
        return False
    environment = dict(os.environ)
    environment.setdefault("LESS", "FRX")  # as git: colours through, no paging of one screen
    try:
        # The user's own PAGER, run by the shell as git and pydoc run it.
        process = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=environment)
    except OSError:
        return False
    assert process.stdin is not None
    try:
        process.stdin.write(text.encode("utf-8"))
    except BrokenPipeError:  # the reader quit before the end
        pass
    finally:
        with contextlib.suppress(BrokenPipeError):
            process.stdin.close()
    # A pager that failed (not found: the shell's 127; PAGER=false: 1) showed nothing: the caller prints
    # the text, as git does, rather than end with a blank screen and success. A pager the user quits
    # exits 0.
    return process.wait() == 0
