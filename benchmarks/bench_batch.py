"""Figure (b) of bench.py: ``gpu-advisor batch`` over N generated workloads, its wall time and the resident
memory of its worker processes (read from /proc)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_common import EVALUATED_ON, Figure


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
