"""A reader that stops reading standard output (`| head`) ends a command with 141 (128 + SIGPIPE), as a
shell reports it and as batch gives, not 1, the code of a failed check, which misleads a CI pipeline."""

from __future__ import annotations

import os
import subprocess
import sys

from helpers import EXAMPLES_DIR


def test_a_closed_pipe_ends_recommend_with_141() -> None:
    command = [sys.executable, "-m", "gpu_advisor.cli", "recommend", str(EXAMPLES_DIR / "public-chat.yaml")]
    process = subprocess.Popen(
        [*command, "--format", "json", "--as-of", "2026-11-30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={name: value for name, value in os.environ.items() if name != "GPU_ADVISOR_TRACEBACK"},
    )
    assert process.stdout is not None and process.stderr is not None
    # The JSON is far larger than a pipe's buffer: the writer meets the closed end.
    assert process.stdout.read(10) == b'{\n  "schem'
    process.stdout.close()
    stderr = process.stderr.read().decode("utf-8")
    process.stderr.close()
    assert process.wait(timeout=120) == 141, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
