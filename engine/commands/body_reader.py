"""Reading and validating HTTP request bodies off the event loop.

A body of a few kilobytes (every real request) is read in one of the service's worker threads. A larger
one (up to the 1 MB limit: almost always a mistake or an attack) goes to a separate process: Python's
JSON decoder holds the interpreter for as long as it scans a document (130 ms for 990 KB), which no
thread can interrupt, so in a thread it would stall the event loop and ``/healthz`` with it. Only the
outcome comes back: the 422 body, or the data of a valid body (which is small, since no request model
has a long list or a large object).
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from gpu_advisor.engine.commands.http_errors import BODY_MODELS, read_and_validate
from gpu_advisor.engine.commands.worker_processes import follow_server, spawned_pool
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.user_input import NotJsonText

LARGE_BODY_BYTES = 64 * 1024
"""From this size on a body is read in the separate process; a workload or proposal is under 10 KB."""

Outcome = tuple[Any, dict[str, Any] | None]


def read_elsewhere(body: bytes, path: str) -> tuple[str, Any]:
    """In the worker process: ``("ok", data)``, ``("invalid", 422 body)`` or ``("input_error", (message,
    field, whether the text is not JSON at all))``; exceptions are returned as data, since an
    ``InputError`` does not survive pickling with its fields."""
    try:
        data, problems = read_and_validate(body, BODY_MODELS.get(path))
    except InputError as error:
        return "input_error", (str(error), error.field, isinstance(error, NotJsonText))
    if problems is not None:
        return "invalid", problems
    return "ok", data


class BodyReader:
    """The worker process for large bodies, started with the service and stopped with it."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        self.pool = spawned_pool(1, follow_server)
        self.pool.submit(read_elsewhere, b"{}", "/size").result()  # import the models now, not at a request

    def stop(self) -> None:
        """Stop the worker process and wait for it (it is idle or finishing one body)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    async def read(self, body: bytes, path: str) -> Outcome:
        """The parsed body and, where it is invalid, the 422 body; raises ``InputError`` where the text is
        not JSON or a value is refused by the reader."""
        import anyio.to_thread

        if self.pool is None or len(body) < LARGE_BODY_BYTES:
            return await anyio.to_thread.run_sync(read_and_validate, body, BODY_MODELS.get(path))
        try:
            kind, value = await asyncio.get_running_loop().run_in_executor(
                self.pool, read_elsewhere, body, path
            )
        except BrokenProcessPool:
            # The worker died (killed from outside): start another for the next request, read this one here.
            with contextlib.suppress(Exception):
                self.stop()
                self.start()
            return await anyio.to_thread.run_sync(read_and_validate, body, BODY_MODELS.get(path))
        if kind == "input_error":
            message, field, not_json = value
            raise (NotJsonText if not_json else InputError)(message, field=field)
        if kind == "invalid":
            return None, value
        return value, None
