"""What one client may take of the web server, and the guards that hold it there.

- **Bodies** are counted, never trusted: a declared ``Content-Length`` past the route's limit
  is refused (413) before a byte is read, and a body sent without one (chunked) is counted
  while it streams in and refused once it passes the limit. Forms get :data:`FORM_BYTES`;
  the two upload routes get the bot archive's budget (``HEGEMON_BOT_MAX_BYTES`` and its
  files) plus the form's framing, and only :attr:`WebLimits.max_uploads` of them are received
  at once.
- **Time**: a connection must send a request's whole head (request line and headers) within
  :attr:`WebLimits.read_timeout` seconds of its first byte (of connecting, for the first
  request), however it trickles them in; a body that stops arriving for as long is dropped
  (408); an idle kept-alive connection is closed after :attr:`WebLimits.keep_alive` seconds.
  uvicorn has the keep-alive timeout but no header timeout (a slow-header client holds its
  connection for ever), hence :class:`GuardedProtocol`, its HTTP protocol with that timer.
- **Connections**: past :attr:`WebLimits.max_connections` open at once, a request gets
  uvicorn's 503 (``limit_concurrency``), so a flood costs a bounded number of descriptors.

A refusal sent before the request's body has all arrived closes the connection
(``Connection: close``): the rest of a 100 MiB body is never parsed nor kept, only dropped
while the connection lingers for the client to read the refusal (:class:`GuardedProtocol`).
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

import anyio
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

FORM_BYTES = 64 * 1024
"""The largest body of any request but an upload (a sign-in, an admin's form, an API call)."""

UPLOAD_FRAMING = 64 * 1024
"""What a browser's form adds around an upload's file (the other fields, the part headers)."""

UPLOAD_PATHS = re.compile(r"^/me/bots$|^/api/bots/[^/]+/versions$")
"""The routes that take a bot's archive (:mod:`.endpoints.submissions`): the only large bodies."""

RESULT_PATH = "/api/runner/result"
"""The route an HTTP runner posts a played game to (its record and logs: a large body)."""

RESULT_BYTES = 64 * 1024 * 1024
"""The largest posted game: a record of the longest game the decision limit allows, and every
seat's capped log, in JSON with the logs in base64 (:mod:`.endpoints.runner_api`)."""

DEFAULT_READ_TIMEOUT = 10.0
DEFAULT_KEEP_ALIVE = 5
DEFAULT_MAX_CONNECTIONS = 1000
DEFAULT_MAX_UPLOADS = 4

TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 47\r\nconnection: close\r\n\r\n"
    b"refused: the request's headers came too slowly\n"
)


def _upload_budget() -> int:
    from hegemon.leaderboard.registry.upload import archive_budget

    return archive_budget() + UPLOAD_FRAMING


@dataclass(frozen=True)
class WebLimits:
    """The web server's limits (``hegemon web`` / ``hegemon arena`` options; see
    docs/security.md)."""

    read_timeout: float = DEFAULT_READ_TIMEOUT
    """Seconds a client may take to send a request's head, or pause inside its body."""
    keep_alive: int = DEFAULT_KEEP_ALIVE
    """Seconds an idle connection is kept open between requests."""
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    """Connections (and requests) at once; past them a request gets a 503."""
    max_uploads: int = DEFAULT_MAX_UPLOADS
    """Uploads received at once; past them an upload gets a 503 (retry in a moment)."""
    form_bytes: int = FORM_BYTES
    upload_bytes: int = field(default_factory=_upload_budget)
    result_bytes: int = RESULT_BYTES

    def __post_init__(self) -> None:
        if self.read_timeout <= 0 or self.keep_alive < 1:
            raise ValueError("the read timeout and the keep-alive must be above 0")
        if self.max_connections < 1 or self.max_uploads < 1:
            raise ValueError("--max-connections and the uploads at once must be at least 1")

    def body_limit(self, scope: Scope) -> int:
        """The most bytes the body of the request ``scope`` may have."""
        if scope["path"] == RESULT_PATH:
            return self.result_bytes
        return self.upload_bytes if UPLOAD_PATHS.match(scope["path"]) else self.form_bytes

    def uvicorn_options(self) -> dict[str, Any]:
        """The options of ``uvicorn.Config`` that apply these limits."""
        return {
            "http": guarded_protocol(self.read_timeout),
            "limit_concurrency": self.max_connections,
            "timeout_keep_alive": self.keep_alive,
        }


