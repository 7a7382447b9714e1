"""Progress of a batch run on standard error: a bar on a terminal, error lines otherwise."""

from __future__ import annotations

from gpu_advisor.engine.apps.batch.messages import said
from gpu_advisor.engine.apps.batch.summary import BatchSummary
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format


class StderrReport:
    """No progress bar (standard error is not a terminal): errors are printed line by line."""

    def advance(self, rows: int) -> None:
        pass

    def report(self, message: str) -> None:
        import sys

        print(message, file=sys.stderr, flush=True)


class TerminalProgress:
    """A rich progress bar on standard error with rate and time left. It refreshes from the calling
    thread only (no refresh thread), so worker processes are never forked beside a running thread. Its
    words are in ``lang``; ``rate`` names the message that says what a second counts (workloads, or
    scenarios for ``recommend --scenarios``)."""

    def __init__(self, total: int | None, lang: str = "en", rate: str = "progress_rate") -> None:
        import time

        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._lang = lang
        self._rate = rate
        self._clock = time.monotonic
        self._last_refresh = 0.0
        self._progress = Progress(
            TextColumn(said(lang, "progress_evaluating")),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn(said(lang, "progress_elapsed")),
            TimeRemainingColumn(),
            TextColumn(said(lang, "progress_left")),
            console=Console(stderr=True),
            auto_refresh=False,
            transient=False,
        )
        self._task = self._progress.add_task("batch", total=total, rate="")

    def __enter__(self) -> TerminalProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.refresh()
        self._progress.stop()

    def advance(self, rows: int) -> None:
        self._progress.advance(self._task, rows)
        now = self._clock()
        if now - self._last_refresh >= 0.1:
            speed = self._progress.tasks[0].speed
            rate = said(self._lang, self._rate, rate=Format.named(self._lang).number(speed)) if speed else ""
            self._progress.update(self._task, rate=rate)
            self._progress.refresh()
            self._last_refresh = now

    def expect(self, total: int) -> None:
        """The count is known once the run starts (a scenario run's draws and one-at-a-time runs)."""
        self._progress.update(self._task, total=total)

    def report(self, message: str) -> None:
        self._progress.console.print(message, markup=False, highlight=False)


def render_summary(
    summary: BatchSummary, fmt: Format = DEFAULT_FORMAT, width: int | None = None, wrap: bool = True
) -> str:
    """The batch summary as text for standard error, in ``fmt``'s language and currency, ``width``
    columns wide (``None``: as wide as it needs), its prose wrapped there where ``wrap``."""
    from gpu_advisor.engine.present.text import render_text

    return render_text("batch_summary.txt.j2", fmt, width, wrap, s=summary)
