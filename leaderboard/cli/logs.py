"""``hegemon logs GAME [--seat N]``: what each bot of a game wrote to stdout and stderr.

Each seat's log is kept beside the game's record, in ``<record>.logs/seat-<N>.log`` (``hegemon
play``: beside ``--record``, or in ``--log-dir``; a season: beside its records under
``$HEGEMON_HOME/records/<season>/``).

From the arena you signed in to (``--arena``, or a game number that names nothing here while
you are signed in) the logs come through the site, as it gives them: your own bots' seats (an
admin's, every seat); the others are named as not yours.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from .. import paths
from .common import console, fail

if TYPE_CHECKING:
    from .games import ArenaSource


def find_logs(game: str) -> Path | None:
    """The log folder of ``game``: a record (``.jsonl``), a log folder, or a game id (``records/
    <id>.jsonl`` here, or a season game ``<season>-<number>``)."""
    from hegemon.referee.runner.botlog import logs_dir

    given = Path(game).expanduser()
    if given.is_dir():
        return given
    candidates = [given] if given.suffix == ".jsonl" else []
    candidates.append(Path("records") / f"{game}.jsonl")
    season, _, number = game.rpartition("-")
    if season and number.isdigit():
        candidates.append(paths.records_dir() / paths.safe_name(season) / f"{number}.jsonl")
    for record in candidates:
        folder = logs_dir(record)
        if folder.is_dir():
            return folder
    return None


def seat_names(folder: Path) -> list[str]:
    """The seat labels of the record beside a log folder ([] without one)."""
    from hegemon.leaderboard.cli.progress import record_seats
    from hegemon.referee.runner.botlog import LOGS_SUFFIX

    record = folder.with_name(folder.name.removesuffix(LOGS_SUFFIX) + ".jsonl")
    try:
        with record.open(encoding="utf-8") as f:
            return record_seats(f.readline())
    except OSError:
        return []


def logs_command(
    game: str = typer.Argument(
        ..., help="A game record (.jsonl), its log folder, or a game id (play's or SEASON-N)."
    ),
    seat: int | None = typer.Option(None, "--seat", help="Only this seat's log (0-based)."),
    arena: bool = typer.Option(
        False, "--arena", help="A game of the arena you signed in to (your seats' logs)."
    ),
) -> None:
    """Show what the bots of a game wrote to stdout and stderr (each seat's log, capped)."""
    from hegemon.referee.runner.botlog import seat_log

    folder = None if arena else find_logs(game)
    if folder is None and (arena or _signed_in_game(game)):
        arena_logs(game, seat)
        return
    if folder is None:
        fail(
            f"no logs found for {game}: give a game record (.jsonl) whose RECORD.logs/ "
            "folder exists, its log folder, or a game id"
        )
    seats = sorted(
        int(p.stem.split("-", 1)[1])
        for p in folder.glob("seat-*.log")
        if p.stem.split("-", 1)[1].isdigit()
    )
    if seat is not None:
        if seat not in seats:
            known = ", ".join(map(str, seats)) or "none"
            fail(f"{folder} holds no log of seat {seat} (seats with logs: {known})")
        seats = [seat]
    names = seat_names(folder)
    for index in seats:
        path = seat_log(folder, index)
        text = path.read_text(encoding="utf-8", errors="replace")
        show(index, names, text, f" ({path})" if len(seats) > 1 else None)


def show(seat: int, names: list[str], text: str, where: str | None) -> None:
    """Print one seat's log, under a ``== seat N name`` line unless ``where`` is None; a bot's
    text made inert (no escapes, no markup)."""
    from hegemon.referee.bottext import printable

    if where is not None:
        label = f" {printable(names[seat])}" if seat < len(names) else ""  # a bot's name
        head = f"== seat {seat}{label}{where}"
        console.print(head, highlight=False, markup=False, soft_wrap=True)
    shown = "\n".join(printable(line) for line in text.rstrip("\n").splitlines())
    console.print(shown, highlight=False, markup=False, soft_wrap=True)


def _signed_in_game(game: str) -> bool:
    """Is ``game`` an arena's game number, asked while signed in (nothing here by that name)?"""
    from .credentials import load

    return game.isdigit() and load() is not None


def arena_logs(game: str, seat: int | None) -> None:
    """Print the logs of ``game``'s seats the arena gives you; name the others as not yours."""
    from .games import ArenaSource

    if not game.isdigit():
        fail(f"--arena: give the game's number (as hegemon games --arena lists it); got {game!r}")
    source = ArenaSource("hegemon logs --arena")
    names = _arena_seats(source, int(game))
    if seat is not None and not 0 <= seat < len(names):
        fail(f"game {game} has no seat {seat} (its seats: 0 to {len(names) - 1})")
    asked = [seat] if seat is not None else list(range(len(names)))
    logs: dict[int, str | None] = {}
    others: list[int] = []
    for index in asked:
        response = source.get(f"/api/games/{game}/logs/{index}")
        if response.status_code == 403:
            others.append(index)
        elif response.status_code == 200:
            logs[index] = str(response.text)
        else:
            logs[index] = None  # yours, but no log was kept
    if seat is not None and others:
        fail(f"seat {seat} of game {game} is not yours: only its owner and admins see its log")
    if not logs:
        fail(f"none of game {game}'s seats is yours: only their owners and admins see their logs")
    for index, text in logs.items():
        show(index, names, text if text is not None else "(no log kept)", " (yours)")
    if others:
        console.print(
            f"not yours: seat{'s' if len(others) > 1 else ''} {', '.join(map(str, others))} "
            "(only their owners and admins see their logs)",
            highlight=False,
        )


def _arena_seats(source: ArenaSource, game: int) -> list[str]:
    """The seat labels of an arena's game, from its record's first line (only that is read)."""
    import httpx

    from .progress import record_seats

    try:
        with source.client.stream("GET", f"/api/games/{game}/record") as response:
            if response.status_code == 404:
                fail(f"{source.where} has no game {game} (or does not show its record yet)")
            if response.status_code != 200:
                fail(f"{source.where} refused game {game}: HTTP {response.status_code}")
            first = next(response.iter_lines(), "")
    except httpx.HTTPError as exc:
        fail(f"cannot reach {source.where}: {type(exc).__name__}")
    return record_seats(first)
