"""``hegemon season create|list``: setting up a league season and its schedule.

``season_app`` is the ``season`` command group; ``season run`` and ``season status`` belong in
it too (add them with ``@season_app.command("run")`` from their own module).
"""

from __future__ import annotations

import re
import secrets

import typer
from rich.console import Console
from rich.table import Table

from hegemon.referee.cli import fail

from .cli_bots import db_option, open_store, store_exists
from .registry import RegistryError, lookup_bot
from .schedule import duplicate_games, make_schedule
from .store import FINISHED, Season, StoreError

console = Console()

season_app = typer.Typer(
    name="season",
    help="Create, run and follow league seasons.",
    no_args_is_help=True,
    add_completion=False,
)

SEASON_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$")
MAX_SEED = (1 << 63) - 1


def _players_error(rules: object, players: int) -> str | None:
    """Why ``players`` seats do not suit the rule set (the engine's own word), or None."""
    from hegemon.referee.game import Game, GameSetupError

    try:
        Game(rules, players, 0)  # type: ignore[arg-type]
    except GameSetupError as exc:
        return f"{exc} (--players)"
    return None


@season_app.command("create")
def create_command(
    name: str = typer.Argument(..., help="The season's name (unique)."),
    rules: str = typer.Option("classic", "--rules", help="Rule-set preset (see hegemon rules)."),
    option: list[str] = typer.Option(
        [], "--set", help="Override a rule option: NAME=VALUE (repeatable)."
    ),
    bots: str = typer.Option(
        ...,
        "--bots",
        help="Registered bots, comma-separated: NAME (its latest version) or NAME@vN.",
    ),
    players: int = typer.Option(4, "--players", help="Seats per game."),
    games: int = typer.Option(
        100, "--games", help="Games to play (duplicate: rounded up to a multiple of --players)."
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        help="Season seed; every game's dice seed derives from it (default: a fresh random one).",
    ),
    duplicate: bool = typer.Option(
        False,
        "--duplicate",
        help="Replay each dice seed with the same "
        "bots in every rotation of the seats (luck cancels out).",
    ),
    startup_time: float = typer.Option(10.0, "--startup-time", help="Seconds for a bot to start."),
    decision_time: float = typer.Option(2.0, "--decision-time", help="Seconds per decision."),
    time_bank: float = typer.Option(
        60.0, "--time-bank", help="Seconds of thinking per seat per game."
    ),
    max_strikes: int = typer.Option(
        5,
        "--max-strikes",
        help="Late or illegal answers tolerated per game; one more disqualifies the seat.",
    ),
    restart_per_game: bool = typer.Option(
        False,
        "--restart-per-game",
        help="Start every bot "
        "afresh for each game (default: processes are reused "
        "between games, so bots may keep memory).",
    ),
    db: str | None = db_option(),
) -> None:
    """Create a season and its whole schedule (nothing is played yet: see season run)."""
    from hegemon.referee.rules import RulesError, make_rules, parse_overrides

    if not SEASON_NAME.match(name):
        fail(f"bad season name {name!r}: use letters, digits, '_', '-', '.', ':' (up to 100)")
    try:
        rule_set = make_rules(rules, parse_overrides(option))
    except RulesError as exc:
        fail(str(exc))
    problem = _players_error(rule_set, players)
    if problem:
        fail(problem)
    if games < 1:
        fail(f"--games must be at least 1; got {games}")
    if min(startup_time, decision_time, time_bank) <= 0:
        fail("--startup-time, --decision-time and --time-bank must be positive")
    if max_strikes < 0:
        fail("--max-strikes cannot be negative")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        fail(f"--seed must be between 0 and {MAX_SEED}")
    refs = [r for r in re.split(r"[,\s]+", bots) if r]
    if not refs:
        fail("--bots names no bot")
    if not store_exists(db):
        fail("no bots are registered yet; add them with: hegemon bot add NAME PATH")
    store = open_store(db, create=False)
    try:
        try:
            chosen = [lookup_bot(store, ref) for ref in refs]
        except RegistryError as exc:
            fail(str(exc))
        ids = [b.id for b in chosen]
        if len(set(ids)) != len(ids):
            twice = next(b for i, b in enumerate(chosen) if b.id in ids[:i])
            fail(f"--bots lists {twice.label} twice")
        if len(chosen) < players:
            fail(
                f"{players} players per game need at least {players} different bots; "
                f"--bots gives {len(chosen)}"
            )
        if store.season_by_name(name) is not None:
            fail(f"a season named '{name}' already exists")
        season_seed = secrets.randbits(63) if seed is None else seed
        schedule = make_schedule(ids, players, games, season_seed, duplicate)  # type: ignore[arg-type]
        season = Season(
            name=name,
            preset=rule_set.preset,
            options=rule_set.options(),
            players=players,
            games=len(schedule),
            startup_time=startup_time,
            decision_time=decision_time,
            time_bank=time_bank,
            max_strikes=max_strikes,
            seed=season_seed,
            keep_memory=not restart_per_game,
            duplicate=duplicate,
        )
        created = store.create_season(season, ids, schedule)  # type: ignore[arg-type]
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    overridden = rule_set.overridden()
    rules_text = rule_set.preset + "".join(f" {k}={v}" for k, v in overridden.items())
    rounded = (
        f" (rounded up from {games} to whole tables of {players} rotations)"
        if duplicate and duplicate_games(games, players) != games
        else ""
    )
    console.print(
        f"created season [bold]{created.name}[/]: {rules_text}, {players} players, "
        f"{created.games} games{rounded}, {len(chosen)} bots "
        f"({', '.join(b.label for b in chosen)}), seed {season_seed}"
        + (", duplicate" if duplicate else "")
        + (", restart per game" if restart_per_game else ""),
        highlight=False,
        soft_wrap=True,
    )
    console.print(
        f"run it with: hegemon season run {created.name}", highlight=False, soft_wrap=True
    )


