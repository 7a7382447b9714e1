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
import os
import platform
import pstats
import time
from collections.abc import Callable
from pathlib import Path

from bench_batch import batch_figures
from bench_common import EVALUATED_ON, Figure, workloads_from_examples
from bench_library import library_figures
from bench_start_up import end_to_end_figures
from readme_record import record_between

RECORD_START = "<!-- latest run: written by bench.py --record -->"
RECORD_END = "<!-- end of latest run -->"


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
        from gpu_advisor.engine.pipeline.engines import rules_engine
        from gpu_advisor.engine.present.memo import render_memo
        from gpu_advisor.engine.report.recommendation import throughput_accuracy

        workload = workloads_from_examples()[0]
        rules_engine()
        throughput_accuracy()
        render_memo(recommend(workload, EVALUATED_ON))

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
