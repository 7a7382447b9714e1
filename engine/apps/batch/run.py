"""Batch: many workloads in, one result per workload out, in input order, on every core.

Input is streamed (CSV, JSON Lines, or a YAML list read item by item) and results are written as they
complete, so memory stays flat however long the portfolio. Worker processes each build the rules engine
once; chunks of rows go out and come back in submission order, with a bounded number in flight, so the
output order never depends on ``jobs``. A bad row becomes an error outcome with its line number, not an
exception: the caller decides whether to skip it or stop.

"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import json
import os
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Literal, Protocol

from gpu_advisor.engine.apps.batch.csv_rows import CurrencyColumn, csv_header, csv_result_line
from gpu_advisor.engine.apps.batch.messages import said
from gpu_advisor.engine.apps.batch.rows import Row
from gpu_advisor.engine.apps.batch.scenarios import (
    robust_result,
    scenario_cells,
    summary_with_robustness,
)
from gpu_advisor.engine.apps.batch.summary import Outcome, Tally, portfolio_split
from gpu_advisor.engine.apps.recommend import decision_summary
from gpu_advisor.engine.common.errors import AdvisorError, InputError
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.pipeline.engines import policy_engine, rules_engine
from gpu_advisor.engine.pipeline.evaluation import evaluate
from gpu_advisor.engine.report.recommendation import recommendation_from
from gpu_advisor.engine.rulebook.durable import Evaluator
from gpu_advisor.engine.rulebook.loading import PolicyKey, load_rulebook, policy_key, rulebook_for_policies
from gpu_advisor.engine.rulebook.schema import Rulebook

OutputFormat = Literal["jsonl", "csv"]


CHUNK_SIZE = 64
"""Rows per task sent to a worker: large enough that inter-process overhead stays small next to the
evaluations, small enough that progress and Ctrl-C react within a fraction of a second."""


CHUNKS_IN_FLIGHT_PER_JOB = 4
"""Chunks submitted ahead per worker: keeps every core busy while bounding memory."""


Executor = Literal["local", "dask"]


@dataclass(frozen=True)
class Settings:
    evaluated_on: dt.date
    output_format: OutputFormat
    origin: str
    lang: str = "en"
    """The language of the rows' error messages."""
    scenarios: int | None = None
    """``--scenarios N``: each workload's robustness over N draws (``scenarios.py``)."""
    seed: int = 1
    policy: PolicyKey | None = None
    """``--policy DIR``: an organization's rules beside the catalog's, for every row, pinned as the run
    read them (the directory and each file's SHA-256, ``rulebook.loading.policy_key``)."""
    currency_column: CurrencyColumn | None = None
    """``--currency EUR`` or ``CHF``: the CSV's column of the monthly cost in it; None in USD."""

    @property
    def policy_dir(self) -> str | None:
        return self.policy[0] if self.policy is not None else None


_worker_settings: Settings | None = None


def _init_worker(settings: Settings, parent: int) -> None:
    """Worker start: ignore Ctrl-C (the parent stops the run and its workers), leave when the parent is
    gone, and build the engine once."""
    import signal

    from gpu_advisor.engine.common.signals import exit_with_parent

    global _worker_settings
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    exit_with_parent(parent)
    _worker_settings = settings
    load_knowledge()
    _policy_rules(settings.policy)


def _evaluate_chunk(rows: list[Row]) -> list[Outcome]:
    assert _worker_settings is not None, "worker not initialized"
    return evaluate_chunk(rows, _worker_settings)


def evaluate_chunk(rows: list[Row], settings: Settings) -> list[Outcome]:
    """A chunk's outcomes: what a worker, local or on a cluster, runs."""
    return [evaluate_row(row, settings) for row in rows]


@functools.lru_cache(maxsize=4)
def _policy_rules(policy: PolicyKey | None) -> tuple[Rulebook, Evaluator]:
    """The rulebook and engine of the run's policy as the run read it, checked once per process: a policy
    file changed since (or a cluster worker's own copy that differs) is an input error, not other rules
    for the rest of the rows."""
    if policy is None:
        return load_rulebook(), rules_engine()
    if policy_key(policy[0]) != policy:
        raise InputError(
            Words("--policy %(directory)s: its files changed during the run", directory=policy[0])
        )
    return rulebook_for_policies(policy), policy_engine(policy)


