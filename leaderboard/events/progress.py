"""A final event's state read from the store, and its advance: when every match of its last
round is finished, whichever runner sees it first makes the next round (or ends the event,
storing its final standings and revealing its seed) in one write transaction.

Race-safe: the transaction takes the write lock first (SQLite ``BEGIN IMMEDIATE``; the
season's row ``FOR UPDATE`` on PostgreSQL) and looks again, so a second runner finds the new
round's matches pending and does nothing; the matches' unique (season, number) backs it up.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, col, select

from ..store import (
    CLAIMED,
    EVENT,
    FINISHED,
    PENDING,
    EventRow,
    GameRow,
    MatchRow,
    SeasonBotRow,
    SeasonRow,
    Store,
    StoreError,
    utcnow,
)
from .formats import Played, Table
from .rounds import Shape, final_standings, next_round


@dataclass(frozen=True)
class EventState:
    """An event as stored: its season and row, entrants (best first), each round's tables
    with their matches, the games played, and how many matches are still to play."""

    season: SeasonRow
    event: EventRow
    entrants: list[int]
    rounds: list[list[tuple[Table, list[MatchRow]]]]
    games: dict[int, GameRow]  # match id → its game
    remaining: int

    @property
    def shape(self) -> Shape:
        e = self.event
        return Shape(e.format, self.season.players, e.advance, e.rounds, e.rotate)

    def tables(self) -> list[list[Table]]:
        """Each round's tables (their first seat order)."""
        return [[table for table, _ in r] for r in self.rounds]

    def played(self) -> list[Played]:
        """Every finished game, in match order."""
        found = []
        for r in self.rounds:
            for _, matches in r:
                for m in matches:
                    game = self.games.get(m.id or 0)
                    if game is not None:
                        found.append(Played(m.table_number, tuple(m.seats), tuple(game.places)))
        return found


def read_state(s: Session, season: SeasonRow) -> EventState | None:
    """The event of ``season`` (None: the season is no event)."""
    event = s.exec(select(EventRow).where(col(EventRow.season_id) == season.id)).first()
    if event is None:
        return None
    entrants = list(
        s.exec(
            select(col(SeasonBotRow.bot_id))
            .where(col(SeasonBotRow.season_id) == season.id)
            .order_by(col(SeasonBotRow.position))
        ).all()
    )
    matches = list(
        s.exec(
            select(MatchRow)
            .where(col(MatchRow.season_id) == season.id)
            .order_by(col(MatchRow.number))
        ).all()
    )
    ids = [m.id for m in matches]
    games = {
        g.match_id: g for g in s.exec(select(GameRow).where(col(GameRow.match_id).in_(ids))).all()
    }
    starts = [*event.round_starts, 1 << 62]
    rounds: list[list[tuple[Table, list[MatchRow]]]] = []
    for first, after in itertools.pairwise(starts):
        by_table: dict[int, list[MatchRow]] = defaultdict(list)
        for m in matches:
            if first <= m.number < after:
                by_table[m.table_number].append(m)
        rounds.append([(tuple(ms[0].seats), ms) for _, ms in sorted(by_table.items())])
    remaining = sum(1 for m in matches if m.status in (PENDING, CLAIMED))
    return EventState(season, event, entrants, rounds, games, remaining)


def load(store: Store, name: str) -> EventState | None:
    """The event called ``name`` as stored now (None: no such event)."""
    with store.session() as s:
        season = s.exec(
            select(SeasonRow).where(col(SeasonRow.name) == name, col(SeasonRow.kind) == EVENT)
        ).first()
        return read_state(s, season) if season is not None else None


@dataclass(frozen=True)
class Advanced:
    """What :func:`advance` did: made round ``round`` (its tables), or ended the event."""

    season: SeasonRow
    round: int
    tables: int
    standings: list[tuple[int, int]] | None = None  # (bot, points) best first, once ended


def advance(store: Store, season_id: int) -> Advanced | None:
    """Make the event's next round, or end it, if its last round is finished; else None
    (a round still in play, already ended, or another runner did it first)."""
    from ..seasons.schedule import match_seed

    with store.session(write=True) as s:
        query = select(SeasonRow).where(col(SeasonRow.id) == season_id)
        season = s.exec(query.with_for_update() if store.is_postgres else query).first()
        if season is None or season.kind != EVENT or season.status == FINISHED:
            return None
        state = read_state(s, season)
        if state is None or state.remaining:
            return None
        tables, played = state.tables(), state.played()
        shape = state.shape
        made = next_round(shape, state.entrants, tables, played)
        if made is None:
            ranked = final_standings(shape, state.entrants, tables, played)
            state.event.standings = [
                {"bot_id": bot, "place": i + 1, "points": pts}
                for i, (bot, pts) in enumerate(ranked)
            ]
            season.status, season.finished_at = FINISHED, utcnow()
            s.add_all([state.event, season])
            return Advanced(season, len(tables), 0, ranked)
        number = max((m.number for r in state.rounds for _, ms in r for m in ms), default=0) + 1
        table = max((ms[0].table_number for r in state.rounds for _, ms in r), default=0) + 1
        state.event.round_starts = [*state.event.round_starts, number]
        for t in made:
            for seats in shape.games(t):
                s.add(
                    MatchRow(
                        season_id=season_id,
                        number=number,
                        table_number=table,
                        seats=list(seats),
                        seed=match_seed(season.seed, table),
                    )
                )
                number += 1
            table += 1
        season.games = number - 1
        s.add_all([state.event, season])
        try:
            s.flush()
        except sa.exc.IntegrityError as exc:  # another runner's round (cannot pass the lock)
            raise StoreError("another runner made this round") from exc
        return Advanced(season, len(tables) + 1, len(made))


def advance_events(store: Store) -> list[Advanced]:
    """:func:`advance` every event not ended whose round is over; then tell the entrants'
    owners the results of those that ended (:func:`..notify.events.event_results`)."""
    from ..notify.events import event_results

    done: list[Advanced] = []
    try:
        with store.session() as s:
            waiting = s.exec(
                select(col(SeasonRow.id)).where(
                    col(SeasonRow.kind) == EVENT, col(SeasonRow.status) != FINISHED
                )
            ).all()
    except StoreError:
        return done  # the database is away: the next look tries again
    for season_id in waiting:
        if season_id is None:
            continue
        try:
            if store.progress(season_id).remaining:
                continue
            step = advance(store, season_id)
        except StoreError:
            continue  # another runner advanced it meanwhile, or the database is away
        if step is None:
            continue
        if step.standings is not None:
            places = [(bot, i + 1) for i, (bot, _) in enumerate(step.standings)]
            event_results(store, step.season.name, places, f"/event/{step.season.name}")
        done.append(step)
    return done
