"""Speed and memory of gpu-advisor against the targets in benchmarks/README.md.

    python benchmarks/bench.py                 # everything, batch over 100,000 workloads (minutes)
    python benchmarks/bench.py --n 5000        # a quicker batch
    python benchmarks/bench.py --record        # also write the table into benchmarks/README.md
    python benchmarks/bench.py --profile       # the top functions of one recommendation and of start-up

Run it with the interpreter of the environment gpu-advisor is installed in. Figures:

(a) one recommendation in the library after start-up: median over the calls, cycling through examples/;
(b) ``gpu-advisor batch --jobs 2`` over N generated workloads: wall time, and the resident memory of the
    worker processes (read from /proc) after 1,000 evaluations and at the last sample before they exit;
(c) ``gpu-advisor recommend examples/public-chat.yaml`` end to end against an interpreter that only imports
    the dependencies (hyperfine when installed, else alternating runs, median);
(d) the same recommendations with the tests' plain-Python reference evaluator of the same rules: the
    durable-rules engine's overhead as a ratio, for the rule evaluation alone and for the whole call.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import datetime as dt
import io
import json
import os
import platform
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readme_record import record_between

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "examples").glob("*.yaml"))
EVALUATED_ON = dt.date(2026, 11, 30)
IMPORTS_ONLY = "import durable.lang, pydantic, jinja2, click, yaml"
ONE_MODEL = (
    "import durable.lang, jinja2, click, yaml\n"
    "from pydantic import BaseModel\n"
    "class Model(BaseModel):\n    x: int\n"
    "Model(x=1)"
)
"""The floor of any tool built on pydantic: ``import pydantic`` alone loads almost nothing (pydantic
imports its model machinery on first use), defining and validating one model loads it."""
RECORD_START = "<!-- latest run: written by bench.py --record -->"
RECORD_END = "<!-- end of latest run -->"


@dataclass(frozen=True)
class Figure:
    name: str
    value: str
    target: str
    met: bool | None
    """None: a figure shown for context, without a target."""


# --- (a) and (d): in the library ------------------------------------------------------------------


def workloads_from_examples() -> list[Any]:
    from gpu_advisor.engine.domain.workload import load_workload

    return [load_workload(str(path)) for path in EXAMPLES]


class TimedEvaluator:
    """Wraps an evaluator and adds up the time spent in it: opening and closing sessions, asserting facts."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.ns = 0

    @contextlib.contextmanager
    def session(self) -> Iterator[Any]:
        start = time.perf_counter_ns()
        manager = self.inner.session()
        session = manager.__enter__()
        self.ns += time.perf_counter_ns() - start
        try:
            yield _TimedSession(session, self)
        finally:
            start = time.perf_counter_ns()
            manager.__exit__(None, None, None)
            self.ns += time.perf_counter_ns() - start


class _TimedSession:
    def __init__(self, session: Any, owner: TimedEvaluator) -> None:
        self._session = session
        self._owner = owner

    def assert_fact(self, fact: Any, workload: Any = None) -> Any:
        start = time.perf_counter_ns()
        try:
            return self._session.assert_fact(fact, workload)
        finally:
            self._owner.ns += time.perf_counter_ns() - start


def time_calls(calls: int, evaluators: dict[str, Any | None]) -> dict[str, tuple[list[float], list[float]]]:
    """Milliseconds per whole recommendation and per rule evaluation inside it, for each evaluator (None:
    the default engine, untimed). They take turns call by call, so a busy machine slows all alike."""
    from gpu_advisor.engine.apps.recommend import recommend

    workloads = workloads_from_examples()
    timed = {name: TimedEvaluator(e) if e is not None else None for name, e in evaluators.items()}
    for evaluator in timed.values():
        for workload in workloads:  # start-up: knowledge, engine, templates
            recommend(workload, EVALUATED_ON, evaluator=evaluator)
    results: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in evaluators}
    for index in range(calls):
        workload = workloads[index % len(workloads)]
        for name, evaluator in timed.items():
            before = evaluator.ns if evaluator else 0
            start = time.perf_counter_ns()
            recommend(workload, EVALUATED_ON, evaluator=evaluator)
            results[name][0].append((time.perf_counter_ns() - start) / 1e6)
            if evaluator:
                results[name][1].append((evaluator.ns - before) / 1e6)
    return results