# ---------------------------------------------------------------------------------- headers
class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol with two guards more:

    - it closes a connection (408) whose request head has not all arrived within
      :attr:`header_timeout` seconds of its first byte — or of the connection, for its first
      request. uvicorn times only idle kept-alive connections; a client sending a header byte
      now and then (slowloris) would hold its connection, and its descriptor, for ever.
    - a response that closes the connection before the request's body has all arrived (a
      refusal) lingers: the response is sent, the connection half-closed, and what the client
      still sends is dropped unread until it closes too, or for :attr:`header_timeout` seconds
      at most. Closed at once, the unread bytes would reset the connection and the client
      could lose the response (a 413's one line) before it read it."""

    header_timeout: float = DEFAULT_READ_TIMEOUT
    _head_timer: asyncio.TimerHandle | None = None
    _lingering = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._lingering:
            return  # the rest of a refused body: dropped
        before = self.cycle
        if before is None or before.response_complete:
            self._arm()  # bytes of a new request's head (the keep-alive timer stops here)
        super().data_received(data)
        if self.cycle is not before:  # its head is complete: the app (and its limits) has it
            self._disarm()
            self.cycle.transport = _Lingering(self)  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def close_lingering(self) -> None:
        """Close after a response: at once, unless the request's body is still arriving."""
        transport = self.transport
        if self._lingering or transport.is_closing():
            return
        if self.cycle is None or not self.cycle.more_body or not transport.can_write_eof():
            transport.close()
            return
        self._lingering = True
        transport.write_eof()  # after the response: the client reads it, then the end
        self.flow.resume_reading()
        self.loop.call_later(self.header_timeout, transport.close)

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.header_timeout, self._timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _timed_out(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.write(TIMED_OUT)
            self.transport.close()


class _Lingering:
    """The connection's transport as a request sees it, whose ``close`` lingers
    (:meth:`GuardedProtocol.close_lingering`)."""

    def __init__(self, protocol: GuardedProtocol):
        self._protocol, self._transport = protocol, protocol.transport

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)

    def close(self) -> None:
        self._protocol.close_lingering()


def guarded_protocol(header_timeout: float) -> type[GuardedProtocol]:
    """:class:`GuardedProtocol` with its timeout (uvicorn makes the protocol from the class)."""
    return type("GuardedProtocol", (GuardedProtocol,), {"header_timeout": header_timeout})


# ---------------------------------------------------------------------------------- bodies
class _Refused(Exception):
    """A body past its limit (413) or stalled (408): the request is answered with this."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _declared(scope: Scope) -> tuple[int | None, bool]:
    """The request's declared Content-Length (None: none, or not a number) and whether it has
    a body at all (a length above 0, or a Transfer-Encoding)."""
    length: int | None = None
    chunked = False
    for name, value in scope.get("headers", ()):
        if name == b"content-length" and value.strip().isdigit():
            length = int(value)
        elif name == b"transfer-encoding":
            chunked = True
    return length, chunked or bool(length)


class BodyLimits:
    """ASGI middleware holding every request's body to its route's limit (413) and the client
    to the read timeout while sending it (408), and bounding the uploads received at once
    (503); a response sent before the body has all arrived closes the connection."""

    def __init__(self, app: ASGIApp, limits: WebLimits | None = None):
        self.app, self.limits = app, limits or WebLimits()
        self.uploads = asyncio.Semaphore(self.limits.max_uploads)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.body_limit(scope)
        declared, has_body = _declared(scope)
        if declared is not None and declared > limit:
            await _refuse(scope, send, 413, _too_large(limit))
            return
        upload = has_body and UPLOAD_PATHS.match(scope["path"]) is not None
        if upload and self.uploads.locked():
            await _refuse(scope, send, 503, "busy: other uploads are being received; retry soon")
            return
        if upload:
            await self.uploads.acquire()
        try:
            await self._guarded(scope, receive, send, limit, has_body)
        finally:
            if upload:
                self.uploads.release()

    async def _guarded(
        self, scope: Scope, receive: Receive, send: Send, limit: int, has_body: bool
    ) -> None:
        received, ended, started = 0, not has_body, False

        async def counted() -> Message:
            nonlocal received, ended
            if ended:
                return await receive()
            with anyio.move_on_after(self.limits.read_timeout) as waited:
                message = await receive()
            if waited.cancelled_caught:
                raise _Refused(408, "refused: the request's body stopped arriving")
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _Refused(413, _too_large(limit))
                ended = not message.get("more_body", False)
            else:
                ended = True
            return message

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if not ended:  # the rest of the body is dropped with the connection
                    message = _closing(message)
            await send(message)

        try:
            await self.app(scope, counted, sending)
        except _Refused as exc:
            if started:  # too late to answer: uvicorn closes a response left unfinished
                return
            await _refuse(scope, send, exc.status, str(exc))


def _too_large(limit: int) -> str:
    return f"refused: the request's body is larger than this server's limit ({limit} bytes)"


def _closing(start: Message) -> Message:
    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"connection"]
    return {**start, "headers": [*headers, (b"connection", b"close")]}


async def _refuse(scope: Scope, send: Send, status: int, message: str) -> None:
    """Answer ``status`` with a one-line ``message`` (JSON under /api/) and close."""
    response: Response
    if scope["path"].startswith("/api/"):
        response = JSONResponse({"error": message}, status)
    else:
        response = PlainTextResponse(message, status)
    response.headers["connection"] = "close"
    if status == 503:
        response.headers["retry-after"] = "1"

    async def nothing() -> Message:
        return {"type": "http.disconnect"}

    await response(scope, nothing, send)
