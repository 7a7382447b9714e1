"""``batch --executor dask --scheduler ADDRESS``: the batch's chunks on a Dask distributed cluster.

The same chunks as the local run (``run.evaluate_chunk``), submitted to the cluster with a bounded number
in flight and collected in submission order, so the output is the local run's, byte for byte: every
workload's result, its scenarios included (their draws are seeded per workload), depends only on the row.
Dask is an optional extra (``pip install "gpu-advisor[cluster]"``); the workers need gpu-advisor installed
at the same version. The client is the only thing this module keeps: no data is scattered ahead.
"""

from __future__ import annotations

import importlib
import itertools
import threading
from collections import deque
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any

from gpu_advisor.engine.apps.batch.rows import Row
from gpu_advisor.engine.apps.batch.summary import Outcome
from gpu_advisor.engine.common.errors import EngineError, InputError

if TYPE_CHECKING:
    from gpu_advisor.engine.apps.batch.run import Settings

CLUSTER_EXTRA = 'pip install "gpu-advisor[cluster]"'
_ONE_AT_A_TIME = threading.Lock()
"""A worker process evaluates one chunk at a time: each process has one rules engine, whose sessions one
thread at a time may use (start workers with ``--nthreads 1`` and one process per core)."""


def evaluate_on_worker(rows: list[Row], settings: Settings) -> list[Outcome]:
    from gpu_advisor.engine.apps.batch.run import evaluate_chunk

    with _ONE_AT_A_TIME:
        return evaluate_chunk(rows, settings)


def client_for(scheduler: str) -> Any:
    try:
        # Imported by name: the extra is optional, and its types are not part of the type check.
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise InputError(
            f"--executor dask needs Dask distributed: {CLUSTER_EXTRA}", field="--executor"
        ) from None
    try:
        # A malformed address is refused before a client exists: a client that fails half-built blocks
        # the interpreter's exit for a minute.
        address = distributed.comm.normalize_address(scheduler)
        if distributed.comm.parse_address(address)[0] != "inproc":  # a cluster in this process (tests)
            distributed.comm.get_address_host_port(address)
    except (ValueError, TypeError) as error:
        raise InputError(
            f"--scheduler: {scheduler!r} is not a scheduler address (tcp://HOST:PORT): {error}",
            field="--scheduler",
        ) from None
    try:
        return distributed.Client(scheduler, set_as_default=False, timeout="30s")
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError(
            f"--scheduler: cannot reach the Dask scheduler at {scheduler!r}: {error}", field="--scheduler"
        ) from None


def dask_chunks(
    chunks: Iterator[list[Row]], settings: Settings, scheduler: str, per_thread: int
) -> Generator[list[Outcome], None, None]:
    """Each chunk's outcomes, in input order; at most ``per_thread`` chunks per worker thread pending."""
    client = client_for(scheduler)
    pending: deque[Any] = deque()
    try:
        limit = max(1, sum(client.nthreads().values())) * per_thread
        for chunk in chunks:
            pending.append(client.submit(evaluate_on_worker, chunk, settings, pure=False))
            if len(pending) >= limit:
                break
        while pending:
            try:
                outcomes: list[Outcome] = pending.popleft().result()
            except Exception as error:
                # A lost scheduler, a killed worker, a worker without gpu-advisor: the cluster's own
                # errors, each of a different class.
                raise EngineError(
                    f"the Dask cluster at {scheduler} failed ({type(error).__name__}: {error}); "
                    "the results written so far are kept"
                ) from None
            for chunk in itertools.islice(chunks, 1):
                pending.append(client.submit(evaluate_on_worker, chunk, settings, pure=False))
            yield outcomes
    finally:
        for future in pending:
            future.cancel()
        client.close()
