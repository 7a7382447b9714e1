"""Plain text for a person at a given width: a template's tables laid out by ``terminal.fit_table`` and
its prose wrapped at the width, with each line's indent (and a list item's hanging indent) kept.

A template builds a table with the globals ``table`` and ``column``::

    {% set t = table(column("GPU", 10), column("Cards", 6, ">"), column("Note", prose=True, gap=2)) %}
    {% for g in gpus %}{% do t.row(g.gpu, g.cards, g.note) %}{% endfor %}
    {{ t }}

Lines that fit the width are left as they are, so text that fits is the same at every width.
"""

from __future__ import annotations

import textwrap
from typing import Any

from gpu_advisor.engine.i18n.environment import render
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.present.terminal import Column, fit_table, table_fits


class TableBuilder:
    """The rows of one table as a template adds them; its text is the table laid out at the width."""

    def __init__(self, columns: tuple[Column, ...], width: int | None) -> None:
        self.columns = columns
        self.width = width
        self.rows: list[tuple[object, ...]] = []

    def row(self, *cells: object) -> str:
        if len(cells) != len(self.columns):
            raise ValueError(f"a row of {len(cells)} cells in a table of {len(self.columns)} columns")
        self.rows.append(cells)
        return ""

    def __str__(self) -> str:
        noted = [index for index, column in enumerate(self.columns) if column.notes]
        if not noted or table_fits(self.columns, self.rows, self.width):
            return fit_table(self.columns, self.rows, self.width).rstrip("\n")
        # The noted columns' texts listed once each under the table, the cells showing their numbers.
        numbers: dict[str, int] = {}
        rows = []
        for row in self.rows:
            cells = list(row)
            for index in noted:
                text = str(cells[index])
                if text:
                    cells[index] = f"[{numbers.setdefault(text, len(numbers) + 1)}]"
            rows.append(cells)
        notes = (wrap_lines(f"[{n}] {text}", self.width, len(f"[{n}] ")) for text, n in numbers.items())
        return fit_table(self.columns, rows, self.width) + "\n" + "\n".join(notes)


def column(
    heading: str,
    width: int = 0,
    align: str = "<",
    prose: bool = False,
    gap: int = 1,
    notes: bool = False,
    keep: bool = False,
    breaks: str = "",
) -> Column:
    """A column of a template's table; ``keep`` for identifiers and figures, which are never folded and
    wrap only at a space or after one of ``breaks`` (``"/"`` for ``provider/offer/gpu``)."""
    if align not in ("<", ">"):
        raise ValueError(f"align {align!r}: '<' or '>'")
    return Column(heading, width, "<" if align == "<" else ">", prose or notes, gap, notes, keep, breaks)


def wrap_lines(text: str, width: int | None, hanging: int = 0) -> str:
    """Every line longer than ``width`` wrapped at spaces (a word longer than the width, such as a link,
    stays whole), continued at its indent, or under the text of a ``- `` list item, or ``hanging``
    columns further in."""
    if width is None:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        body = line.lstrip(" ")
        indent = " " * (len(line) - len(body))
        further = indent + " " * (hanging or (2 if body.startswith("- ") else 0))
        out.extend(
            textwrap.wrap(
                body,
                width,
                initial_indent=indent,
                subsequent_indent=further,
                break_long_words=False,
                break_on_hyphens=False,
            )
            or [line]
        )
    return "\n".join(out)


def render_text(
    template_name: str,
    fmt: Format = DEFAULT_FORMAT,
    width: int | None = None,
    wrap: bool = True,
    **context: Any,
) -> str:
    """The template rendered with ``table`` and ``column`` at ``width`` columns (``None``: as wide as the
    text needs), its other long lines wrapped where ``wrap``."""

    def table(*columns: Column) -> TableBuilder:
        return TableBuilder(columns, width)

    text = render(template_name, fmt, table=table, column=column, **context)
    return wrap_lines(text, width if wrap else None)
