"""``hegemon season create|list|run|status``: setting up a league season and its schedule,
playing it, following it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from .. import paths
from ..seasons.limits import DEFAULT_MAX_ATTEMPTS, DEFAULT_STALE_AFTER
from .common import (
    DEFAULT_METHOD,
    check_method,
    clock_option,
    console,
    db_option,
    decision_time_option,
    fail,
    find_season,
    max_strikes_option,
    open_store,
    quiet_option,
    read_store,
    rules_option,
    rules_text,
    sandbox_ready,
    set_option,
    startup_time_option,
    store_exists,
    time_bank_option,
    time_option,
)

if TYPE_CHECKING:
    from ..store import SeasonRow, Store

season_app = typer.Typer(
    name="season",
    help="Create, run and follow league seasons.",
    no_args_is_help=True,
    add_completion=False,
)


@season_app.command("create")
def create_command(
    name: str = typer.Argument(..., help="The season's name (unique)."),
    rules: str = rules_option(),
    option: list[str] = set_option(),
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
        help="Season seed, to reproduce a season: every game's dice seed derives from it, so a "
        "seed you choose is public and its games are marked so (default: 128 secret random "
        "bits).",
    ),
    duplicate: bool = typer.Option(
        False,
        "--duplicate",
        help="Replay each dice seed with the same bots in every rotation of the seats: "
        "balances seats, but does not cancel luck (measured: a rotated table's variance is "
        "1.1-1.2 times that of independent games, benchmarks/duplicate.py).",
    ),
    startup_time: float = startup_time_option(),
    decision_time: float = decision_time_option(),
    time_bank: float = time_bank_option(),
    time: str | None = time_option(),
    clock: str = clock_option(),
    max_strikes: int = max_strikes_option(),
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
    from ..seasons.schedule import duplicate_games
    from ..seasons.setup import SeasonPlan, SetupError, check_season_plan, create_season

    plan = SeasonPlan(
        name, rules, option, players, time, startup_time, decision_time, time_bank, clock,
        max_strikes, bots=bots, games=games, seed=seed, duplicate=duplicate,
        keep_memory=not restart_per_game,
    )  # fmt: skip
    try:
        check_season_plan(plan)  # before the database: a mistake is named first
    except SetupError as exc:
        fail(str(exc))
    if not store_exists(db):
        fail("no bots are registered yet; add them with: hegemon bot add NAME PATH")
    store = open_store(db, create=False)
    try:
        created = create_season(store, plan)
    except SetupError as exc:
        fail(str(exc))
    finally:
        store.close()
    season, rule_set, time_control = created.season, created.rules, created.time
    rounded = (
        f" (rounded up from {games} to whole tables of {players} rotations)"
        if duplicate and duplicate_games(games, players) != games
        else ""
    )
    console.print(
        f"created season [bold]{season.name}[/]: "
        f"{rules_text(rule_set.preset, rule_set.options())}, {players} players, "
        f"{season.games} games{rounded}, {len(created.bots)} bots "
        f"({', '.join(b.label for b in created.bots)}), time {time_control} ({clock} clock), "
        f"seed {season.seed_shown()}"
        + (", duplicate" if duplicate else "")
        + (", restart per game" if restart_per_game else ""),
        highlight=False,
        soft_wrap=True,
    )
    console.print(f"run it with: hegemon season run {season.name}", highlight=False, soft_wrap=True)


@season_app.command("list")
def list_command(db: str | None = db_option()) -> None:
    """List the seasons with their progress."""
    from rich.table import Table

    from ..store import FINISHED

    if not store_exists(db):
        console.print("no seasons yet; create one with: hegemon season create NAME --bots …")
        return
    rows = read_store(db, _season_rows)
    # a final event is a season only in the store: listed apart, so none is taken for one
    events = [r[0].name for r in rows if r[0].is_event]
    rows = [r for r in rows if not r[0].is_event]
    if not rows:
        console.print("no seasons yet; create one with: hegemon season create NAME --bots …")
        _print_events(events)
        return
    table = Table(title="Seasons")
    # A seed is copied by hand to reproduce a season: never cut or wrapped. A revealed secret
    # seed (39 digits) would push the table past 80 columns, so it gets a line of its own.
    long_seeds = [(r[0].name, r[0].seed_shown()) for r in rows if len(r[0].seed_shown()) > 20]
    short_seeds = [r[0].seed_shown() for r in rows if len(r[0].seed_shown()) <= 20]
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
        is_seed = column == "seed"
        table.add_column(
            column,
            style="bold" if column == "name" else None,
            no_wrap=is_seed,
            min_width=max(map(len, short_seeds), default=5) if is_seed else None,
        )
    for season, progress, bot_count in rows:
        games = (
            f"{progress.done} (ladder)" if season.is_ladder else f"{progress.done}/{progress.total}"
        )
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
            rules_text(season.preset, season.options),
            str(season.players),
            games,
            str(bot_count),
            season.seed_shown() if len(season.seed_shown()) <= 20 else "below",
            mode,
            status,
            season.created_at.strftime("%Y-%m-%d %H:%M"),
        )
    console.print(table)
    for name, seed in long_seeds:
        console.print(f"seed of {name}: {seed}", soft_wrap=True)
    _print_events(events)


def _print_events(names: list[str]) -> None:
    """The final events' names, apart from the seasons (``hegemon event list`` lists them)."""
    if names:
        line = f"final events (not seasons; hegemon event list): {', '.join(names)}"
        console.print(line, highlight=False, soft_wrap=True)


