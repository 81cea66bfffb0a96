"""The arena's side of a runner's lease: claiming a match for it (the local runners' own choice
of season, :func:`~hegemon.leaderboard.arena.runner.playable_season`, and the store's claim),
renewing it, and the bots' archives it fetches by digest."""

from __future__ import annotations

import os
import threading
from typing import Any

from sqlmodel import col, select

from hegemon.leaderboard import paths
from hegemon.leaderboard.challenges.turns import Turns
from hegemon.leaderboard.registry.archive import store_archive
from hegemon.leaderboard.seasons.limits import DEFAULT_MAX_ATTEMPTS, DEFAULT_STALE_AFTER
from hegemon.leaderboard.store import CLAIMED, MatchRow, SeasonRow, Store

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
        self._shared: set[str] = set()  # archives known to be in the database

    def claim(self, store: Store, worker: str) -> dict[str, Any]:
        """The answer to ``worker``'s claim: a lease on the next match waiting (or held by a
        lapsed lease), or none. A claim repeated after its answer was lost gets the match it
        claimed (renewed), not a second one."""
        waiting = waiting_seasons(store, held=True)
        held = _held(store, worker, waiting)
        if held is not None and held.id is not None and store.renew_claim(held.id, worker):
            mine = next(s for s in waiting if s.id == held.season_id)
            return self._lease(store, mine, held)
        while True:
            with self._lock:
                season = self._turns.next(waiting)
            if season is None or season.id is None:
                return {"match": None}
            match = store.claim_match(season.id, worker, self.lease)
            if match is not None:
                break
            waiting = [s for s in waiting if s.id != season.id]  # its claims are all live
        return self._lease(store, season, match)

    def _lease(self, store: Store, season: SeasonRow, match: MatchRow) -> dict[str, Any]:
        """The lease on ``match`` (its bots' archives put where the runner fetches them)."""
        bots = store.bots_by_id(int(b) for b in match.seats)
        seats = [bots[int(b)] for b in match.seats]
        for digest in {bot.content_hash for bot in seats} - self._shared:
            share_archive(store, digest)
            self._shared.add(digest)
        return lease_body(season, match, seats, self.lease)


def _held(store: Store, worker: str, seasons: list[SeasonRow]) -> MatchRow | None:
    """A match ``worker`` holds in one of ``seasons`` (those with claims), if any: an HTTP
    runner plays one at a time. (By season and status: the matches' index answers it.)"""
    ids = [season.id for season in seasons if season.id is not None]
    if not ids:
        return None
    with store.session() as s:
        return s.exec(
            select(MatchRow).where(
                col(MatchRow.season_id).in_(ids),
                col(MatchRow.status) == CLAIMED,
                col(MatchRow.worker) == worker,
            )
        ).first()


def give_back(store: Store, worker: str, match_id: int, reason: str) -> bool:
    """``worker`` gives its match back: stopped (no ``reason``: pending again, nothing counted)
    or spoiled by a fault of its own (an arena fault, as a local runner's: an attempt counted,
    void after :data:`~hegemon.leaderboard.seasons.limits.DEFAULT_MAX_ATTEMPTS`). False: it
    did not hold the match."""
    if not reason:
        return store.release_claims(worker, keep=()) > 0
    fault = f"runner fault ({worker}): {reason}"
    return store.void_match(match_id, worker, fault[:500], DEFAULT_MAX_ATTEMPTS)


def share_archive(store: Store, digest: str) -> None:
    """Put a bot's files into the database if only this machine has them (a bot registered
    before archives existed): a runner elsewhere fetches them from there."""
    folder = paths.bot_dir(digest)
    if folder.is_dir() and not store.has_archive(digest):
        store_archive(store, folder, digest)
