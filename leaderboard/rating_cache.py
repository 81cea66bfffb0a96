"""Boards read from the stored fit, refitted only when games were added.

The same boards as :mod:`hegemon.leaderboard.reports` (:func:`season_board`,
:func:`all_time_boards`, and :func:`pooled_board` for any pool of seasons), but a fitted board
is kept in the database (:mod:`hegemon.leaderboard.store.rating_fits`) with the number and the
newest id of the games it covers. A read costs one aggregate query while no game was added —
however many games the board has — and a full refit (identical to a fresh one: the fit depends
only on the games and the seed) when some were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .reports import Board, BoardRow, board_seed, build_board, load_games
from .reports.boards import Method
from .store import Season, Store
from .store.rating_fits import coverage, fit_key, load_fit, save_fit


def season_board(
    store: Store, season: Season, method: Method = "pl", with_crosstable: bool = False
) -> Board:
    """The season's board (as :func:`hegemon.leaderboard.reports.season_board`)."""
    return pooled_board(
        store,
        [season],
        title=f"season {season.name} · {season.preset}",
        preset=season.preset,
        seed=int(season.seed),
        method=method,
        season=season.name,
        with_crosstable=with_crosstable,
    )


def all_time_boards(
    store: Store, method: Method = "pl", with_crosstable: bool = False
) -> list[Board]:
    """One board per rule set with every game played under it (as
    :func:`hegemon.leaderboard.reports.all_time_boards`); pools without games are left out."""
    by_preset: dict[str, list[Season]] = {}
    for s in store.seasons():
        by_preset.setdefault(s.preset, []).append(s)
    boards = []
    for preset in sorted(by_preset):
        board = pooled_board(
            store,
            by_preset[preset],
            title=f"all time · {preset}",
            preset=preset,
            seed=board_seed(f"hegemon all-time:{preset}"),
            method=method,
            with_crosstable=with_crosstable,
        )
        if board.games:
            boards.append(board)
    return boards


def pooled_board(
    store: Store,
    seasons: Sequence[Season],
    *,
    title: str,
    preset: str,
    seed: int,
    method: Method = "pl",
    season: str | None = None,
    with_crosstable: bool = False,
) -> Board:
    """The board of every finished game of ``seasons``: the stored fit if it covers exactly
    the games there are now, else a fresh fit (then stored)."""
    ids = sorted(s.id for s in seasons if s.id is not None)
    key = fit_key({"seasons": ids, "method": method, "seed": seed})
    now = coverage(store, ids)
    data = load_fit(store, key, now)
    if data is not None and (data.get("cross") is not None or not with_crosstable):
        return _board(store, data, title, preset, method, season, seed, with_crosstable)
    games = [g for season_id in ids for g in load_games(store, season_id)]
    bots = store.bots_by_id({b for g in games for b in g.seats})
    board = build_board(
        games,
        bots,
        title=title,
        preset=preset,
        method=method,
        seed=seed,
        season=season,
        with_crosstable=with_crosstable,
    )
    # the games read may be newer than ``now``: stored as covering ``now``, the next read
    # refits rather than trusts a fit that might miss a game
    save_fit(store, key, now, _dump(board))
    return board


_FIELDS = ("rating", "low", "high", "games", "wins", "mean_place", "faults", "p_next")


def _dump(board: Board) -> dict[str, Any]:
    return {
        "games": board.games,
        "rows": [{"bot_id": r.bot_id, **{f: getattr(r, f) for f in _FIELDS}} for r in board.rows],
        "cross": None
        if board.cross is None
        else [[a, b, ahead, met] for (a, b), (ahead, met) in sorted(board.cross.items())],
    }


def _board(
    store: Store,
    data: dict[str, Any],
    title: str,
    preset: str,
    method: str,
    season: str | None,
    seed: int,
    with_crosstable: bool,
) -> Board:
    bots = store.bots_by_id({int(r["bot_id"]) for r in data["rows"]})
    rows = []
    for rank, r in enumerate(data["rows"], 1):
        bot = bots.get(int(r["bot_id"]))
        name, version = (bot.name, bot.version) if bot else (f"bot#{r['bot_id']}@v0", 0)
        values = {f: r[f] for f in _FIELDS}
        rows.append(
            BoardRow(rank=rank, bot_id=int(r["bot_id"]), name=name, version=version, **values)
        )
    board = Board(title, preset, method, season, int(data["games"]), rows, seed=seed)
    if with_crosstable:
        board.cross = {(a, b): (float(ahead), int(met)) for a, b, ahead, met in data["cross"]}
    return board
