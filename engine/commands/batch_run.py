"""The batch run as a command runs it: the input and output files, the progress on standard error, and the
summary, also when Ctrl-C stops the run."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import IO

from gpu_advisor.engine.apps.batch.rows import count_rows, input_format_for, open_input, read_rows
from gpu_advisor.engine.apps.batch.run import OutputFormat, Progress, default_jobs, run_batch
from gpu_advisor.engine.apps.batch.summary import BatchSummary, Tally
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.batch_progress import StderrReport, TerminalProgress, render_summary
from gpu_advisor.engine.rulebook.loading import load_rulebook


def open_output(output: str | None) -> tuple[IO[str], bool]:
    """The sink for results and whether this code owns it (standard output is never closed)."""
    import sys

    if output is None or output == "-":
        return sys.stdout, False
    try:
        return Path(output).open("w", encoding="utf-8", newline=""), True
    except OSError as error:
        raise InputError(f"--output: cannot write {output!r} ({error.strerror})") from None


def write_summary(summary: BatchSummary, summary_file: str | None) -> None:
    """The summary as JSON to ``summary_file``, else as text on standard error."""
    import sys

    if summary_file is None:
        sys.stderr.write(render_summary(summary))
        sys.stderr.flush()
        return
    text = json.dumps(summary.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    try:
        Path(summary_file).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"--summary: cannot write {summary_file!r} ({error.strerror})") from None


def batch_file(
    input_path: str,
    input_format: str | None,
    output_format: OutputFormat,
    output: str | None,
    summary_file: str | None,
    jobs: int | None,
    strict: bool,
    evaluated_on: dt.date,
) -> BatchSummary:
    """The ``batch`` command: read ``input_path``, write results and the summary. Ctrl-C propagates as
    KeyboardInterrupt after the results so far are flushed and the summary (marked interrupted) written."""
    import sys
    from contextlib import ExitStack

    found_format = input_format_for(input_path, input_format)
    # A broken knowledge base or rule catalog stops here, once, before any worker starts.
    load_knowledge()
    load_rulebook()
    tally = Tally(input=input_path, evaluated_on=evaluated_on)
    with ExitStack() as stack:
        stream = open_input(input_path)
        if input_path != "-":
            stack.callback(stream.close)
        sink, owned = open_output(output)
        if owned:
            stack.callback(sink.close)
        # The bar goes to a terminal's standard error, and not over results streaming to the same terminal.
        bar = sys.stderr.isatty() and not (not owned and sys.stdout.isatty())
        progress: Progress = StderrReport()
        if bar:
            progress = stack.enter_context(TerminalProgress(count_rows(input_path, found_format)))
        try:
            run_batch(
                read_rows(stream, found_format, input_path),
                sink,
                tally,
                output_format=output_format,
                jobs=jobs or default_jobs(),
                strict=strict,
                progress=progress,
            )
        except KeyboardInterrupt:
            tally.interrupted = True
            raise
        finally:
            sink.flush()
            stack.close()
            # A file rejected before its first row (bad header, not a list) gets its error, not a summary.
            if (
                tally.evaluated + tally.errors
                or tally.interrupted
                or tally.stopped_at_line
                or not sys.exc_info()[0]
            ):
                write_summary(tally.summary(), summary_file)
    return tally.summary()
