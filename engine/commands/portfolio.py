"""``gpu-advisor batch`` and ``gpu-advisor sweep``: many workloads, or one workload over a range of inputs."""

from __future__ import annotations

import contextlib
import sys

import click

from gpu_advisor.engine.commands.common import (
    EXIT_INTERNAL_ERROR,
    EXIT_ROWS_SKIPPED,
    as_of_option,
    complete_the_files_workload,
    currency_option,
    emit,
    force_option,
    handle_errors,
    lang_option,
    output_target,
    parse_date,
    policy_option,
    policy_path,
    scenario_options,
    to_json,
)
from gpu_advisor.engine.common.empty_paths import A_DIRECTORY, A_FILE, A_FILE_OR_STDIN, refuse_empty_paths


@click.command()
@click.argument("input_file", metavar="INPUT|-")
@click.option(
    "--input-format",
    type=click.Choice(["csv", "jsonl", "yaml"]),
    help="Format of INPUT; required for - (default: from the extension .csv, .jsonl, .yaml or .yml).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["jsonl", "csv"]),
    default=None,
    help="JSON Lines: the full result per workload with its line and name; CSV: one flat row each "
    "(default: csv where -o FILE ends in .csv, else jsonl).",
)
@click.option("-o", "--output", metavar="FILE", help="Write the results to FILE instead of standard output.")
@click.option(
    "--summary",
    "summary_file",
    metavar="FILE",
    help="Write the summary as JSON to FILE instead of as text on standard error.",
)
@click.option(
    "--jobs", type=click.IntRange(min=1), metavar="N", help="Worker processes (default: the number of CPUs)."
)
@click.option(
    "--strict", is_flag=True, help="Stop at the first bad row with exit code 2 instead of skipping it."
)
@click.option(
    "--allow-bad-rows",
    is_flag=True,
    help="Exit 0 although bad rows were skipped (default: exit 1 when any row was skipped).",
)
@scenario_options(
    "Also draw N scenarios of each workload's uncertain figures: its robustness in the results."
)
@click.option(
    "--executor",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="local: this machine's processes (--jobs); dask: a Dask distributed cluster (--scheduler).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="--executor dask: the scheduler's address (tcp://host:8786); needs gpu-advisor[cluster].",
)
@as_of_option
@policy_option
@lang_option
@currency_option
@force_option
@handle_errors
def batch(
    input_file: str,
    input_format: str | None,
    output_format: str | None,
    output: str | None,
    summary_file: str | None,
    jobs: int | None,
    strict: bool,
    as_of: str | None,
    allow_bad_rows: bool = False,
    force: bool = False,
    lang: str = "en",
    currency: str = "USD",
    scenarios: int | None = None,
    seed: int = 1,
    executor: str = "local",
    scheduler: str | None = None,
    policy_dir: str | None = None,
) -> None:
    """Recommend for every workload in INPUT (CSV, JSON Lines or a YAML list; - reads standard input).

    One result per workload, in input order; bad rows are reported with their line number and skipped,
    and the exit code is then 1 (--allow-bad-rows: 0). A summary (counts per deployment, total monthly
    cost, workloads needing attention) goes to standard error. Ctrl-C or SIGTERM stops the run and its
    workers with exit code 130 or 143; the output keeps every result already written."""

    from gpu_advisor.engine.commands.batch_run import PARTIAL_OUTPUT, batch_file
    from gpu_advisor.engine.common.signals import exit_code_of, stop_on_signals

    refuse_empty_paths(("INPUT", input_file, A_FILE_OR_STDIN), ("--policy", policy_dir, A_DIRECTORY))
    evaluated_on = parse_date(as_of)
    if output_format is None:
        output_format = "csv" if output is not None and output.lower().endswith(".csv") else "jsonl"
    if strict and allow_bad_rows:
        from gpu_advisor.engine.common.errors import InputError
        from gpu_advisor.engine.common.wording import Words

        # One stops at a bad row, the other passes a run that skipped some: say which is meant.
        raise InputError(
            Words("--strict stops at a bad row, --allow-bad-rows skips it: give one"), field="--strict"
        )
    if (executor == "dask") != (scheduler is not None):
        from gpu_advisor.engine.common.errors import InputError
        from gpu_advisor.engine.common.wording import Words

        raise InputError(Words("--executor dask and --scheduler ADDRESS go together"), field="--scheduler")
    if jobs is not None and executor == "local":
        refuse_more_jobs_than_cpus_hold(jobs)
    try:
        with stop_on_signals():
            summary = batch_file(
                input_file,
                input_format,
                output_format,  # type: ignore[arg-type]
                output,
                summary_file,
                jobs,
                strict,
                evaluated_on,
                force=force,
                lang=lang,
                currency=currency,
                scenarios=scenarios,
                seed=seed,
                scheduler=scheduler,
                policy_dir=policy_path(policy_dir),
            )
    except KeyboardInterrupt as stop:
        partial = getattr(stop, PARTIAL_OUTPUT, None)
        if partial:
            click.echo(said(lang, "batch_partial", signal=summary_signal(stop), path=partial), err=True)
        else:
            click.echo(said(lang, "batch_interrupted", signal=summary_signal(stop)), err=True)
        sys.exit(exit_code_of(stop))
    except BrokenPipeError:
        # The reader of standard output stopped reading (`| head`): the summary says the run stopped
        # short; the exit code is a shell's for a process a closed pipe ended, 128 + SIGPIPE.
        import os
        import signal

        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(128 + signal.SIGPIPE)
    if summary.faults:
        # Not a bad row the user may allow: a fault in gpu-advisor, said as an internal error is.
        click.echo(said(lang, "rows_faulted", rows=summary.faults), err=True)
        sys.exit(EXIT_INTERNAL_ERROR)
    if summary.unread_from_line is not None:
        # Not a bad row to allow: the workloads after it were never read, and a portfolio cut short must
        # not pass as a clean run.
        click.echo(said(lang, "rest_unread", line=summary.unread_from_line), err=True)
        sys.exit(EXIT_ROWS_SKIPPED)
    if summary.errors and not allow_bad_rows:
        click.echo(said(lang, "rows_skipped", rows=summary.errors), err=True)
        sys.exit(EXIT_ROWS_SKIPPED)


