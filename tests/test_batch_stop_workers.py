"""A batch stopped early by the system. Stopping the worker pool after a worker was ended while it wrote
a chunk's result: half a message in the result pipe held the pool's manager thread for ever, and with it
the interpreter's exit (a full disk or Ctrl-C left `batch --jobs 2` hanging after its summary)."""

from __future__ import annotations

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


def test_a_full_disk_names_the_results_file(tmp_path: Path) -> None:
    """A write to the results file that the system refuses said "[Errno 28] No space left on device" and
    no file (the flush after the failed write raised again, unnamed); it is the results file's, exit 5,
    and nothing is left beside it. A file-size limit refuses the writes as a full disk does."""
    import resource
    import signal
    import subprocess
    import sys

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    rows = "".join(f"w{n},llama-3.1-8b,fp8,{5000 + n}\n" for n in range(60))
    source = tmp_path / "w.csv"
    source.write_text("name,model.name,model.precision,requests_per_day\n" + rows, encoding="utf-8")
    out = tmp_path / "out.csv"
    command = [str(Path(sys.executable).parent / "gpu-advisor"), "batch", str(source), "--jobs", "1"]
    result = subprocess.run(
        [*command, "--format", "csv", "-o", str(out)],
        preexec_fn=limited,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 5, result.stderr
    assert f"error: [Errno 27] File too large: '{out}'" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.csv"]
