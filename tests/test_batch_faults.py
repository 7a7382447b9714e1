"""A fault in gpu-advisor on one row of a batch (an exception no check expected) is that row's error: the
other rows are evaluated and written, and the run ends with exit code 4, as an internal error does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.batch import run as batch_run


@pytest.mark.parametrize("mode", ["--allow-bad-rows", "--strict"])
def test_a_fault_on_one_row_leaves_the_others_evaluated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """--strict stops at a bad row; a fault is none, so the run goes on under it too."""
    real = batch_run.evaluate

    def faulty(workload: Any, *args: Any, **kwargs: Any) -> Any:
        if workload.name == "boom":
            raise ZeroDivisionError("float division by zero")
        return real(workload, *args, **kwargs)

    monkeypatch.setattr(batch_run, "evaluate", faulty)
    monkeypatch.delenv("GPU_ADVISOR_TRACEBACK", raising=False)
    rows = [
        {"name": name, "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 5000}
        for name in ("first", "boom", "last")
    ]
    source, output, summary = tmp_path / "in.jsonl", tmp_path / "out.csv", tmp_path / "summary.json"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    result = CliRunner().invoke(
        main,
        [
            "batch",
            str(source),
            "--jobs",
            "1",
            mode,
            "-o",
            str(output),
            "--summary",
            str(summary),
        ],
    )
    assert result.exit_code == 4
    assert (
        f"{source}:2: internal error: ZeroDivisionError: float division by zero (a fault in gpu-advisor, not "
        "in this row; the other rows are evaluated; please report it)"
    ) in result.output
    assert "1 row met a fault in gpu-advisor: exit code 4" in result.output
    assert [line.split(",")[1] for line in output.read_text(encoding="utf-8").splitlines()[1:]] == [
        "first",
        "last",
    ]
    written = json.loads(summary.read_text(encoding="utf-8"))
    assert (written["evaluated"], written["errors"], written["faults"]) == (2, 1, 1)
