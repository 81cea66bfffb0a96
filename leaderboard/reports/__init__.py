"""Leaderboards from the stored results: ``hegemon leaderboard`` and ``hegemon season status``.

Ratings are always fitted afresh from the stored finishing orders (``games.places``; a
forfeited seat is already placed below every survivor) — :mod:`hegemon.leaderboard.rating_cache`
keeps them as counts of finishing patterns (:mod:`.tallies`), which give the same fit:

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

from .boards import (
    BOOTSTRAP_SAMPLES,
    Board,
    BoardRow,
    GameRow,
    all_time_boards,
    board_seed,
    build_board,
    crosstable,
    finishing_order,
    load_games,
    season_board,
    season_board_seed,
)
from .output import board_dict, render_board, to_csv, to_json

__all__ = [
    "BOOTSTRAP_SAMPLES",
    "Board",
    "BoardRow",
    "GameRow",
    "all_time_boards",
    "board_dict",
    "board_seed",
    "build_board",
    "crosstable",
    "finishing_order",
    "load_games",
    "render_board",
    "season_board",
    "season_board_seed",
    "to_csv",
    "to_json",
]
