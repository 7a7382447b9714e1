"""A batch stopped early by the system. Stopping the worker pool after a worker was ended while it wrote
a chunk's result: half a message in the result pipe held the pool's manager thread for ever, and with it
the interpreter's exit (a full disk or Ctrl-C left `batch --jobs 2` hanging after its summary)."""

from __future__ import annotations

import errno
import multiprocessing
import struct
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from gpu_advisor.engine.apps.batch.run import stop_workers


def _wait(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="the batch forks")
def test_half_a_result_in_the_pipe_does_not_hold_the_manager_thread() -> None:
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    pool.submit(_wait, 0.0).result()
    manager = pool._executor_manager_thread  # type: ignore[attr-defined]
    assert manager is not None and manager.is_alive()
    # The length of a 100-byte message and 10 of its bytes, as a worker killed mid-send leaves them.
    pool._result_queue._writer._send(struct.pack("!i", 100) + b"x" * 10)  # type: ignore[attr-defined]
    time.sleep(0.2)
    stop_workers(pool)
    manager.join(timeout=10)
    assert not manager.is_alive()


def test_a_full_disk_names_the_results_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write to the results file that the system refuses said "[Errno 28] No space left on device" and
    no file; it is the results file's, exit 5, and nothing is left beside it."""
    from batch_cli import CSV_INPUT, invoke, write

    from gpu_advisor.engine.apps.batch import run

    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(run, "_write_chunk", full)
    out = tmp_path / "out.jsonl"
    result = invoke(write(tmp_path, "w.csv", CSV_INPUT), "--jobs", "1", "-o", str(out))
    assert result.exit_code == 5
    assert f"error: [Errno 28] No space left on device: '{out}'" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.csv"]