def evaluate_row(row: Row, settings: Settings) -> Outcome:
    raw_name = row.data.get("name") if isinstance(row.data, dict) else row.name
    name = raw_name if isinstance(raw_name, str) else None
    if row.error is not None or row.data is None:
        empty = said(settings.lang, "empty_row", origin=f"{settings.origin}:{row.line}")
        return Outcome(row.line, name, None, row.error or empty, unread_rest=row.ends_reading)
    origin = f"{settings.origin}:{row.lines}"
    if row.cell_problems:
        return Outcome(row.line, name, None, cell_errors(row, origin, settings.lang))
    try:
        workload = validate_workload(row.data, origin)
        rulebook, evaluator = _policy_rules(settings.policy)
        evaluation = evaluate(workload, settings.evaluated_on, load_knowledge(), rulebook, evaluator)
        # A CSV line shows only the decision: its texts and tables need not be built.
        summary = decision_summary(evaluation)
        if settings.scenarios is not None:
            robust = robust_result(
                row.data, workload, evaluation, settings.scenarios, settings.seed, origin, settings.policy_dir
            )
            summary = summary_with_robustness(summary, robust)
            if settings.output_format == "jsonl":
                text = json_line(row.line, robust)
            else:
                text = csv_result_line(row.line, summary, scenario_cells(robust), settings.currency_column)
        elif settings.output_format == "jsonl":
            text = json_line(row.line, recommendation_from(evaluation))
        else:
            text = csv_result_line(row.line, summary, column=settings.currency_column)
    except InputError as error:
        from gpu_advisor.engine.domain.input_errors import error_text

        message = error_text(error, settings.lang)
        message = message if message.startswith(origin) else f"{origin}: {message}"
        if row.last_line is not None and row.last_line > row.line:
            # Lines read as one row: most likely a stray quote took the rows after it into one cell.
            message += "\n  " + said(settings.lang, "csv_lines_joined_hint")
        return Outcome(row.line, name, None, message)
    except AdvisorError as error:
        return Outcome(row.line, name, None, f"{origin}: {error}")
    except RecursionError:
        return Outcome(row.line, name, None, said(settings.lang, "nested", origin=origin))
    except Exception as error:  # a fault in gpu-advisor: this row's, the others are still evaluated
        if os.environ.get("GPU_ADVISOR_TRACEBACK", "").strip().lower() not in ("", "0", "false", "no"):
            raise
        fault = said(
            settings.lang, "row_fault", origin=origin, fault=type(error).__name__, error=str(error) or "-"
        )
        return Outcome(row.line, name, None, fault, fault=True)
    decision = summary.decision
    vat = evaluation.knowledge.vat_rates.applied
    attention = portfolio_split(summary.attention)[0]
    # A stale catalog price is noted wherever it fired, whether or not it concerns the route decided on.
    notes = portfolio_split(summary.fired_rules)[1]
    return Outcome(
        line=row.line,
        name=workload.name,
        text=text,
        error=None,
        deployment=decision.deployment,
        usd_per_month=decision.usd_per_month,
        cost_is_estimate=decision.cost_is_estimate,
        attention=attention,
        notes=notes,
        vat=(vat.country, vat.rate) if vat is not None else None,
        vat_rate_missing=vat is None and not evaluation.workload.input_vat_recoverable,
    )


def json_line(line: int, result: Recommendation) -> str:
    # pydantic's serializer is several times faster than json.dumps of model_dump; line and name go first.
    body = result.model_dump_json()
    head = json.dumps({"line": line, "name": result.workload.name}, ensure_ascii=False, separators=(",", ":"))
    return f"{head[:-1]},{body[1:]}\n"


def _chunks(rows: Iterable[Row], size: int) -> Iterator[list[Row]]:
    chunk: list[Row] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def evaluate_rows(
    rows: Iterable[Row], settings: Settings, jobs: int, scheduler: str | None = None
) -> Generator[list[Outcome], None, None]:
    """Outcomes chunk by chunk, in input order. With ``jobs`` > 1, a pool of worker processes, each with
    its own engine; at most ``jobs * CHUNKS_IN_FLIGHT_PER_JOB`` chunks are pending at any time. With
    ``scheduler``, the chunks run on that Dask cluster instead (``distributed.py``)."""
    # A workload with scenarios takes seconds: one per chunk keeps the workers evenly busy.
    chunks = _chunks(rows, 1 if settings.scenarios is not None else CHUNK_SIZE)
    if scheduler is not None:
        from gpu_advisor.engine.apps.batch.distributed import dask_chunks

        yield from dask_chunks(chunks, settings, scheduler, CHUNKS_IN_FLIGHT_PER_JOB)
        return
    if jobs == 1:
        for chunk in chunks:
            yield [evaluate_row(row, settings) for row in chunk]
        return
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    # fork shares the loaded knowledge base with the workers; no other thread runs at this point (the
    # progress bar refreshes from this thread), so forking is safe.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_init_worker, initargs=(settings, os.getpid())
    )
    pending: deque[Future[list[Outcome]]] = deque()
    finished = False
    try:
        for chunk in chunks:
            pending.append(pool.submit(_evaluate_chunk, chunk))
            if len(pending) >= jobs * CHUNKS_IN_FLIGHT_PER_JOB:
                break
        while pending:
            outcomes = pending.popleft().result()
            for chunk in itertools.islice(chunks, 1):
                pending.append(pool.submit(_evaluate_chunk, chunk))
            yield outcomes
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            stop_workers(pool)


