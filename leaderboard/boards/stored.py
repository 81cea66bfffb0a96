"""Boards read from the stored fit, refitted only when games were added.

The same boards as :mod:`.fresh` (:func:`season_board_stored`, :func:`all_time_boards_stored`,
and :func:`pooled_board` for any pool of seasons), but a fitted board is kept in the
database (:mod:`hegemon.leaderboard.store.rating_fits`) with the number and the newest id of
the games it covers. A read costs one aggregate query while no game was added —
however many games the board has. When some were, only those are read: the running counts
stored beside the fit (finishing patterns, crosstable, faults, the Elo chart) take them in and
the board is refitted from the pattern counts (identical to a fresh fit: the fit depends only
on the multiset of games and the seed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..store import SeasonRow, Store
from ..store.rating_fits import Coverage, coverage, fit_key, load_fit, load_part, save_fit
from .fit import fit
from .fresh import build_board
from .games import load_games
from .model import (
    Leaderboard,
    LeaderboardRow,
    Method,
    board_rows,
    board_seed,
    bootstrap_samples,
    group_ranks,
    season_board_seed,
)

if TYPE_CHECKING:  # numpy: imported when a board is (re)fitted, not when it is read
    from .tallies import BoardState


def season_board_stored(
    store: Store, season: SeasonRow, method: Method = "pl", with_crosstable: bool = False
) -> Leaderboard:
    """The season's board (as :func:`.fresh.season_board_fresh`)."""
    return pooled_board(
        store,
        [season],
        title=f"season {season.name} · {season.preset}",
        preset=season.preset,
        seed=season_board_seed(season),
        method=method,
        season=season.name,
        with_crosstable=with_crosstable,
    )


def all_time_boards_stored(
    store: Store, method: Method = "pl", with_crosstable: bool = False
) -> list[Leaderboard]:
    """One board per rule set with every game played under it (as
    :func:`.fresh.all_time_boards_fresh`); pools without games are left out."""
    by_preset: dict[str, list[SeasonRow]] = {}
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
    seasons: Sequence[SeasonRow],
    *,
    title: str,
    preset: str,
    seed: int,
    method: Method = "pl",
    season: str | None = None,
    with_crosstable: bool = False,
) -> Leaderboard:
    """The board of every finished game of ``seasons``: the stored fit if it covers exactly
    the games there are now, else a refit (then stored) from the stored running counts and the
    games added since (:class:`~.tallies.BoardState`)."""
    ids = sorted(s.id for s in seasons if s.id is not None)
    key = fit_key({"seasons": ids, "method": method, "seed": seed})
    now = coverage(store, ids)
    data = load_fit(store, key, now)
    if data is not None and (data.get("cross") is not None or not with_crosstable):
        return _board(store, data, title, preset, method, season, seed, with_crosstable)
    if method != "pl":  # the Elo board depends on the order: made from every game
        return _fresh(store, key, ids, now, title, preset, method, seed, season, with_crosstable)
    board = _refit(store, key, ids, title, preset, seed, season)
    if not with_crosstable:
        board.cross = None
    return board


def _refit(
    store: Store, key: str, ids: list[int], title: str, preset: str, seed: int, season: str | None
) -> Leaderboard:
    """The Plackett–Luce board refitted from the running counts brought up to date, stored
    with them (and, for a season, its Elo chart). A board whose fit failed is kept too, with
    why: the fit depends only on the games and the seed, so until a game is added every read
    would fail the same way, and each would pay for the failed fit again."""
    state = _state(store, key, ids, keep_elo=season is not None)
    bots = store.bots_by_id(set(state.faults) | {b for a, b in state.cross})
    labels = {b: bot.label for b, bot in bots.items()}
    for a, _ in state.cross:
        labels.setdefault(a, f"bot#{a}@v0")
    board = _from_state(state, bots, labels, title, preset, seed, season)
    covered = Coverage(state.games, state.last_game_id)
    parts = {"state": state.dump()}
    if state.elo is not None:
        parts["history"] = state.dump_history()
        parts["chart"] = _chart(state)
    save_fit(store, key, covered, _dump(board), parts)
    return board


CHART_POINTS = 300
"""Points a bot of the chart drawn on a page (:func:`history` with ``full=False``)."""


