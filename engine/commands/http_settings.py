"""The HTTP service's limits as settings (``http_limits.py`` applies them); no imports, so that the
command line's start stays fast."""

from __future__ import annotations

from dataclasses import dataclass

MAX_CONNECTIONS = 1000
"""Open connections at most; more than a gateway in front of the service would hold."""

HEADER_TIMEOUT_SECONDS = 10.0
"""A request line and headers take a few milliseconds; a client that needs longer is stalling."""

BODY_TIMEOUT_SECONDS = 30.0
"""A body of at most 1 MB arrives within this even over a slow link."""

KEEP_ALIVE_SECONDS = 5
"""uvicorn's default, stated: an idle kept-alive connection is closed after it."""

WORKER_THREADS = 4
"""Threads that validate bodies and run evaluations; the event loop only moves bytes, so /healthz stays
fast while they are busy. Requests beyond them wait for a thread (``/readyz`` says when they pile up)."""

SWITCH_INTERVAL_SECONDS = 0.001
"""How long a worker thread may hold the interpreter before the event loop gets a turn (Python's default
is 5 ms): /healthz and the reading of other requests wait less behind an evaluation."""

FD_RESERVE = 64
"""File descriptors kept for the service itself (logs, the knowledge files, the thread pool)."""


ENVIRONMENT_VARIABLE = "GPU_ADVISOR_SERVE_LIMITS"
"""How ``gpu-advisor serve`` hands its limits to the worker processes of ``--workers``, which import the
service afresh."""


@dataclass
class Limits:
    """What ``gpu-advisor serve`` was given (per worker process); read when uvicorn builds the
    application and its connections."""

    max_connections: int = MAX_CONNECTIONS
    header_timeout: float = HEADER_TIMEOUT_SECONDS
    body_timeout: float = BODY_TIMEOUT_SECONDS
    supervised: bool = False
    """A worker process of ``--workers``: it ends when its supervisor is gone."""
    processes: int = 0
    """Evaluation processes beside the server's own (``evaluation_pool.py``); 0 evaluates in its threads."""

    @classmethod
    def from_environment(cls) -> Limits:
        import json
        import os

        given = os.environ.get(ENVIRONMENT_VARIABLE)
        if not given:
            return cls()
        # Set by ``serve`` for its own workers; one set by hand that does not parse is not theirs, and
        # must not stop every command at import: the defaults hold.
        try:
            return cls(**json.loads(given))
        except (ValueError, TypeError):
            return cls()

    def to_environment(self) -> None:
        import dataclasses
        import json
        import os

        os.environ[ENVIRONMENT_VARIABLE] = json.dumps(dataclasses.asdict(self))
        for name, value in dataclasses.asdict(self).items():
            setattr(limits, name, value)


limits = Limits.from_environment()