def _season_rows(store: Store) -> list[tuple[SeasonRow, Any, int]]:
    """Each season with its progress and its number of bots."""
    rows = []
    for season in store.seasons():
        progress = store.progress(season.id)  # type: ignore[arg-type]
        rows.append((season, progress, len(store.season_bots(season.id))))  # type: ignore[arg-type]
    return rows


# ---------------------------------------------------------------------------------- season run
@season_app.command("run")
def run_command(
    name: str = typer.Argument(..., help="The season to play."),
    concurrency: int = typer.Option(1, "--concurrency", "-j", help="Games played at once."),
    workers: int | None = typer.Option(
        None,
        "--workers",
        help="Referee processes the games are spread over (default: one per two concurrent "
        "games, up to the machine's cores; 1 plays them all in this process).",
    ),
    db: str | None = db_option(),
    worker: str | None = typer.Option(
        None,
        "--worker",
        help="This runner's name in the "
        "database (default HOST:PID:RANDOM); must be unique "
        "among the runners working at the same time.",
    ),
    stale_after: float = typer.Option(
        DEFAULT_STALE_AFTER,
        "--stale-after",
        help="Seconds after "
        "which a game claimed by a runner that stopped answering "
        "is played again by another (runners of this machine "
        "that died are noticed at once).",
    ),
    max_attempts: int = typer.Option(
        DEFAULT_MAX_ATTEMPTS,
        "--max-attempts",
        help="Plays of one "
        "game spoiled by faults of the arena (not of a bot) before "
        "it is given up as void.",
    ),
    quiet: bool = quiet_option("No live progress bar."),
    stop_after: int | None = typer.Option(
        None,
        "--stop-after",
        help="Stop after claiming this many games (a ladder never ends: without it, runners "
        "play until interrupted).",
    ),
) -> None:
    """Play a season's pending games, N at once. Interrupt freely (Ctrl-C) and run again to
    resume; several runners (on PostgreSQL, several machines) may share one season."""
    from ..seasons.pool import default_workers
    from ..store import FINISHED
    from .live import run_live, summary

    if concurrency < 1:
        fail(f"--concurrency must be at least 1; got {concurrency}")
    if workers is not None and not 1 <= workers <= concurrency:
        fail(f"--workers must be between 1 and --concurrency ({concurrency}); got {workers}")
    if stop_after is not None and stop_after < 1:
        fail(f"--stop-after must be at least 1; got {stop_after}")
    if stop_after is not None and workers is not None and workers > 1:
        fail("--stop-after counts the games of one process: leave out --workers")
    if workers is None:
        workers = 1 if stop_after is not None else default_workers(concurrency)
    if stale_after <= 0:
        fail("--stale-after must be positive")
    if max_attempts < 1:
        fail("--max-attempts must be at least 1")
    if worker is not None and not worker.strip():
        fail("--worker is empty")
    if not store_exists(db):
        fail(f"no season named '{name}' (no database yet at {paths.db_target(db)})")
    store = open_store(db, create=False)
    try:
        season = find_season(store, name)
        if season.status == FINISHED:
            progress = _progress(store, season)
            console.print(
                f"season [bold]{season.name}[/] is already finished "
                f"({progress.done} games); see: hegemon leaderboard {season.name}",
                highlight=False,
                soft_wrap=True,
            )
            return
        sandbox_ready()
        console.print(
            f"season [bold]{season.name}[/]: {rules_text(season.preset, season.options)}, "
            f"{season.players} players, "
            + ("a ladder (never ends)" if season.is_ladder else f"{season.games} games")
            + f" · {concurrency} at once"
            + (f" in {workers} processes" if workers > 1 else "")
            + f" · database "
            f"{store.display}",
            highlight=False,
            soft_wrap=True,
        )
        state, error = run_live(
            store,
            season,
            concurrency=concurrency,
            worker=worker.strip() if worker else None,
            stale_after=stale_after,
            max_attempts=max_attempts,
            quiet=quiet,
            workers=workers,
            stop_after=stop_after,
        )
        code = summary(store, season, state, error, console)
    finally:
        store.close()
    if code:
        raise typer.Exit(code)


