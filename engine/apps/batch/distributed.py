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
from gpu_advisor.engine.common.errors import InputError

if TYPE_CHECKING:
    from gpu_advisor.engine.apps.batch.run import Settings

CLUSTER_EXTRA = 'pip install "gpu-advisor[cluster]"'
_ONE_AT_A_TIME = threading.Lock()
"""A worker process evaluates one chunk at a time: the rules engine and the per-object caches are one per
process and not shared between threads (start workers with ``--nthreads 1`` to use every core)."""


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
            outcomes: list[Outcome] = pending.popleft().result()
            for chunk in itertools.islice(chunks, 1):
                pending.append(client.submit(evaluate_on_worker, chunk, settings, pure=False))
            yield outcomes
    finally:
        for future in pending:
            future.cancel()
        client.close()
