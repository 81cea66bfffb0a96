"""Boards computed from the stored results: the finished games read back, rated (Plackett–Luce
or Elo), and gathered per season or per rule set."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlmodel import col, select

from ..ratings import PROVISIONAL_GAMES
from ..store import Bot, Game, Match, Season, Store

BOOTSTRAP_SAMPLES = 1000
"""Bootstrap resamples behind the intervals (fewer for very large boards, see
:func:`bootstrap_samples`)."""

Method = Literal["pl", "elo"]


@dataclass(frozen=True)
class GameRow:
    """One stored game: who sat where and where each seat finished."""

    season_id: int
    number: int
    seats: tuple[int, ...]  # bot ids in seat order
    places: tuple[int, ...]  # place of each seat, 1 = won
    faults: tuple[int, ...]  # seat of each fault recorded in the game


def load_games(
    store: Store, season_id: int | None = None, preset: str | None = None
) -> list[GameRow]:
    """The finished games of a season (or of every season under ``preset``, or all), in
    schedule order. Only the columns the boards need are read."""
    query = select(  # type: ignore[call-overload]  # sqlmodel types up to 4 columns
        col(Match.season_id),
        col(Match.number),
        col(Match.seats),
        col(Game.places),
        col(Game.faults),
    ).join(Game, col(Game.match_id) == col(Match.id))
    if season_id is not None:
        query = query.where(col(Match.season_id) == season_id)
    if preset is not None:
        query = query.join(Season, col(Season.id) == col(Match.season_id)).where(
            col(Season.preset) == preset
        )
    query = query.order_by(col(Match.season_id), col(Match.number))
    with store.session() as s:
        rows = s.exec(query).all()
    return [
        GameRow(
            int(sid),
            int(number),
            tuple(int(b) for b in seats),
            tuple(int(p) for p in places),
            tuple(int(f.get("seat", -1)) for f in (faults or ()) if isinstance(f, dict)),
        )
        for sid, number, seats, places, faults in rows
    ]


def finishing_order(seats: Sequence[str], places: Sequence[int]) -> list[list[str]]:
    """Place groups, best first, for the ratings module (equal places are a tie)."""
    groups: dict[int, list[str]] = {}
    for name, place in zip(seats, places, strict=False):
        groups.setdefault(place, []).append(name)
    return [sorted(groups[p]) for p in sorted(groups)]


def board_seed(text: str) -> int:
    """A bootstrap seed derived from a text (for boards that are not one season's)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def season_board_seed(season: Season) -> int:
    """The bootstrap seed of a season's board: derived from the season's seed one way, since
    a board shows its bootstrap seed and the season's own stays secret until it is finished."""
    return board_seed(f"hegemon season:{season.seed}")


def bootstrap_samples(games: int) -> int:
    """Resamples for a board of ``games`` games: 1000, fewer past 2000 games (the intervals
    are then narrow and each resample costs more), never below 200."""
    if games <= 2000:
        return BOOTSTRAP_SAMPLES
    return max(200, BOOTSTRAP_SAMPLES * 2000 // games)


@dataclass(frozen=True)
class BoardRow:
    rank: int
    bot_id: int
    name: str
    version: int
    rating: float
    low: float | None
    high: float | None
    games: int
    wins: int
    mean_place: float
    faults: int
    p_next: float | None

    @property
    def label(self) -> str:
        return f"{self.name}@v{self.version}"

    @property
    def provisional(self) -> bool:
        """Too few games for the rating to say much yet (under ``PROVISIONAL_GAMES``)."""
        return self.games < PROVISIONAL_GAMES


@dataclass
class Board:
    """A leaderboard: rows best first, and optionally the crosstable."""

    title: str
    preset: str
    method: str
    season: str | None
    games: int
    rows: list[BoardRow]
    cross: dict[tuple[int, int], tuple[float, int]] | None = None  # (row, col) → (ahead, met)
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def crosstable(games: Sequence[GameRow]) -> dict[tuple[int, int], tuple[float, int]]:
    """For each ordered pair of bots (a, b) that met: (times a finished ahead of b — a tie
    counts one half —, games they played together)."""
    ahead: dict[tuple[int, int], float] = {}
    met: Counter[tuple[int, int]] = Counter()
    for g in games:
        for i, a in enumerate(g.seats):
            for j, b in enumerate(g.seats):
                if i == j:
                    continue
                met[a, b] += 1
                if g.places[i] < g.places[j]:
                    ahead[a, b] = ahead.get((a, b), 0) + 1.0
                elif g.places[i] == g.places[j]:
                    ahead[a, b] = ahead.get((a, b), 0) + 0.5
    return {pair: (ahead.get(pair, 0), n) for pair, n in met.items()}


def board_rows(
    ratings: Sequence[Any], by_label: dict[str, int], bots: dict[int, Bot], faults: Any
) -> list[BoardRow]:
    """The rows of rated bots (``ratings``: :class:`hegemon.leaderboard.ratings.Rating`, best
    first), with their bots' names and ``faults`` (a mapping bot id → faults)."""
    rows = []
    for rank, r in enumerate(ratings, 1):
        bot_id = by_label[r.bot]
        bot = bots.get(bot_id)
        name, version = (bot.name, bot.version) if bot is not None else (r.bot, 0)
        rows.append(
            BoardRow(rank, bot_id, name, version, r.rating, r.low, r.high, r.games, r.wins,
                     r.mean_place, faults.get(bot_id, 0), r.p_stronger_than_next)
        )  # fmt: skip
    return rows


def build_board(
    games: Sequence[GameRow],
    bots: dict[int, Bot],
    *,
    title: str,
    preset: str,
    method: Method = "pl",
    seed: int = 0,
    season: str | None = None,
    with_crosstable: bool = False,
    samples: int | None = None,
) -> Board:
    """The board of ``games`` (ratings fitted from scratch; ``seed`` seeds the bootstrap)."""
    from ..ratings import rate  # numpy: only when fitting

    labels = {bot_id: bot.label for bot_id, bot in bots.items()}
    for g in games:
        for b in g.seats:
            labels.setdefault(b, f"bot#{b}@v0")
    by_label = {label: bot_id for bot_id, label in labels.items()}
    orders = [finishing_order([labels[b] for b in g.seats], g.places) for g in games]
    if samples is None:
        samples = bootstrap_samples(len(games))
    ratings = (
        rate(orders, method=method, bootstrap_samples=samples if method == "pl" else 0, seed=seed)
        if orders
        else []
    )
    faults: Counter[int] = Counter()
    for g in games:
        for seat in g.faults:
            if 0 <= seat < len(g.seats):
                faults[g.seats[seat]] += 1
    rows = board_rows(ratings, by_label, bots, faults)
    board = Board(title, preset, method, season, len(games), rows, seed=seed)
    if with_crosstable:
        board.cross = crosstable(games)
    return board


def season_board(
    store: Store, season: Season, method: Method = "pl", with_crosstable: bool = False
) -> Board:
    """The season's board, bootstrap seeded from the season's seed."""
    assert season.id is not None
    games = load_games(store, season.id)
    bots = {b.id: b for b in store.season_bots(season.id) if b.id is not None}
    return build_board(
        games,
        bots,
        title=f"season {season.name} · {season.preset}",
        preset=season.preset,
        method=method,
        seed=season_board_seed(season),
        season=season.name,
        with_crosstable=with_crosstable,
    )


def all_time_boards(
    store: Store, method: Method = "pl", with_crosstable: bool = False
) -> list[Board]:
    """One board per rule set (preset) with every game played under it, by preset name."""
    presets = sorted({s.preset for s in store.seasons()})
    games_by_preset = {p: load_games(store, preset=p) for p in presets}
    wanted = {b for games in games_by_preset.values() for g in games for b in g.seats}
    bots = store.bots_by_id(wanted)
    boards = []
    for preset in presets:
        games = games_by_preset[preset]
        if not games:
            continue
        boards.append(
            build_board(
                games,
                bots,
                title=f"all time · {preset}",
                preset=preset,
                method=method,
                seed=board_seed(f"hegemon all-time:{preset}"),
                with_crosstable=with_crosstable,
            )
        )
    return boards
