"""Writing text for a person: Markdown rendered on a terminal, plain into a pipe or a file.

On a terminal, tables fit its width (``COLUMNS`` overrides it): a cell too narrow for its text wraps
within the cell, a word too long for it is folded onto the next line, never cut with an ellipsis, so
that ``p5-reserved-1y`` and ``p5-reserved-3y`` stay apart. A memo longer than the screen goes through
the pager (``PAGER``, else ``less -R``), as git does; never when the output is a file or a pipe.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from typing import Any, ClassVar, Literal

Paging = Literal["auto", "always", "never"]


def is_terminal() -> bool:
    return sys.stdout.isatty()


def terminal_size() -> os.terminal_size:
    """The terminal's columns and lines; ``COLUMNS`` and ``LINES`` override them (as in tests)."""
    return shutil.get_terminal_size()


def render_markdown(text: str, width: int | None = None) -> str:
    """Markdown as a terminal shows it (with its colours), ``width`` columns wide (default: the
    terminal's), tables wrapped within their cells."""
    from rich.console import Console

    columns = width if width is not None else terminal_size().columns
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
        process.stdin.close()
    except BrokenPipeError:  # the reader quit before the end
        pass
    process.wait()
    return True
