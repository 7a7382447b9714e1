"""The batch run as a command runs it: the input and output files, the progress on standard error, and the
summary, also when Ctrl-C stops the run."""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import json
from typing import IO

from gpu_advisor.engine.apps.batch.csv_rows import CurrencyColumn
from gpu_advisor.engine.apps.batch.row_count import count_rows
from gpu_advisor.engine.apps.batch.rows import input_format_for, open_input, read_rows
from gpu_advisor.engine.apps.batch.run import OutputFormat, Progress, default_jobs, run_batch
from gpu_advisor.engine.apps.batch.summary import PORTFOLIO_NOTE_RULES, BatchSummary, Tally
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.safe_files import OutputTarget, check_output, pending_output, write_output
from gpu_advisor.engine.common.signals import Interrupted
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.pipeline.engines import rulebook_for
from gpu_advisor.engine.present.batch_progress import StderrReport, TerminalProgress, render_summary
from gpu_advisor.engine.rulebook.loading import policy_key
from gpu_advisor.engine.rulebook.texts import rule_text

PARTIAL_OUTPUT = "partial_output"
"""The attribute a stopped run's ``KeyboardInterrupt`` carries where its results went beside an earlier
output (``safe_files.PARTIAL_SUFFIX``): the path, for the message the command prints."""


def output_targets(
    input_path: str, output: str | None, summary_file: str | None, force: bool, policy_dir: str | None = None
) -> tuple[OutputTarget | None, OutputTarget | None]:
    """The results file and the summary file, checked before the input is read: neither is the input,
    in the policy directory, a link, or an existing file without ``force``, and they are not one file."""
    target, dirs = None, (policy_dir,)
    if output is not None and output != "-":
        target = check_output(output, "-o/--output", inputs=(input_path,), force=force, input_dirs=dirs)
    summary_target = None
    if summary_file is not None:
        summary_target = check_output(
            summary_file,
            "--summary",
            inputs=(input_path,),
            force=force,
            others=(("-o/--output", output),),
            input_dirs=dirs,
        )
    return target, summary_target


def write_summary(
    summary: BatchSummary, summary_target: OutputTarget | None, fmt: Format = DEFAULT_FORMAT
) -> None:
    """The summary as JSON to ``summary_target``, else as text on standard error."""
    import sys

    if summary_target is None:
        from gpu_advisor.engine.present.terminal import text_layout

        sys.stderr.write(render_summary(summary, fmt, *text_layout(sys.stderr)))
        sys.stderr.flush()
        return
    write_output(
        summary_target, json.dumps(summary.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    )


def batch_file(
    input_path: str,
    input_format: str | None,
    output_format: OutputFormat,
    output: str | None,
    summary_file: str | None,
    jobs: int | None,
    strict: bool,
    evaluated_on: dt.date,
    force: bool = False,
    lang: str = "en",
    currency: str = "USD",
    scenarios: int | None = None,
    seed: int = 1,
    scheduler: str | None = None,
    policy_dir: str | None = None,
) -> BatchSummary:
    """The ``batch`` command: read ``input_path``, write results and the summary (``policy_dir``: an
    organization's rules for every row).

    The results file is written beside its target and renamed into place at the end, also when a
    signal stops the run (the rows written so far, each complete) or ``--strict`` stops it at a bad
    row, such a part beside the target as NAME.partial where a file is there already (``--force``); a
    file rejected before its first row (a bad header) leaves an existing output as it was. A
    signal propagates as ``KeyboardInterrupt`` (``Interrupted`` for SIGTERM) after the results are
    kept and the summary, marked interrupted, is written."""
    import sys
    from contextlib import ExitStack

    found_format = input_format_for(input_path, input_format, lang)
    target, summary_target = output_targets(input_path, output, summary_file, force, policy_dir)
    # A broken knowledge base or rule catalog stops here, once, before any worker starts.
    fmt = load_knowledge().display_format(lang, currency)
    rulebook = rulebook_for(policy_dir)
    titles = {
        rule: rule_text(rulebook.rule(rule), lang).title
        for rule in PORTFOLIO_NOTE_RULES
        if rule in rulebook.ids
    }
    tally = Tally(input=input_path, evaluated_on=evaluated_on, note_titles=titles)
    pending = None
    try:
        with ExitStack() as stack:
            stream = open_input(input_path, lang)
            if input_path != "-":
                stack.callback(stream.close)
            sink: IO[str] = sys.stdout
            if target is not None:
                pending = stack.enter_context(pending_output(target))
                sink = pending.handle
            # Closed before the stream it reads (the stack unwinds in reverse).
            rows = read_rows(stream, found_format, input_path, lang)
            stack.callback(getattr(rows, "close", lambda: None))
            # The bar goes to a terminal's standard error, not over results streaming to the same terminal.
            bar = sys.stderr.isatty() and not (target is None and sys.stdout.isatty())
            progress: Progress = StderrReport()
            if bar:
                progress = stack.enter_context(TerminalProgress(count_rows(input_path, found_format), lang))
            try:
                run_batch(
                    rows,
                    sink,
                    tally,
                    output_format=output_format,
                    jobs=jobs or default_jobs(),
                    strict=strict,
                    progress=progress,
                    lang=lang,
                    scenarios=scenarios,
                    seed=seed,
                    scheduler=scheduler,
                    policy=policy_key(policy_dir) if policy_dir is not None else None,
                    currency_column=CurrencyColumn(fmt.currency, fmt.usd_per_unit)
                    if fmt.currency != "USD"
                    else None,
                )
            except KeyboardInterrupt as stop:
                tally.interrupted = True
                tally.interrupted_by = stop.signal_name if isinstance(stop, Interrupted) else "SIGINT"
                raise
            except BrokenPipeError:
                # The reader closed the output (`| head`): the run stopped short, as a signal stops it.
                tally.interrupted, tally.interrupted_by = True, "SIGPIPE"
                raise
            except InputError:
                if pending is not None and tally.stopped_at_line is not None:
                    pending.keep = True  # --strict: the results before the bad row stand
                raise
            finally:
                if not sink.closed:
                    with contextlib.suppress(BrokenPipeError):
                        sink.flush()
            if not tally.evaluated + tally.errors:
                # A header alone, or nothing: a truncated export must not pass a pipeline as a clean run.
                raise InputError(at(input_path, Words("no workload in the file")))
    except OSError as error:
        # A full disk says no file of its own on a write, nor on the flush and the close after it: it is
        # the results file's.
        if error.filename is None and error.errno != errno.EPIPE and output is not None:
            raise OSError(error.errno, error.strerror, output) from None
        raise
    finally:
        # A stopped run's part went beside an output that was there already (``safe_files``): the
        # summary says where, and so does the message the signal's handler prints.
        if pending is not None and pending.partial_path is not None:
            tally.partial_output = str(pending.partial_path)
            stopped = sys.exc_info()[1]
            if isinstance(stopped, KeyboardInterrupt):
                setattr(stopped, PARTIAL_OUTPUT, tally.partial_output)
        # A file rejected before its first row (bad header, not a list) gets its error, not a summary.
        if (
            tally.evaluated + tally.errors
            or tally.interrupted
            or tally.stopped_at_line
            or not sys.exc_info()[0]
        ):
            write_summary(tally.summary(), summary_target, fmt)
    return tally.summary()
