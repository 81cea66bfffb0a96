"""The ``live_games`` rows (:class:`~hegemon.leaderboard.store.live.LiveGameRow`): started,
appended to and ended by a runner, read by the web."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import col, select

from ..store import GameRow, LiveGameRow, MatchRow, Store, utcnow

STALE_AFTER = 60.0
"""Seconds without an update after which a live row is taken for a runner that died: not
listed, and its spectators are told the game stopped (the match is played again later)."""


def begin(
    store: Store, match_id: int, season_id: int, title: str, seats: list[str], worker: str = ""
) -> None:
    """Start (or restart: a match played again, or taken over by another runner) the live row
    of ``match_id``, played by the runner ``worker``."""
    with store.session(write=True) as s:
        old = s.get(LiveGameRow, match_id)
        if old is not None:
            s.delete(old)
            s.flush()
        s.add(
            LiveGameRow(
                match_id=match_id, season_id=season_id, title=title, seats=seats, worker=worker
            )
        )


def _mine(match_id: int, worker: str) -> sa.ColumnElement[bool]:
    """The live row of ``match_id`` if the runner ``worker`` wrote it."""
    return sa.and_(col(LiveGameRow.match_id) == match_id, col(LiveGameRow.worker) == worker)


def append(store: Store, match_id: int, text: str, decisions: int, worker: str = "") -> None:
    """Add ``text`` (whole JSON lines) to the row's record; ``decisions``: its action lines now.
    Only to the row ``worker`` began (none: another runner took the match over)."""
    table = LiveGameRow.__table__  # type: ignore[attr-defined]
    with store.session(write=True) as s:
        s.execute(
            sa.update(table)
            .where(_mine(match_id, worker))
            .values(record=table.c.record + text, decisions=decisions, updated_at=utcnow())
        )


def end(store: Store, match_id: int, worker: str = "") -> None:
    """The game is stored (or given back) by the runner ``worker``: its live row goes (not a
    row another runner, which took the match over, began since)."""
    with store.session(write=True) as s:
        s.execute(sa.delete(LiveGameRow).where(_mine(match_id, worker)))


def playing(store: Store) -> list[LiveGameRow]:
    """The games in play whose runner wrote within :data:`STALE_AFTER` seconds, oldest first
    (their record left out: a list needs none of it)."""
    since = utcnow() - timedelta(seconds=STALE_AFTER)
    with store.session() as s:
        query = (
            select(LiveGameRow)
            .where(col(LiveGameRow.updated_at) >= since)
            .order_by(col(LiveGameRow.started_at), col(LiveGameRow.match_id))
            .options(sa.orm.defer(LiveGameRow.record))  # type: ignore[arg-type]
        )
        return list(s.exec(query).all())


def state(store: Store, match_id: int) -> tuple[int, bool] | None:
    """The row's stored decisions and whether it is stale, or None: no row."""
    with store.session() as s:
        found = s.exec(
            select(LiveGameRow.decisions, LiveGameRow.updated_at).where(
                LiveGameRow.match_id == match_id
            )
        ).first()
    if found is None:
        return None
    decisions, updated = found
    return decisions, (utcnow() - updated).total_seconds() > STALE_AFTER


def read(store: Store, match_id: int) -> tuple[LiveGameRow, int] | None:
    """The row with its whole record, and its match's seed (the web re-runs the engine on the
    record to draw it; the seed is never shown), or None: no row."""
    with store.session() as s:
        row = s.get(LiveGameRow, match_id)
        match = s.get(MatchRow, match_id)
    if row is None or match is None:
        return None
    return row, match.seed


def finished_game(store: Store, match_id: int) -> int | None:
    """The id of the game stored for ``match_id``, if it has one."""
    with store.session() as s:
        return s.exec(select(GameRow.id).where(GameRow.match_id == match_id)).first()
