"""Shared test helpers: a fixed evaluation date, the repository paths, and running a workload."""

from __future__ import annotations

import copy
import datetime as dt
from pathlib import Path
from typing import Any

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.rulebook.durable import Evaluator

EVALUATED_ON = dt.date(2026, 11, 30)
TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
EXAMPLES_DIR = REPO_ROOT / "examples"
GOLDEN_DIR = TESTS_DIR / "golden"


def merged(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``overrides`` applied; a nested ``model`` mapping replaces the base model whole, and
    an override of null removes the field (so its documented default applies)."""
    result = copy.deepcopy(base)
    result.update(copy.deepcopy(overrides))
    return {key: value for key, value in result.items() if value is not None}


def run(
    workload: dict[str, Any], evaluated_on: dt.date = EVALUATED_ON, evaluator: Evaluator | None = None
) -> Recommendation:
    return recommend(validate_workload(workload, "test"), evaluated_on, evaluator)


def knowledge_with(directory: Path, file_name: str, before: str, after: str) -> Path:
    """A copy of the shipped knowledge base in ``directory``/knowledge, with ``before`` (found exactly
    once) replaced by ``after`` in ``file_name``: for a test that a bad entry is refused at load."""
    import shutil

    from gpu_advisor.knowledge import KNOWLEDGE_DIR

    copy = directory / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, copy)
    path = copy / file_name
    text = path.read_text(encoding="utf-8")
    assert text.count(before) == 1, f"{before!r} is not in {file_name} once"
    path.write_text(text.replace(before, after), encoding="utf-8")
    return copy


def decile(values: list[float], k: int) -> float:
    """The k-th decile by linear interpolation between order statistics (numpy's default)."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * k / 10
    below = int(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)
