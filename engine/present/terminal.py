"""Writing text for a person: Markdown rendered on a terminal, plain into a pipe or a file."""

from __future__ import annotations

import sys


def is_terminal() -> bool:
    return sys.stdout.isatty()


def print_markdown(text: str) -> None:
    """Markdown rendered for a terminal (headings, tables, emphasis)."""
    from rich.console import Console
    from rich.markdown import Markdown

    Console().print(Markdown(text))
