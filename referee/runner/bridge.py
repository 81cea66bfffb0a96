"""Calling grpcio from trio without a thread per call.

grpcio has no trio support; its sync stubs return a ``grpc.Future`` from ``.future()``. We wait
for that future with a trio Event set from grpc's done-callback through the trio token
(``run_sync_soon`` is thread-safe and never blocks). Cancelling the trio task cancels the RPC,
so the bot sees its call cancelled and ``trio.move_on_after`` really stops a slow bot.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import trio


class OutOfPatience(Exception):
    """The call was given up (and cancelled) because its ``patience`` ran out."""


async def call(
    method: Any,
    request: Any,
    timeout: float,  # noqa: ASYNC109 - gRPC's deadline: the call runs in grpc's own thread
    *,
    wait_for_ready: bool = False,
    metadata: Any = None,
    patience: Callable[[], float | None] | None = None,
) -> Any:
    """Await a unary gRPC call made with ``method`` (a sync stub's multi-callable).

    Returns the response, or raises ``grpc.RpcError`` (deadline, unavailable, too large, …).
    ``patience()``, if given, says how many seconds more to wait before asking it again, or
    None to give up: the call is then cancelled and :class:`OutOfPatience` raised.
    """
    token = trio.lowlevel.current_trio_token()
    done = trio.Event()

    def on_done(_: Any) -> None:
        # grpc may run this inline on our own thread when the call has already finished;
        # run_sync_soon is fine there too. After trio exits, there is nobody left to wake.
        try:
            token.run_sync_soon(done.set)
        except trio.RunFinishedError:
            pass

    future = method.future(
        request, timeout=timeout, wait_for_ready=wait_for_ready, metadata=metadata
    )
    future.add_done_callback(on_done)
    try:
        if patience is None:
            await done.wait()
        else:
            await wait_patiently(done.wait, done.is_set, patience)
    except BaseException:
        future.cancel()
        raise
    return future.result()


async def wait_patiently(
    wait: Callable[[], Awaitable[object]],
    done: Callable[[], bool],
    patience: Callable[[], float | None],
) -> None:
    """Await ``wait()`` until ``done()``, as long as ``patience()`` allows (see :func:`call`;
    one cancel scope a look); raises :class:`OutOfPatience` when it says no more."""
    seconds = patience()
    while seconds is not None:
        with trio.move_on_after(seconds):
            await wait()
        if done():
            return
        seconds = patience()
    raise OutOfPatience


def rpc_code(exc: BaseException) -> grpc.StatusCode | None:
    """The status code of a failed call, if it is a gRPC error."""
    code: Callable[[], grpc.StatusCode] | None = getattr(exc, "code", None)
    try:
        return code() if code is not None else None
    except Exception:  # a malformed error object must not take the referee down
        return None