def stop_workers(pool: Any) -> None:
    """Stopping early (strict mode, a signal, an unreadable file): drop the chunks not started, end the
    workers now (a chunk in progress is not waited for) and reap them, so that no process is left
    behind holding standard error."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    results = getattr(pool, "_result_queue", None)  # shutdown forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    # A worker the pool started while the signal came (it starts them as chunks are submitted) is in its
    # table only now: it is stopped too, or it would hold standard error after the run has ended.
    processes += [p for p in (getattr(pool, "_processes", None) or {}).values() if p not in processes]
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)
    # A worker ended while it wrote a chunk's result leaves half a message in the result pipe, whose
    # write end this process holds as well: the pool's manager thread would wait for the rest for ever,
    # and the interpreter's exit waits for that thread. Closed here, the read ends (the workers are gone).
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()


class Progress(Protocol):
    def advance(self, rows: int) -> None: ...

    def report(self, message: str) -> None: ...


def default_jobs() -> int:
    """The CPUs this process may run on (respects affinity and container limits where the OS reports them)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def run_batch(
    rows: Iterable[Row],
    sink: IO[str],
    tally: Tally,
    *,
    output_format: OutputFormat,
    jobs: int,
    strict: bool,
    progress: Progress,
    lang: str = "en",
    scenarios: int | None = None,
    seed: int = 1,
    scheduler: str | None = None,
    policy: PolicyKey | None = None,
    currency_column: CurrencyColumn | None = None,
) -> None:
    """Evaluate ``rows`` and write each result to ``sink`` in input order, flushing after every chunk so
    an interrupted run keeps every result written so far. Bad rows are reported through ``progress`` and
    counted; with ``strict`` the first bad row raises ``InputError`` instead. Messages are in ``lang``; a CSV
    gets the monthly cost in another currency with ``currency_column``."""
    from contextlib import closing

    settings = Settings(
        tally.evaluated_on, output_format, tally.input, lang, scenarios, seed, policy, currency_column
    )
    # The header goes out with the first rows: an input without any writes nothing (it is refused).
    header = csv_header(scenarios is not None, currency_column) if output_format == "csv" else ""
    # closing(): stopping early shuts the worker pool down now, not when the generator is collected.
    with closing(evaluate_rows(rows, settings, jobs, scheduler)) as chunks:
        for outcomes in chunks:
            sink.write(header)
            header = ""
            _write_chunk(outcomes, sink, tally, strict, progress, lang)


def _write_chunk(
    outcomes: list[Outcome], sink: IO[str], tally: Tally, strict: bool, progress: Progress, lang: str
) -> None:
    for outcome in outcomes:
        # --strict stops at a bad row; a fault in gpu-advisor is no bad row (the run goes on and exits 4).
        if outcome.error is not None and strict and not outcome.fault:
            sink.flush()
            tally.add(outcome)  # the row that stopped the run counts among those with errors
            tally.stopped_at_line = outcome.line
            raise InputError(said(lang, "strict", message=outcome.error))
        if outcome.text is not None:
            sink.write(outcome.text)
        elif outcome.error is not None:
            progress.report(said(lang, "row_error", message=outcome.error))
        tally.add(outcome)
    sink.flush()
    progress.advance(len(outcomes))


def cell_errors(row: Row, origin: str, lang: str) -> str:
    """A CSV row whose cells are not all their field's type: every such cell, and every problem of the
    other fields (a field left out for its bad cell is not said to be missing), in one message; a lone
    bad cell in one line (``origin: field: problem``)."""
    from gpu_advisor.engine.domain.input_errors import render_problems

    problems = list(row.cell_problems)
    bad = {problem["field"] for problem in problems}
    # A bad cell's field is left out: a group that then misses it (model, for a bad model.params_b) is
    # not said to be missing either.
    groups = {field.rsplit(".", 1)[0] for field in bad if "." in field}
    try:
        validate_workload(row.data, origin)
    except InputError as error:
        problems += [
            problem
            for problem in error.problems or ()
            if problem["field"] not in bad
            and not (problem["field"] in groups and problem["type"] != "extra_forbidden")
        ]
    if len(problems) == 1:
        return f"{origin}: {problems[0]['field']}: {problems[0]['said']}"
    return render_problems(origin, problems, "workload", lang)
