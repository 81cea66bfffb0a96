"""The store's work distribution: claiming, renewing, finishing and voiding matches."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel, col, select

from .database import Database, StoreError
from .models import (
    CLAIMED,
    CREATED,
    DONE,
    PENDING,
    RUNNING,
    UNFINISHED_SQL,
    VOID,
    GameOutcome,
    GameRow,
    MatchRow,
    SeasonRow,
    utcnow,
)
from .progress import finish_if_complete
from .records import game_file_rows

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

        One statement on PostgreSQL (the match's ``UPDATE … RETURNING`` over a ``SELECT … FOR
        UPDATE SKIP LOCKED``, the season's status in the same statement), then the commit.
        """
        now = utcnow()
        cutoff = now - timedelta(seconds=stale_after_s)
        next_id = self._skip_locked(
            select(col(MatchRow.id))
            .where(
                col(MatchRow.season_id) == season_id,
                sa.text(UNFINISHED_SQL),  # the partial index of the unfinished matches
                claimable(col(MatchRow.status), col(MatchRow.claimed_at), PENDING, CLAIMED, cutoff),
            )
            .order_by(col(MatchRow.number))
            .limit(1)
        ).scalar_subquery()
        claim = (
            sa.update(MatchRow)
            .where(col(MatchRow.id) == next_id)
            .values(status=CLAIMED, worker=worker, claimed_at=now)
            .returning(*MatchRow.__table__.columns)  # type: ignore[attr-defined]
        )
        running = (
            sa.update(SeasonRow)
            .where(col(SeasonRow.id) == season_id, col(SeasonRow.status) == CREATED)
            .values(status=RUNNING)
        )
        if self.is_postgres:  # one statement, committed by itself: the season's status too
            claimed = claim.cte("claimed")
            started = running.where(sa.exists(select(claimed.c.id))).cte("started")
            with self.autocommit() as conn:
                row = conn.execute(sa.select(claimed).add_cte(started)).first()
                if row is None:  # a finisher stopped between its game and the season's end
                    conn.execute(finish_if_complete(season_id))
        else:
            with self.session(write=True) as s:
                row = s.execute(claim).first()
                if row is not None:
                    s.execute(running)
        return None if row is None else MatchRow.model_validate(dict(row._mapping))

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

    def finish_match(self, match_id: int, worker: str, outcome: GameOutcome) -> bool:
        """Store the game and mark the match done, in one transaction — only if ``worker`` still
        holds the claim. Returns False (writing nothing) if the match is done already or now
        claimed by someone else (:meth:`stored_by` tells whether it was this worker's own
        earlier commit, whose answer was lost). The season becomes ``finished`` with its last
        match.

        On PostgreSQL the match's move, and the game with its record and logs if it moved, are
        one statement committed by itself (data-modifying CTEs), and the season's end another:
        no lock is held while the runner waits for an answer (the season's counter row, which
        the move updates, is shared by every runner of the season)."""
        game = GameRow(
            match_id=match_id,
            record_path=str(outcome.record_path),
            places=[int(p) for p in outcome.places],
            faults=[dict(f) for f in outcome.faults],
            finish_reason=outcome.finish_reason,
            duration=float(outcome.duration),
            decisions=int(outcome.decisions),
            worker=worker,
        )
        rows: list[SQLModel] = [game, *game_file_rows(match_id, outcome.record, outcome.logs)]
        done = (
            sa.update(MatchRow)
            .where(*_held(match_id, worker))
            .values(status=DONE)
            .returning(col(MatchRow.id), col(MatchRow.season_id))
        )
        try:
            if self.is_postgres:
                moved = done.cte("done")
                query = select(moved.c.season_id)
                for n, row in enumerate(rows):
                    query = query.add_cte(_insert(row, moved).cte(f"w{n}"))
                with self.autocommit() as conn:
                    season_id = conn.execute(query).scalar()
                    if season_id is not None:
                        conn.execute(finish_if_complete(season_id))
            else:
                with self.session(write=True) as s:
                    moved_row = s.execute(done).first()
                    season_id = None if moved_row is None else moved_row.season_id
                    if season_id is not None:
                        for row in rows:
                            s.execute(_insert(row))
                        s.execute(finish_if_complete(season_id))
        except StoreError as exc:
            if isinstance(exc.__cause__, IntegrityError):
                return False  # a game for this match exists already
            raise
        return season_id is not None

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
        attempts = col(MatchRow.attempts) + 1
        give_up = sa.false() if max_attempts is None else attempts >= max_attempts
        with self.session(write=True) as s:
            season_id = s.execute(
                sa.update(MatchRow)
                .where(*_held(match_id, worker))
                .values(
                    attempts=attempts,
                    last_error=reason[:2000],
                    worker=None,
                    claimed_at=None,
                    status=sa.case((give_up, VOID), else_=PENDING),
                )
                .returning(col(MatchRow.season_id))
            ).scalar()
            if season_id is None:
                return False
            s.execute(finish_if_complete(season_id))
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


def _held(match_id: int, worker: str) -> tuple[Any, ...]:
    """The SQL conditions of ``match_id`` while ``worker`` holds its claim."""
    return (
        col(MatchRow.id) == match_id,
        col(MatchRow.worker) == worker,
        col(MatchRow.status) == CLAIMED,
    )


def _insert(row: SQLModel, moved: Any = None) -> sa.Insert:
    """A Core ``INSERT`` of ``row`` with every value it holds (its defaults made already); with
    ``moved`` (a CTE), only if that returns a row."""
    table: sa.Table = row.__table__  # type: ignore[attr-defined]
    columns = [c for c in table.columns if getattr(row, c.name) is not None or not c.primary_key]
    if moved is None:
        return sa.insert(table).values({c.name: getattr(row, c.name) for c in columns})
    values = sa.select(
        *(sa.literal(getattr(row, c.name), c.type).label(c.name) for c in columns)
    ).select_from(moved)
    return sa.insert(table).from_select([c.name for c in columns], values)
