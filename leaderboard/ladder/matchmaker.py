"""The ladder's matchmaker: :func:`fill_queue` keeps a few pending matches queued so runners
never idle, each table chosen by :func:`.policy.choose_table` from the entrants, the matches in
play or queued, and the matchmaker's running ratings (:mod:`.online`).

A call costs the same however long the ladder has run: the ratings and each bot's finished
games are kept in the database (a row of the ``rating_fits`` cache, with the games it covers)
and brought up to date with the games finished since, which are all a call reads of the past
(with the matches not finished yet). If the kept row is missing or no longer matches the games
(one was voided), it is made again from every game once.

Deterministic: the table numbered N is drawn with a random stream keyed by the season's secret
seed and N, and its dice seed is :func:`~hegemon.leaderboard.seasons.schedule.match_seed` of the
same (secret, as every unfinished game's is). Several runners may call it at once: one fills a
ladder at a time (its reads and writes are one transaction holding the ladder's lock,
:meth:`~hegemon.leaderboard.store.database.Database.try_lock`); the others find the lock taken
and return at once, instead of reading the same and throwing their tables away.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import func
from sqlmodel import Session, col, select

from ..store import CLAIMED, PENDING, VOID, GameRow, MatchRow, SeasonBotRow, SeasonRow, Store
from ..store.rating_fits import Coverage, RatingFitRow, fit_key, part_key, put_fit
from .entrants import entrant_ids
from .online import Ratings
from .policy import Entrant, choose_table

QUEUE_DEPTH = 2
"""Pending matches a ladder keeps queued: enough that a runner finishing a game finds the next
one, few enough that each table is chosen knowing the results of nearly every game before it."""

RATINGS_FORMAT = 2
"""Version of the kept ratings (:meth:`.online.Ratings.dump`): another is made again."""

_CHUNK = 900
"""Match ids a query asks for at once (SQLite bounds the parameters of one statement)."""

Table = tuple[int, tuple[int, ...]]
"""A match not finished yet: its number and seats."""


def table_rng(season_seed: int, number: int) -> random.Random:
    """The random stream that breaks the ties of table ``number``: keyed by the season's secret
    seed, so nobody can tell the tables to come."""
    digest = hmac.new(
        str(season_seed).encode(), f"hegemon-ladder:{number}".encode(), hashlib.sha256
    ).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def fill_queue(store: Store, season: SeasonRow, depth: int = QUEUE_DEPTH) -> int:
    """Create the ladder's next pending matches, up to ``depth`` pending; returns how many
    were created (0: a season that is not a ladder, a full queue, fewer entrants than seats,
    or another runner filled it meanwhile)."""
    if not season.is_ladder or season.id is None:
        return 0
    season_id = season.id
    with store.session(write=True) as s:
        if not store.try_lock(s, f"hegemon-ladder:{season_id}"):
            return 0  # another matchmaker is filling this ladder now
        return _fill(s, season, depth)


def _fill(s: Session, season: SeasonRow, depth: int) -> int:
    """:func:`fill_queue` inside its transaction ``s``, the ladder's lock held."""
    from ..seasons.schedule import match_seed

    assert season.id is not None
    season_id = season.id
    wanted = depth - _pending(s, season_id)
    bots = entrant_ids(s) if wanted > 0 else []
    if wanted <= 0 or len(bots) < season.players:
        return 0
    ratings, kept = ladder_ratings(s, season_id)
    unfinished, first = _unfinished(s, season_id)
    tables = []
    for number in range(first, first + wanted):
        entrants = _entrants(bots, ratings, unfinished, season.players)
        seats = choose_table(entrants, season.players, number, table_rng(season.seed, number))
        made = MatchRow(
            season_id=season_id,
            number=number,
            table_number=number,
            seats=list(seats),
            seed=match_seed(season.seed, number),
        )
        unfinished.append((number, seats))
        tables.append(made)
    return _store_tables(s, season_id, tables, bots, kept)


Kept = tuple[str, Coverage, dict[str, Any]] | None
"""Ratings to keep: their key, the games they cover, their data (None: nothing new)."""


def ladder_ratings(session: Session, season_id: int) -> tuple[Ratings, Kept]:
    """The matchmaker's ratings of every finished game of the ladder: the kept ones brought up
    to date with the games finished since, or made from every game when none are kept or a game
    they took in is gone; and what to keep of them, if they changed (:func:`_store_tables`
    keeps it with the tables, in the same transaction). Reads only the games after the kept
    ones, and counts the ladder's void matches (a handful) to tell whether a game was voided."""
    key = part_key(fit_key({"ladder-ratings": season_id, "format": RATINGS_FORMAT}), "ratings")
    row = session.exec(select(RatingFitRow).where(col(RatingFitRow.key) == key)).first()
    voids = _voids(session, season_id)
    covered, ratings, same = Coverage(0, 0), Ratings(), False
    if row is not None:
        covered, ratings = Coverage(row.games, row.last_game_id), Ratings.load(row.data["bots"])
        same = row.data.get("voids") == voids
        if not same and _games_up_to(session, season_id, covered.last_game_id) != covered.games:
            covered, ratings = Coverage(0, 0), Ratings()  # a game taken in was voided
    new = _games_after(session, season_id, covered.last_game_id)
    if not new and same:
        return ratings, None
    for _, number, seats, places in new:
        ratings.add_game(number, seats, places)
    last = new[-1][0] if new else covered.last_game_id
    data = {"voids": voids, "bots": ratings.dump()}
    return ratings, (key, Coverage(covered.games + len(new), last), data)


