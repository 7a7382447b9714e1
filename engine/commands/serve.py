"""``gpu-advisor serve``: the HTTP service."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from gpu_advisor.engine.commands.common import (
    EXIT_SYSTEM_ERROR,
    handle_errors,
)
from gpu_advisor.engine.commands.http_settings import (
    BODY_TIMEOUT_SECONDS,
    HEADER_TIMEOUT_SECONDS,
    KEEP_ALIVE_SECONDS,
    MAX_CONNECTIONS,
    Limits,
)


def resolvable_host(host: str) -> str:
    """``host`` once the system resolves it: an address such as 256.1.1.1 or an unknown name is refused
    by name before the server starts (uvicorn reported it as a start-up failure, beside a guess)."""
    import socket

    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        reason = error.strerror if isinstance(error, socket.gaierror) else "not a valid host name"
        said = f"{host}: not an address or a host name this machine resolves ({reason})"
        raise click.BadParameter(said) from None
    return host


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on; 0.0.0.0 serves every interface.",
    callback=lambda _context, _param, value: resolvable_host(value),
)
@click.option("--port", type=click.IntRange(min=1, max=65535), default=8000, show_default=True)
@click.option(
    "--max-connections",
    type=click.IntRange(min=1),
    default=MAX_CONNECTIONS,
    show_default=True,
    help="Open connections at most; one more is answered 503 and closed.",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(min=0.1, max=3600),
    default=HEADER_TIMEOUT_SECONDS,
    show_default=True,
    help="Seconds a client has to send its request line and headers (408 after).",
)
@click.option(
    "--body-timeout",
    type=click.FloatRange(min=0.1, max=3600),
    default=BODY_TIMEOUT_SECONDS,
    show_default=True,
    help="Seconds a client has to send its request body (408 after).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=64),
    default=1,
    show_default=True,
    help="Server processes, each with its own engine; more answer more requests at once on more cores.",
)
@click.option(
    "--processes",
    type=click.IntRange(min=0, max=64),
    default=None,
    help="Processes that evaluate POST /recommend beside the server's own, each taking the next request "
    "when free; 0 evaluates in the server's threads. Default: one per CPU with --workers 1, else 0.",
)
@handle_errors
def serve(
    host: str,
    port: int,
    max_connections: int,
    header_timeout: float,
    body_timeout: float,
    workers: int = 1,
    processes: int | None = None,
) -> None:
    """Run the HTTP service: POST /recommend, /check, /size, /tco; GET /rules, /rules/{id}, /healthz,
    /readyz, /openapi.json."""
    import uvicorn

    from gpu_advisor.engine.pipeline.engines import rules_engine

    # Load the knowledge base and rule catalog first: a broken one exits with code 3 and its message,
    # like every other command, instead of a server start-up traceback.
    rules_engine()
    if processes is None:
        processes = available_cpus() if workers == 1 else 0
    config = server_config(host, port, max_connections, header_timeout, body_timeout, workers, processes)
    try:
        if workers == 1:
            uvicorn.Server(config).run()
            return
        from uvicorn.supervisors import Multiprocess

        Multiprocess(config, sockets=[config.bind_socket()]).run()
    except SystemExit as stop:
        # uvicorn exits with 3 where it cannot start (the address in use, a port it may not bind), the
        # code gpu-advisor keeps for a broken knowledge base: said as the system's refusal instead.
        from uvicorn.config import STARTUP_FAILURE

        if stop.code != STARTUP_FAILURE:
            raise
        from gpu_advisor.engine.i18n.environment import render
        from gpu_advisor.engine.i18n.formats import Format

        said = render("serve_failed.txt.j2", Format.named("en"), address=f"{host}:{port}")
        click.echo(said.rstrip("\n"), err=True)
        sys.exit(EXIT_SYSTEM_ERROR)


def server_config(
    host: str,
    port: int,
    max_connections: int = MAX_CONNECTIONS,
    header_timeout: float = HEADER_TIMEOUT_SECONDS,
    body_timeout: float = BODY_TIMEOUT_SECONDS,
    workers: int = 1,
    processes: int = 0,
) -> Any:
    """uvicorn's configuration of the service with its limits (``http_limits.py``); with several
    workers, each takes its share of the connections."""
    import uvicorn

    from gpu_advisor.engine.commands.http_limits import GuardedH11Protocol

    Limits(
        max(1, max_connections // workers), header_timeout, body_timeout, workers > 1, processes
    ).to_environment()
    return uvicorn.Config(
        "gpu_advisor.service:create_app",
        factory=True,
        host=host,
        port=port,
        http=GuardedH11Protocol,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        ws="none",
        workers=workers,
    )


def available_cpus(cgroup_cpu_max: Path = Path("/sys/fs/cgroup/cpu.max")) -> int:
    """The CPUs this process may use: those it may run on, fewer where a container's CPU quota (cgroup
    v2 ``cpu.max``, as ``docker --cpus`` and Kubernetes limits set it) allows less."""
    import math
    import os

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        quota, period = cgroup_cpu_max.read_text(encoding="ascii").split()[:2]
        if quota != "max":
            cpus = min(cpus, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota: the affinity stands
    return cpus