def time_uncached_calls(calls: int) -> list[float]:
    """Milliseconds per recommendation when nothing is cached for the workload's model: each call asks
    for a context length not seen before, so its sizing, replica performance and GPU-fit facts are
    worked out afresh (the examples above repeat, as the models of a portfolio do)."""
    from gpu_advisor.engine.apps.recommend import recommend

    workloads = workloads_from_examples()
    for workload in workloads:
        recommend(workload, EVALUATED_ON)
    times = []
    for index in range(calls):
        # Within every example model's context window; a length comes back only after 16,384 calls, long
        # after the bounded caches have let it go.
        context = 4096 + index % 16384
        workload = workloads[index % len(workloads)].model_copy(update={"context_tokens": context})
        start = time.perf_counter_ns()
        recommend(workload, EVALUATED_ON)
        times.append((time.perf_counter_ns() - start) / 1e6)
    return times


def library_figures(calls: int) -> list[Figure]:
    sys.path.insert(0, str(REPO / "tests"))
    from reference_evaluator import ReferenceEvaluator

    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.pipeline.engines import rules_engine
    from gpu_advisor.engine.rulebook.loading import load_rulebook

    sys.path.insert(0, str(REPO / "benchmarks"))
    from host_evaluator import HostEvaluator

    rulebook = load_rulebook()
    reference = ReferenceEvaluator(rulebook, load_knowledge().threshold_values())
    host = HostEvaluator(rulebook, rulebook.threshold_values(load_knowledge()))
    evaluators = {"plain": None, "engine": rules_engine(), "reference": reference, "host": host}
    results = time_calls(calls, evaluators)
    host_whole = results["host"][0]
    plain_whole = results["plain"][0]
    engine_whole, engine_rules = results["engine"]
    reference_whole, reference_rules = results["reference"]
    median = statistics.median(plain_whole)
    rules_ratio = statistics.median(engine_rules) / statistics.median(reference_rules)
    whole_ratio = statistics.median(engine_whole) / statistics.median(reference_whole)
    uncached = time_uncached_calls(calls)
    return [
        Figure(
            f"(a) one recommendation, library, median of {calls}",
            f"{median:.2f} ms (p90 {percentile(plain_whole, 0.9):.2f} ms)",
            "≤ 2 ms",
            median <= 2,
        ),
        Figure(
            "(a) the same, each call with a context length not seen before (nothing cached per model)",
            f"{statistics.median(uncached):.2f} ms (p90 {percentile(uncached, 0.9):.2f} ms)",
            "(context)",
            None,
        ),
        Figure(
            "(d) rule evaluation per recommendation: durable-rules / reference",
            f"{statistics.median(engine_rules):.2f} ms / {statistics.median(reference_rules):.3f} ms "
            f"= {rules_ratio:.1f}×",
            "≤ 5×",
            rules_ratio <= 5,
        ),
        Figure(
            "(a) the same through durable-rules' public API (durable.engine.Host, timers off) instead of "
            "the adapter's direct calls",
            f"{statistics.median(host_whole):.2f} ms",
            "(context)",
            None,
        ),
        Figure(
            "(d) whole recommendation: durable-rules / reference",
            f"{statistics.median(engine_whole):.2f} ms / {statistics.median(reference_whole):.2f} ms "
            f"= {whole_ratio:.2f}×",
            "(context)",
            None,
        ),
    ]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# --- (b): batch -------------------------------------------------------------------------------------