def said(lang: str, kind: str, **context: object) -> str:
    """A message of the run on standard error, in ``lang`` (``templates/run_message.txt.j2``)."""
    from gpu_advisor.engine.i18n.environment import render
    from gpu_advisor.engine.i18n.formats import Format

    return render("run_message.txt.j2", Format.named(lang), kind=kind, **context).strip()


def summary_signal(stop: KeyboardInterrupt) -> str:
    from gpu_advisor.engine.common.signals import Interrupted

    return stop.signal_name if isinstance(stop, Interrupted) else "SIGINT"


@click.command()
@click.argument("workload_file", metavar="FILE|-")
@click.option(
    "--vary",
    "specs",
    multiple=True,
    required=True,
    metavar="NAME=START:STOP:STEP",
    help="A workload field (utilization, requests_per_day, ...), server_price_usd, usd_per_kwh or "
    "price:PROVIDER/OFFER/GPU; give one or two.",
)
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of standard output.")
@click.option("--overrides", metavar="FILE", help="Your own prices, or an imported catalog (catalog import).")
@as_of_option
@policy_option
@lang_option
@currency_option
@force_option
@handle_errors
def sweep(
    workload_file: str,
    specs: tuple[str, ...],
    output_format: str,
    output: str | None,
    as_of: str | None,
    overrides: str | None = None,
    force: bool = False,
    lang: str = "en",
    currency: str = "USD",
    policy_dir: str | None = None,
) -> None:
    """Vary one or two inputs of the workload in FILE over a range and show where the decision changes
    (deployment, provider, offer, GPU, pricing): the break-even points, a table and a chart."""
    from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
    from gpu_advisor.engine.apps.sweep.run import sweep as run_sweep
    from gpu_advisor.engine.common.signals import exit_code_of, stop_on_signals
    from gpu_advisor.engine.domain.workload import load_workload
    from gpu_advisor.engine.present.sweep_text import render_sweep
    from gpu_advisor.engine.present.terminal import text_layout

    refuse_empty_paths(
        ("FILE", workload_file, A_FILE_OR_STDIN),
        ("--overrides", overrides, A_FILE),
        ("--policy", policy_dir, A_DIRECTORY),
    )
    evaluated_on = parse_date(as_of)
    target = output_target(output, inputs=(workload_file, overrides), force=force, input_dirs=(policy_dir,))
    try:
        with stop_on_signals():
            knowledge = knowledge_with_overrides(overrides, evaluated_on)
            workload = load_workload(workload_file)
            complete_the_files_workload(workload, knowledge, workload_file)
            result = run_sweep(workload, specs, evaluated_on, knowledge, lang, policy_path(policy_dir))
            fmt = knowledge.display_format(lang, currency)
            width, wrap = text_layout(to_file=target is not None)
            text = to_json(result) if output_format == "json" else render_sweep(result, fmt, width, wrap)
            emit(text, target)
    except KeyboardInterrupt as stop:
        click.echo(said(lang, "sweep_stopped", signal=summary_signal(stop)), err=True)
        sys.exit(exit_code_of(stop))
    if result.interrupted_by is not None:
        import signal

        click.echo(said(lang, "sweep_interrupted", signal=result.interrupted_by), err=True)
        sys.exit(128 + signal.Signals[result.interrupted_by])


JOBS_PER_CPU = 4
"""The most worker processes ``--jobs`` starts for each CPU this process may use: a recommendation is
CPU-bound, so workers beyond the CPUs add memory (an engine each), not speed; ``--jobs 10000`` started
thousands of processes and stalled the machine."""


def refuse_more_jobs_than_cpus_hold(jobs: int) -> None:
    from gpu_advisor.engine.apps.batch.run import default_jobs
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.common.wording import Words, at

    cpus = default_jobs()
    if jobs > JOBS_PER_CPU * cpus:
        problem = Words(
            "at most %(most)s worker processes here, %(per)s for each of the %(cpus)s CPUs this process may "
            "use: more processes than CPUs add memory, not speed",
            most=JOBS_PER_CPU * cpus,
            per=JOBS_PER_CPU,
            cpus=cpus,
        )
        raise InputError(at("--jobs", problem), field="--jobs")
