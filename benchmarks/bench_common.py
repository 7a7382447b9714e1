"""What the benchmark's figures share (bench.py and its figure modules): the repository, the examples, the
evaluation date, and a figure with its target."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "examples").glob("*.yaml"))
EVALUATED_ON = dt.date(2026, 11, 30)


@dataclass(frozen=True)
class Figure:
    name: str
    value: str
    target: str
    met: bool | None
    """None: a figure shown for context, without a target."""


def workloads_from_examples() -> list[Any]:
    from gpu_advisor.engine.domain.workload import load_workload

    return [load_workload(str(path)) for path in EXAMPLES]