def generate(path: Path, count: int, seed: int = 7) -> None:
    """Deterministic, varied workloads: catalog and custom models, every load pattern and schedule."""
    models = ["llama-3.1-70b", "llama-3.1-8b", "qwen2.5-72b", "deepseek-r1"]
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as file:
        for index in range(count):
            if rng.random() < 0.7:
                model: dict[str, Any] = {"name": rng.choice(models), "precision": rng.choice(["bf16", "fp8"])}
            else:
                model = {"params_b": rng.choice([1.5, 8, 14, 32, 70, 120]), "precision": "fp8"}
            workload: dict[str, Any] = {
                "name": f"w{index:06d}",
                "model": model,
                "requests_per_day": rng.choice([800, 5_000, 40_000, 150_000, 600_000, 2_000_000]),
                "load_pattern": rng.choice(["steady", "variable", "batch"]),
                "schedule": rng.choice(["always", "workdays", "office_hours"]),
                "personal_data": rng.random() < 0.3,
            }
            if rng.random() < 0.5:
                workload["utilization"] = round(rng.uniform(0.1, 0.95), 2)
            file.write(json.dumps(workload) + "\n")


def rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return sorted(found)


@dataclass
class Sample:
    seconds: float
    evaluated: int
    workers_kb: list[int]
    parent_kb: int


def batch_figures(count: int, jobs: int, output_format: str) -> list[Figure]:
    with tempfile.TemporaryDirectory() as directory:
        source = Path(directory) / "portfolio.jsonl"
        output = Path(directory) / f"results.{output_format}"
        generate(source, count)
        command = [sys.executable, "-m", "gpu_advisor.cli", "batch", str(source), "--jobs", str(jobs)]
        command += [
            "--format",
            output_format,
            "-o",
            str(output),
            "--summary",
            str(Path(directory) / "s.json"),
        ]
        command += ["--as-of", EVALUATED_ON.isoformat()]
        samples: list[Sample] = []
        start = time.monotonic()
        process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        lines, offset = 0, 0
        while process.poll() is None:
            time.sleep(0.2)
            if output.exists():
                with output.open("rb") as file:
                    file.seek(offset)
                    chunk = file.read()
                offset += len(chunk)
                lines += chunk.count(b"\n")
            workers = [kb for pid in children(process.pid) if (kb := rss_kb(pid)) is not None]
            parent = rss_kb(process.pid)
            if len(workers) == jobs and parent is not None:
                evaluated = lines - (1 if output_format == "csv" else 0)
                samples.append(Sample(time.monotonic() - start, evaluated, workers, parent))
        wall = time.monotonic() - start
        _, stderr = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"batch failed ({process.returncode}): {stderr[-2000:]}")
    early = next((s for s in samples if s.evaluated >= 1000), None)
    late = samples[-1] if samples else None
    figures = [
        Figure(
            f"(b) batch --jobs {jobs}, {count:,} workloads ({output_format} output), wall time",
            f"{wall:.1f} s ({count / wall:,.0f} workloads/s)",
            "≤ 60 s" if count == 100_000 else f"≤ {60 * count / 100_000:.1f} s (60 s per 100,000)",
            wall <= 60 * count / 100_000,
        )
    ]
    if early is None or late is None:
        figures.append(Figure("(b) worker memory", "no samples (run too short)", "within 20 MB", None))
        return figures
    growth = (sum(late.workers_kb) - sum(early.workers_kb)) / 1024
    worst = max(b - a for a, b in zip(early.workers_kb, late.workers_kb, strict=True)) / 1024
    figures += [
        Figure(
            f"(b) worker RSS after {early.evaluated:,} → after {late.evaluated:,} evaluations",
            f"{fmt_mb(early.workers_kb)} → {fmt_mb(late.workers_kb)}: {growth:+.1f} MB in all, "
            f"{worst:+.1f} MB the most in one worker",
            "within 20 MB",
            abs(growth) <= 20,
        ),
        Figure(
            "(b) parent (reader and writer) RSS, same points",
            f"{early.parent_kb / 1024:.1f} MB → {late.parent_kb / 1024:.1f} MB",
            "(context)",
            None,
        ),
    ]
    return figures


