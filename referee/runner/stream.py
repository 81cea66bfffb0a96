"""One game's ``DecideStream`` to one bot, driven from trio.

A bot that offers the stream (``HelloReply.decide_stream``) is asked every decision of a game
through one bidirectional call instead of one unary ``Decide`` each: no call to create per
decision, no future, no done-callback. grpcio's sync stream takes its requests from an
iterator it reads in a thread of its own (here a queue the trio side puts into), and its
replies are read by one thread per stream (:meth:`DecideStream._read`), which hands each to
trio through the trio token (``run_sync_soon`` is thread-safe and never blocks).

Each request carries its number; the reply carries it back. The reply trio waits for is the
one with the number last sent: an earlier number is a late answer (its decision timed out) and
is dropped. A reply with a number never sent, or not above the last reply's, is one nobody
asked for: the stream is cancelled at once in the reader thread (a flood costs the referee no
more than one message) and the waiting decision gets a protocol fault.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

import grpc
import trio

from . import bridge

_END = object()
"""Put in the request queue: the referee has no more requests (it half-closes the call)."""


class StreamEnded(Exception):
    """The stream ended while (or before) a decision waited on it; ``cause`` is the gRPC
    error it ended with, or None when the bot closed it (or sent what nobody asked for:
    ``detail`` then says so)."""

    def __init__(self, cause: BaseException | None, detail: str) -> None:
        super().__init__(detail)
        self.cause = cause
        self.detail = detail


HALF_CLOSED = "the bot ended its DecideStream while the referee waited for an answer"


class DecideStream:
    """One bot's stream of decisions for one game: ``await ask(request)`` for each; then
    :meth:`close`. Made on trio's thread (it keeps that run's token)."""

    def __init__(self, method: Any, metadata: Any = None) -> None:
        """``method`` is a sync stub's ``DecideStream`` multi-callable."""
        self._token = trio.lowlevel.current_trio_token()
        self._requests: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._call = method(iter(self._requests.get, _END), metadata=metadata)
        self._sent = 0  # the number of the last request sent (read by the reader thread)
        self._last_reply = 0  # the number of the last reply read (the reader thread's own)
        self._waiting = 0  # the number trio waits for; 0: none
        self._reply: Any = None
        self._done = trio.Event()
        self.ended: StreamEnded | None = None
        self.late = 0  # late answers dropped
        self._thread = threading.Thread(target=self._read, name="hegemon-stream", daemon=True)
        self._thread.start()

    async def ask(self, request: Any, patience: Callable[[], float | None] | None = None) -> Any:
        """Send ``request`` (numbered here) and return the bot's reply to it.

        Raises :class:`StreamEnded` if the stream ended, :class:`bridge.OutOfPatience` when
        ``patience`` runs out. A cancelled wait leaves the stream open: that answer, when it
        comes, is late and dropped."""
        if self.ended is not None:
            raise self.ended
        self._sent += 1
        request.number = self._sent
        self._waiting = self._sent
        self._reply = None
        self._done = done = trio.Event()
        self._requests.put(request)
        try:
            if patience is None:
                await done.wait()
            else:
                await bridge.wait_patiently(done, patience)
        finally:
            self._waiting = 0
        reply = self._reply
        if reply is None:
            assert self.ended is not None  # only an end sets the event without a reply
            raise self.ended
        self._reply = None
        return reply

    def close(self) -> None:
        """End the call (the bot sees it cancelled); the reader thread then ends by itself."""
        self._requests.put(_END)
        self._call.cancel()

    # ------------------------------------------------------------- the reader thread
    def _read(self) -> None:
        ended: StreamEnded
        try:
            for reply in self._call:
                number = reply.number
                if not self._last_reply < number <= self._sent:
                    self._call.cancel()
                    ended = StreamEnded(None, _unasked(number, self._last_reply, self._sent))
                    break
                self._last_reply = number
                self._hand(self._arrive, reply)
            else:
                ended = StreamEnded(None, HALF_CLOSED)
        except grpc.RpcError as exc:
            ended = StreamEnded(exc, "")
        except Exception as exc:
            ended = StreamEnded(exc, "")
        self._hand(self._end, ended)

    def _hand(self, function: Callable[[Any], None], value: Any) -> None:
        try:
            self._token.run_sync_soon(function, value)
        except trio.RunFinishedError:  # trio is gone: nobody is left to tell
            pass

    # ------------------------------------------------------------- on trio's thread
    def _arrive(self, reply: Any) -> None:
        if reply.number == self._waiting and self._reply is None:
            self._reply = reply
            self._done.set()
        else:
            self.late += 1

    def _end(self, ended: StreamEnded) -> None:
        if self.ended is None:
            self.ended = ended
        self._done.set()


def _unasked(number: int, last: int, sent: int) -> str:
    """Why a reply's number is one nobody asked for (a protocol fault's detail)."""
    if number > sent:
        return f"protocol error: DecideStream reply number {number}, but only {sent} sent"
    return f"protocol error: DecideStream reply number {number} after reply number {last}"
