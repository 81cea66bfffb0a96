"""Fitted boards kept in the database (``rating_fits``), so a board is refitted only when games
were added to it: one row per board (a season, or a pool of seasons), method and bootstrap seed,
with the number and the newest id of the games it covers.

The table is a cache: a row can be deleted at any time (it is made again on the next read),
and a failure to write one never fails the read that wanted it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import JSON, Column, Field, Session, SQLModel, col, func, select

from .database import Database, StoreError
from .models import GameRow, MatchRow, UTCDateTime, utcnow

FORMAT = 5
"""Version of the stored ``data`` and of the fit that made it: a fit stored in another format,
or by an older fit (3: the prior's scale taken from the data; 4: intervals widened for a bot's
first games; 5: intervals and P(>next) from the posterior, groups that never met), is made
again."""


class RatingFitRow(SQLModel, table=True):
    """One fitted board: what ``data`` holds is up to the caller (see
    :mod:`hegemon.leaderboard.boards.stored`)."""

    __tablename__ = "rating_fits"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(sa_type=sa.String(64), unique=True)  # sha256 hex of the board's identity
    games: int  # finished games the fit covers
    last_game_id: int  # the newest of them (0: none)
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    computed_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


@dataclass(frozen=True)
class Coverage:
    """Which games a board covers: how many, and the newest id. Games are only ever added, so
    a fit with the same coverage as the database is current."""

    games: int
    last_game_id: int


def fit_key(identity: dict[str, Any]) -> str:
    """The ``key`` of a board described by a JSON-able ``identity``."""
    text = json.dumps({"format": FORMAT, **identity}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def coverage(store: Database, season_ids: Sequence[int], up_to: int | None = None) -> Coverage:
    """The finished games of these seasons now (one aggregate query); with ``up_to``, only
    those with an id up to it."""
    where: list[sa.ColumnElement[bool]] = [col(MatchRow.season_id).in_(list(season_ids))]
    if up_to is not None:
        where.append(col(GameRow.id) <= up_to)
    with store.session() as s:
        count, newest = s.exec(
            select(func.count(col(GameRow.id)), func.coalesce(func.max(col(GameRow.id)), 0))
            .join(MatchRow, col(MatchRow.id) == col(GameRow.match_id))
            .where(*where)
        ).one()
    return Coverage(int(count or 0), int(newest or 0))


def load_fit(store: Database, key: str, now: Coverage) -> dict[str, Any] | None:
    """The stored ``data`` of ``key`` if it covers exactly the games ``now`` (else ``None``)."""
    with store.session() as s:
        row = s.exec(select(RatingFitRow).where(col(RatingFitRow.key) == key)).first()
    if row is None or (row.games, row.last_game_id) != (now.games, now.last_game_id):
        return None
    data: dict[str, Any] = row.data
    return data


def part_key(key: str, part: str) -> str:
    """The key of a part stored beside a fit (its running counts, its chart): own rows, so
    reading the board never reads them."""
    return hashlib.sha256(f"{key}:{part}".encode()).hexdigest()


def load_part(store: Database, key: str, part: str) -> tuple[Coverage, dict[str, Any]] | None:
    """A part stored with ``key``'s fit, with the games it covers (whatever they are)."""
    with store.session() as s:
        row = s.exec(
            select(RatingFitRow).where(col(RatingFitRow.key) == part_key(key, part))
        ).first()
    if row is None:
        return None
    return Coverage(row.games, row.last_game_id), row.data


def save_fit(
    store: Database,
    key: str,
    covered: Coverage,
    data: dict[str, Any],
    parts: dict[str, dict[str, Any]] | None = None,
) -> bool:
    """Keep a fit and its ``parts`` (replacing those of the same key), in one transaction.
    ``False`` if the database would not take it (read-only, busy, another writer first): the
    caller has its fit anyway."""
    rows = {key: data, **{part_key(key, p): d for p, d in (parts or {}).items()}}
    try:
        with store.session(write=True) as s:
            for k, value in rows.items():
                put_fit(s, k, covered, value)
    except StoreError:
        return False
    return True


def put_fit(session: Session, key: str, covered: Coverage, data: dict[str, Any]) -> None:
    """Keep ``data`` under ``key`` (replacing it) in the caller's write transaction."""
    row = session.exec(select(RatingFitRow).where(col(RatingFitRow.key) == key)).first()
    if row is None:
        row = RatingFitRow(key=key, games=0, last_game_id=0, data={})
    row.games, row.last_game_id = covered.games, covered.last_game_id
    row.data, row.computed_at = data, utcnow()
    session.add(row)