def fmt_mb(values: list[int]) -> str:
    return " + ".join(f"{v / 1024:.1f}" for v in values) + " MB"


# --- (c): end to end ------------------------------------------------------------------------------


def gpu_advisor_command() -> list[str]:
    script = Path(sys.executable).parent / "gpu-advisor"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gpu_advisor.cli"]


def median_seconds(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Median wall time of each command: hyperfine when installed, else alternating runs after a warm-up."""
    if shutil.which("hyperfine"):
        with tempfile.NamedTemporaryFile(suffix=".json") as export:
            quoted = [" ".join(f"'{part}'" for part in command) for command in commands.values()]
            subprocess.run(
                ["hyperfine", "--warmup", "2", "--runs", str(runs), "--export-json", export.name, *quoted],
                check=True,
                capture_output=True,
            )
            results = json.loads(Path(export.name).read_text())["results"]
        return {name: result["median"] for name, result in zip(commands, results, strict=True)}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_number in range(runs + 2):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, cwd=REPO)
            if round_number >= 2:
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


START_UP_PHASES = """
import json, sys, time
marks = [("interpreter", time.perf_counter())]
import durable.lang, jinja2, click, yaml
marks.append(("dependencies", time.perf_counter()))
from pydantic import BaseModel
class Model(BaseModel):
    x: int
Model(x=1)
marks.append(("pydantic's model machinery", time.perf_counter()))
import gpu_advisor.cli
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.pipeline.engines import rules_engine
marks.append(("gpu-advisor's modules", time.perf_counter()))
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.rulebook.loading import load_rulebook
load_knowledge(); load_rulebook(); rules_engine()
marks.append(("knowledge, rules, engine", time.perf_counter()))
import datetime as dt
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.engine.domain.workload import load_workload
result = recommend(load_workload(sys.argv[1]), dt.date(2026, 11, 30))
render_memo(result)
marks.append(("first recommendation and memo", time.perf_counter()))
print(json.dumps([(name, (end - start) * 1000) for (_, start), (name, end) in zip(marks, marks[1:])]))
"""
"""Where a fresh interpreter's time goes on the way to a memo, phase by phase (in milliseconds)."""


def start_up_phases(runs: int) -> Figure:
    """The median of each phase over ``runs`` fresh interpreters (the interpreter's own start is not in
    it: the first mark is taken by the script)."""
    phases: dict[str, list[float]] = {}
    example = str(REPO / "examples" / "public-chat.yaml")
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", START_UP_PHASES, example], check=True, capture_output=True, text=True
        )
        for name, milliseconds in json.loads(done.stdout):
            phases.setdefault(name, []).append(milliseconds)
    text = ", ".join(f"{name} {statistics.median(values):.0f} ms" for name, values in phases.items())
    return Figure("(c) where a start-up goes, median per phase", text, "(context)", None)


def end_to_end_figures(runs: int) -> list[Figure]:
    cli = gpu_advisor_command()
    medians = median_seconds(
        {
            "recommend": [*cli, "recommend", str(REPO / "examples" / "public-chat.yaml")],
            "imports": [sys.executable, "-c", IMPORTS_ONLY],
            "one model": [sys.executable, "-c", ONE_MODEL],
            "help": [*cli, "--help"],
        },
        runs,
    )
    ratio = medians["recommend"] / medians["imports"]
    help_ratio = medians["help"] / medians["imports"]
    tool = "hyperfine" if shutil.which("hyperfine") else f"median of {runs} alternating runs"
    return [
        Figure(
            f"(c) recommend public-chat end to end / imports only ({tool})",
            f"{medians['recommend'] * 1000:.0f} ms / {medians['imports'] * 1000:.0f} ms = {ratio:.1f}×",
            "≤ 2.5×",
            ratio <= 2.5,
        ),
        Figure(
            "(c) gpu-advisor --help / imports only",
            f"{medians['help'] * 1000:.0f} ms / {medians['imports'] * 1000:.0f} ms = {help_ratio:.2f}×",
            "≤ 1.2×",
            help_ratio <= 1.2,
        ),
        Figure(
            "(c) the same imports plus one pydantic model defined and validated / imports only",
            f"{medians['one model'] * 1000:.0f} ms / {medians['imports'] * 1000:.0f} ms = "
            f"{medians['one model'] / medians['imports']:.2f}×",
            "(context)",
            None,
        ),
        start_up_phases(runs),
    ]


