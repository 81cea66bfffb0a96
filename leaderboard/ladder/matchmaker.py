"""The ladder's matchmaker: :func:`fill_queue` keeps a few pending matches queued so runners
never idle, each table chosen by :func:`.policy.choose_table` from the entrants, the matches
already made and the ratings of the games stored so far.

Deterministic: the table numbered N is drawn with a random stream keyed by the season's secret
seed and N, and its dice seed is :func:`~hegemon.leaderboard.seasons.schedule.match_seed` of the
same (secret, as every unfinished game's is). Several runners may call it at once: the matches
are written in one transaction that first checks nobody else wrote the same numbers.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence

from sqlalchemy import func
from sqlmodel import col, select

from ..store import PENDING, VOID, BotRow, MatchRow, SeasonBotRow, SeasonRow, Store
from .entrants import ladder_entrants
from .policy import Entrant, choose_table, interval_width

QUEUE_DEPTH = 2
"""Pending matches a ladder keeps queued: enough that a runner finishing a game finds the next
one, few enough that each table is chosen knowing the results of nearly every game before it."""


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
    from ..seasons.schedule import match_seed

    if not season.is_ladder or season.id is None:
        return 0
    season_id = season.id
    wanted = depth - _pending(store, season_id)
    if wanted <= 0:
        return 0
    bots = ladder_entrants(store)
    if len(bots) < season.players:
        return 0
    matches = _made(store, season_id)
    first = matches[-1].number + 1 if matches else 1
    standing = _standings(store, season)
    tables = []
    for number in range(first, first + wanted):
        entrants = _entrants(bots, matches, standing, season.players)
        seats = choose_table(entrants, season.players, number, table_rng(season.seed, number))
        made = MatchRow(
            season_id=season_id,
            number=number,
            table_number=number,
            seats=list(seats),
            seed=match_seed(season.seed, number),
        )
        matches.append(made)
        tables.append(made)
    return _store_tables(store, season_id, first, tables, bots)


def _pending(store: Store, season_id: int) -> int:
    with store.session() as s:
        n = s.exec(
            select(func.count())
            .select_from(MatchRow)
            .where(col(MatchRow.season_id) == season_id, col(MatchRow.status) == PENDING)
        ).one()
    return int(n or 0)


def _made(store: Store, season_id: int) -> list[MatchRow]:
    """The ladder's matches so far (void ones left out: they never count), in order."""
    with store.session() as s:
        return list(
            s.exec(
                select(MatchRow)
                .where(col(MatchRow.season_id) == season_id, col(MatchRow.status) != VOID)
                .order_by(col(MatchRow.number))
            ).all()
        )


def _standings(store: Store, season: SeasonRow) -> dict[int, tuple[float | None, float | None]]:
    """Each rated bot's (rating, interval width): the point fit of the ladder's games (the
    board's fit without its bootstrap, which would cost a second or more at every game), and
    :func:`.policy.interval_width` of its games."""
    from ..boards import build_board, load_games

    assert season.id is not None
    games = load_games(store, season.id)
    bots = store.bots_by_id({b for g in games for b in g.seats})
    rows = build_board(games, bots, title="", preset=season.preset, samples=0).rows
    return {r.bot_id: (r.rating, interval_width(r.games)) for r in rows}


def _entrants(
    bots: Sequence[BotRow],
    matches: Sequence[MatchRow],
    standing: dict[int, tuple[float | None, float | None]],
    players: int,
) -> list[Entrant]:
    games: dict[int, int] = {}
    last: dict[int, int] = {}
    seats: dict[int, list[int]] = {}
    for m in matches:
        for pos, b in enumerate(m.seats):
            games[b] = games.get(b, 0) + 1
            last[b] = m.number
            seats.setdefault(b, [0] * players)[pos] += 1
    return [
        Entrant(
            bot_id=b.id,
            games=games.get(b.id, 0),
            last=last.get(b.id, 0),
            rating=standing.get(b.id, (None, None))[0],
            width=standing.get(b.id, (None, None))[1],
            seats=tuple(seats.get(b.id, [0] * players)),
        )
        for b in bots
        if b.id is not None
    ]


def _store_tables(
    store: Store, season_id: int, first: int, tables: list[MatchRow], bots: Sequence[BotRow]
) -> int:
    """Write the tables (and any entrant new to the ladder) unless another runner wrote
    matches numbered from ``first`` meanwhile; how many were written."""
    with store.session(write=True) as s:
        newest = s.exec(
            select(func.max(col(MatchRow.number))).where(col(MatchRow.season_id) == season_id)
        ).one()
        if (newest or 0) >= first:
            return 0
        known = set(
            s.exec(
                select(col(SeasonBotRow.bot_id)).where(col(SeasonBotRow.season_id) == season_id)
            ).all()
        )
        position = len(known)
        for b in bots:
            if b.id is not None and b.id not in known:
                s.add(SeasonBotRow(season_id=season_id, bot_id=b.id, position=position))
                position += 1
        s.add_all(tables)
        season = s.get(SeasonRow, season_id)
        if season is not None:
            season.games = tables[-1].number
        return len(tables)