@season_app.command("list")
def list_command(db: str | None = db_option()) -> None:
    """List the seasons with their progress."""
    if not store_exists(db):
        console.print("no seasons yet; create one with: hegemon season create NAME --bots …")
        return
    store = open_store(db, create=False)
    try:
        seasons = store.seasons()
        rows = []
        for season in seasons:
            progress = store.progress(season.id)  # type: ignore[arg-type]
            rows.append((season, progress, len(store.season_bots(season.id))))  # type: ignore[arg-type]
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    if not rows:
        console.print("no seasons yet; create one with: hegemon season create NAME --bots …")
        return
    table = Table(title="Seasons")
    for column in (
        "name",
        "rules",
        "players",
        "games",
        "bots",
        "seed",
        "mode",
        "status",
        "created",
    ):
        table.add_column(column, style="bold" if column == "name" else None)
    for season, progress, bot_count in rows:
        overridden = {
            k: v for k, v in season.options.items() if _preset_value(season.preset, k) != v
        }
        rules_text = season.preset + "".join(f" {k}={v}" for k, v in overridden.items())
        games = f"{progress.done}/{progress.total}"
        if progress.void:
            games += f" ({progress.void} void)"
        mode = ", ".join(
            m
            for m in (
                "duplicate" if season.duplicate else "",
                "restart" if not season.keep_memory else "memory",
            )
            if m
        )
        status = season.status if season.status != FINISHED else "[green]finished[/]"
        table.add_row(
            season.name,
            rules_text,
            str(season.players),
            games,
            str(bot_count),
            str(season.seed),
            mode,
            status,
            season.created_at.strftime("%Y-%m-%d %H:%M"),
        )
    console.print(table)


def _preset_value(preset: str, option: str) -> object:
    from hegemon.referee.rules import PRESETS

    return PRESETS.get(preset, {}).get(option)


def register(app: typer.Typer) -> None:
    """Add ``hegemon season …`` to the ``hegemon`` app."""
    app.add_typer(season_app, name="season")


__all__ = ["register", "season_app"]
