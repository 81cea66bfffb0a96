"""The runner's side of a live game: :class:`LiveFeed` keeps the match's ``live_games`` row
(:mod:`.rows`) up to date while the referee plays, at most every :data:`FLUSH` seconds.

It never slows the game down nor stops it: the referee's ``on_progress`` only hands the new
record lines to one writer thread (each game's writes in order, one at a time — a write still
under way when the next is due just lets the lines pile up for the one after), and a write
that fails is dropped (the row is a view, the record written at the end is the truth).
"""

from __future__ import annotations

import json
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ..store import Store
from . import rows

FLUSH = 1.0
"""Seconds between two writes of one game's progress (a spectator sees moves at this pace)."""

_WRITER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hegemon-live")
"""The one thread that writes every live row of this process, in the order asked."""


def public_lines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The record lines a live row keeps: no notes, no fault details, no result line (it
    reveals the seed), no seed in the header (a format-1 record's)."""
    dropped = {"fault": "detail", "header": "seed"}
    return [
        {k: v for k, v in line.items() if k != dropped.get(line.get("type", ""))}
        for line in lines
        if line.get("type") not in ("note", "result")
    ]


def dump(lines: list[dict[str, Any]]) -> str:
    """Lines as the record writes them (one compact JSON object a line)."""
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


class LiveFeed:
    """One match's live row: ``begin`` when its game starts, :meth:`progress` as the referee's
    ``on_progress``, :meth:`close` once the game is stored or given back."""

    def __init__(self, store: Store, match_id: int, flush: float = FLUSH, worker: str = ""):
        self.store = store
        self.match_id = match_id
        self.worker = worker  # the runner's id: the row is its own (:func:`.rows.end`)
        self.flush = flush
        self._sent = 0  # record lines handed to the writer
        self._decisions = 0
        self._due = 0.0
        self._pending: Future[None] | None = None

    def begin(self, season_id: int, title: str, seats: list[str]) -> None:
        """Start the row (a new one: a match played again starts from nothing)."""
        self._submit(rows.begin, self.store, self.match_id, season_id, title, seats, self.worker)

    def progress(self, arbiter: Any) -> None:
        """After each decision (the referee's ``on_progress``): the lines since the last
        write go to the writer, if :data:`FLUSH` seconds have passed and it is free."""
        now = time.monotonic()
        if now < self._due or (self._pending is not None and not self._pending.done()):
            return
        self._due = now + self.flush
        lines = arbiter.recorder.lines
        new, self._sent = lines[self._sent :], len(lines)
        self._decisions += sum(1 for line in new if line.get("type") == "action")
        kept = public_lines(new)
        if kept:
            text = dump(kept)
            self._submit(rows.append, self.store, self.match_id, text, self._decisions, self.worker)

    def close(self) -> None:
        """The game is over for this runner: the row goes (after the writes before it)."""
        self._submit(rows.end, self.store, self.match_id, self.worker)

    def _submit(self, job: Any, *args: Any) -> None:
        self._pending = _WRITER.submit(_quietly, job, *args)


def _quietly(job: Any, *args: Any) -> None:
    """``job(*args)``, whatever it raises: a live row is never worth a game."""
    try:
        job(*args)
    except Exception:  # the database's trouble is the runner's to report, not the feed's
        pass
