"""Leaderboards from the stored results: ``hegemon leaderboard``, ``season status``, the web.

Ratings are always fitted from the stored finishing orders (``games.places``; a forfeited seat
is already placed below every survivor), in one place (:mod:`.fit`, which also survives a
fit that fails):

* ``pl`` (default): the Plackett–Luce maximum-likelihood fit of all finishing orders with
  95 % intervals and P(stronger than the next bot) from the same draws of its posterior. The
  fit depends only on the multiset of games, and the draws are seeded from the season's seed,
  so a season gives the same board — to the last digit — however many runners played it and
  in whichever order its games finished. Bots that never met, directly or through others, are
  groups ranked apart (``LeaderboardRow.group``) and shown as not comparable.
* ``elo``: the classic incremental Elo, games taken in schedule order (season, match number).

Without a season, the all-time board of each rule set (preset) pools every season played
under it. A bot is one registered version (``name@vN``).

One module a job: :mod:`.model` (what a board is), :mod:`.games` (the games read back),
:mod:`.fit` (the fit), :mod:`.fresh` (boards fitted from every game), :mod:`.tallies` and
:mod:`.stored` (running counts and the fit kept in the database, refitted only when games were
added), :mod:`.output` (CSV, JSON, the terminal table). :func:`board` and
:func:`all_time_boards` choose between stored and fresh with ``cached``.
"""

from __future__ import annotations

from ..store import SeasonRow, Store
from .fresh import all_time_boards_fresh, build_board, season_board_fresh
from .games import PlayedGame, load_games
from .model import BOOTSTRAP_SAMPLES, Leaderboard, LeaderboardRow, Method, board_seed, crosstable
from .output import board_dict, render_board, to_csv, to_json
from .stored import all_time_boards_stored, history, pooled_board, season_board_stored, thin

__all__ = [
    "BOOTSTRAP_SAMPLES",
    "Leaderboard",
    "LeaderboardRow",
    "Method",
    "PlayedGame",
    "all_time_boards",
    "board",
    "board_dict",
    "board_seed",
    "build_board",
    "crosstable",
    "history",
    "load_games",
    "pooled_board",
    "render_board",
    "thin",
    "to_csv",
    "to_json",
]


def board(
    store: Store,
    season: SeasonRow,
    method: Method = "pl",
    with_crosstable: bool = False,
    *,
    cached: bool = True,
) -> Leaderboard:
    """The season's board, bootstrap seeded from the season's seed: read from its stored fit
    (refitted and stored when games were added) with ``cached``, else fitted from every game."""
    make = season_board_stored if cached else season_board_fresh
    return make(store, season, method, with_crosstable)


def all_time_boards(
    store: Store, method: Method = "pl", with_crosstable: bool = False, *, cached: bool = True
) -> list[Leaderboard]:
    """One board per rule set (preset) with every game played under it, by preset name (pools
    without games are left out); ``cached`` as for :func:`board`."""
    make = all_time_boards_stored if cached else all_time_boards_fresh
    return make(store, method, with_crosstable)
