"""SIGTERM and SIGINT stop ``batch`` and ``sweep`` cleanly: workers included (no process left behind, standard
error closed), a valid partial output, a summary that says the run was interrupted, exit 130 or 143, and no
traceback or "Exception ignored" message; the workers of ``--scenarios`` end with their parent."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import EXAMPLES_DIR

AS_OF = "2026-11-30"


def csv_portfolio(path: Path, count: int) -> None:
    lines = ["name,model.name,model.precision,requests_per_day"]
    lines += [f"w{index:04d},llama-3.1-8b,bf16,{1000 + 37 * index}" for index in range(count)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for_rows(directory: Path, rows: int, timeout: float = 60) -> None:
    """Until the results being written (the temporary file beside the output) hold ``rows`` lines."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for temporary in [*directory.glob(".out.*.tmp"), *directory.glob("out.csv")]:
            try:
                if temporary.read_bytes().count(b"\n") > rows:
                    return
            except OSError:
                pass
        time.sleep(0.05)
    raise AssertionError("the batch wrote no results")


def start_batch(tmp_path: Path, jobs: str, *extra: str) -> tuple[subprocess.Popen[str], Path]:
    source = tmp_path / "portfolio.csv"
    csv_portfolio(source, 5000)
    output = tmp_path / "out.csv"
    command = [sys.executable, "-m", "gpu_advisor.cli", "batch", str(source), "--format", "csv"]
    process = subprocess.Popen(
        [*command, "-o", str(output), "--jobs", jobs, "--as-of", AS_OF, *extra],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # without COLUMNS (which pytest's environment may hold): the summary's lines stay whole in a pipe
        env={name: value for name, value in os.environ.items() if name != "COLUMNS"},
    )
    return process, output


def test_sigterm_stops_batch_and_its_workers_with_a_partial_output_and_a_summary(tmp_path: Path) -> None:
    process, output = start_batch(tmp_path, "2", "--summary", str(tmp_path / "summary.json"))
    wait_for_rows(tmp_path, 100)
    workers = children(process.pid)
    assert len(workers) >= 2
    process.send_signal(signal.SIGTERM)  # to the parent only, as a supervisor sends it
    # communicate() returns only once every holder of standard error has closed it, workers included
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 143, stderr
    assert not [pid for pid in workers if alive(pid)]
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    assert "interrupted (SIGTERM)" in stderr
    rows = list(csv.DictReader(io.StringIO(output.read_text(encoding="utf-8"))))
    assert 100 <= len(rows) < 5000
    assert [row["name"] for row in rows] == [f"w{index:04d}" for index in range(len(rows))]
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["interrupted"] is True and summary["interrupted_by"] == "SIGTERM"
    assert summary["evaluated"] == len(rows)
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_stopped_run_leaves_a_whole_earlier_output_and_puts_its_part_beside_it(tmp_path: Path) -> None:
    """With --force over an earlier complete output, a stopped run does not replace it with a part of
    the new one: the part goes to out.csv.partial, and the summary says where."""
    earlier = "name,deployment\nolder,api\n"
    (tmp_path / "out.csv").write_text(earlier, encoding="utf-8")
    process, output = start_batch(tmp_path, "2", "--force", "--summary", str(tmp_path / "summary.json"))
    wait_for_rows(tmp_path, 50)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 143, stderr
    assert output.read_text(encoding="utf-8") == earlier
    partial = tmp_path / "out.csv.partial"
    rows = list(csv.DictReader(io.StringIO(partial.read_text(encoding="utf-8"))))
    assert 50 <= len(rows) < 5000
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["partial_output"] == str(partial) and summary["evaluated"] == len(rows)
    said = f"interrupted (SIGTERM): the results written before are in {partial}; the earlier output is left"
    assert f"{said} whole" in " ".join(stderr.split())
    assert not list(tmp_path.glob(".*.tmp"))


