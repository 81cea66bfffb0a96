"""Waking idle runners when work appears, instead of their polling for it.

On PostgreSQL the database says when a match becomes claimable (migration ``0020_work_notify``:
a trigger's ``pg_notify`` on :data:`CHANNEL`). A :class:`Listener` — one dedicated connection
per process, in a thread of its own — LISTENs there and rings a :class:`Bell`; whoever waits for
work (a local runner's loops, an arena web server's long-poll claims) waits for the bell, with a
safety-net timeout for what no write announces (a claim whose lease lapses).

LISTEN needs a session of its own: a pooler in transaction mode (PgBouncer) hands each
transaction to any server connection, so a notification never reaches the listener through it.
The listener therefore proves its path when it connects (a probe notification sent the way the
arena's writes go, through the database URL, must come back on the listening connection);
:data:`LISTEN_ENV` gives the direct URL to listen on when the arena goes through a bouncer.
A listener that cannot hear is *deaf*: it says so once and the waiters look every
:data:`SLOW_POLL` seconds. A listening connection that is lost is re-opened with backoff, the
waiters polling every second meanwhile: nothing waits on a dead connection.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..store import StoreError
from ..store.database import database_url

if TYPE_CHECKING:
    import psycopg

    from ..store import Store

CHANNEL = "hegemon_work"
"""The channel the database notifies on when work appears (migration ``0020_work_notify``)."""

LISTEN_ENV = "HEGEMON_LISTEN_URL"
"""A direct PostgreSQL URL to LISTEN on, for an arena reached through a pooler in transaction
mode (PgBouncer), through which notifications cannot pass; default: the database's own URL."""

SAFETY_WAIT = 60.0
"""Seconds a listening waiter waits at most: the net under what no write announces (a lapsed
claim, a notification lost with its connection)."""

SLOW_POLL = 10.0
"""Seconds between looks for work when notifications cannot reach this process (a pooler in
transaction mode and no :data:`LISTEN_ENV`)."""

PROBE_WAIT = 10.0
"""Seconds the listener waits for its own probe notification before it calls itself deaf."""

REPROBE_AFTER = 300.0
"""Seconds a deaf listener waits before it tries again (the pooler may have gone)."""

TICK = 1.0
"""Seconds the listening thread waits on its connection before it looks at its stop flag
(a wait on the socket: no query, no traffic)."""

BACKOFF_MAX = 30.0
"""Longest wait (seconds) between re-opening attempts of a lost listening connection."""

CONNECTING, LISTENING, DOWN, DEAF = "connecting", "listening", "down", "deaf"


class Bell:
    """A thread-safe doorbell: :meth:`ring` counts a ring and calls everyone subscribed (from
    the ringing thread: a subscriber hands the news to its own event loop). A waiter reads
    :attr:`rings` *before* it looks for work, and waits only if it has not changed since."""

    def __init__(self) -> None:
        self.rings = 0
        self._lock = threading.Lock()
        self._subscribers: set[Callable[[], None]] = set()

    def ring(self) -> None:
        with self._lock:
            self.rings += 1
            subscribers = list(self._subscribers)
        for wake in subscribers:
            wake()

    def subscribe(self, wake: Callable[[], None]) -> None:
        with self._lock:
            self._subscribers.add(wake)

    def unsubscribe(self, wake: Callable[[], None]) -> None:
        with self._lock:
            self._subscribers.discard(wake)


def _conninfo(text: str) -> str:
    """A psycopg connection string for a hegemon database URL (``postgresql+psycopg://``)."""
    url = database_url(text)
    if url.get_backend_name() != "postgresql":
        raise StoreError(f"{LISTEN_ENV} must be a postgresql:// URL")
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def listen_target(db: str) -> tuple[str, str] | None:
    """Where a process of the database ``db`` (its full URL) listens, as (psycopg URL, URL as
    shown): :data:`LISTEN_ENV` if set, else ``db``; None on SQLite (no server to notify
    through)."""
    if database_url(db).get_backend_name() != "postgresql":
        return None
    text = os.environ.get(LISTEN_ENV, "").strip() or db
    shown = database_url(text).set(drivername="postgresql").render_as_string(hide_password=True)
    return _conninfo(text), shown


