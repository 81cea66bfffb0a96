"""``hegemon leaderboard``: the boards, computed afresh from the stored results."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import typer

from .. import paths
from .common import (
    DEFAULT_METHOD,
    check_method,
    console,
    db_option,
    errors,
    fail,
    find_season,
    open_store,
    store_exists,
)

if TYPE_CHECKING:
    from ..boards import Leaderboard


def leaderboard_command(
    season: str | None = typer.Argument(
        None, help="A season (default: the all-time board of each rule set)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    as_csv: bool = typer.Option(False, "--csv", help="Print CSV."),
    crosstable: bool = typer.Option(
        False,
        "--crosstable",
        help="Also show, for each pair of "
        "bots, how often the row bot finished ahead of the column "
        "bot.",
    ),
    method: str = typer.Option(
        DEFAULT_METHOD,
        "--method",
        help="pl: Plackett–Luce fit with bootstrap 95% "
        "intervals (seeded by the season: reproducible); elo: "
        "incremental Elo in schedule order.",
    ),
    db: str | None = db_option(),
) -> None:
    """The leaderboard: rating ± interval, games, wins, mean place, faults, P(stronger than
    the next bot). Computed afresh from the stored results."""
    from ..boards import all_time_boards, board, render_board, to_csv, to_json
    from ..store import StoreError

    rating = check_method(method)
    if as_json and as_csv:
        fail("give --json or --csv, not both")
    if not store_exists(db):
        if season is not None:
            fail(f"no season named '{season}' (no database yet at {paths.db_target(db)})")
        _no_results(as_json, as_csv, f"no results yet: no database at {paths.db_target(db)}")
        return
    store = open_store(db, create=False)
    try:
        if season is not None:
            found = find_season(store, season)
            try:
                boards = [board(store, found, rating, crosstable)]
            except StoreError as exc:
                fail(str(exc))
            empty = (
                f"season {found.name}: no results yet "
                f"(0 of {found.games} games played; run: hegemon season run {found.name})"
            )
        else:
            try:
                boards = all_time_boards(store, rating, crosstable)
            except StoreError as exc:
                fail(str(exc))
            empty = "no results yet: no season has a finished game"
    finally:
        store.close()
    if not any(b.rows for b in boards):
        _no_results(as_json, as_csv, empty, boards[0] if season is not None else None)
        return
    boards = [b for b in boards if b.rows]
    if as_csv:
        sys.stdout.write(to_csv(boards, with_preset=season is None))
    elif as_json:
        sys.stdout.write(to_json(boards, single=season is not None) + "\n")
    else:
        for shown in boards:  # (not live.print_board: live.py imports the season runner)
            render_board(shown, console)


def _no_results(
    as_json: bool, as_csv: bool, message: str, board: Leaderboard | None = None
) -> None:
    """An empty board: the message (on stderr for --csv/--json, whose output stays parseable:
    the CSV header only, an empty JSON board)."""
    from ..boards import to_csv, to_json

    if as_csv:
        sys.stdout.write(to_csv([], with_preset=board is None))
    elif as_json:
        sys.stdout.write((to_json([board]) if board is not None else "[]") + "\n")
    if as_csv or as_json:
        errors.print(message, highlight=False, soft_wrap=True)
    else:
        console.print(message, highlight=False, soft_wrap=True)
