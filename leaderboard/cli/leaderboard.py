"""``hegemon season run|status``, ``hegemon leaderboard`` and ``hegemon demo``.

Wire into the ``hegemon`` app with :func:`register` (after ``cli_seasons.register``, or before:
``season run`` and ``season status`` are added to :data:`hegemon.leaderboard.cli_seasons.season_app`).
"""

from __future__ import annotations

import signal
import sys
from typing import Any

import typer
from rich.console import Console

from hegemon.referee.cli import fail

from . import paths
from .cli_bots import db_option, open_store, store_exists
from .reports import Board, all_time_boards, render_board, season_board, to_csv, to_json
from .season_runner import (
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_STALE_AFTER,
    RunnerError,
    RunState,
    SeasonRunner,
    format_duration,
    safe_name,
)
from .store import FINISHED, Season, Store, StoreError

console = Console()
errors = Console(stderr=True)

INTERRUPTED = 130


# ---------------------------------------------------------------------------------- helpers
def find_season(store: Store, name: str) -> Season:
    """The season called ``name``, or fail with one line naming the seasons there are."""
    try:
        season = store.season_by_name(name)
        if season is not None:
            return season
        names = [s.name for s in store.seasons()]
    except StoreError as exc:
        fail(str(exc))
    if not names:
        fail(
            f"no season named '{name}' (there are no seasons yet; create one with: "
            "hegemon season create NAME --bots …)"
        )
    shown = ", ".join(names[-10:]) + (" …" if len(names) > 10 else "")
    fail(f"no season named '{name}' (seasons: {shown})")


def _method(value: str) -> str:
    value = value.strip().lower()
    if value not in ("pl", "elo"):
        fail(f"--method must be pl (Plackett–Luce fit) or elo (incremental Elo); got {value!r}")
    return value


class LiveProgress:
    """The rich progress bar of a running season: done / total, games per minute, ETA, faults."""

    def __init__(self, out: Console, season: Season, enabled: bool = True):
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.out = out
        self.enabled = enabled
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TextColumn("ETA {task.fields[eta]}"),
            TextColumn("{task.fields[faults]}"),
            TextColumn("[dim]{task.fields[flight]}"),
            console=out,
            disable=not enabled,
            transient=False,
            refresh_per_second=4,
        )
        self.task = self.progress.add_task(
            season.name,
            total=season.games,
            rate="– games/min",
            eta="–",
            faults="faults 0",
            flight="",
        )

    def __enter__(self) -> LiveProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def update(self, state: RunState) -> None:
        rate = state.games_per_minute
        faults = f"faults {state.faults}"
        if state.faults:
            faults = f"[yellow]{faults}[/]"
        if state.arena_faults:
            faults += f" [red]arena {state.arena_faults}[/]"
        flight = f"{state.in_flight} playing"
        if state.others:
            flight += f", {state.others} elsewhere"
        self.progress.update(
            self.task,
            total=state.total or None,
            completed=state.done + state.void,
            rate=f"{rate:.1f} games/min" if rate else "– games/min",
            eta=format_duration(state.eta),
            faults=faults,
            flight=flight,
        )

    def log(self, line: str) -> None:
        self.progress.console.print(line, highlight=False, soft_wrap=True)


def run_live(
    store: Store,
    season: Season,
    *,
    concurrency: int,
    worker: str | None = None,
    stale_after: float = DEFAULT_STALE_AFTER,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    quiet: bool = False,
    out: Console | None = None,
) -> tuple[RunState, str | None]:
    """Run the season with a live progress bar; Ctrl-C (SIGINT) or SIGTERM stop it cleanly.
    Returns the final state and the error that stopped the run (None if none)."""
    import trio

    out = out or console
    live = LiveProgress(out, season, enabled=not quiet)
    runner = SeasonRunner(
        store,
        season,
        concurrency=concurrency,
        worker=worker,
        stale_after=stale_after,
        max_attempts=max_attempts,
        on_change=live.update,
        log=live.log,
    )
    failure: list[str] = []

    async def main() -> None:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:

                async def body() -> None:
                    try:
                        await runner.run()
                    except (StoreError, RunnerError) as exc:
                        failure.append(str(exc))
                    finally:
                        nursery.cancel_scope.cancel()

                async def watch() -> None:
                    async for signum in signals:
                        runner.state.interrupted = True
                        live.log(
                            f"{signal.Signals(signum).name}: stopping — games in flight are "
                            "abandoned and will be played by a later run"
                        )
                        nursery.cancel_scope.cancel()
                        return

                nursery.start_soon(body)
                nursery.start_soon(watch)

    with live:
        try:
            trio.run(main)
        except KeyboardInterrupt:  # before the signal receiver was up: nothing was claimed yet
            runner.state.interrupted = True
    return runner.state, (failure[0] if failure else None)