# --- profiles -------------------------------------------------------------------------------------


def top_functions(run: Callable[[], object], count: int = 12) -> str:
    """The functions with the most own time, then gpu-advisor's own functions by time including callees."""
    profile = cProfile.Profile()
    profile.enable()
    run()
    profile.disable()
    text = io.StringIO()
    stats = pstats.Stats(profile, stream=text)
    stats.sort_stats("tottime").print_stats(count)
    stats.sort_stats("cumulative").print_stats(r"(engine|gpu_advisor)/", count)
    return text.getvalue()


def profiles() -> None:
    start = time.perf_counter()

    def start_up() -> None:
        from gpu_advisor.engine.apps.recommend import recommend
        from gpu_advisor.engine.i18n.environment import render
        from gpu_advisor.engine.pipeline.engines import rules_engine
        from gpu_advisor.engine.report.recommendation import throughput_accuracy

        workload = workloads_from_examples()[0]
        rules_engine()
        throughput_accuracy()
        render("memo.md.j2", r=recommend(workload, EVALUATED_ON), version="bench")

    print("Start-up (import, knowledge, rules, engine, first memo):")
    print(top_functions(start_up))
    print(f"start-up took {time.perf_counter() - start:.2f} s under the profiler")
    from gpu_advisor.engine.apps.recommend import recommend

    workloads = workloads_from_examples()
    print("300 recommendations after start-up:")
    print(top_functions(lambda: [recommend(workloads[i % 6], EVALUATED_ON) for i in range(300)]))


# --- report -----------------------------------------------------------------------------------------


def machine() -> str:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cpu = f", {model}" if model else ""
    return f"{cores} cores{cpu}, Python {platform.python_version()}, {platform.system()}"


def load_average() -> str:
    """Other processes on the machine slow every figure; the load average says how busy it was."""
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "unknown"


def table(figures: list[Figure]) -> str:
    marks = {True: "met", False: "**missed**", None: ""}
    rows = ["| Figure | Measured | Target | |", "|---|---|---|---|"]
    rows += [f"| {f.name} | {f.value} | {f.target} | {marks[f.met]} |" for f in figures]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--n", type=int, default=100_000, help="workloads for the batch run (default 100,000)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="batch worker processes (default 2)")
    parser.add_argument("--batch-format", choices=["csv", "jsonl"], default="csv")
    parser.add_argument("--calls", type=int, default=600, help="library calls to time (at least 500)")
    parser.add_argument("--runs", type=int, default=15, help="end-to-end runs per command")
    parser.add_argument("--skip-batch", action="store_true")
    parser.add_argument("--record", action="store_true", help="write the table into benchmarks/README.md")
    parser.add_argument("--profile", action="store_true", help="print the top functions and stop")
    args = parser.parse_args()
    if args.profile:
        profiles()
        return
    load_before = load_average()
    figures = library_figures(max(args.calls, 500))
    figures += end_to_end_figures(args.runs)
    if not args.skip_batch:
        figures += batch_figures(args.n, args.jobs, args.batch_format)
    text = (
        f"Run on {dt.date.today().isoformat()}, {machine()}; load average {load_before} at the start and "
        f"{load_average()} at the end (1 minute).\n\n{table(figures)}"
    )
    print(text)
    if args.record:
        record_between(RECORD_START, RECORD_END, text)


if __name__ == "__main__":
    main()
