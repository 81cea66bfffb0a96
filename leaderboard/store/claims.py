"""The store's work distribution: claiming, renewing, finishing and voiding matches."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from .database import Database, StoreError
from .models import (
    CLAIMED,
    CREATED,
    DONE,
    EVENT,
    FINISHED,
    LADDER,
    PENDING,
    RUNNING,
    VOID,
    GameOutcome,
    GameRow,
    MatchRow,
    SeasonRow,
    utcnow,
)
from .records import add_game_files

HEARTBEAT_MAX = 30.0
"""A runner renews its claims at least this often (seconds), whatever its ``stale_after``."""

SILENT_AFTER = 3 * HEARTBEAT_MAX
"""A claim whose last renewal is older than this (seconds) belongs to a runner that stopped
answering: ``season status`` shows it as stale, not in play."""


def as_utc(value: datetime | str | None) -> datetime | None:
    """A stored moment as an aware UTC datetime (SQLite's aggregates come back as text)."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return None
    if isinstance(value, datetime) and value.utcoffset() is None:
        value = value.replace(tzinfo=UTC)
    return value


def claimable(status: Any, claimed_at: Any, waiting: str, held: str, cutoff: datetime) -> Any:
    """The SQL condition of a row a runner may claim: ``waiting``, or ``held`` by a claim made
    before ``cutoff`` (its runner stopped renewing it)."""
    return sa.or_(status == waiting, sa.and_(status == held, claimed_at <= cutoff))


class ClaimStore(Database):
    """The store's work distribution: claiming, renewing, finishing and voiding matches."""

    def claim_match(
        self, season_id: int, worker: str, stale_after_s: float = 3600.0
    ) -> MatchRow | None:
        """Give ``worker`` the next match to play (lowest number first), or None when nothing is
        left to claim. A match claimed more than ``stale_after_s`` seconds ago (by a worker that
        died, or one that forgot to :meth:`renew_claim`) is claimed again. The season becomes
        ``running``. Safe under concurrency: two workers never hold the same match.
        """
        now = utcnow()
        cutoff = now - timedelta(seconds=stale_after_s)
        with self.session(write=True) as s:
            query = (
                select(MatchRow)
                .where(
                    col(MatchRow.season_id) == season_id,
                    claimable(
                        col(MatchRow.status), col(MatchRow.claimed_at), PENDING, CLAIMED, cutoff
                    ),
                )
                .order_by(col(MatchRow.number))
                .limit(1)
            )
            match = s.exec(self._skip_locked(query)).first()
            if match is None:
                return None
            match.status = CLAIMED
            match.worker = worker
            match.claimed_at = now
            s.exec(
                sa.update(SeasonRow)
                .where(col(SeasonRow.id) == season_id, col(SeasonRow.status) == CREATED)
                .values(status=RUNNING)
            )
            s.flush()
            return match

    def renew_claim(self, match_id: int, worker: str) -> bool:
        """Refresh the claim's time (a heartbeat for long games); False if the claim was lost."""
        with self.session(write=True) as s:
            result = s.exec(
                sa.update(MatchRow)
                .where(
                    col(MatchRow.id) == match_id,
                    col(MatchRow.worker) == worker,
                    col(MatchRow.status) == CLAIMED,
                )
                .values(claimed_at=utcnow())
            )
            return result.rowcount == 1

    def _held_claim(self, s: Session, match_id: int, worker: str) -> MatchRow | None:
        """The match, locked with its season, if ``worker`` holds its claim; else None."""
        match = s.exec(self._lock(select(MatchRow).where(col(MatchRow.id) == match_id))).first()
        if match is None:
            return None
        self._lock_season(s, match.season_id)
        if match.status != CLAIMED or match.worker != worker:
            return None
        return match

    def finish_match(self, match_id: int, worker: str, outcome: GameOutcome) -> bool:
        """Store the game and mark the match done, in one transaction — only if ``worker`` still
        holds the claim. Returns False (writing nothing) if the match is done already or now
        claimed by someone else (:meth:`stored_by` tells whether it was this worker's own
        earlier commit, whose answer was lost). The season becomes ``finished`` with its last
        match."""
        try:
            with self.session(write=True) as s:
                match = self._held_claim(s, match_id, worker)
                if match is None:
                    return False
                add_game_files(s, match_id, outcome.record, outcome.logs)
                s.add(
                    GameRow(
                        match_id=match_id,
                        record_path=str(outcome.record_path),
                        places=[int(p) for p in outcome.places],
                        faults=[dict(f) for f in outcome.faults],
                        finish_reason=outcome.finish_reason,
                        duration=float(outcome.duration),
                        decisions=int(outcome.decisions),
                        worker=worker,
                    )
                )
                match.status = DONE
                s.flush()
                self._finish_season_if_complete(s, match.season_id)
                return True
        except StoreError as exc:
            if isinstance(exc.__cause__, IntegrityError):
                return False  # a game for this match exists already
            raise

    def stored_by(self, match_id: int, worker: str) -> bool:
        """Whether the match's game is stored, stored by ``worker``."""
        with self.session() as s:
            found = s.exec(
                select(col(GameRow.worker)).where(col(GameRow.match_id) == match_id)
            ).first()
            return found == worker

    def void_match(
        self, match_id: int, worker: str, reason: str, max_attempts: int | None = None
    ) -> bool:
        """An arena fault spoiled the game (not the bots' doing): give the match back to
        pending with ``attempts`` + 1 and the reason; with ``max_attempts`` reached it becomes
        void instead (never played, never scored). False if ``worker`` no longer holds it."""
        with self.session(write=True) as s:
            match = self._held_claim(s, match_id, worker)
            if match is None:
                return False
            match.attempts += 1
            match.last_error = reason[:2000]
            match.worker = None
            match.claimed_at = None
            give_up = max_attempts is not None and match.attempts >= max_attempts
            match.status = VOID if give_up else PENDING
            s.flush()
            if give_up:
                self._finish_season_if_complete(s, match.season_id)
            return True

    def release_claims(
        self, worker: str, season_id: int | None = None, keep: Sequence[int] = ()
    ) -> int:
        """Put the matches ``worker`` holds back to pending (interrupted, nothing counted),
        except the match ids in ``keep``; returns how many."""
        with self.session(write=True) as s:
            query = sa.update(MatchRow).where(
                col(MatchRow.worker) == worker, col(MatchRow.status) == CLAIMED
            )
            if season_id is not None:
                query = query.where(col(MatchRow.season_id) == season_id)
            if keep:
                query = query.where(col(MatchRow.id).not_in(list(keep)))
            result = s.exec(query.values(status=PENDING, worker=None, claimed_at=None))
            return int(result.rowcount or 0)

    def _lock_season(self, s: Session, season_id: int) -> None:
        # Serialises the finishers of one season on PostgreSQL, so that the one finishing the
        # last match sees every other and marks the season finished (SQLite: one writer anyway).
        if self.is_postgres:
            s.exec(
                select(col(SeasonRow.id)).where(col(SeasonRow.id) == season_id).with_for_update()
            ).first()

    def _finish_season_if_complete(self, s: Session, season_id: int) -> None:
        kind = s.exec(select(col(SeasonRow.kind)).where(col(SeasonRow.id) == season_id)).first()
        if kind in (LADDER, EVENT):  # a ladder never ends; an event's next round is made
            return  # when a round finishes (hegemon.leaderboard.events.progress)
        left = s.exec(
            select(func.count())
            .select_from(MatchRow)
            .where(
                col(MatchRow.season_id) == season_id, col(MatchRow.status).in_((PENDING, CLAIMED))
            )
        ).one()
        if left == 0:
            s.exec(
                sa.update(SeasonRow)
                .where(col(SeasonRow.id) == season_id)
                .values(status=FINISHED, finished_at=utcnow())
            )

    def claim_holders(self, season_id: int) -> dict[str, tuple[int, datetime | None]]:
        """Each worker holding claims in the season → (how many, its oldest claim's last
        renewal)."""
        with self.session() as s:
            rows = s.exec(
                select(col(MatchRow.worker), func.count(), func.min(col(MatchRow.claimed_at)))
                .where(
                    col(MatchRow.season_id) == season_id,
                    col(MatchRow.status) == CLAIMED,
                    col(MatchRow.worker).is_not(None),
                )
                .group_by(col(MatchRow.worker))
            ).all()
        return {str(worker): (int(n), as_utc(oldest)) for worker, n, oldest in rows}