def _print_board(board: Board, out: Console) -> None:
    if not board.rows:
        return
    render_board(board, out)


# ---------------------------------------------------------------------------------- season run
def run_command(
    name: str = typer.Argument(..., help="The season to play."),
    concurrency: int = typer.Option(1, "--concurrency", "-j", help="Games played at once."),
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
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live progress bar."),
) -> None:
    """Play a season's pending games, N at once. Interrupt freely (Ctrl-C) and run again to
    resume; several runners (on PostgreSQL, several machines) may share one season."""
    if concurrency < 1:
        fail(f"--concurrency must be at least 1; got {concurrency}")
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
        console.print(
            f"season [bold]{season.name}[/]: {_rules_text(season)}, {season.players} "
            f"players, {season.games} games · {concurrency} at once · database "
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
        )
        code = _summary(store, season, state, error, console)
    finally:
        store.close()
    if code:
        raise typer.Exit(code)


def _progress(store: Store, season: Season) -> Any:
    assert season.id is not None
    try:
        return store.progress(season.id)
    except StoreError as exc:
        fail(str(exc))


def _rules_text(season: Season) -> str:
    from hegemon.referee.rules import PRESETS

    base = PRESETS.get(season.preset, {})
    changed = {k: v for k, v in season.options.items() if k in base and base[k] != v}
    return season.preset + "".join(f" {k}={v}" for k, v in changed.items())


def _summary(store: Store, season: Season, state: RunState, error: str | None, out: Console) -> int:
    """Say how the run ended; the exit code."""
    pace = (
        f" in {format_duration(state.elapsed)} ({state.games_per_minute:.1f} games/min)"
        if state.played
        else ""
    )
    played = f"{state.played} game{'s' if state.played != 1 else ''} played by this runner{pace}"
    records = paths.records_dir() / safe_name(season.name)
    if error is not None:
        errors.print(f"[bold red]error:[/] {error}", highlight=False, soft_wrap=True)
        errors.print(
            f"{played}; stored results are kept — run again to resume",
            highlight=False,
            soft_wrap=True,
        )
        return 1
    if state.interrupted:
        out.print(
            f"interrupted: {played}; {state.done} of {state.total} done. Run "
            f"[bold]hegemon season run {season.name}[/] again to resume.",
            highlight=False,
            soft_wrap=True,
        )
        return INTERRUPTED
    if state.complete:
        void = (
            f" [yellow]{state.void} game(s) void after repeated arena faults[/]"
            if state.void
            else ""
        )
        out.print(
            f"season [bold]{season.name}[/] finished: {state.done} games; {played}.{void}",
            highlight=False,
            soft_wrap=True,
        )
        out.print(f"records: {records}", highlight=False, soft_wrap=True)
        try:
            board = season_board(store, season)
        except StoreError as exc:
            errors.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
            return 1
        _print_board(board, out)
        return 0
    out.print(
        f"{played}; {state.done} of {state.total} done, {state.remaining} left "
        "(held by other runners).",
        highlight=False,
        soft_wrap=True,
    )
    return 0


