"""``hegemon logs GAME [--seat N]``: what each bot of a game wrote to stdout and stderr.

Each seat's log is kept beside the game's record, in ``<record>.logs/seat-<N>.log`` (``hegemon
play``: beside ``--record``, or in ``--log-dir``; a season: beside its records under
``$HEGEMON_HOME/records/<season>/``).
"""

from __future__ import annotations

from pathlib import Path

import typer

from .. import paths
from .common import console, fail


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
) -> None:
    """Show what the bots of a game wrote to stdout and stderr (each seat's log, capped)."""
    from hegemon.referee.bottext import printable
    from hegemon.referee.runner.botlog import seat_log

    folder = find_logs(game)
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
        if len(seats) > 1:
            label = f" {printable(names[index])}" if index < len(names) else ""  # a bot's name
            console.print(
                f"== seat {index}{label} ({path})", highlight=False, markup=False, soft_wrap=True
            )
        shown = "\n".join(printable(line) for line in text.rstrip("\n").splitlines())
        console.print(shown, highlight=False, markup=False, soft_wrap=True)  # no bot's escapes
