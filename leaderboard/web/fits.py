"""The fitted boards the pages show, as JSON-ready dicts: made here by the web server, or in
its fitting process (:mod:`.fit_worker`) — the same functions, so both give the same board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hegemon.leaderboard import boards
from hegemon.leaderboard.store import SeasonRow, Store


def season_board_data(store: Store, season: SeasonRow) -> dict[str, Any]:
    """The season's board with its crosstable (Plackett–Luce, bootstrap from its seed)."""
    return boards.board_dict(boards.board(store, season, with_crosstable=True))


def pooled_board_data(
    store: Store, seasons: Sequence[SeasonRow], title: str, preset: str, seed: int
) -> dict[str, Any] | None:
    """The board of every game of ``seasons`` with its crosstable; None before their first."""
    board = boards.pooled_board(
        store, seasons, title=title, preset=preset, seed=seed, with_crosstable=True
    )
    return boards.board_dict(board) if board.games else None


def season_history_data(store: Store, season: SeasonRow, full: bool = True) -> dict[str, Any]:
    """The season's incremental Elo chart (:func:`boards.history`): stored with the season's
    board, so made again with it (a refit) when games were added."""
    return boards.history(store, season, full=full)
