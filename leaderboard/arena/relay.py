"""One listening connection per machine, not per runner process: ``hegemon arena --workers N``
listens once (:class:`~.wakeup.Listener`, in the arena's process) and hands every wake to its
runner processes through a pipe each (:class:`Relay`); a runner reads its pipe
(:class:`Relayed`, ``--wake-fd``) instead of opening a listening connection of its own. Each
byte written is the listener's state (so a runner still polls while the arena's listener is
reconnecting or deaf); a pipe that ends (the arena gone) leaves the runner polling."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

import trio

from .wakeup import CONNECTING, DEAF, DOWN, LISTENING, Bell, Listener, wait_limit

BYTES = {LISTENING: b"L", DEAF: b"S", DOWN: b"D", CONNECTING: b"C"}
STATES = {byte[0]: state for state, byte in BYTES.items()}


class Relay:
    """The arena's side: its listener's every ring written to each runner's pipe."""

    def __init__(self, listener: Listener) -> None:
        self.listener = listener
        self._ends: list[int] = []

    @classmethod
    def for_db(cls, db: str, say: Callable[[str], None]) -> Relay | None:
        """A relay for the database ``db`` (its full URL; None on SQLite: no notifications)."""
        listener = Listener.for_url(db, say)
        return cls(listener) if listener is not None else None

    def pipe(self) -> int:
        """A new runner's end of a pipe (its file descriptor, to pass to the runner and close
        here once passed); the other end is written to at each ring, never blocking."""
        read, write = os.pipe()
        os.set_blocking(write, False)
        self._ends.append(write)
        return read

    def start(self) -> None:
        self.listener.bell.subscribe(self._send)
        self.listener.start()

    def _send(self) -> None:
        byte = BYTES[self.listener.state]
        for end in self._ends:
            # full: the runner has wakes unread already; broken: the runner is gone
            with contextlib.suppress(BlockingIOError, BrokenPipeError):
                os.write(end, byte)

    def close(self) -> None:
        self.listener.bell.unsubscribe(self._send)
        self.listener.close()
        for end in self._ends:
            with contextlib.suppress(OSError):
                os.close(end)


class Relayed:
    """A runner's side: the arena's listener as heard through the pipe ``fd``
    (:class:`~.wakeup.Hearing`: a bell and a wait limit); :meth:`run` reads it."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.bell = Bell()
        self.state = CONNECTING

    def timeout(self, poll: float) -> float:
        return wait_limit(self.state, poll)

    async def run(self) -> None:
        """Read the pipe until it ends, ringing the bell at each wake."""
        async with trio.lowlevel.FdStream(self.fd) as stream:
            while data := await stream.receive_some(256):
                self.state = STATES.get(data[-1], DOWN)
                self.bell.ring()
        self.state = DOWN  # the arena is gone: look every ``poll`` seconds
        self.bell.ring()
