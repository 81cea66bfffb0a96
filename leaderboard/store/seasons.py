"""The store's seasons: creation with their whole schedule, lookups, progress."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, or_, select

from .database import Database, StoreError, _one_line
from .models import (
    CHALLENGE,
    FINISHED,
    BotRow,
    GameRow,
    MatchRow,
    SeasonBotRow,
    SeasonProgress,
    SeasonRow,
)
from .progress import SeasonProgressRow, season_progress

if TYPE_CHECKING:
    from ..seasons.schedule import ScheduledMatch


class SeasonStore(Database):
    """The store's seasons: creation with their whole schedule, lookups, progress."""

    def create_season(
        self, season: SeasonRow, bot_ids: Sequence[int], schedule: Iterable[ScheduledMatch]
    ) -> SeasonRow:
        """Store a new season, its bots and its matches in one transaction.

        ``schedule``: objects with ``number``, ``table``, ``seats`` (bot ids) and ``seed``
        (see :func:`hegemon.leaderboard.seasons.schedule.make_schedule`). Raises
        :class:`StoreError` if the name is taken or a bot is unknown; then nothing is written.
        """
        with self.session(write=True) as s:
            return add_season(s, season, bot_ids, schedule)

    def get_season(self, season_id: int) -> SeasonRow | None:
        with self.session() as s:
            return s.get(SeasonRow, season_id)

    def season_by_name(self, name: str) -> SeasonRow | None:
        with self.session() as s:
            return s.exec(select(SeasonRow).where(col(SeasonRow.name) == name)).first()

    def seasons(self, challenges: bool = False) -> list[SeasonRow]:
        """Every season and ladder; members' challenges only with ``challenges`` (they are on
        no public board and in no rating: everything else that lists seasons leaves them out)."""
        with self.session() as s:
            query = select(SeasonRow).order_by(col(SeasonRow.id))
            if not challenges:
                query = query.where(col(SeasonRow.kind) != CHALLENGE)
            return list(s.exec(query).all())

    def season_bots(self, season_id: int) -> list[BotRow]:
        """The season's bot versions, in the order they were given."""
        with self.session() as s:
            return list(
                s.exec(
                    select(BotRow)
                    .join(SeasonBotRow, col(SeasonBotRow.bot_id) == col(BotRow.id))
                    .where(col(SeasonBotRow.season_id) == season_id)
                    .order_by(col(SeasonBotRow.position))
                ).all()
            )

    def matches(self, season_id: int, status: str | None = None) -> list[MatchRow]:
        """The season's matches in schedule order (optionally only those with ``status``)."""
        with self.session() as s:
            query = select(MatchRow).where(col(MatchRow.season_id) == season_id)
            if status is not None:
                query = query.where(col(MatchRow.status) == status)
            return list(s.exec(query.order_by(col(MatchRow.number))).all())

    def games(self, season_id: int) -> list[tuple[MatchRow, GameRow]]:
        """Every finished game of the season with its match, in schedule order."""
        with self.session() as s:
            rows = s.exec(
                select(MatchRow, GameRow)
                .join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
                .where(col(MatchRow.season_id) == season_id)
                .order_by(col(MatchRow.number))
            ).all()
            return [(m, g) for m, g in rows]

    def progress(self, season_id: int) -> SeasonProgress:
        """How far the season is: match counts by status, attempts, current claims (its
        counter row and the claims in play: the same cost at any length of the season)."""
        with self.session() as s:
            return season_progress(s, season_id)

    def seasons_waiting(self, challenges: bool = False, held: bool = False) -> list[SeasonRow]:
        """The seasons and ladders (and members' challenges with ``challenges``) with a match
        waiting to be claimed (``held``: or claimed, which may be a claim whose runner died and
        that a claim takes over once stale), by id: one read of the counter rows, however long
        the seasons."""
        with self.session() as s:
            query = (
                select(SeasonRow)
                .join(SeasonProgressRow, col(SeasonProgressRow.season_id) == col(SeasonRow.id))
                .where(
                    or_(
                        col(SeasonProgressRow.pending) > 0,
                        held and col(SeasonProgressRow.claimed) > 0,
                    ),
                    col(SeasonRow.status) != FINISHED,
                )
                .order_by(col(SeasonRow.id))
            )
            if not challenges:
                query = query.where(col(SeasonRow.kind) != CHALLENGE)
            return list(s.exec(query).all())


def add_season(
    s: Session, season: SeasonRow, bot_ids: Sequence[int], schedule: Iterable[ScheduledMatch]
) -> SeasonRow:
    """:meth:`SeasonStore.create_season` inside the write transaction ``s`` (for a caller that
    writes more in the same transaction, e.g. a challenge read against its owner's quota)."""
    if s.exec(select(col(SeasonRow.id)).where(col(SeasonRow.name) == season.name)).first():
        raise StoreError(f"a season named '{season.name}' already exists")
    known = set(s.exec(select(col(BotRow.id)).where(col(BotRow.id).in_(list(bot_ids)))).all())
    missing = [b for b in bot_ids if b not in known]
    if missing:
        raise StoreError(f"no bot with id {missing[0]}")
    row = SeasonRow.model_validate(season.model_dump(exclude={"id"}))
    s.add(row)
    s.flush()
    assert row.id is not None  # given by the flush
    for position, bot_id in enumerate(bot_ids):
        s.add(SeasonBotRow(season_id=row.id, bot_id=bot_id, position=position))
    count = 0
    for m in schedule:
        seats = [int(b) for b in m.seats]
        if not set(seats) <= known:
            raise StoreError(f"match {m.number} seats a bot that is not in the season")
        s.add(
            MatchRow(
                season_id=row.id, number=m.number, table_number=m.table, seats=seats, seed=m.seed
            )
        )
        count += 1
    row.games = count
    try:
        s.flush()
    except IntegrityError as exc:
        raise StoreError(f"cannot create season '{season.name}': {_one_line(exc)}") from exc
    return row
