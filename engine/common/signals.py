"""SIGINT and SIGTERM as one clean stop for the long-running commands (``batch``, ``sweep``).

Inside ``stop_on_signals()`` either signal raises ``Interrupted`` (a ``KeyboardInterrupt``, so every
``except KeyboardInterrupt`` and ``finally`` on the way out runs: worker processes are stopped, the
results so far are kept, the summary says the run was interrupted). Further signals are ignored while
the command cleans up, so a second Ctrl-C cannot cut the summary short. The exit code is the shell's:
128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """The command was asked to stop by ``signum``."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signum).name


def exit_code_of(error: KeyboardInterrupt) -> int:
    """130 for Ctrl-C (a plain KeyboardInterrupt), 128 + the signal's number for ``Interrupted``."""
    return error.exit_code if isinstance(error, Interrupted) else 128 + signal.SIGINT


def _stop(signum: int, frame: FrameType | None) -> None:
    for other in STOP_SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    raise Interrupted(signum)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGINT and SIGTERM into ``Interrupted`` for the duration of the block (main thread only;
    elsewhere, as under a test runner's thread, the block runs unchanged)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    for signum in STOP_SIGNALS:
        signal.signal(signum, _stop)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


PARENT_CHECK_SECONDS = 0.5


def exit_with_parent(parent: int) -> None:
    """In a worker process: a thread that ends the process once ``parent`` is gone (killed outright,
    SIGKILL, so that it could not stop its workers), instead of waiting for work forever while it holds
    the caller's standard error and memory."""

    def watch() -> None:
        import os
        import time

        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
