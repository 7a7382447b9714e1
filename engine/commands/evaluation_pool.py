"""Evaluations of the HTTP service in worker processes, beside the event loop's process.

An evaluation is several milliseconds of Python under one interpreter lock: in threads, the requests of
all clients queue behind each other on one core, however many cores the machine has. A pool of processes
takes the next evaluation in whichever process is free (unlike ``serve --workers``, whose server
processes keep each connection to themselves, so that one may queue while another idles), and the
server's own process only reads requests and writes answers, which keeps ``/healthz`` fast as well.

A worker returns the answer as JSON text (the serializer runs there too) or, for a refused input, the
error's message and field: exceptions do not cross the process boundary with their fields.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from gpu_advisor.engine.commands.worker_processes import follow_server, spawned_pool
from gpu_advisor.engine.common.errors import EngineError, InputError, KnowledgeError

Outcome = tuple[str, Any]
"""``("ok", JSON text)``, ``("input_error", (message, field))``, ``("knowledge_error", message)`` or
``("engine_error", message)``."""

logger = logging.getLogger("gpu_advisor.service")

START_TIMEOUT_SECONDS = 120.0
"""A worker imports the engine and builds its models in a few seconds; far longer means it cannot start."""


def _start_worker(parent: int) -> None:
    """A worker follows its server (``worker_processes.follow_server``) and loads the engine before its
    first request."""
    from gpu_advisor.engine.common.model_build import build_loaded_models
    from gpu_advisor.engine.pipeline.engines import rules_engine

    follow_server(parent)
    rules_engine()
    build_loaded_models()


def _started() -> None:
    """A task that holds its worker briefly, so that each worker of the pool takes one at the start."""
    import time

    time.sleep(0.05)


def recommend_json(workload: Any, as_of: dt.date, lang: str = "en", currency: str = "USD") -> Outcome:
    """``POST /recommend`` in a worker: the recommendation as the JSON the endpoint answers, its texts in
    ``lang`` and their amounts in ``currency`` (as ``recommend --lang --currency``)."""
    from gpu_advisor.engine.apps.recommend import recommend
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    try:
        fmt = load_knowledge().display_format(lang, currency)
        return "ok", recommend(workload, as_of, fmt=fmt).model_dump_json()
    except InputError as error:
        return "input_error", (str(error), error.field)
    except KnowledgeError as error:
        return "knowledge_error", str(error)
    except EngineError as error:
        return "engine_error", str(error)


def answer(outcome: Outcome) -> str:
    """The JSON text of a worker's outcome; a refused input or a broken catalog raises as it would have in
    the server's own process, for the service's error handlers."""
    kind, value = outcome
    if kind == "ok":
        return str(value)
    if kind == "input_error":
        message, field = value
        raise InputError(message, field=field)
    if kind == "knowledge_error":
        raise KnowledgeError(value)
    raise EngineError(value)


class EvaluationPool:
    """The worker processes of one server process; started and stopped with the service."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self.pool: ProcessPoolExecutor | None = None
        self.replacing = asyncio.Lock()

    def start(self) -> None:
        self.pool = spawned_pool(self.processes, _start_worker)
        for started in [self.pool.submit(_started) for _ in range(self.processes)]:
            started.result(timeout=START_TIMEOUT_SECONDS)

    def stop(self) -> None:
        """Stop the workers and wait for them (each is idle or finishing one evaluation)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    async def run(self, function: Any, *arguments: Any) -> str:
        """``function(*arguments)`` in a worker. Where the pool broke (a worker killed from outside), the
        first request to find it so starts a new one and is evaluated there, once: a request whose
        evaluation itself kills its worker fails with a server error and cannot take the server down."""
        import anyio.to_thread

        if not self.processes:
            return answer(await anyio.to_thread.run_sync(function, *arguments))
        loop = asyncio.get_running_loop()
        pool = self.pool
        if pool is not None:
            try:
                return answer(await loop.run_in_executor(pool, function, *arguments))
            except BrokenProcessPool:
                pass
        async with self.replacing:  # one request replaces the pool; the others wait for it
            if self.pool is pool:
                # Stopping joins the dead pool's processes and starting spawns new ones: both block, so
                # neither runs on the event loop (/healthz answers meanwhile).
                await anyio.to_thread.run_sync(self.replace)
        if self.pool is None:
            raise RuntimeError("the evaluation processes could not be started; the log above says why")
        try:
            return answer(await loop.run_in_executor(self.pool, function, *arguments))
        except BrokenProcessPool:
            raise RuntimeError("an evaluation process ended while it answered this request") from None

    def replace(self) -> None:
        """A new pool for a broken one; where it cannot start, none (the error is logged)."""
        self.stop()
        try:
            self.start()
        except Exception:
            logger.exception("could not start the evaluation processes")
            self.stop()
