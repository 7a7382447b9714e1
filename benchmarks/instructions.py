"""Instructions per recommendation, counted by callgrind: a figure other load on the machine does not move.

    python benchmarks/instructions.py            # runs itself under valgrind, prints the count
    python benchmarks/instructions.py --calls 120

Wall times on a shared machine drift by a fifth or more from one minute to the next; the instruction count
of the same work moves by a few percent at most (with Python's hash seed, fixed here at 0). The six
examples are loaded and recommended once each (start-up, the engine, the per-model caches), then only
``measured_loop`` is counted: ``--calls`` recommendations cycling through the examples. Callgrind sees C
functions, not Python ones, so the loop is entered through ``operator.call`` (C: ``_operator_call``),
which nothing else on the recommendation's path calls, and collection is on only inside it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import operator
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
EVALUATED_ON = dt.date(2026, 11, 30)


def measured_loop(workloads: list[Any], calls: int) -> None:
    """The work callgrind counts (entered through ``operator.call``, see ``run_inside``)."""
    from gpu_advisor.api import recommend

    for index in range(calls):
        recommend(workloads[index % len(workloads)], EVALUATED_ON)


def run_inside(calls: int) -> None:
    from gpu_advisor.api import load_workload, recommend

    workloads = [load_workload(str(path)) for path in EXAMPLES]
    for workload in workloads:
        recommend(workload, EVALUATED_ON)
    operator.call(measured_loop, workloads, calls)


def count(calls: int) -> int:
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=_operator_call",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--inside",
                "--calls",
                str(calls),
            ],
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
            capture_output=True,
        )
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        if totals is None:
            raise SystemExit("callgrind wrote no totals")
        return int(totals.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        run_inside(args.calls)
        return
    total = count(args.calls)
    print(f"{total / args.calls / 1e6:.3f} million instructions per recommendation ({args.calls} calls)")


if __name__ == "__main__":
    main()
