"""The long-poll claim's waiting room, one per web server: a runner's claim that finds nothing
may wait up to ``wait`` seconds (at most :data:`MAX_WAIT`) for a match to become claimable,
instead of claiming again every second.

Every waiting claim waits on one :class:`~..wakeup.Bell`, rung by the server's one reader of the
database: its :class:`~..wakeup.Listener` (PostgreSQL: the database's notification, and a
timer at the earliest held lease's lapse, which no write announces), or, while nobody can
notify it (SQLite, a deaf or lost listener), one check every :data:`CHECK_EVERY` seconds —
made only while a claim waits, whatever the number waiting. At most ``capacity``
claims wait at once (a flood of long polls holds no more of the server: the rest are refused
with a 503 that runners retry with backoff); a claim whose runner hung up stops waiting; a web
server shutting down answers every waiting claim at once (:meth:`WaitingRoom.close`)."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable

from hegemon.leaderboard.store import Store, StoreError

from ..runner import next_lapse, waiting_seasons
from ..wakeup import LISTENING, Bell, Listener

MAX_WAIT = 30.0
"""The longest a claim waits (seconds), whatever the runner asks: a waiting claim also covers a
lease that lapses (no write announces it) by claiming again when it ends."""

CAPACITY_ENV = "HEGEMON_RUNNER_WAITING"
"""Claims that may wait at once on one web server (default :data:`CAPACITY`)."""

CAPACITY = 200
"""Claims waiting at once by default: each is an idle connection and a few objects; more than
an arena's runners, far fewer than the server's connections."""

CHECK_EVERY = 1.0
"""Seconds between the one check for claimable work while claims wait and no notification
can reach the server."""


def capacity_setting() -> int:
    """:data:`CAPACITY_ENV` if it is a whole number ≥ 1, else :data:`CAPACITY`."""
    value = os.environ.get(CAPACITY_ENV, "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else CAPACITY


def claimable_now(store: Store, lease: float) -> bool:
    """Whether a claim would find a match: one waiting, or one whose lease lapsed."""
    if waiting_seasons(store):
        return True
    lapse = next_lapse(store, lease)
    return lapse is not None and lapse <= 0


class WaitingRoom:
    """Where a web server's long-poll claims wait (see the module's doc)."""

    def __init__(self, store: Store, lease: float, capacity: int | None = None) -> None:
        self.store, self.lease = store, lease
        self.capacity = capacity if capacity is not None else capacity_setting()
        self.waiting = 0
        self.closed = False
        self._started = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.listener = Listener.for_store(store, self._say)
        self.bell = self.listener.bell if self.listener is not None else Bell()

    @staticmethod
    def _say(line: str) -> None:
        print(f"web: runners' claims: {line}", flush=True)

    def mark(self) -> int:
        return self.bell.rings

    def enter(self) -> bool:
        """Take a place to wait (False: the room is full, or closed)."""
        with self._lock:
            if self.closed or self.waiting >= self.capacity:
                return False
            self.waiting += 1
            if not self._started:  # the reader starts with the first claim that waits
                self._started = True
                if self.listener is not None:
                    self.listener.start()
                threading.Thread(target=self._check, name="hegemon-claims", daemon=True).start()
            return True

    def leave(self) -> None:
        with self._lock:
            self.waiting -= 1

    async def wait(self, mark: int, seconds: float, hung_up: Awaitable[object]) -> bool:
        """Until the bell rings after ``mark``, ``seconds`` pass, or the room closes; False if
        the client hung up (``hung_up`` finished) meanwhile."""
        loop = asyncio.get_running_loop()
        rung = asyncio.Event()

        def wake() -> None:  # from the ringing thread
            loop.call_soon_threadsafe(rung.set)

        self.bell.subscribe(wake)
        gone = asyncio.ensure_future(hung_up)
        try:
            if self.bell.rings != mark or self.closed:
                return not gone.done()
            ring = asyncio.ensure_future(rung.wait())
            await asyncio.wait({ring, gone}, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
            ring.cancel()
            return not gone.done()
        finally:
            gone.cancel()
            self.bell.unsubscribe(wake)

    def close(self) -> None:
        """Answer every waiting claim now, and take no more (the server is stopping)."""
        self.closed = True
        self._stop.set()
        self.bell.ring()
        if self.listener is not None:
            self.listener.stop()  # its thread ends within a second, on its own

    def _check(self) -> None:
        """The one reader's timer while claims wait: with the listener hearing the database,
        a look when the earliest held lease lapses (no write announces that); without it, a
        look for claimable work every :data:`CHECK_EVERY` seconds."""
        pause = CHECK_EVERY
        while not self._stop.wait(pause):
            pause = CHECK_EVERY
            if not self.waiting:
                continue
            try:
                if self.listener is None or self.listener.state != LISTENING:
                    if claimable_now(self.store, self.lease):
                        self.bell.ring()
                    continue
                lapse = next_lapse(self.store, self.lease)
            except StoreError:  # the database is away: the claims' own looks will say so
                continue
            if lapse is not None and lapse <= 0:
                self.bell.ring()
            else:
                pause = max(CHECK_EVERY, min(self.lease if lapse is None else lapse, MAX_WAIT))