def history(store: Store, season: SeasonRow, full: bool = True) -> dict[str, Any]:
    """The season's incremental Elo chart, ``{"games": N, "series": [{"bot": label, "points":
    [[game number, rating], ...]}, ...]}`` (bots by label), kept with the season's board (made
    with it when games were added). ``full=False``: at most about :data:`CHART_POINTS` points
    a bot (:func:`thin`), what a page draws — a small read."""
    assert season.id is not None
    key = fit_key({"seasons": [season.id], "method": "pl", "seed": season_board_seed(season)})
    now = coverage(store, [season.id])
    part = "history" if full else "chart"
    stored = load_part(store, key, part)
    if stored is None or stored[0] != now:  # made with the board: brought up to date with it
        title = f"season {season.name} · {season.preset}"
        _refit(
            store, key, [season.id], title, season.preset, season_board_seed(season), season.name
        )
        stored = load_part(store, key, part)
    if stored is None or stored[0] != now:
        from .tallies import BoardState, load_rows

        # not storable here (a read-only database): count every game again
        state = BoardState(elo={})
        state.add(load_rows(store, [season.id]))
        data = state.dump_history() if full else _chart(state)
    else:
        data = stored[1]
    labels = {b.id: b.label for b in store.season_bots(season.id)}
    series = sorted(
        (labels.get(int(b), f"bot#{b}"), points) for b, points in data["series"].items()
    )
    return {
        "games": int(data["games"]),
        "series": [{"bot": bot, "points": points} for bot, points in series],
    }


def thin(points: list[Any], most: int = CHART_POINTS) -> list[Any]:
    """At most about ``most`` evenly spaced points of a series, the last one always kept (a
    chart is a few hundred pixels wide: more points only make the page heavy).

    >>> thin(list(range(10)), most=4)
    [0, 2, 5, 7, 9]
    """
    if len(points) <= most:
        return points
    step = len(points) / most
    kept = [points[int(i * step)] for i in range(most)]
    return kept if kept[-1] is points[-1] else [*kept, points[-1]]


def _chart(state: BoardState) -> dict[str, Any]:
    series = {str(b): thin(p, CHART_POINTS) for b, p in state.history.items()}
    return {"games": state.games, "series": series}


def _state(store: Store, key: str, ids: list[int], keep_elo: bool) -> BoardState:
    """The stored running counts brought up to date with the games added since; counted
    again from every game when there are none, or when a game with a lower id than the newest
    counted one was stored since (a concurrent writer), or the Elo cannot simply continue."""
    from .tallies import BoardState, load_rows

    stored = load_part(store, key, "state")
    history_part = load_part(store, key, "history") if keep_elo else None
    state = BoardState.load(
        stored[1] if stored else None, history_part[1] if history_part else None
    )
    if state is not None and (state.elo is not None) == keep_elo:
        rows = load_rows(store, ids, after=state.last_game_id)
        if state.follows(rows) and _complete(store, ids, state, rows):
            state.add(rows)
            return state
    state = BoardState(elo={} if keep_elo else None)
    state.add(load_rows(store, ids))
    return state


def _complete(store: Store, ids: list[int], state: BoardState, rows: Any) -> bool:
    """Whether the counted games and the new ones are every game up to the newest id."""
    newest = max(rows.ids, default=state.last_game_id)
    return coverage(store, ids, up_to=newest).games == state.games + len(rows.ids)


def _from_state(
    state: BoardState,
    bots: dict[int, Any],
    labels: dict[int, str],
    title: str,
    preset: str,
    seed: int,
    season: str | None,
) -> Leaderboard:
    by_label = {label: b for b, label in labels.items()}
    samples = bootstrap_samples(state.games)
    fitted = fit(state.tally(labels), samples=samples, seed=seed) if state.games else fit([])
    rows = board_rows(fitted.ratings, by_label, bots, state.faults)
    board = Leaderboard(title, preset, "pl", season, state.games, rows, seed=seed)
    board.unrated = fitted.unrated
    board.cross = {pair: (float(v[0]), int(v[1])) for pair, v in state.cross.items()}
    return board


def _fresh(
    store: Store,
    key: str,
    ids: list[int],
    now: Coverage,
    title: str,
    preset: str,
    method: Method,
    seed: int,
    season: str | None,
    with_crosstable: bool,
) -> Leaderboard:
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


_FIELDS = ("rating", "low", "high", "games", "wins", "mean_place", "faults", "p_next", "group")


def _dump(board: Leaderboard) -> dict[str, Any]:
    return {
        "games": board.games,
        "rows": [{"bot_id": r.bot_id, **{f: getattr(r, f) for f in _FIELDS}} for r in board.rows],
        "unrated": board.unrated,
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
) -> Leaderboard:
    bots = store.bots_by_id({int(r["bot_id"]) for r in data["rows"]})
    rows = []
    ranks = group_ranks([int(r["group"]) for r in data["rows"]])
    for rank, r in zip(ranks, data["rows"], strict=True):
        bot = bots.get(int(r["bot_id"]))
        name, version = (bot.name, bot.version) if bot else (f"bot#{r['bot_id']}@v0", 0)
        values = {f: r[f] for f in _FIELDS}
        rows.append(
            LeaderboardRow(rank=rank, bot_id=int(r["bot_id"]), name=name, version=version, **values)
        )
    board = Leaderboard(title, preset, method, season, int(data["games"]), rows, seed=seed)
    board.unrated = data.get("unrated")  # absent from fits stored before failed ones were
    if with_crosstable:
        board.cross = {(a, b): (float(ahead), int(met)) for a, b, ahead, met in data["cross"]}
    return board
