"""A season played live in the terminal: the progress bar, Ctrl-C handling and the closing
summary, shared by ``hegemon season run`` and ``hegemon demo``.

Imports the season runner and the database: the commands import this module when they run."""

from __future__ import annotations

import signal

from rich.console import Console

from .. import paths
from ..boards import Leaderboard, render_board
from ..boards import board as season_board
from ..seasons.limits import DEFAULT_MAX_ATTEMPTS, DEFAULT_STALE_AFTER
from ..seasons.pool import SeasonWorkers
from ..seasons.runner import SeasonRunner
from ..seasons.signals import run_until_signalled
from ..seasons.state import RunState
from ..store import SeasonRow, Store, StoreError
from .common import INTERRUPTED, console, errors
from .duration import format_duration


class LiveProgress:
    """The rich progress bar of a running season: done / total, games per minute, ETA, faults."""

    def __init__(self, out: Console, season: SeasonRow, enabled: bool = True):
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
    season: SeasonRow,
    *,
    concurrency: int,
    worker: str | None = None,
    stale_after: float = DEFAULT_STALE_AFTER,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    quiet: bool = False,
    out: Console | None = None,
    workers: int = 1,
    stop_after: int | None = None,
) -> tuple[RunState, str | None]:
    """Run the season with a live progress bar; Ctrl-C (SIGINT) or SIGTERM stop it cleanly.
    With ``workers`` > 1 the games are played by that many worker processes
    (:mod:`hegemon.leaderboard.seasons.pool`).
    Returns the final state and the error that stopped the run (None if none)."""
    import trio

    out = out or console
    live = LiveProgress(out, season, enabled=not quiet)
    options = {
        "concurrency": concurrency,
        "worker": worker,
        "stale_after": stale_after,
        "max_attempts": max_attempts,
        "on_change": live.update,
        "log": live.log,
    }
    runner: SeasonRunner | SeasonWorkers = (
        SeasonWorkers(store, season, workers=workers, **options)  # type: ignore[arg-type]
        if workers > 1
        else SeasonRunner(store, season, stop_after=stop_after, **options)  # type: ignore[arg-type]
    )
    failure: list[str] = []

    def stopping(signum: int) -> None:
        live.log(
            f"{signal.Signals(signum).name}: stopping — games in flight are "
            "abandoned and will be played by a later run"
        )

    async def main() -> None:
        error = await run_until_signalled(runner, stopping)
        if error is not None:
            failure.append(error)

    with live:
        try:
            trio.run(main)
        except KeyboardInterrupt:  # before the signal receiver was up: nothing was claimed yet
            runner.state.interrupted = True
    return runner.state, (failure[0] if failure else None)


def print_board(board: Leaderboard, out: Console) -> None:
    if not board.rows:
        return
    render_board(board, out)


def summary(
    store: Store, season: SeasonRow, state: RunState, error: str | None, out: Console
) -> int:
    """Say how the run ended; the exit code."""
    pace = (
        f" in {format_duration(state.elapsed)} ({state.games_per_minute:.1f} games/min)"
        if state.played
        else ""
    )
    played = f"{state.played} game{'s' if state.played != 1 else ''} played by this runner{pace}"
    records = paths.records_dir() / paths.safe_name(season.name)
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
            board = season_board(store, season, cached=False)
        except StoreError as exc:
            errors.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
            return 1
        print_board(board, out)
        return 0
    out.print(
        f"{played}; {state.done} of {state.total} done, {state.remaining} left "
        "(held by other runners).",
        highlight=False,
        soft_wrap=True,
    )
    return 0
