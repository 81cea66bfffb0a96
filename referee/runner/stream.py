"""One game's ``DecideStream`` to one bot, driven from trio.

A bot that offers the stream (``HelloReply.decide_stream``) is asked every decision of a game
through one bidirectional call instead of one unary ``Decide`` each: no call to create per
decision, no future, no done-callback. :func:`open_stream` opens it:

- :class:`CallStream` (where grpcio's internals allow, :mod:`.grpcall`): trio's thread starts
  each send and read itself, and the reply is handed to trio from the channel's own polling
  thread — two threads a decision.
- :class:`ThreadedStream` (grpcio's public API): grpcio reads the requests from an iterator
  (a queue the trio side puts into) in a thread of its own, and one more thread per stream
  (:meth:`ThreadedStream._read`) reads the replies — four threads a decision.

Both hand a reply to trio through a queue and an eventfd that trio's own poll watches (a write
is thread-safe and never blocks) and behave the same. Each request carries its number; the
reply carries it back. The reply trio waits for is the one with the number last sent: an
earlier number is a late answer (its decision timed out) and is dropped. A reply with a number
never sent, or not above the last reply's, is one nobody asked for: the stream is cancelled at
once in the thread that read it (a flood costs the referee no more than one message) and the
waiting decision gets a protocol fault.
"""

from __future__ import annotations

import abc
import os
import queue
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

import grpc
import trio

from ..wire import bot_pb2
from ..wire.decide_bytes import number_field
from . import bridge, grpcall

_END = object()
"""Put in the request queue: the referee has no more requests (it half-closes the call)."""
METHOD = "/hegemon.v1.Bot/DecideStream"


class StreamEnded(Exception):
    """The stream ended while (or before) a decision waited on it; ``cause`` is the gRPC
    error it ended with, or None when the bot closed it (or sent what nobody asked for:
    ``detail`` then says so)."""

    def __init__(self, cause: BaseException | None, detail: str) -> None:
        super().__init__(detail)
        self.cause = cause
        self.detail = detail


HALF_CLOSED = "the bot ended its DecideStream while the referee waited for an answer"
CLOSED = "the referee closed the DecideStream while a decision waited on it"


def encode(request: Any) -> bytes:
    """A numbered request's bytes, as they go on the stream (bytes already: as they are)."""
    if isinstance(request, bytes):
        return request
    data: bytes = request.SerializeToString()
    return data


def open_stream(channel: grpc.Channel, stub: Any) -> DecideStream:
    """A new stream on ``channel`` (``stub`` is its ``BotStub``): a :class:`CallStream` where
    grpcio's internals allow it, else a :class:`ThreadedStream`. Made on trio's thread."""
    stream = CallStream(channel)
    if stream.started:
        return stream
    return ThreadedStream(stub.DecideStream)


