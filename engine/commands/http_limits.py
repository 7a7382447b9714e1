"""The HTTP service's limits, so that slow, idle, numerous or oversized requests cannot block it.

- **Connections**: at most ``max_connections`` open at once (kept below the process's file-descriptor
  limit); one more is answered ``503`` and closed at once.
- **Header timeout**: a connection whose request line and headers are not complete within
  ``header_timeout`` seconds of its first byte (or of its opening) is answered ``408`` and closed, which
  ends slow-loris connections and idle sockets that never send anything.
- **Body**: at most ``max_bytes`` (413), complete within ``body_timeout`` seconds (408).
- **Keep-alive**: an idle kept-alive connection is closed after ``KEEP_ALIVE_SECONDS``.

Each refused or closed connection is logged once, on one line, without a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections.abc import Callable
from typing import Any

import anyio
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from gpu_advisor.engine.commands.http_settings import FD_RESERVE, MAX_CONNECTIONS, limits

logger = logging.getLogger("gpu_advisor.service")


def connection_limit(requested: int = MAX_CONNECTIONS) -> int:
    """``requested``, at most the process's open-file limit less a reserve, so that accepting never runs
    out of file descriptors."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return requested
    return max(1, min(requested, soft - FD_RESERVE))


REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
    b'Content-Length: 42\r\n\r\n{"detail": "too many open connections"}\r\n'
)
TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nConnection: close\r\n"
    b'Content-Length: 45\r\n\r\n{"detail": "request headers took too long"}\r\n'
)


def _peer(client: Any) -> str:
    return f"{client[0]}:{client[1]}" if client else "unknown peer"


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a connection limit and a header timeout (``limits``, as
    ``gpu-advisor serve`` was given them)."""

    refused = False
    header_timer: asyncio.TimerHandle | None = None

    @property
    def max_connections(self) -> int:
        return connection_limit(limits.max_connections)

    @property
    def header_timeout(self) -> float:
        return limits.header_timeout

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.max_connections:
            self.refused = True
            self.transport = transport
            peer = transport.get_extra_info("peername")
            logger.warning(
                "refused a connection from %s: %d connections open (the limit)",
                _peer(peer[:2] if peer else None),
                len(self.connections),
            )
            transport.write(REFUSED)
            transport.close()
            return
        super().connection_made(transport)
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.refused:
            return
        self._cancel_header_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if self.header_timer is None and (self.cycle is None or self.cycle.response_complete):
            self._arm_header_timer()  # the next request on a kept-alive connection
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._cancel_header_timer()  # the headers are complete: a request is running

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self.header_timer = self.loop.call_later(self.header_timeout, self._headers_timed_out)

    def _cancel_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _headers_timed_out(self) -> None:
        self.header_timer = None
        if self.transport.is_closing():
            return
        logger.warning(
            "closed a connection from %s: no complete request headers within %g s",
            _peer(self.client),
            self.header_timeout,
        )
        self.transport.write(TIMED_OUT)
        self.transport.close()


class BodyLimits:
    """Refuse request bodies over ``max_bytes`` (413) or slower than ``timeout`` seconds (408) before
    anything parses them.

    A declared Content-Length over the limit is refused without reading the body; otherwise the body
    is read here, counting bytes as they stream in (chunked uploads declare no length), and handed to
    the application only once it is complete and within the limits. Buffering costs nothing that the
    JSON parser would not need anyway, and it means no endpoint can start on a body that is cut off.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        timeout: float | None = None,
        pages: Callable[[Scope, int, float], Response | None] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = limits.body_timeout if timeout is None else timeout
        self.pages = pages
        """A browser's upload refused (the request's scope, the status, the limit: bytes for 413, seconds
        for 408): the page it came from, saying why in its language; None, or no hook: the JSON answer."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(
                scope, receive, send, 413, f"request body is larger than {self.max_bytes} bytes"
            )
            return
        chunks: list[bytes] = []
        size = 0
        with anyio.move_on_after(self.timeout) as deadline:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return  # the client is gone; nobody to answer
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_bytes:
                    await self._refuse(
                        scope, receive, send, 413, f"request body is larger than {self.max_bytes} bytes"
                    )
                    return
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
        if deadline.cancelled_caught:
            logger.warning(
                "closed a request from %s: body not complete within %g s",
                _peer(scope.get("client")),
                self.timeout,
            )
            await self._refuse(
                scope, receive, send, 408, f"request body not complete within {self.timeout:g} s"
            )
            return
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int, detail: str) -> None:
        limit = self.max_bytes if status == 413 else self.timeout
        page = self.pages(scope, status, limit) if self.pages is not None else None
        response = page or JSONResponse({"detail": detail}, status_code=status)
        response.headers["Connection"] = "close"
        await response(scope, receive, send)
