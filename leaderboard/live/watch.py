"""The web's side of live games: :class:`LiveWatch` turns each game's stored row (:mod:`.rows`)
into its public form (:mod:`.public`) once per change, shared by every spectator of this web
server, and :class:`StreamLimits` bounds how many streams are open.

A spectator's stream looks at the shared :class:`Snapshot` every :data:`POLL` seconds; only
the first look after :data:`POLL` seconds reads the database (a few columns), and only a
change of the stored decisions re-runs the engine on the record so far. So a spectator costs
one dictionary look-up a second and the bytes sent; a game costs one small read a second and
one replay per runner write, whoever watches.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from hegemon.referee.record import RecordError

from ..store import Store
from . import rows
from .public import public_replay, shown

POLL = 1.0
"""Seconds between two looks of a stream (and of the database, per game) for new decisions."""

PLAYING, FINISHED, STOPPED = "playing", "finished", "stopped"
"""A live game's state: in play; stored (its replay is at ``/game/ID``); stopped without a
result (its runner was stopped or died: the match is played again later, afresh)."""

MAX_STREAMS = 500
"""Live streams a web server keeps open at once (each holds a connection)."""

MAX_STREAMS_PER_ADDRESS = 4
"""Live streams one address may hold open at once."""

KEPT_ENDED = 300.0
"""Seconds an ended game's last snapshot is kept (its late spectators are sent on)."""


@dataclass
class Snapshot:
    """A live game as the public sees it now: ``data`` its public replay data (every step
    stored: only the first ``visible`` are shown), ``status`` (:data:`PLAYING`, …) and, once
    finished, ``game_id`` (its replay's page)."""

    match_id: int
    status: str
    data: dict[str, Any] = field(default_factory=dict)
    visible: int = 0
    decisions: int = -1  # the stored decisions ``data`` was made from
    game_id: int | None = None
    checked: float = 0.0  # time.monotonic() of the last look at the database

    def steps(self, start: int) -> list[dict[str, Any]]:
        """The visible steps from ``start`` on."""
        return list(self.data.get("steps", [])[start : self.visible])


class LiveWatch:
    """Every game in play of ``store`` as :class:`Snapshot`s, looked at most every ``poll``
    seconds each (thread-safe: the web's thread pool and its event loop share it)."""

    def __init__(self, store: Store, poll: float = POLL):
        self.store = store
        self.poll = poll
        self._games: dict[int, Snapshot] = {}
        self._locks: dict[int, threading.Lock] = {}
        self._lock = threading.Lock()

    def peek(self, match_id: int) -> Snapshot | None:
        """The game's snapshot if it was looked at within ``poll`` seconds (no I/O: the event
        loop may call it), else None: ask :meth:`snapshot`."""
        found = self._games.get(match_id)
        if found is None or (found.status == PLAYING and not found.data):
            return None  # a game not yet written: looked at again until it is
        return found if time.monotonic() - found.checked < self.poll else None

    def snapshot(self, match_id: int) -> Snapshot | None:
        """The game's snapshot, brought up to date if ``poll`` seconds have passed; None: no
        such game in play (nor one that ended while watched). Reads the database."""
        with self._lock:
            lock = self._locks.setdefault(match_id, threading.Lock())
            self._forget_ended()
        with lock:  # one look per game at a time: its other spectators wait and share it
            found = self.peek(match_id)
            if found is not None:
                return found
            found = self._look(match_id, self._games.get(match_id))
            if found is None:
                self._games.pop(match_id, None)
            else:
                found.checked = time.monotonic()
                self._games[match_id] = found
            return found

    def _look(self, match_id: int, old: Snapshot | None) -> Snapshot | None:
        state = rows.state(self.store, match_id)
        if state is not None and not state[1]:  # in play
            if old is not None and old.status == PLAYING and old.decisions == state[0]:
                return old
            return self._read(match_id) or old
        game_id = rows.finished_game(self.store, match_id)
        data, visible = (old.data, old.visible) if old is not None else ({}, 0)
        if game_id is not None:
            return Snapshot(match_id, FINISHED, data, visible, game_id=game_id)
        return None if old is None else Snapshot(match_id, STOPPED, data, visible)

    def _read(self, match_id: int) -> Snapshot | None:
        """The row's record so far, replayed and made public (no data yet before its first
        write; None: gone meanwhile, or a record the engine does not reproduce — never shown
        in part)."""
        found = rows.read(self.store, match_id)
        if found is None:
            return None
        row, seed = found
        if not row.record:
            return Snapshot(match_id, PLAYING, decisions=row.decisions)
        from hegemon.referee.viewer.replay import replay_data  # loaded by the web, not the runner

        try:
            data = public_replay(replay_data(row.record, row.title, seed=seed))
        except (RecordError, ValueError, KeyError):
            return None
        steps = len(data["steps"])
        return Snapshot(match_id, PLAYING, data, shown(steps), decisions=row.decisions)

    def _forget_ended(self) -> None:
        """Drop the snapshots of games ended (or not looked at) :data:`KEPT_ENDED` s ago."""
        now = time.monotonic()
        for match_id, snap in list(self._games.items()):
            if now - snap.checked > KEPT_ENDED:
                del self._games[match_id]
                self._locks.pop(match_id, None)


class StreamLimits:
    """How many live streams are open, per address and in all; :meth:`open` refuses past
    ``per_address`` or ``total``."""

    def __init__(self, per_address: int = MAX_STREAMS_PER_ADDRESS, total: int = MAX_STREAMS):
        self.per_address = per_address
        self.total = total
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def open(self, address: str) -> str | None:
        """Count a new stream of ``address``; None if it may open, else why not (one line)."""
        with self._lock:
            if sum(self._open.values()) >= self.total:
                return "refused: too many live streams open on this server; try again later"
            if self._open.get(address, 0) >= self.per_address:
                return f"refused: at most {self.per_address} live streams at once from one address"
            self._open[address] = self._open.get(address, 0) + 1
            return None

    def close(self, address: str) -> None:
        """A stream of ``address`` has ended."""
        with self._lock:
            left = self._open.get(address, 0) - 1
            if left > 0:
                self._open[address] = left
            else:
                self._open.pop(address, None)
