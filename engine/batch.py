"""Batch: many workloads in, one result per workload out, in input order, on every core.

Input is streamed (CSV, JSON Lines, or a YAML list read item by item) and results are written as they
complete, so memory stays flat however long the portfolio. Worker processes each build the rules engine
once; chunks of rows go out and come back in submission order, with a bounded number in flight, so the
output order never depends on ``jobs``. A bad row becomes an error outcome with its line number, not an
exception: the caller decides whether to skip it or stop.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import os
import re
import types
import typing
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, Protocol

import yaml
from pydantic import BaseModel, ConfigDict

from .advisor import attention_rule_ids, decide_workload, evaluate, rules_engine
from .errors import AdvisorError, InputError, close_match
from .knowledge import load_knowledge
from .result import DecisionSummary, Recommendation
from .rulebook import load_rulebook
from .text import render
from .workload import MAX_INPUT_BYTES, UniqueKeyLoader, Workload, validate_workload

InputFormat = Literal["csv", "jsonl", "yaml"]
OutputFormat = Literal["jsonl", "csv"]
FieldKind = Literal["bool", "int", "float", "str"]

INPUT_FORMATS: dict[str, InputFormat] = {".csv": "csv", ".jsonl": "jsonl", ".yaml": "yaml", ".yml": "yaml"}
CHUNK_SIZE = 64
"""Rows per task sent to a worker: large enough that inter-process overhead stays small next to the
evaluations, small enough that progress and Ctrl-C react within a fraction of a second."""
CHUNKS_IN_FLIGHT_PER_JOB = 4
"""Chunks submitted ahead per worker: keeps every core busy while bounding memory."""
LISTED_MAX = 100
"""The summary lists at most this many errors and workloads needing attention (counts are complete)."""
CSV_COLUMNS = (
    "line",
    "name",
    "deployment",
    "pricing",
    "provider",
    "offer",
    "gpu",
    "gpus",
    "usd_per_month",
    "fired_rules",
    "attention",
    "cost_is_estimate",
)


# --- workload fields by annotation -------------------------------------------------------------------


def field_kinds(schema: type[BaseModel] = Workload, prefix: str = "") -> dict[str, FieldKind]:
    """Every leaf field of the workload model, dotted (``model.params_b``), with the scalar type its
    annotation declares. Cell text is converted by this table, so a CSV column means what the model says."""
    kinds: dict[str, FieldKind] = {}
    for name, info in schema.model_fields.items():
        scalar = _scalar(info.annotation)
        if isinstance(scalar, type) and issubclass(scalar, BaseModel):
            kinds.update(field_kinds(scalar, f"{prefix}{name}."))
        else:
            kinds[f"{prefix}{name}"] = scalar  # type: ignore[assignment]
    return kinds


def _scalar(annotation: Any) -> FieldKind | type[BaseModel]:
    """Strip Optional and Annotated from an annotation; Literal choices are strings."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _scalar(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        members = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(members) != 1:
            raise TypeError(f"workload field of several types: {annotation!r}")
        return _scalar(members[0])
    if origin is Literal:
        return "str"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for kind, python_type in (("bool", bool), ("int", int), ("float", float), ("str", str)):
        if annotation is python_type:
            return kind  # type: ignore[return-value]
    raise TypeError(f"workload field of unsupported type: {annotation!r}")


_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_BOOLEANS = {"true": True, "false": False, "yes": True, "no": False, "1": True, "0": False}


def convert_cell(text: str, kind: FieldKind) -> Any:
    """Cell text as the field's type; raises ValueError naming what is allowed."""
    if kind == "str":
        return text
    value = text.strip()
    if kind == "bool":
        if value.lower() not in _BOOLEANS:
            raise ValueError(f"{text!r} is not a boolean; use true or false")
        return _BOOLEANS[value.lower()]
    if kind == "int":
        if not _INTEGER.fullmatch(value):
            raise ValueError(f"{text!r} is not a whole number")
        return int(value)
    if not _DECIMAL.fullmatch(value) or not math.isfinite(float(value)):
        raise ValueError(f"{text!r} is not a finite number")
    return float(value)


# --- reading -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One workload as read: its data, or why it could not be read."""

    line: int
    data: dict[str, Any] | None
    error: str | None = None


