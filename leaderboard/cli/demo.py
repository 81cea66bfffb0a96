"""``hegemon demo``: the whole product in one command (``./scripts/demo``).

1. opens the league database (``--db`` / ``$HEGEMON_DB``, else ``$HEGEMON_HOME/arena.db``);
2. registers the four sample bots (a bot whose files are registered already is reused);
3. creates a new season ``demo-N`` (the first free N, so every run is a fresh season and
   earlier demos stay on the all-time board): ``classic`` rules with a turn limit, 4 players,
   30 games, a fresh seed;
4. runs it, two games at once, with live progress (Ctrl-C stops it; ``hegemon season run
   demo-N`` resumes);
5. prints the leaderboard and where the records and the database are.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from hegemon.sample_bots.names import TOUR as SAMPLE_BOTS

from .. import paths
from ..seasons.setup import new_season
from .common import DEFAULT_PRESET, console, db_option, fail

if TYPE_CHECKING:
    from ..store import Store

__all__ = [
    "DEFAULT_CONCURRENCY",
    "DEFAULT_GAMES",
    "DEFAULT_TURN_LIMIT",
    "DemoError",
    "demo_command",
    "next_demo_name",
    "run_demo",
]

DEFAULT_GAMES = 30
DEFAULT_CONCURRENCY = 2
DEFAULT_TURN_LIMIT = 25
"""Rounds before a demo game ends on points (keeps a 30-game season to about a minute)."""

PLAYERS = 4


class DemoError(Exception):
    """Why the demo cannot run, in one line."""


def next_demo_name(store: Store) -> str:
    """``demo-N`` for the first N not taken."""
    taken = set()
    for season in store.seasons():
        match = re.fullmatch(r"demo-(\d+)", season.name)
        if match:
            taken.add(int(match.group(1)))
    n = 1
    while n in taken:
        n += 1
    return f"demo-{n}"


def run_demo(
    *,
    games: int = DEFAULT_GAMES,
    concurrency: int = DEFAULT_CONCURRENCY,
    turn_limit: int = DEFAULT_TURN_LIMIT,
    db: str | None = None,
    out: Console | None = None,
    quiet: bool = False,
) -> int:
    """Run the demo; returns the exit code (0, or 130 when interrupted)."""
    from hegemon.referee.chance import new_seed
    from hegemon.referee.rules import make_rules

    from ..registry import RegistryError, add_bot
    from ..seasons.schedule import make_schedule
    from ..store import Store, StoreError
    from .live import run_live, summary

    out = out or Console()
    try:
        store = Store(db)
    except StoreError as exc:
        raise DemoError(str(exc)) from None
    try:
        out.print(
            f"[bold]hegemon demo[/] · home {paths.home()} · database {store.display}",
            highlight=False,
            soft_wrap=True,
        )
        bots = []
        for name in SAMPLE_BOTS:
            try:
                result = add_bot(store, name, name, check=False)
            except (RegistryError, StoreError) as exc:
                raise DemoError(f"cannot register the sample bot {name}: {exc}") from None
            bots.append(result.bot)
            out.print(
                f"  {'registered' if result.new else 'already registered'}: {result.bot.label}",
                highlight=False,
            )
        rules = make_rules(DEFAULT_PRESET, {"turn_limit": turn_limit})
        seed = new_seed()
        ids = [b.id for b in bots]
        schedule = make_schedule(ids, PLAYERS, games, seed)  # type: ignore[arg-type]
        for _ in range(5):
            name = next_demo_name(store)
            season = new_season(name, rules, PLAYERS, schedule, seed)
            try:
                season = store.create_season(season, ids, schedule)  # type: ignore[arg-type]
                break
            except StoreError as exc:
                if "already exists" not in str(exc):
                    raise DemoError(str(exc)) from None
        else:
            raise DemoError("could not find a free demo season name")
        out.print(
            f"season [bold]{season.name}[/]: {rules.preset}, turn limit {turn_limit}, {PLAYERS} "
            f"players, {season.games} games, {concurrency} at once",
            highlight=False,
            soft_wrap=True,
        )
        state, error = run_live(store, season, concurrency=concurrency, quiet=quiet, out=out)
        code = summary(store, season, state, error, out)
        if code == 0:
            records = paths.records_dir() / paths.safe_name(season.name)
            out.print(f"database: {store.display}", highlight=False, soft_wrap=True)
            out.print(
                f"replay a game: hegemon replay {records / '1.jsonl'}",
                highlight=False,
                soft_wrap=True,
            )
            out.print(
                f"again: hegemon leaderboard {season.name} [--crosstable | --csv]; "
                "all seasons: hegemon leaderboard",
                highlight=False,
                soft_wrap=True,
            )
            out.print(
                "in a browser: hegemon web, then open http://127.0.0.1:8000/ (the boards, every "
                "game's replay, the bots); an arena of your own: hegemon arena (docs/arena.md)",
                highlight=False,
                soft_wrap=True,
            )
        return code
    except StoreError as exc:
        raise DemoError(str(exc)) from None
    finally:
        store.close()


def demo_command(
    games: int = typer.Option(
        DEFAULT_GAMES, "--games", hidden=True, help="Games in the demo season."
    ),
    concurrency: int = typer.Option(
        DEFAULT_CONCURRENCY, "--concurrency", "-j", hidden=True, help="Games played at once."
    ),
    turn_limit: int | None = typer.Option(
        None, "--turn-limit", hidden=True, help="Rounds before a game ends on points."
    ),
    db: str | None = db_option(),
) -> None:
    """The tour: register the four sample bots, play a short 4-player season with live
    progress, and print its leaderboard."""
    if games < 1:
        fail("--games must be at least 1")
    if concurrency < 1:
        fail("--concurrency must be at least 1")
    try:
        code = run_demo(
            games=games,
            concurrency=concurrency,
            turn_limit=turn_limit if turn_limit is not None else DEFAULT_TURN_LIMIT,
            db=db,
            out=console,
        )
    except DemoError as exc:
        fail(str(exc), code=1)
    if code:
        raise typer.Exit(code)