class DecideStream(abc.ABC):
    """One bot's stream of decisions for one game: ``await ask(request)`` for each; then
    :meth:`close`. Made and asked on trio's thread. Its transports send with :meth:`_send`
    and, from their own thread, give each reply to :meth:`_read_reply` and the end to
    :meth:`_hand_end`.

    The reading thread hands what it read over through a queue and an eventfd that trio's
    thread waits on (``wait_readable``): the waiting task is woken by trio's own poll, with no
    ``run_sync_soon`` (whose wakeup then runs trio's entry-queue task, one more task switch a
    decision). What arrives while nobody waits (a late answer) is taken at the next ask."""

    def __init__(self) -> None:
        self._sent = 0  # the number of the last request sent (read by the reading thread)
        self._last_reply = 0  # the number of the last reply read (the reading thread's own)
        self._waiting = 0  # the number trio waits for; 0: none
        self._reply: Any = None
        self.ended: StreamEnded | None = None
        self.late = 0  # late answers dropped
        self._arrived: deque[Any] = deque()  # replies and the end (a StreamEnded), in order
        self._wake = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)  # -1 once closed
        self._wake_lock = threading.Lock()  # the fd is not written once closed (its number
        # may be another file's by then)

    async def ask(self, request: Any, patience: Callable[[], float | None] | None = None) -> Any:
        """Send ``request`` (a DecideRequest, or its bytes; numbered here) and return the bot's
        reply to it.

        Raises :class:`StreamEnded` if the stream ended, :class:`bridge.OutOfPatience` when
        ``patience`` runs out. A cancelled wait leaves the stream open: that answer, when it
        comes, is late and dropped."""
        self._take()  # a late answer, or the end, that came since the last ask
        if self.ended is not None:
            raise self.ended
        self._sent += 1
        if isinstance(request, bytes):  # written by decide_bytes: the number is its last field
            request += number_field(self._sent)
        else:
            request.number = self._sent
        self._waiting = self._sent
        self._reply = None
        self._send(request)
        try:
            if patience is None:
                await self._answer()
            else:
                await bridge.wait_patiently(self._answer, self._answered, patience)
        finally:
            self._waiting = 0
        reply = self._reply
        if reply is None:
            assert self.ended is not None  # only the end ends the wait without a reply
            raise self.ended
        self._reply = None
        return reply

    def _answered(self) -> bool:
        """Whether the reply trio waits for, or the end, has been taken."""
        return self._reply is not None or self.ended is not None

    async def _answer(self) -> None:
        """Wait until :meth:`_answered`."""
        while not self._answered():
            try:
                await trio.lowlevel.wait_readable(self._wake)
            except (trio.ClosedResourceError, ValueError):  # closed meanwhile (or before)
                self.ended = StreamEnded(None, CLOSED)
                return
            try:
                os.eventfd_read(self._wake)
            except BlockingIOError:  # woken for a count already read
                pass
            self._take()

    def _take(self) -> None:
        """Take what the reading thread handed over (on trio's thread)."""
        arrived = self._arrived
        while arrived:
            item = arrived.popleft()
            if isinstance(item, StreamEnded):
                if self.ended is None:
                    self.ended = item
            elif item.number == self._waiting and self._reply is None:
                self._reply = item
            else:
                self.late += 1

    @abc.abstractmethod
    def _send(self, request: Any) -> None:
        """Hand ``request`` to grpcio (each transport its own way)."""

    def close(self) -> None:
        """End the call (the bot sees it cancelled), and the hand-over."""
        self._end_call()
        with self._wake_lock:
            wake, self._wake = self._wake, -1
        if wake >= 0:
            trio.lowlevel.notify_closing(wake)
            os.close(wake)

    @abc.abstractmethod
    def _end_call(self) -> None:
        """End the call (each transport its own way)."""

    # ------------------------------------------------------------- the reading thread
    def _read_reply(self, reply: Any) -> StreamEnded | None:
        """Take a reply read off the stream: hand it to trio, or (one nobody asked for) say
        how the stream ends — the caller then cancels it."""
        number = reply.number
        if not self._last_reply < number <= self._sent:
            return StreamEnded(None, _unasked(number, self._last_reply, self._sent))
        self._last_reply = number
        self._hand(reply)
        return None

    def _hand_end(self, ended: StreamEnded) -> None:
        self._hand(ended)

    def _hand(self, item: Any) -> None:
        self._arrived.append(item)
        with self._wake_lock:
            if self._wake >= 0:  # closed: nobody is left to tell
                os.eventfd_write(self._wake, 1)


