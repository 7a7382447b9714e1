"""Figure (c) of bench.py: ``gpu-advisor recommend`` end to end against an interpreter that only imports
the dependencies, and where a fresh interpreter's start-up goes, phase by phase."""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_common import REPO, Figure

IMPORTS_ONLY = "import durable.lang, pydantic, jinja2, click, yaml"
ONE_MODEL = (
    "import durable.lang, jinja2, click, yaml\n"
    "from pydantic import BaseModel\n"
    "class Model(BaseModel):\n    x: int\n"
    "Model(x=1)"
)
"""The floor of any tool built on pydantic: ``import pydantic`` alone loads almost nothing (pydantic
imports its model machinery on first use), defining and validating one model loads it."""


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