def _pending(session: Session, season_id: int) -> int:
    return _count(session, season_id, PENDING)


def _voids(session: Session, season_id: int) -> int:
    return _count(session, season_id, VOID)


def _count(session: Session, season_id: int, status: str) -> int:
    """How many of the ladder's matches are in ``status`` (the index of both: a small read)."""
    n = session.exec(
        select(func.count())
        .select_from(MatchRow)
        .where(col(MatchRow.season_id) == season_id, col(MatchRow.status) == status)
    ).one()
    return int(n or 0)


def _games_up_to(session: Session, season_id: int, game_id: int) -> int:
    """How many of the ladder's games have an id up to ``game_id`` (reads them all: only when
    a match was voided since the ratings were kept)."""
    n = session.exec(
        select(func.count(col(GameRow.id)))
        .join(MatchRow, col(MatchRow.id) == col(GameRow.match_id))
        .where(col(MatchRow.season_id) == season_id, col(GameRow.id) <= game_id)
    ).one()
    return int(n or 0)


def _games_after(
    session: Session, season_id: int, game_id: int
) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    """The ladder's games stored after game ``game_id``, in the order they were stored: (game
    id, table number, seats, places). The games first (a range of their ids: every season's
    since then, a few), then their matches."""
    games = session.exec(
        select(col(GameRow.id), col(GameRow.match_id), col(GameRow.places))
        .where(col(GameRow.id) > game_id)
        .order_by(col(GameRow.id))
    ).all()
    if not games:
        return []
    ids = [m for _, m, _ in games]
    matches: dict[int, tuple[int, tuple[int, ...]]] = {}
    for start in range(0, len(ids), _CHUNK):
        for m, n, seats in session.exec(
            select(col(MatchRow.id), col(MatchRow.number), col(MatchRow.seats)).where(
                col(MatchRow.id).in_(ids[start : start + _CHUNK]),
                col(MatchRow.season_id) == season_id,
            )
        ).all():
            if m is not None:
                matches[m] = (int(n), tuple(int(b) for b in seats))
    return [
        (int(g or 0), *matches[m], tuple(int(p) for p in places))
        for g, m, places in games
        if m in matches
    ]


def _unfinished(session: Session, season_id: int) -> tuple[list[Table], int]:
    """The ladder's matches queued or in play, in order, and the number of the next table
    (after every match made, void ones too)."""
    rows = session.exec(
        select(col(MatchRow.number), col(MatchRow.seats))
        .where(
            col(MatchRow.season_id) == season_id,
            col(MatchRow.status).in_([PENDING, CLAIMED]),
        )
        .order_by(col(MatchRow.number))
    ).all()
    newest = session.exec(
        select(func.max(col(MatchRow.number))).where(col(MatchRow.season_id) == season_id)
    ).one()
    return [(int(n), tuple(int(b) for b in seats)) for n, seats in rows], int(newest or 0) + 1


def _entrants(
    ids: Sequence[int], ratings: Ratings, unfinished: Sequence[Table], players: int
) -> list[Entrant]:
    """The entrants as :func:`.policy.choose_table` sees them: their finished games (from the
    ratings) and those queued or in play."""
    games = dict.fromkeys(ids, 0)
    last = dict.fromkeys(ids, 0)
    seats = {b: [0] * players for b in ids}
    for b in ids:
        belief = ratings.beliefs.get(b)
        if belief is not None:
            games[b], last[b] = belief.games, belief.last
            for pos, n in enumerate(belief.seats[:players]):
                seats[b][pos] += n
    for number, table in unfinished:
        for pos, b in enumerate(table):
            if b in games:
                games[b] += 1
                last[b] = max(last[b], number)
                seats[b][pos] += 1
    elo = ratings.elo(ids)
    return [
        Entrant(
            bot_id=b,
            games=games[b],
            last=last[b],
            rating=elo.get(b),
            width=ratings.beliefs[b].width if b in elo else None,
            seats=tuple(seats[b]),
        )
        for b in ids
    ]


def _store_tables(
    s: Session,
    season_id: int,
    tables: list[MatchRow],
    bots: Sequence[int],
    kept: Kept,
) -> int:
    """Write the tables (and any entrant new to the ladder) and the ratings ``kept``; how many
    tables were written. The ladder's lock is held: nobody else numbers its tables."""
    if kept is not None:
        put_fit(s, *kept)
    known = set(
        s.exec(
            select(col(SeasonBotRow.bot_id)).where(col(SeasonBotRow.season_id) == season_id)
        ).all()
    )
    position = len(known)
    for b in bots:
        if b not in known:
            s.add(SeasonBotRow(season_id=season_id, bot_id=b, position=position))
            position += 1
    s.add_all(tables)
    s.exec(
        sa.update(SeasonRow).where(col(SeasonRow.id) == season_id).values(games=tables[-1].number)
    )
    return len(tables)
