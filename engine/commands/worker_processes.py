"""The service's worker processes (the large-body reader, the evaluation pool): started by spawn, they
leave stopping to the server and end with it."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor


def follow_server(parent: int) -> None:
    """In a worker: Ctrl-C reaches the whole process group, so the server stops the worker itself; and the
    worker ends once the server is gone, even a killed one."""
    import signal

    from gpu_advisor.engine.common.signals import exit_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)


def spawned_pool(processes: int, initializer: Callable[[int], None]) -> ProcessPoolExecutor:
    """A pool of ``processes`` workers, each run through ``initializer(server's pid)`` first."""
    import multiprocessing
    import os

    # spawn: the service runs threads, which a forked child must not inherit half-way.
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        processes, mp_context=context, initializer=initializer, initargs=(os.getpid(),)
    )