def input_format_for(path: str, given: str | None) -> InputFormat:
    if given is not None:
        return given  # type: ignore[return-value]
    if path == "-":
        raise InputError("--input-format: required when INPUT is - (standard input); use csv, jsonl or yaml")
    suffix = Path(path).suffix.lower()
    if suffix not in INPUT_FORMATS:
        raise InputError(
            f"{path}: cannot tell the format from the extension {suffix or '(none)'!r}; "
            "use .csv, .jsonl, .yaml or .yml, or give --input-format"
        )
    return INPUT_FORMATS[suffix]


def open_input(path: str) -> IO[bytes]:
    if path == "-":
        import sys

        return sys.stdin.buffer
    try:
        return Path(path).open("rb")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror})") from None


def read_rows(stream: IO[bytes], input_format: InputFormat, origin: str) -> Iterator[Row]:
    """The workloads of ``stream`` one at a time. A row that cannot be read is a ``Row`` with an error;
    a file that cannot be read further raises ``InputError``."""
    if input_format == "jsonl":
        return jsonl_rows(stream, origin)
    if input_format == "csv":
        return csv_rows(stream, origin)
    return yaml_rows(stream, origin)


def _bounded_lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """Lines with their numbers; a line longer than one workload may be is None (and not kept)."""
    number = 0
    while True:
        line = stream.readline(MAX_INPUT_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_INPUT_BYTES and not line.endswith(b"\n"):
            while (rest := stream.readline(MAX_INPUT_BYTES)) and not rest.endswith(b"\n"):
                pass
            yield number, None
            continue
        yield number, line


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"key {key!r} is given twice")
        data[key] = value
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def jsonl_rows(stream: IO[bytes], origin: str) -> Iterator[Row]:
    for number, raw in _bounded_lines(stream):
        if raw is None:
            yield Row(number, None, f"{origin}:{number}: line is longer than {MAX_INPUT_BYTES} bytes")
            continue
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as error:
            yield Row(number, None, f"{origin}:{number}: not UTF-8 text (byte {error.start})")
            continue
        if not text.strip():
            continue
        try:
            data = json.loads(text, object_pairs_hook=_unique_object, parse_constant=_no_constant)
        except RecursionError:
            yield Row(number, None, f"{origin}:{number}: input is nested too deeply")
            continue
        except ValueError as error:
            yield Row(number, None, f"{origin}:{number}: not valid JSON ({error})")
            continue
        yield Row(number, data)


@dataclass(frozen=True)
class Column:
    name: str
    path: tuple[str, ...]
    kind: FieldKind


def csv_columns(header: list[str], origin: str) -> list[Column]:
    """The header's columns, each a known workload field; an unknown or repeated column stops the file."""
    kinds = field_kinds()
    groups = sorted({name.split(".")[0] for name in kinds if "." in name})
    columns: list[Column] = []
    seen: set[str] = set()
    for raw in header:
        name = raw.strip()
        if name in seen:
            raise InputError(f"{origin}:1: column {name!r} is given twice")
        seen.add(name)
        if name in groups:
            members = ", ".join(k for k in kinds if k.startswith(f"{name}."))
            raise InputError(f"{origin}:1: column {name!r} is a group; use its fields: {members}")
        if name not in kinds:
            message = f"{origin}:1: unknown column {name!r}; allowed: {', '.join(kinds)}"
            suggestion = close_match(name, kinds)
            raise InputError(message + (f" (did you mean {suggestion!r}?)" if suggestion else ""))
        columns.append(Column(name, tuple(name.split(".")), kinds[name]))
    return columns


def csv_record(columns: list[Column], cells: list[str]) -> dict[str, Any]:
    """One CSV row as a workload mapping; an empty cell leaves its field out."""
    data: dict[str, Any] = {}
    for column, cell in zip(columns, cells, strict=True):
        if cell.strip() == "":
            continue
        try:
            value = convert_cell(cell, column.kind)
        except ValueError as error:
            raise ValueError(f"{column.name}: {error}") from None
        target = data
        for part in column.path[:-1]:
            target = target.setdefault(part, {})
        target[column.path[-1]] = value
    return data


def csv_rows(stream: IO[bytes], origin: str) -> Iterator[Row]:
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", newline="")
    reader = csv.reader(text, strict=True)
    columns: list[Column] | None = None
    next_line = 1
    try:
        while True:
            line = next_line
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                next_line = reader.line_num + 1
                yield Row(line, None, f"{origin}:{line}: not valid CSV ({error})")
                continue
            next_line = reader.line_num + 1
            if columns is None:
                columns = csv_columns(cells, origin)
                continue
            if not cells or all(cell.strip() == "" for cell in cells):
                continue
            if len(cells) != len(columns):
                yield Row(line, None, f"{origin}:{line}: {len(cells)} cells, the header has {len(columns)}")
                continue
            try:
                yield Row(line, csv_record(columns, cells))
            except ValueError as error:
                yield Row(line, None, f"{origin}:{line}: {error}")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{origin}: not UTF-8 text after line {next_line - 1} (byte {error.start})"
        ) from None
    finally:
        text.detach()


