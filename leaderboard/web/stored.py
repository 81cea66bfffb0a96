"""A game's record and seats' logs as the pages read them: from the database
(:mod:`hegemon.leaderboard.store.records`, whichever machine played the game), else from the
local copy at ``GameRow.record_path`` (a game stored before records moved into the database,
and not imported since)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from hegemon.leaderboard.store import GameRow, Store
from hegemon.leaderboard.store import records as stored
from hegemon.referee.runner.botlog import logs_dir, seat_log

from .rounds import record_rounds


def _log_path(game: GameRow, seat: int) -> Path | None:
    """Where the runner kept one seat's log of a game on its own machine (None: no record)."""
    return seat_log(logs_dir(Path(game.record_path)), seat) if game.record_path else None


def record_text(store: Store, game: GameRow) -> str | None:
    """The game's record, or None: none stored and no local copy."""
    text = stored.stored_record(store, game.match_id)
    if text is not None or not game.record_path:
        return text
    path = Path(game.record_path)
    return path.read_text(encoding="utf-8") if path.is_file() else None


def log_bytes(store: Store, game: GameRow, seat: int) -> bytes | None:
    """What the bot in ``seat`` wrote, or None: none stored and no local copy."""
    data = stored.stored_log(store, game.match_id, seat)
    if data is not None:
        return data
    path = _log_path(game, seat)
    return path.read_bytes() if path is not None and path.is_file() else None


def has_log(store: Store, game: GameRow, seat: int) -> bool:
    """Whether a log of the bot in ``seat`` is kept (stored, or a local copy)."""
    return seat in logged(store, game, [seat])


def logged(store: Store, game: GameRow, seats: Iterable[int]) -> set[int]:
    """Which of ``seats`` have a log kept (stored, or a local copy): one existence query for
    the game, no log read."""
    found = stored.logged_seats(store, game.match_id)
    return {s for s in seats if s in found or _local(game, s)}


def _local(game: GameRow, seat: int) -> bool:
    """Whether the runner's local copy of one seat's log exists."""
    path = _log_path(game, seat)
    return path is not None and path.is_file()


def rounds(store: Store, games: Sequence[GameRow]) -> dict[int, int | None]:
    """The rounds of each of ``games`` by game id: the stored figure (one query), else read
    from the local copy's end."""
    found = stored.stored_rounds(store, [g.match_id for g in games])
    return {
        g.id: found[g.match_id] if g.match_id in found else record_rounds(g.record_path)
        for g in games
        if g.id is not None
    }
