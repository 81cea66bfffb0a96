"""Boards fitted afresh from every game (no stored fit): the Elo boards, which depend on the
order of the games, and ``board(..., cached=False)``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..store import BotRow, SeasonRow, Store
from .fit import fit
from .games import PlayedGame, load_games
from .model import (
    Leaderboard,
    Method,
    board_rows,
    board_seed,
    bootstrap_samples,
    crosstable,
    finishing_order,
    season_board_seed,
)


def build_board(
    games: Sequence[PlayedGame],
    bots: dict[int, BotRow],
    *,
    title: str,
    preset: str,
    method: Method = "pl",
    seed: int = 0,
    season: str | None = None,
    with_crosstable: bool = False,
    samples: int | None = None,
) -> Leaderboard:
    """The board of ``games`` (ratings fitted from scratch; ``seed`` seeds the bootstrap)."""
    labels = {bot_id: bot.label for bot_id, bot in bots.items()}
    for g in games:
        for b in g.seats:
            labels.setdefault(b, f"bot#{b}@v0")
    by_label = {label: bot_id for bot_id, label in labels.items()}
    orders = [finishing_order([labels[b] for b in g.seats], g.places) for g in games]
    if samples is None:
        samples = bootstrap_samples(len(games))
    fitted = fit(orders, method=method, samples=samples if method == "pl" else 0, seed=seed)
    faults: Counter[int] = Counter()
    for g in games:
        for seat in g.faults:
            if 0 <= seat < len(g.seats):
                faults[g.seats[seat]] += 1
    rows = board_rows(fitted.ratings, by_label, bots, faults)
    board = Leaderboard(title, preset, method, season, len(games), rows, seed=seed)
    board.unrated = fitted.unrated
    if with_crosstable:
        board.cross = crosstable(games)
    return board


def season_board_fresh(
    store: Store, season: SeasonRow, method: Method = "pl", with_crosstable: bool = False
) -> Leaderboard:
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


def all_time_boards_fresh(
    store: Store, method: Method = "pl", with_crosstable: bool = False
) -> list[Leaderboard]:
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
