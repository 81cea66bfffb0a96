"""One decision of a recorded game, rebuilt: the game as it stood when the decision was asked,
whose it was, what was played, and everything that had happened before it.

This is what ``hegemon replay GAME --at N --bot PATH`` puts in front of a new version of a bot:
the engine replays the record's first ``N`` actions with the record's revealed seed, so the
position (hands, missions, the deck's order) is exactly the one the original bot was in. Only a
finished game reveals its seed; a game still in play cannot be rebuilt, so its chance stays
secret.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action, ActionFormatError, Forfeit, action_from_list
from .events import Event
from .game import Game, IllegalAction
from .record import RecordError, game_from_record
from .record_check import check_lines, checked_replay


@dataclass
class RecordedPosition:
    """The game just before action ``n`` of a record (its chance as the record played it)."""

    game: Game
    n: int
    seat: int
    played: Action
    history: list[Event]
    """Every event of the game before action ``n``, the set-up's included, unredacted: each
    seat is told its own redaction of them (:func:`hegemon.referee.arbiter.seat_event`)."""
    game_id: str
    seats: list[str]
    actions: int
    """How many actions the whole record holds."""
    notes: list[dict[str, Any]]
    """The record's note lines on this decision (the seat's own; a public record has none)."""


def position_at(text: str, n: int) -> RecordedPosition:
    """Decision ``n`` of a finished, valid record: the position after its first ``n`` actions,
    as the replay viewer numbers it (``#d=N``); raises
    :class:`~hegemon.referee.record.RecordError` with one line saying why not."""
    verdict = checked_replay(text)  # the whole record, checked as `hegemon verify` checks it
    if not verdict.ok:
        raise RecordError(verdict.message)
    lines = check_lines(text)
    actions = [line for line in lines if line["type"] == "action"]
    if not 0 <= n < len(actions):
        raise RecordError(
            f"decision {n} is not in this game: its decisions are 0 to {len(actions) - 1}"
        )
    game = game_from_record(lines)
    history = list(game.opening_events)
    try:
        for line in actions[:n]:
            history.extend(game.apply(action_from_list(line["action"])))
        played = action_from_list(actions[n]["action"])
    except (IllegalAction, ActionFormatError) as exc:  # the verdict said it replays
        raise RecordError(f"decision {n}: the record cannot be followed there ({exc})") from None
    if isinstance(played, Forfeit):
        raise RecordError(f"decision {n} is the referee's (seat {played.player} was forfeited)")
    pending = game.pending
    head = lines[0]
    seats = list(head.get("seats") or [f"seat {i}" for i in range(game.player_count)])
    if pending is None or pending.player >= min(len(seats), game.player_count):
        raise RecordError(f"decision {n} is not a bot's")
    return RecordedPosition(
        game=game,
        n=n,
        seat=pending.player,
        played=played,
        history=history,
        game_id=str(head.get("game_id") or "replayed-game"),
        seats=seats,
        actions=len(actions),
        notes=[
            line
            for line in lines
            if line["type"] == "note" and line.get("n") == n and line.get("seat") == pending.player
        ],
    )
