"""The arena's side of a runner's lease: claiming a match for it (the local runners' own choice
of season, :func:`~hegemon.leaderboard.arena.runner.playable_season`, and the store's claim),
renewing it, and the bots' archives it fetches by digest."""

from __future__ import annotations

import os
import threading
from typing import Any

from hegemon.leaderboard import paths
from hegemon.leaderboard.challenges.turns import Turns
from hegemon.leaderboard.registry.archive import store_archive
from hegemon.leaderboard.seasons.limits import DEFAULT_STALE_AFTER
from hegemon.leaderboard.store import Store

from ..runner import waiting_seasons
from .protocol import lease_body

LEASE_ENV = "HEGEMON_RUNNER_LEASE"
"""Seconds an HTTP runner's lease lasts without a heartbeat (default: the season runner's
``stale_after``); a runner heartbeats four times a lease."""


def lease_seconds() -> float:
    """The lease of an HTTP runner's claim (:data:`LEASE_ENV`, else the default)."""
    try:
        value = float(os.environ.get(LEASE_ENV, ""))
    except ValueError:
        return DEFAULT_STALE_AFTER
    return value if value > 0 else DEFAULT_STALE_AFTER


class Leases:
    """Claims for HTTP runners, the seasons served in turns across them all (one
    :class:`~hegemon.leaderboard.challenges.turns.Turns` for the web server)."""

    def __init__(self, lease: float | None = None):
        self.lease = lease if lease is not None else lease_seconds()
        self._turns = Turns()
        self._lock = threading.Lock()

    def claim(self, store: Store, worker: str) -> dict[str, Any]:
        """The answer to ``worker``'s claim: a lease on the next match waiting (or held by a
        lapsed lease), or none."""
        waiting = waiting_seasons(store, held=True)
        while True:
            with self._lock:
                season = self._turns.next(waiting)
            if season is None or season.id is None:
                return {"match": None}
            match = store.claim_match(season.id, worker, self.lease)
            if match is not None:
                break
            waiting = [s for s in waiting if s.id != season.id]  # its claims are all live
        bots = store.bots_by_id(int(b) for b in match.seats)
        seats = [bots[int(b)] for b in match.seats]
        for bot in {bot.content_hash: bot for bot in seats}.values():
            share_archive(store, bot.content_hash)
        return lease_body(season, match, seats, self.lease)


def share_archive(store: Store, digest: str) -> None:
    """Put a bot's files into the database if only this machine has them (a bot registered
    before archives existed): a runner elsewhere fetches them from there."""
    folder = paths.bot_dir(digest)
    if folder.is_dir() and not store.has_archive(digest):
        store_archive(store, folder, digest)