def yaml_rows(stream: IO[bytes], origin: str) -> Iterator[Row]:
    """A YAML list of workloads, composed and constructed one item at a time (flat memory)."""
    # The user-input loader: keys given once and plain, no aliases (a few bytes could expand into a
    # structure that takes minutes to walk).
    loader = UniqueKeyLoader(stream)
    try:
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            return
        loader.get_event()  # document start
        if not loader.check_event(yaml.SequenceStartEvent):
            raise InputError(f"{origin}: a workload list is a YAML list of mappings (- name: ...)")
        loader.get_event()
        while not loader.check_event(yaml.SequenceEndEvent):
            node = loader.compose_node(None, None)
            line = node.start_mark.line + 1
            try:
                yield Row(line, loader.construct_object(node, deep=True))
            except yaml.YAMLError as error:
                yield Row(line, None, f"{origin}:{line}: {_one_line(error)}")
            # The composer and constructor remember every node; forget them after each item.
            loader.anchors = {}
            loader.constructed_objects = {}
        loader.get_event()
        loader.get_event()  # document end
        if not loader.check_event(yaml.StreamEndEvent):
            raise InputError(f"{origin}: holds more than one YAML document; give one list")
    except yaml.YAMLError as error:
        raise InputError(f"{origin}: not valid YAML ({_one_line(error)})") from None
    except RecursionError:
        raise InputError(f"{origin}: input is nested too deeply") from None
    finally:
        loader.dispose()


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def count_rows(path: str, input_format: InputFormat) -> int | None:
    """Workloads in a file, for the progress bar's time left; None where counting means parsing."""
    if path == "-" or input_format == "yaml":
        return None
    try:
        with Path(path).open("rb") as file:
            if input_format == "jsonl":
                return sum(1 for line in file if line.strip())
            text = io.TextIOWrapper(file, encoding="utf-8-sig", errors="replace", newline="")
            return max(0, sum(1 for cells in csv.reader(text) if any(c.strip() for c in cells)) - 1)
    except (OSError, csv.Error):
        return None


# --- evaluating --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One row's result: the output text to write, or the error; and what the summary counts."""

    line: int
    name: str | None
    text: str | None
    error: str | None
    deployment: str | None = None
    usd_per_month: float | None = None
    cost_is_estimate: bool = False
    attention: tuple[str, ...] = ()


@dataclass(frozen=True)
class Settings:
    evaluated_on: dt.date
    output_format: OutputFormat
    origin: str


_worker_settings: Settings | None = None


def _init_worker(settings: Settings) -> None:
    """Worker start: ignore Ctrl-C (the parent stops the run) and build the engine once."""
    import signal

    global _worker_settings
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_settings = settings
    load_knowledge()
    rules_engine()


def _evaluate_chunk(rows: list[Row]) -> list[Outcome]:
    assert _worker_settings is not None, "worker not initialized"
    return [evaluate_row(row, _worker_settings) for row in rows]


def evaluate_row(row: Row, settings: Settings) -> Outcome:
    raw_name = row.data.get("name") if isinstance(row.data, dict) else None
    name = raw_name if isinstance(raw_name, str) else None
    if row.error is not None or row.data is None:
        return Outcome(row.line, name, None, row.error or f"{settings.origin}:{row.line}: empty row")
    origin = f"{settings.origin}:{row.line}"
    try:
        workload = validate_workload(row.data, origin)
        # A CSV line shows only the decision: its texts and tables need not be built.
        result = (
            evaluate(workload, settings.evaluated_on)
            if settings.output_format == "jsonl"
            else decide_workload(workload, settings.evaluated_on)
        )
    except InputError as error:
        message = str(error)
        return Outcome(
            row.line, name, None, message if message.startswith(origin) else f"{origin}: {message}"
        )
    except AdvisorError as error:
        return Outcome(row.line, name, None, f"{origin}: {error}")
    except RecursionError:
        return Outcome(row.line, name, None, f"{origin}: input is nested too deeply")
    if isinstance(result, DecisionSummary):
        decision, attention = result.decision, result.attention
        text = csv_result_line(row.line, result)
    else:
        recommendation, _, evaluation = result
        decision, attention = recommendation.decision, attention_rule_ids(evaluation.rules)
        text = json_line(row.line, recommendation)
    return Outcome(
        line=row.line,
        name=workload.name,
        text=text,
        error=None,
        deployment=decision.deployment,
        usd_per_month=decision.usd_per_month,
        cost_is_estimate=decision.cost_is_estimate,
        attention=attention,
    )


