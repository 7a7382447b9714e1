"""``gpu-advisor serve``: the HTTP service."""

from __future__ import annotations

import click

from gpu_advisor.engine.commands.common import (
    handle_errors,
)


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on; 0.0.0.0 serves every interface.",
)
@click.option("--port", type=click.IntRange(min=1, max=65535), default=8000, show_default=True)
@handle_errors
def serve(host: str, port: int) -> None:
    """Run the HTTP service: POST /recommend, GET /rules, GET /rules/{id}, GET /healthz, /openapi.json."""
    import uvicorn

    from gpu_advisor.engine.pipeline.engines import rules_engine

    # Load the knowledge base and rule catalog first: a broken one exits with code 3 and its message,
    # like every other command, instead of a server start-up traceback.
    rules_engine()
    uvicorn.run("gpu_advisor.service:create_app", factory=True, host=host, port=port)