def wait_limit(state: str, poll: float) -> float:
    """How long a waiter may wait for the bell of a listener in ``state``: :data:`SAFETY_WAIT`
    while listening, :data:`SLOW_POLL` when deaf, ``poll`` while (re)connecting."""
    return {LISTENING: SAFETY_WAIT, DEAF: SLOW_POLL}.get(state, poll)


class Hearing(Protocol):
    """What a waiter needs of a listener: its bell, and how long to wait for it."""

    bell: Bell

    def timeout(self, poll: float) -> float: ...


class Listener:
    """One dedicated connection LISTENing on :data:`CHANNEL` (in a daemon thread), ringing
    :attr:`bell` at each notification and whenever its :attr:`state` changes (the waiters then
    choose their timeout again: :meth:`timeout`). ``say`` hears, in one line each, when it
    listens, when it cannot, and when its connection is lost."""

    def __init__(
        self, listen_url: str, notify_url: str, shown: str, say: Callable[[str], None]
    ) -> None:
        self.listen_url, self.notify_url, self.shown, self.say = listen_url, notify_url, shown, say
        self.bell = Bell()
        self.state = CONNECTING
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hegemon-listen", daemon=True)

    @classmethod
    def for_store(cls, store: Store, say: Callable[[str], None]) -> Listener | None:
        """A listener for ``store``'s database (None on SQLite)."""
        return cls.for_url(store.secret_url(), say)

    @classmethod
    def for_url(cls, db: str, say: Callable[[str], None]) -> Listener | None:
        """A listener for the database ``db`` (its full URL; None on SQLite)."""
        target = listen_target(db)
        if target is None:
            return None
        return cls(target[0], _conninfo(db), target[1], say)

    def start(self) -> Listener:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening (the thread closes its connection within :data:`TICK`)."""
        self._stop.set()
        self.bell.ring()

    def close(self) -> None:
        """:meth:`stop`, and wait for the thread to end."""
        self.stop()
        if self._thread.is_alive():
            self._thread.join(TICK * 3)

    def __enter__(self) -> Listener:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def timeout(self, poll: float) -> float:
        """How long a waiter may wait for the bell now (:func:`wait_limit`)."""
        return wait_limit(self.state, poll)

    def _set(self, state: str) -> None:
        self.state = state
        self.bell.ring()  # waiters choose their timeout again (and look once: work may wait)

    def _run(self) -> None:
        import psycopg

        backoff = 1.0
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.listen_url, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if not self._probe(conn):
                        self._deaf()
                        continue
                    if self.state != LISTENING:
                        self.say(f"waiting for work on notifications from {self.shown}")
                    self._set(LISTENING)
                    backoff = 1.0
                    self._listen(conn)
            except psycopg.Error as exc:
                if self._stop.is_set():
                    return
                if self.state != DOWN:
                    line = " ".join(str(exc).split())[:200]
                    self.say(
                        f"the listening connection is lost ({line}); re-opened with backoff, "
                        "looking for work every second meanwhile"
                    )
                self._set(DOWN)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)

    def _listen(self, conn: psycopg.Connection) -> None:
        while not self._stop.is_set():
            for note in conn.notifies(timeout=TICK):
                if not note.payload.startswith("probe:"):  # others' probes wake nobody
                    self.bell.ring()
                if self._stop.is_set():
                    return

    def _probe(self, conn: psycopg.Connection) -> bool:
        """Whether a notification sent the way the arena writes reaches ``conn``."""
        import psycopg

        payload = f"probe:{secrets.token_hex(8)}"
        with psycopg.connect(self.notify_url, autocommit=True, connect_timeout=10) as other:
            other.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload), prepare=False)
        return any(note.payload == payload for note in conn.notifies(timeout=PROBE_WAIT))

    def _deaf(self) -> None:
        if self.state != DEAF:
            self.say(
                f"notifications do not reach this process through {self.shown} (a pooler in "
                f"transaction mode?): set {LISTEN_ENV} to the database's direct URL; until "
                f"then it looks for work every {SLOW_POLL:g} s"
            )
        self._set(DEAF)
        self._stop.wait(REPROBE_AFTER)
