"""Speed of ``recommend --scenarios 1000`` against its target (benchmarks/README.md, figure (h)).

    python benchmarks/scenarios.py             # every example, 1,000 scenarios, 2 processes and 1
    python benchmarks/scenarios.py --record    # also write the table into benchmarks/README.md

The time is the scenario run alone (draws, evaluations, the one-at-a-time runs and the summary), after one
warm-up run of the same workload, so start-up and the base recommendation are not in it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import time
from pathlib import Path

from readme_record import record_between

REPO = Path(__file__).resolve().parent.parent
EVALUATED_ON = dt.date(2026, 11, 30)
START = "<!-- scenario run: written by scenarios.py --record -->"
END = "<!-- end of scenario run -->"
TARGET_SECONDS = 2.0


def measure(path: Path, scenarios: int, jobs: int) -> float:
    from gpu_advisor.engine.apps.recommend import evaluate_workload
    from gpu_advisor.engine.apps.scenarios.recommend import robustness_of
    from gpu_advisor.engine.apps.scenarios.run import local_mapper
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.domain.workload import load_workload_with_ranges

    workload, ranges = load_workload_with_ranges(str(path))
    base = evaluate_workload(workload, EVALUATED_ON, knowledge=load_knowledge())
    robustness_of(base, workload, ranges, None, None, 50, 1, local_mapper(jobs))
    start = time.perf_counter()
    robustness_of(base, workload, ranges, None, None, scenarios, 1, local_mapper(jobs))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenarios", type=int, default=1000)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    load_start = f"{os.getloadavg()[0]:.2f}"
    rows, two = [], []
    for path in sorted((REPO / "examples").glob("*.yaml")):
        seconds = {jobs: measure(path, args.scenarios, jobs) for jobs in (2, 1)}
        two.append(seconds[2])
        rows.append(f"| {path.stem} | {seconds[2]:.2f} s | {seconds[1]:.2f} s |")
    median = statistics.median(two)
    met = "met" if median <= TARGET_SECONDS else "**missed**"
    text = "\n".join(
        [
            f"Run on {dt.date.today().isoformat()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}; "
            f"load average {load_start} at the start and {os.getloadavg()[0]:.2f} at the end (1 minute).",
            "",
            f"| Workload | {args.scenarios:,} scenarios, 2 processes | the same, 1 process |",
            "|---|---|---|",
            *rows,
            "",
            f"Median over the examples with 2 processes: {median:.2f} s "
            f"against ≤ {TARGET_SECONDS:.0f} s: {met}.",
        ]
    )
    print(text)
    if args.record:
        record_between(START, END, text)


if __name__ == "__main__":
    main()