class CallStream(DecideStream):
    """A stream on grpcio's integrated call (:mod:`.grpcall`): trio's thread starts each send
    and each read, and the channel's polling thread reports them (:meth:`_finished`).

    A request is sent in one batch with the read of its reply (one event a decision, not
    two), and grpc allows one send per call at once, until its batch ends: so a request made
    while the previous one's batch is outstanding (its decision timed out, the answer has not
    come) waits in :attr:`_unsent` and goes out when that answer comes; a bot answering in
    order reads it then anyway (docs/protocol.md). ``started`` is False where grpcio's
    internals are not as expected."""

    def __init__(self, channel: grpc.Channel) -> None:
        super().__init__()
        self._lock = threading.Lock()  # trio's thread and grpc's polling thread start batches
        self._outstanding = 2  # batches not finished: the status, the initial metadata
        self._sending = False  # a batch with a send in it is outstanding
        self._reading = False  # a batch with a read in it is outstanding
        self._unsent: deque[bytes] = deque()
        self._call: Any = grpcall.call(channel, METHOD, self._finished)
        self.started = self._call is not None

    def _send(self, request: Any) -> None:
        data = encode(request)
        with self._lock:
            if self._sending:
                self._unsent.append(data)
            else:
                self._start_send(data)

    def _start_send(self, data: bytes) -> None:
        """Send ``data``, with the read of its reply if none is outstanding (lock held)."""
        if self._reading:
            self._operate(grpcall.send(data))
        else:
            self._reading = self._operate(grpcall.send(data), grpcall.receive())
        self._sending = True

    def _operate(self, *operations: Any) -> bool:
        """Start one batch (lock held); False if the call has already ended."""
        started = bool(self._call.operate(operations, self._finished))
        self._outstanding += started
        return started

    def _end_call(self) -> None:
        grpcall.cancel(self._call)

    # ------------------------------------------------------------- grpc's polling thread
    def _finished(self, event: Any) -> bool:
        """One batch finished: take what it read; True once nothing is outstanding."""
        ended: StreamEnded | None = None
        with self._lock:
            self._outstanding -= 1
            sent = False
            for operation in event.batch_operations:
                if grpcall.is_message(operation):
                    self._reading = False
                    ended = ended or self._message(operation.message())
                elif grpcall.is_status(operation):
                    ended = ended or _status_end(operation)
                else:
                    sent = sent or grpcall.is_send(operation)
            if sent:
                self._sending = False
                if self._unsent and ended is None:
                    self._start_send(self._unsent.popleft())
            done = self._outstanding == 0
        if ended is not None:
            self._hand_end(ended)
        return done

    def _message(self, data: bytes | None) -> StreamEnded | None:
        """A reply read (lock held): None when the bot ended the stream (its status says how,
        next). A late reply is followed by a read of the next."""
        if data is None:
            return None
        try:
            reply = bot_pb2.DecideReply.FromString(data)
        except Exception:  # not a DecideReply: as the public API reports it
            grpcall.cancel(self._call)
            return StreamEnded(grpcall.UNREADABLE, "")
        ended = self._read_reply(reply)
        if ended is not None:
            grpcall.cancel(self._call)
        elif reply.number < self._sent and not self._reading:
            self._reading = self._operate(grpcall.receive())
        return ended


def _status_end(operation: Any) -> StreamEnded:
    """How a stream ended, by its status: OK is the bot's own end (it half-closed)."""
    if grpcall.status_ok(operation):
        return StreamEnded(None, HALF_CLOSED)
    return StreamEnded(grpcall.status_error(operation), "")


class ThreadedStream(DecideStream):
    """A stream on grpcio's public streaming call: requests read from a queue by grpc's
    thread, replies by a reader thread of its own."""

    def __init__(self, method: Any, metadata: Any = None) -> None:
        """``method`` is a sync stub's ``DecideStream`` multi-callable."""
        super().__init__()
        self._requests: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._call = method(iter(self._requests.get, _END), metadata=metadata)
        self._thread = threading.Thread(target=self._read, name="hegemon-stream", daemon=True)
        self._thread.start()

    def _send(self, request: Any) -> None:
        if isinstance(request, bytes):  # the stub writes the messages it is given
            request = bot_pb2.DecideRequest.FromString(request)
        self._requests.put(request)

    def _end_call(self) -> None:
        """End the call (the bot sees it cancelled); the reader thread then ends by itself."""
        self._requests.put(_END)
        self._call.cancel()

    def _read(self) -> None:
        ended: StreamEnded | None = None
        try:
            for reply in self._call:
                ended = self._read_reply(reply)
                if ended is not None:
                    self._call.cancel()
                    break
            else:
                ended = StreamEnded(None, HALF_CLOSED)
        except grpc.RpcError as exc:
            ended = StreamEnded(exc, "")
        except Exception as exc:
            ended = StreamEnded(exc, "")
        self._hand_end(ended)


def _unasked(number: int, last: int, sent: int) -> str:
    """Why a reply's number is one nobody asked for (a protocol fault's detail)."""
    if number > sent:
        return f"protocol error: DecideStream reply number {number}, but only {sent} sent"
    return f"protocol error: DecideStream reply number {number} after reply number {last}"