# ---------------------------------------------------------------------------------- season status
def status_command(
    name: str = typer.Argument(..., help="The season."),
    method: str = typer.Option(
        "pl",
        "--method",
        help="pl: Plackett–Luce fit with bootstrap intervals; elo: incremental Elo.",
    ),
    db: str | None = db_option(),
) -> None:
    """A season's progress (games done, in play, by which runner) and its standings so far."""
    method = _method(method)
    if not store_exists(db):
        fail(f"no season named '{name}' (no database yet at {paths.db_target(db)})")
    store = open_store(db, create=False)
    try:
        season = find_season(store, name)
        progress = _progress(store, season)
        try:
            board = season_board(store, season, method)  # type: ignore[arg-type]
        except StoreError as exc:
            fail(str(exc))
    finally:
        store.close()
    console.print(
        f"season [bold]{season.name}[/]: {_rules_text(season)}, {season.players} "
        f"players, seed {season.seed}, status [bold]{season.status}[/]",
        highlight=False,
        soft_wrap=True,
    )
    line = (
        f"games: {progress.done} of {progress.total} done, {progress.pending} pending, "
        f"{progress.claimed} in play"
    )
    if progress.void:
        line += f", [yellow]{progress.void} void[/]"
    if progress.attempts:
        line += f", {progress.attempts} play(s) voided by arena faults"
    console.print(line, highlight=False, soft_wrap=True)
    for worker, count in sorted(progress.workers.items()):
        console.print(
            f"  runner {worker}: {count} game(s) in play", highlight=False, soft_wrap=True
        )
    if board.rows:
        _print_board(board, console)
    else:
        console.print("no results yet", highlight=False)


# ---------------------------------------------------------------------------------- leaderboard
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
        "pl",
        "--method",
        help="pl: Plackett–Luce fit with bootstrap 95% "
        "intervals (seeded by the season: reproducible); elo: "
        "incremental Elo in schedule order.",
    ),
    db: str | None = db_option(),
) -> None:
    """The leaderboard: rating ± interval, games, wins, mean place, faults, P(stronger than
    the next bot). Computed afresh from the stored results."""
    method = _method(method)
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
                boards = [season_board(store, found, method, crosstable)]  # type: ignore[arg-type]
            except StoreError as exc:
                fail(str(exc))
            empty = (
                f"season {found.name}: no results yet "
                f"(0 of {found.games} games played; run: hegemon season run {found.name})"
            )
        else:
            try:
                boards = all_time_boards(store, method, crosstable)  # type: ignore[arg-type]
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
        for board in boards:
            _print_board(board, console)


def _no_results(as_json: bool, as_csv: bool, message: str, board: Board | None = None) -> None:
    """An empty board: the message (on stderr for --csv/--json, whose output stays parseable:
    the CSV header only, an empty JSON board)."""
    if as_csv:
        sys.stdout.write(to_csv([], with_preset=board is None))
    elif as_json:
        sys.stdout.write((to_json([board]) if board is not None else "[]") + "\n")
    if as_csv or as_json:
        errors.print(message, highlight=False, soft_wrap=True)
    else:
        console.print(message, highlight=False, soft_wrap=True)


# ---------------------------------------------------------------------------------- demo
def demo_command(
    games: int = typer.Option(30, "--games", hidden=True, help="Games in the demo season."),
    concurrency: int = typer.Option(
        2, "--concurrency", "-j", hidden=True, help="Games played at once."
    ),
    turn_limit: int | None = typer.Option(
        None, "--turn-limit", hidden=True, help="Rounds before a game ends on points."
    ),
    db: str | None = db_option(),
) -> None:
    """The tour: register the four sample bots, play a short 4-player season with live
    progress, and print its leaderboard."""
    from .demo import DEFAULT_TURN_LIMIT, DemoError, run_demo

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


# ---------------------------------------------------------------------------------- wiring
def register(app: typer.Typer) -> None:
    """Add ``season run``, ``season status``, ``leaderboard`` and ``demo`` to the app."""
    from .cli_seasons import season_app

    season_app.command("run")(run_command)
    season_app.command("status")(status_command)
    app.command("leaderboard")(leaderboard_command)
    app.command("demo")(demo_command)


__all__ = ["LiveProgress", "find_season", "register", "run_live"]
