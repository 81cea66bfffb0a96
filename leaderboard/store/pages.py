"""The read queries the web pages (and the static report) are drawn from: the finished games
of a season or rule set, a page of them, one game with its match, the faults of a season, and
the cheap figures that say when the data behind a page changed. Plain functions over any
:class:`~.database.Database` (a :class:`~hegemon.leaderboard.store.Store`); each opens one
session and returns plain rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import col, func, select

from .database import Database
from .models import DONE, BotRow, GameRow, MatchRow, SeasonRow

CHUNK = 500
"""Ids asked for in one ``IN (…)`` at most (SQLite's limit on a statement's parameters)."""

GameListed = tuple[MatchRow, GameRow, str]
"""A game of a list: its match, itself, and its season's name."""


def finished_matches(db: Database, season_ids: Sequence[int]) -> int:
    """How many matches of these seasons are done: it changes whenever a game of theirs is
    stored (a game is stored with its match's status ``done``, in one transaction, and never
    removed), and is read from the (season, status) index alone."""
    with db.session() as s:
        count = s.exec(
            select(func.count())
            .select_from(MatchRow)
            .where(col(MatchRow.season_id).in_(season_ids), col(MatchRow.status) == DONE)
        ).one()
    return int(count or 0)


def newest_bot_id(db: Database) -> int | None:
    """The largest bot id (it changes when a bot is added)."""
    with db.session() as s:
        return s.exec(select(func.max(col(BotRow.id)))).one()


def games_stored(db: Database) -> tuple[int, int]:
    """(how many games, the newest game's id): changes when a game is stored anywhere."""
    with db.session() as s:
        count, newest = s.exec(
            select(func.count(col(GameRow.id)), func.coalesce(func.max(col(GameRow.id)), 0))
        ).one()
    return int(count or 0), int(newest or 0)


def _where(season: str | None, rule_set: str | None) -> list[Any]:
    """The conditions on a game's season: its name, its preset (None: any)."""
    where = []
    if season:
        where.append(col(SeasonRow.name) == season)
    if rule_set:
        where.append(col(SeasonRow.preset) == rule_set)
    return where


def _listed() -> Any:
    """Games with their match and season's name."""
    return (
        select(MatchRow, GameRow, SeasonRow.name)
        .join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
        .join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id))
    )


def games_page(
    db: Database, season: str | None, rule_set: str | None, limit: int, offset: int
) -> tuple[int, list[GameListed]]:
    """(how many finished games of ``season`` / ``rule_set`` there are, the page of them
    newest first)."""
    where = _where(season, rule_set)
    with db.session() as s:
        count = select(func.count(col(GameRow.id)))
        if where:
            count = (
                count.join(MatchRow, col(GameRow.match_id) == col(MatchRow.id))
                .join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id))
                .where(*where)
            )
        total = s.exec(count).one()
        page = s.exec(
            _listed().where(*where).order_by(col(GameRow.id).desc()).limit(limit).offset(offset)
        ).all()
    return int(total or 0), list(page)


def games_by_id(db: Database, ids: Sequence[int]) -> list[GameListed]:
    """The games ``ids`` (in chunks of :data:`CHUNK`), each chunk newest first."""
    page: list[GameListed] = []
    with db.session() as s:
        for i in range(0, len(ids), CHUNK):
            chunk = ids[i : i + CHUNK]
            page.extend(
                s.exec(
                    _listed().where(col(GameRow.id).in_(chunk)).order_by(col(GameRow.id).desc())
                ).all()
            )
    return page


def games_by_number(db: Database, season_id: int, numbers: Sequence[int]) -> list[GameListed]:
    """The games of the season's matches ``numbers`` (in chunks of :data:`CHUNK`), in the
    order they were stored."""
    rows: list[GameListed] = []
    with db.session() as s:
        for i in range(0, len(numbers), CHUNK):
            rows.extend(
                s.exec(
                    _listed()
                    .where(
                        col(MatchRow.season_id) == season_id,
                        col(MatchRow.number).in_(numbers[i : i + CHUNK]),
                    )
                    .order_by(col(GameRow.id))
                ).all()
            )
    return rows


def game_scan(
    db: Database, season: str | None, rule_set: str | None
) -> list[tuple[int, set[int], bool]]:
    """(game id, bot ids seated, had a fault) of every finished game of ``season`` /
    ``rule_set`` (None: any), newest first: a light scan, for filters on the JSON columns."""
    with db.session() as s:
        rows = s.exec(
            select(GameRow.id, MatchRow.seats, GameRow.faults)
            .join(MatchRow, col(GameRow.match_id) == col(MatchRow.id))
            .join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id))
            .where(*_where(season, rule_set))
            .order_by(col(GameRow.id).desc())
        ).all()
    return [(int(g or 0), set(seats), bool(faults)) for g, seats, faults in rows]


def game_listed(db: Database, game_id: int) -> GameListed | None:
    """One game with its match and season's name (None: no such game)."""
    with db.session() as s:
        row = s.exec(_listed().where(GameRow.id == game_id)).first()
    return None if row is None else (row[0], row[1], row[2])


def season_faults(db: Database, season_id: int) -> list[tuple[list[int], list[Any]]]:
    """(seats, faults) of every game of the season."""
    with db.session() as s:
        rows = s.exec(
            select(MatchRow.seats, GameRow.faults)
            .join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
            .where(col(MatchRow.season_id) == season_id)
        ).all()
    return [(list(seats), list(faults)) for seats, faults in rows]


def withheld(db: Database, match: MatchRow) -> bool:
    """Whether ``match``'s game is kept out of sight: in a duplicate season, every rotation of
    a table plays the same dice seed, so one rotation's record (its seed revealed) would give
    the deal away to the rotations still to play."""
    with db.session() as s:
        duplicate = s.exec(select(SeasonRow.duplicate).where(SeasonRow.id == match.season_id)).one()
        if not duplicate:
            return False
        open_rotations = s.exec(
            select(func.count(col(MatchRow.id))).where(
                col(MatchRow.season_id) == match.season_id,
                col(MatchRow.table_number) == match.table_number,
                col(MatchRow.status) != DONE,
            )
        ).one()
    return bool(open_rotations)