def _progress(store: Store, season: SeasonRow) -> Any:
    from ..store import StoreError

    assert season.id is not None
    try:
        return store.progress(season.id)
    except StoreError as exc:
        fail(str(exc))


# ---------------------------------------------------------------------------------- season status
def _runner_lines(holders: dict[str, tuple[int, Any]]) -> dict[str, tuple[int, str]]:
    """Each claim holder → (its claims, why they are stale or "" if in play): a runner of this
    machine whose process is gone, or one whose claims went unrenewed past
    :data:`~hegemon.leaderboard.store.claims.SILENT_AFTER` (every live runner renews them at
    least every ``HEARTBEAT_MAX`` seconds)."""
    if not holders:  # a finished season: no need to load the runner (trio, the referee)
        return {}
    from ..seasons.liveness import worker_is_dead
    from ..store import utcnow
    from ..store.claims import SILENT_AFTER
    from .duration import format_duration

    now = utcnow()
    lines = {}
    for worker, (count, renewed) in holders.items():
        silent = (now - renewed).total_seconds() if renewed is not None else 0.0
        why = ""
        if worker_is_dead(worker, renewed):
            why = "its process is gone"
        elif silent > SILENT_AFTER:
            why = f"no heartbeat for {format_duration(silent)}"
        lines[worker] = (count, why)
    return lines


@season_app.command("status")
def status_command(
    name: str = typer.Argument(..., help="The season."),
    method: str = typer.Option(
        DEFAULT_METHOD,
        "--method",
        help="pl: Plackett–Luce fit with bootstrap intervals; elo: incremental Elo.",
    ),
    db: str | None = db_option(),
) -> None:
    """A season's progress (games done, in play, by which runner) and its standings so far."""
    from ..boards import board as season_board
    from ..boards import render_board
    from ..store import StoreError

    rating = check_method(method)
    if not store_exists(db):
        fail(f"no season named '{name}' (no database yet at {paths.db_target(db)})")
    store = open_store(db, create=False)
    try:
        season = find_season(store, name)
        progress = _progress(store, season)
        try:
            holders = store.claim_holders(season.id)  # type: ignore[arg-type]
            board = season_board(store, season, rating)
        except StoreError as exc:
            fail(str(exc))
    finally:
        store.close()
    console.print(
        f"season [bold]{season.name}[/]: {rules_text(season.preset, season.options)}, "
        f"{season.players} players, seed {season.seed_shown()}, status [bold]{season.status}[/]",
        highlight=False,
        soft_wrap=True,
    )
    runners = _runner_lines(holders)
    stale = sum(count for count, why in runners.values() if why)
    of = " (a ladder: it never ends)" if season.is_ladder else f" of {progress.total}"
    line = (
        f"games: {progress.done}{of} done, {progress.pending} pending, "
        f"{progress.claimed - stale} in play"
    )
    if stale:
        line += f", [yellow]{stale} stale[/]"
    if progress.void:
        line += f", [yellow]{progress.void} void[/]"
    if progress.attempts:
        line += f", {progress.attempts} play(s) voided by arena faults"
    console.print(line, highlight=False, soft_wrap=True)
    for worker, (count, silent) in sorted(runners.items()):
        text = (
            f"  [yellow]runner {worker}: {count} stale claim(s), {silent}; other runners "
            "take them over[/]"
            if silent
            else f"  runner {worker}: {count} game(s) in play"
        )
        console.print(text, highlight=False, soft_wrap=True)
    if board.rows:
        render_board(board, console)
    else:
        console.print("no results yet", highlight=False)
