"""Store calls made off the event loop and retried through database outages."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import trio
from sqlalchemy import exc as sa_exc

from ..store import StoreError

T = TypeVar("T")

DEFAULT_RECONNECT_FOR = 600.0
"""Seconds a runner keeps retrying a database it cannot reach before it gives up."""


def is_disconnect(exc: StoreError) -> bool:
    """Whether the database failed for want of a connection (worth retrying until it is
    back), rather than refusing the statement."""
    cause = exc.__cause__
    if isinstance(cause, sa_exc.DBAPIError) and cause.connection_invalidated:
        return True
    return isinstance(cause, (sa_exc.OperationalError, sa_exc.InterfaceError))


class Retrying:
    """Calls store functions in a worker thread (so bots' clocks never wait for the database),
    retrying them: ``await db(store.progress, season_id)``.

    A lost or refused connection (the server restarting, the network gone) is retried with
    backoff — 0.25 s doubling to 5 s — for up to ``reconnect_for`` seconds (with
    ``reconnect``; the games in flight play on meanwhile), and the outage's start and end are
    told to ``log``; any other database error is retried ``retries`` times after a short
    pause. Every store call is safe to repeat: a commit whose answer was lost is recognised on
    the retry, never doubled."""

    def __init__(self, log: Callable[[str], Any], reconnect_for: float = DEFAULT_RECONNECT_FOR):
        self.log = log
        self.reconnect_for = reconnect_for
        self._down_since: float | None = None

    async def __call__(
        self, fn: Callable[..., T], *args: Any, retries: int = 2, reconnect: bool = True
    ) -> T:
        delay, pause, attempt = 0.25, 0.5, 0
        began: float | None = None
        while True:
            try:
                result = await trio.to_thread.run_sync(fn, *args)
            except StoreError as exc:
                if reconnect and is_disconnect(exc):
                    now = trio.current_time()
                    began = now if began is None else began
                    if self._down_since is None:
                        self._down_since = now
                        self.log(f"database unreachable ({exc}); {self._retrying()}")
                    if now - began >= self.reconnect_for:
                        raise
                    await trio.sleep(delay)
                    delay = min(delay * 2, 5.0)
                    continue
                if attempt >= retries:
                    raise
                attempt += 1
                await trio.sleep(pause)
                pause *= 4
                continue
            if self._down_since is not None:
                self.log(
                    f"database reachable again after {trio.current_time() - self._down_since:.0f} s"
                )
                self._down_since = None
            return result

    def _retrying(self) -> str:
        if math.isinf(self.reconnect_for):
            return "retrying until it is back"
        return f"retrying for up to {self.reconnect_for:g} s"