def json_line(line: int, result: Recommendation) -> str:
    # pydantic's serializer is several times faster than json.dumps of model_dump; line and name go first.
    body = result.model_dump_json()
    head = json.dumps({"line": line, "name": result.workload.name}, ensure_ascii=False, separators=(",", ":"))
    return f"{head[:-1]},{body[1:]}\n"


def csv_result_line(line: int, result: DecisionSummary) -> str:
    decision = result.decision
    cells = [
        line,
        result.workload,
        decision.deployment,
        decision.pricing or "",
        decision.provider or "",
        decision.offer or "",
        decision.gpu or "",
        "" if decision.gpus is None else decision.gpus,
        "" if decision.usd_per_month is None else f"{decision.usd_per_month:.2f}",
        " ".join(result.fired_rules),
        " ".join(result.attention),
        "true" if decision.cost_is_estimate else "false",
    ]
    return csv_line(cells)


def csv_line(cells: Iterable[Any]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(cells)
    return buffer.getvalue()


def _chunks(rows: Iterable[Row], size: int) -> Iterator[list[Row]]:
    chunk: list[Row] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def evaluate_rows(rows: Iterable[Row], settings: Settings, jobs: int) -> Iterator[list[Outcome]]:
    """Outcomes chunk by chunk, in input order. With ``jobs`` > 1, a pool of worker processes, each with
    its own engine; at most ``jobs * CHUNKS_IN_FLIGHT_PER_JOB`` chunks are pending at any time."""
    chunks = _chunks(rows, CHUNK_SIZE)
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
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=(settings,))
    pending: deque[Future[list[Outcome]]] = deque()
    try:
        for chunk in chunks:
            pending.append(pool.submit(_evaluate_chunk, chunk))
            if len(pending) >= jobs * CHUNKS_IN_FLIGHT_PER_JOB:
                break
        while pending:
            outcomes = pending.popleft().result()
            chunk = next(chunks, None)
            if chunk is not None:
                pending.append(pool.submit(_evaluate_chunk, chunk))
            yield outcomes
    finally:
        # Stopping early (strict mode, Ctrl-C, an unreadable file): drop what has not started.
        pool.shutdown(wait=False, cancel_futures=True)


# --- summary -----------------------------------------------------------------------------------------


class SummaryModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RowError(SummaryModel):
    line: int
    name: str | None
    error: str


class Attention(SummaryModel):
    line: int
    name: str | None
    rules: tuple[str, ...]
    """Rules that fired with severity critical or warning."""


class BatchSummary(SummaryModel):
    input: str
    evaluated_on: dt.date
    workloads: int
    """Rows read (evaluated plus errors)."""
    evaluated: int
    errors: int
    by_deployment: dict[str, int]
    total_usd_per_month: float
    """Sum of the decisions' monthly cost, estimates (serverless) included; decisions without a monthly
    figure add nothing."""
    estimated_usd_per_month: float = 0.0
    """The part of the total that is estimated rather than priced (serverless)."""
    without_monthly_cost: int
    attention_count: int
    attention: tuple[Attention, ...]
    """The first LISTED_MAX workloads needing attention; the CSV output's attention column has all."""
    error_list: tuple[RowError, ...]
    """The first LISTED_MAX errors (every error is also reported on standard error as it happens)."""
    interrupted: bool
    stopped_at_line: int | None
    """--strict: the line of the first bad row."""


