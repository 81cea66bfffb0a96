"""Leaderboards from the stored results: ``hegemon leaderboard`` and ``hegemon season status``.

Ratings are always computed afresh from the stored finishing orders (``games.places``; a
forfeited seat is already placed below every survivor), never kept as running totals:

* ``pl`` (default): the Plackett–Luce maximum-likelihood fit of all finishing orders with
  bootstrap 95 % intervals and P(stronger than the next bot). The fit depends only on the
  multiset of games, and the bootstrap is seeded from the season's seed, so a season gives the
  same board — to the last digit — however many runners played it and in whichever order its
  games finished.
* ``elo``: the classic incremental Elo, games taken in schedule order (season, match number).

Without a season, the all-time board of each rule set (preset) pools every season played
under it. A bot is one registered version (``name@vN``).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlmodel import col, select

from .ratings import rate
from .store import Bot, Game, Match, Season, Store

__all__ = [
    "BOOTSTRAP_SAMPLES",
    "Board",
    "BoardRow",
    "GameRow",
    "all_time_boards",
    "board_seed",
    "build_board",
    "crosstable",
    "finishing_order",
    "load_games",
    "render_board",
    "season_board",
    "to_csv",
    "to_json",
]

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
    rows = []
    for rank, r in enumerate(ratings, 1):
        bot_id = by_label[r.bot]
        bot = bots.get(bot_id)
        name, version = (bot.name, bot.version) if bot is not None else (r.bot, 0)
        rows.append(
            BoardRow(
                rank,
                bot_id,
                name,
                version,
                r.rating,
                r.low,
                r.high,
                r.games,
                r.wins,
                r.mean_place,
                faults[bot_id],
                r.p_stronger_than_next,
            )
        )
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
        seed=int(season.seed),
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


# ---------------------------------------------------------------------------------- output
CSV_FIELDS = [
    "rank",
    "bot",
    "version",
    "rating",
    "low",
    "high",
    "games",
    "wins",
    "mean_place",
    "faults",
    "p_stronger_than_next",
]


def _num(value: float | None, digits: int) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _csv_row(row: BoardRow) -> list[str]:
    return [
        str(row.rank),
        row.name,
        str(row.version),
        _num(row.rating, 1),
        _num(row.low, 1),
        _num(row.high, 1),
        str(row.games),
        str(row.wins),
        _num(row.mean_place, 3),
        str(row.faults),
        _num(row.p_next, 3),
    ]


def to_csv(boards: Sequence[Board], with_preset: bool = False) -> str:
    """The boards as CSV (one header). With ``with_preset`` a first ``rule_set`` column;
    with crosstables, one column per bot (``vs <bot>``: share of their games finished ahead)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    cross = any(b.cross is not None for b in boards)
    labels: list[str] = []
    for board in boards:
        for row in board.rows:
            if row.label not in labels:
                labels.append(row.label)
    header = (["rule_set"] if with_preset else []) + CSV_FIELDS
    if cross:
        header += [f"vs {label}" for label in labels]
    writer.writerow(header)
    for board in boards:
        ids = {r.label: r.bot_id for r in board.rows}
        for row in board.rows:
            line = ([board.preset] if with_preset else []) + _csv_row(row)
            if cross and board.cross is not None:
                for label in labels:
                    other = ids.get(label)
                    cell = board.cross.get((row.bot_id, other)) if other is not None else None
                    line.append("" if cell is None else f"{cell[0] / cell[1]:.3f}")
            writer.writerow(line)
    return out.getvalue()


def _json_row(row: BoardRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "bot": row.name,
        "version": row.version,
        "label": row.label,
        "rating": round(row.rating, 1),
        "interval": None
        if row.low is None or row.high is None
        else [round(row.low, 1), round(row.high, 1)],
        "games": row.games,
        "wins": row.wins,
        "mean_place": round(row.mean_place, 3),
        "faults": row.faults,
        "p_stronger_than_next": None if row.p_next is None else round(row.p_next, 3),
    }


def board_dict(board: Board) -> dict[str, Any]:
    data: dict[str, Any] = {
        "title": board.title,
        "season": board.season,
        "rule_set": board.preset,
        "method": board.method,
        "games": board.games,
        "bootstrap_seed": board.seed,
        "rows": [_json_row(r) for r in board.rows],
    }
    if board.cross is not None:
        labels = {r.bot_id: r.label for r in board.rows}
        data["crosstable"] = [
            {
                "row": labels[a],
                "column": labels[b],
                "ahead": ahead,
                "games": n,
                "share": round(ahead / n, 3),
            }
            for (a, b), (ahead, n) in sorted(board.cross.items())
            if a in labels and b in labels
        ]
    data.update(board.extra)
    return data


def to_json(boards: Sequence[Board], single: bool = True) -> str:
    """One board as a JSON object (``single``), or a list of boards."""
    if single and len(boards) == 1:
        return json.dumps(board_dict(boards[0]), indent=2)
    return json.dumps([board_dict(b) for b in boards], indent=2)


def render_board(board: Board, console: Any) -> None:
    """The board as a rich table (and the crosstable below it, if computed)."""
    from rich import box
    from rich.table import Table

    pl = board.method == "pl"
    table = Table(
        title=f"{board.title} · {board.games} game{'s' if board.games != 1 else ''}"
        f" · {'Plackett–Luce' if pl else 'incremental Elo'}",
        box=box.SIMPLE_HEAD,
        title_justify="left",
        collapse_padding=True,
        pad_edge=False,
    )
    table.add_column("#", justify="right")
    table.add_column("bot", style="bold", no_wrap=True)
    table.add_column("ver", justify="right")
    table.add_column("rating", justify="right")
    if pl:
        table.add_column("95% interval", justify="right", no_wrap=True)
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("mean\nplace", justify="right")
    table.add_column("faults", justify="right")
    if pl:
        table.add_column("P(>\nnext)", justify="right")
    for row in board.rows:
        cells = [str(row.rank), row.name, f"v{row.version}", f"{row.rating:.0f}"]
        if pl:
            cells.append(
                "–" if row.low is None or row.high is None else f"{row.low:.0f}–{row.high:.0f}"
            )
        cells += [
            str(row.games),
            str(row.wins),
            f"{row.mean_place:.2f}",
            f"[red]{row.faults}[/]" if row.faults else "0",
        ]
        if pl:
            cells.append("" if row.p_next is None else f"{row.p_next:.0%}")
        table.add_row(*cells)
    console.print(table)
    if board.cross is not None:
        render_crosstable(board, console)


def render_crosstable(board: Board, console: Any) -> None:
    from rich.table import Table

    assert board.cross is not None
    from rich import box

    table = Table(
        title="how often the row bot finished ahead of the column bot (games together)",
        box=box.SIMPLE_HEAD,
        title_justify="left",
        collapse_padding=True,
        pad_edge=False,
    )
    table.add_column("", style="bold")
    names = Counter(r.name for r in board.rows)
    for row in board.rows:
        table.add_column(row.name if names[row.name] == 1 else row.label, justify="right")
    for a in board.rows:
        cells = [a.label]
        for b in board.rows:
            cell = board.cross.get((a.bot_id, b.bot_id))
            if a.bot_id == b.bot_id:
                cells.append("·")
            elif cell is None:
                cells.append("–")
            else:
                cells.append(f"{cell[0] / cell[1]:.0%} ({cell[1]})")
        table.add_row(*cells)
    console.print(table)
