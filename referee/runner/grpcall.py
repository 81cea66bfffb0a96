"""The one place the runner reaches below grpcio's public API: a streaming call whose messages
are sent and read by the caller's own operations, with no thread of grpcio's Python layer.

grpcio's public streaming call costs two Python threads a call (one reads the request iterator
and waits for each send to finish, one waits for each reply), so every decision hopped between
four threads. Below it, a channel's *integrated* call takes batches of operations (send a
message, read one) started from any thread, and reports each finished batch to a handler in
the channel's own polling thread — the thread every call of the channel already uses.
:class:`~hegemon.referee.runner.stream.CallStream` is built on it.

These are grpcio's internals (``grpc._channel``, ``grpc._cython.cygrpc``): :func:`call` returns
None where they are not as expected (another grpcio), and the runner then uses the public
streaming call instead, which behaves the same, only dearer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

try:  # grpcio's internals: absent or different in another grpcio, checked below
    from grpc import _channel as _grpc_channel
    from grpc import _common as _grpc_common
    from grpc._cython import cygrpc as _cygrpc

    _READY = all(
        hasattr(_cygrpc, name)
        for name in (
            "SendInitialMetadataOperation",
            "ReceiveStatusOnClientOperation",
            "ReceiveInitialMetadataOperation",
            "SendMessageOperation",
            "ReceiveMessageOperation",
            "OperationType",
            "PropagationConstants",
        )
    ) and hasattr(_grpc_channel, "_channel_managed_call_management")
except ImportError:  # pragma: no cover - another grpcio
    _READY = False

Handler = Callable[[Any], bool]
"""Called in the channel's polling thread with each finished batch (an event whose
``batch_operations`` say what finished); returns True once the call has nothing left
outstanding (the channel then stops counting it)."""


def call(channel: grpc.Channel, method: str, handler: Handler) -> Any | None:
    """Start a streaming call of ``method`` (``/package.Service/Method``) on ``channel``,
    its status read by ``handler``; or None where grpcio's internals are not as expected.
    Two batches are outstanding when it returns (the status, the initial metadata)."""
    state = getattr(channel, "_call_state", None)
    if not _READY or state is None:
        return None
    create = _grpc_channel._channel_managed_call_management(state)
    return create(
        _cygrpc.PropagationConstants.GRPC_PROPAGATE_DEFAULTS,
        method.encode(),
        None,  # host
        None,  # no deadline: the referee keeps the clock
        None,  # metadata
        None,  # credentials
        (
            (
                _cygrpc.SendInitialMetadataOperation(None, 0),
                _cygrpc.ReceiveStatusOnClientOperation(0),
            ),
            (_cygrpc.ReceiveInitialMetadataOperation(0),),
        ),
        handler,
        None,  # census context
        None,  # registered call handle
    )


def send(data: bytes) -> Any:
    """The operation that sends one serialized message."""
    return _cygrpc.SendMessageOperation(data, 0)


def receive() -> Any:
    """The operation that reads one message (None once the server ended the stream)."""
    return _cygrpc.ReceiveMessageOperation(0)


def cancel(live_call: Any) -> None:
    """Cancel the call: the server sees it cancelled, outstanding batches finish."""
    live_call.cancel(_cygrpc.StatusCode.cancelled, "cancelled by the referee")


def is_message(operation: Any) -> bool:
    """Did this finished operation read a message?"""
    return bool(operation.type() == _cygrpc.OperationType.receive_message)


def is_send(operation: Any) -> bool:
    """Did this finished operation send a message?"""
    return bool(operation.type() == _cygrpc.OperationType.send_message)


def is_status(operation: Any) -> bool:
    """Did this finished operation read the call's status?"""
    return bool(operation.type() == _cygrpc.OperationType.receive_status_on_client)


def status_ok(operation: Any) -> bool:
    """Did the call end with the status OK (the server ended it on purpose)?"""
    return bool(operation.code() == _cygrpc.StatusCode.ok)


class CallError(Exception):
    """A call's error status, read as the public API's ``grpc.RpcError`` gives it (its
    ``code()`` and ``details()``)."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self._code = code
        self._details = details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


def status_error(operation: Any) -> CallError:
    """The error of a call whose status (``operation``) is not OK."""
    code = _grpc_common.CYGRPC_STATUS_CODE_TO_STATUS_CODE.get(operation.code())
    return CallError(code or grpc.StatusCode.UNKNOWN, str(operation.details() or ""))


UNREADABLE = CallError(grpc.StatusCode.INTERNAL, "Exception deserializing response!")
"""A reply that does not parse, as the public API reports it."""