@dataclass
class Tally:
    """Running totals over the outcomes; holds no per-workload data beyond the listed few."""

    input: str
    evaluated_on: dt.date
    evaluated: int = 0
    errors: int = 0
    by_deployment: dict[str, int] = field(default_factory=dict)
    total_usd_per_month: float = 0.0
    estimated_usd_per_month: float = 0.0
    without_monthly_cost: int = 0
    attention_count: int = 0
    attention: list[Attention] = field(default_factory=list)
    error_list: list[RowError] = field(default_factory=list)
    interrupted: bool = False
    stopped_at_line: int | None = None

    def add(self, outcome: Outcome) -> None:
        if outcome.error is not None:
            self.errors += 1
            if len(self.error_list) < LISTED_MAX:
                self.error_list.append(RowError(line=outcome.line, name=outcome.name, error=outcome.error))
            return
        self.evaluated += 1
        kind = outcome.deployment or "none"
        self.by_deployment[kind] = self.by_deployment.get(kind, 0) + 1
        if outcome.usd_per_month is None:
            self.without_monthly_cost += 1
        else:
            self.total_usd_per_month += outcome.usd_per_month
            if outcome.cost_is_estimate:
                self.estimated_usd_per_month += outcome.usd_per_month
        if outcome.attention:
            self.attention_count += 1
            if len(self.attention) < LISTED_MAX:
                self.attention.append(
                    Attention(line=outcome.line, name=outcome.name, rules=outcome.attention)
                )

    def summary(self) -> BatchSummary:
        return BatchSummary(
            input=self.input,
            evaluated_on=self.evaluated_on,
            workloads=self.evaluated + self.errors,
            evaluated=self.evaluated,
            errors=self.errors,
            by_deployment=dict(sorted(self.by_deployment.items())),
            total_usd_per_month=round(self.total_usd_per_month, 2),
            estimated_usd_per_month=round(self.estimated_usd_per_month, 2),
            without_monthly_cost=self.without_monthly_cost,
            attention_count=self.attention_count,
            attention=tuple(self.attention),
            error_list=tuple(self.error_list),
            interrupted=self.interrupted,
            stopped_at_line=self.stopped_at_line,
        )


# --- running -----------------------------------------------------------------------------------------


class Progress(Protocol):
    def advance(self, rows: int) -> None: ...

    def report(self, message: str) -> None: ...


class StderrReport:
    """No progress bar (standard error is not a terminal): errors are printed line by line."""

    def advance(self, rows: int) -> None:
        pass

    def report(self, message: str) -> None:
        import sys

        print(message, file=sys.stderr, flush=True)


class TerminalProgress:
    """A rich progress bar on standard error with rate and time left. It refreshes from the calling
    thread only (no refresh thread), so worker processes are never forked beside a running thread."""

    def __init__(self, total: int | None) -> None:
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

        self._clock = time.monotonic
        self._last_refresh = 0.0
        self._progress = Progress(
            TextColumn("evaluating"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("elapsed,"),
            TimeRemainingColumn(),
            TextColumn("left"),
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
            rate = f"{speed:,.0f} workloads/s" if speed else ""
            self._progress.update(self._task, rate=rate)
            self._progress.refresh()
            self._last_refresh = now

    def report(self, message: str) -> None:
        self._progress.console.print(message, markup=False, highlight=False)


def default_jobs() -> int:
    """The CPUs this process may run on (respects affinity and container limits where the OS reports them)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def output_header(output_format: OutputFormat) -> str:
    return csv_line(CSV_COLUMNS) if output_format == "csv" else ""


def run_batch(
    rows: Iterable[Row],
    sink: IO[str],
    tally: Tally,
    *,
    output_format: OutputFormat,
    jobs: int,
    strict: bool,
    progress: Progress,
) -> None:
    """Evaluate ``rows`` and write each result to ``sink`` in input order, flushing after every chunk so
    an interrupted run keeps every result written so far. Bad rows are reported through ``progress`` and
    counted; with ``strict`` the first bad row raises ``InputError`` instead."""
    from contextlib import closing

    settings = Settings(tally.evaluated_on, output_format, tally.input)
    sink.write(output_header(output_format))
    # closing(): stopping early shuts the worker pool down now, not when the generator is collected.
    with closing(evaluate_rows(rows, settings, jobs)) as chunks:
        for outcomes in chunks:
            _write_chunk(outcomes, sink, tally, strict, progress)


def _write_chunk(
    outcomes: list[Outcome], sink: IO[str], tally: Tally, strict: bool, progress: Progress
) -> None:
    for outcome in outcomes:
        if outcome.error is not None and strict:
            sink.flush()
            tally.add(outcome)  # the row that stopped the run counts among those with errors
            tally.stopped_at_line = outcome.line
            raise InputError(f"{outcome.error}\n(--strict: stopped at the first bad row)")
        if outcome.text is not None:
            sink.write(outcome.text)
        elif outcome.error is not None:
            progress.report(f"error: {outcome.error}")
        tally.add(outcome)
    sink.flush()
    progress.advance(len(outcomes))


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
        sys.stderr.write(render("batch_summary.txt.j2", s=summary))
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