def test_ctrl_c_on_csv_input_prints_no_traceback(tmp_path: Path) -> None:
    for jobs in ("1", "2"):
        process, output = start_batch(tmp_path, jobs)
        wait_for_rows(tmp_path, 64)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
        _, stderr = process.communicate(timeout=30)
        assert process.returncode == 130, stderr
        assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
        assert "I/O operation on closed file" not in stderr
        assert "interrupted by SIGINT" in stderr
        assert output.read_text(encoding="utf-8").startswith("line,name,")
        output.unlink()


def sweep_stopped_after(output: Path, seconds: float) -> tuple[int, str]:
    """A sweep of 1,800 points sent SIGTERM ``seconds`` after it starts: its exit code and standard error."""
    command = [sys.executable, "-m", "gpu_advisor.cli", "sweep", str(EXAMPLES_DIR / "public-chat.yaml")]
    process = subprocess.Popen(
        [
            *command,
            "--vary",
            "requests_per_day=1000:200000:1000",
            "--vary",
            "utilization=0.1:0.9:0.1",
            "--format",
            "json",
            "-o",
            str(output),
            "--as-of",
            AS_OF,
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(seconds)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    return process.returncode, stderr


def test_sigterm_stops_a_sweep_with_the_values_evaluated_so_far(tmp_path: Path) -> None:
    """The signal must come once the grid's first row is evaluated (about 3.5 s on an idle machine, of a
    grid of about 10 s). On a loaded machine start-up alone can take longer: a signal before the first
    row stops the sweep with nothing to write (no file), and the run is repeated with twice the wait,
    so the test does not depend on the machine's speed."""
    output = tmp_path / "sweep.json"
    seconds = 3.5
    returncode, stderr = sweep_stopped_after(output, seconds)
    while not output.exists() and seconds < 60:
        # Before its handler is installed the interpreter ends on the signal itself (-15), after it the
        # sweep says it stopped before any result.
        assert returncode == -signal.SIGTERM or "interrupted (SIGTERM) before any result" in stderr, stderr
        assert "Traceback" not in stderr
        seconds *= 2
        returncode, stderr = sweep_stopped_after(output, seconds)
    assert returncode == 143, stderr
    assert "Traceback" not in stderr
    result = json.loads(output.read_text(encoding="utf-8"))
    assert result["interrupted_by"] == "SIGTERM" and result["planned_points"] == 1800
    first, second = result["variables"]
    # whole rows only: every evaluated value of the first variable with all 9 of the second
    assert len(result["points"]) == len(first["values"]) * len(second["values"]) < 1800


def start_scenarios(memo: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """``recommend --scenarios`` in a session of its own, once its worker processes run."""
    command = [sys.executable, "-m", "gpu_advisor.cli", "recommend", str(EXAMPLES_DIR / "public-chat.yaml")]
    process = subprocess.Popen(
        [*command, "--scenarios", "20000", "--as-of", AS_OF, "-o", str(memo)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and len(workers) < 2:
        workers = [pid for pid in children(process.pid) if alive(pid)]
        time.sleep(0.05)
    assert len(workers) >= 2
    return process, workers


def test_scenario_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    """``recommend --scenarios`` draws over forked workers; its parent killed by SIGTERM (or SIGKILL, which
    lets it stop nothing) left them drawing for minutes. They end once they see the parent gone."""
    process, workers = start_scenarios(tmp_path / "m.md")
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and [pid for pid in workers if alive(pid)]:
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)]


def test_ctrl_c_stops_a_scenario_run_and_its_workers_as_batch_stops(tmp_path: Path) -> None:
    """Ctrl-C (to the whole process group, as a terminal sends it) on ``recommend --scenarios``: one line,
    exit 130, no memo file, no worker left (it was click's 'Aborted!' and exit 1)."""
    memo = tmp_path / "m.md"
    process, workers = start_scenarios(memo)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert (process.returncode, stderr) == (130, "interrupted (SIGINT) before any result\n")
    assert not [pid for pid in workers if alive(pid)] and not memo.exists()
