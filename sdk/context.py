"""What a bot knows of its games: the per-game :class:`GameContext`, the :class:`BotView`
each decision gets, and the registry of games in progress.

Both the :class:`~hegemon.sdk.bot.Bot` base class and the gRPC server
(:mod:`hegemon.sdk.server`) build on this module; neither needs the other.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from hegemon.referee.board import Board
from hegemon.referee.decisions import Decision
from hegemon.referee.events import Conquered, Event, TurnStarted
from hegemon.referee.rules import RuleSet
from hegemon.referee.view import View

__all__ = ["BotView", "GameContext", "GameRegistry", "UnknownGame", "make_view"]

# The default of ``GameContext.rng``: replaced by a generator seeded from the game and the seat.
_SEEDED_FROM_GAME = random.Random(0)


@dataclass
class GameContext:
    """What a bot knows of one game for its whole length (from StartGame).

    ``rng`` is seeded from the game id and the seat, so a bot that draws its randomness from it
    plays the same game the same way every time. ``memory`` is the bot's own scratch space for
    this game; the context is dropped when the game ends.
    """

    game_id: str
    seat: int
    seat_names: tuple[str, ...]
    rules: RuleSet
    board: Board
    decision_ms: int = 2000
    time_bank_ms: int = 0
    rng: random.Random = field(default=_SEEDED_FROM_GAME, repr=False)
    memory: dict[str, Any] = field(default_factory=dict, repr=False)
    decisions: int = 0
    #: Kept up to date from the events the seat receives (see :meth:`observe`).
    turn_player: int = -1
    conquered_this_turn: bool = False  # this seat took a territory in its current turn
    #: The board (owner, armies per territory) as the bot last heard it: view deltas update
    #: these lists in place (:func:`hegemon.sdk.protocol.codec.view_from_proto`).
    board_state: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []), repr=False)

    def __post_init__(self) -> None:
        if self.rng is _SEEDED_FROM_GAME or self.rng is None:
            self.rng = random.Random(f"{self.game_id}:{self.seat}")

    def observe(self, events: Sequence[Event]) -> None:
        """Follow the turn from the events since the last decision (called for every view)."""
        for event in events:
            if type(event) is TurnStarted:
                self.turn_player = event.player
                self.conquered_this_turn = False
            elif type(event) is Conquered and event.player == self.seat:
                self.conquered_this_turn = True

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.seat_names)


@dataclass(frozen=True, slots=True)
class BotView(View):
    """The seat's view (every field of :class:`hegemon.referee.view.View`, so every engine helper
    takes it) plus what the request said around it."""

    game_id: str = ""
    context: GameContext | None = None
    events: tuple[Event, ...] = ()  # everything since this seat's previous decision
    error: str = ""  # why the previous answer was refused ("" if it was not)
    strikes: int = 0
    time_bank_ms: int = 0
    deadline_ms: int = 0  # time allowed for this answer

    @property
    def decision(self) -> Decision | None:
        """The pending decision (``pending``)."""
        return self.pending


_VIEW_FIELDS = tuple(f.name for f in fields(View))


def make_view(
    view: View,
    context: GameContext,
    events: Sequence[Event] = (),
    error: str = "",
    strikes: int = 0,
    time_bank_ms: int = 0,
    deadline_ms: int = 0,
) -> BotView:
    """A :class:`BotView` from an engine view and the request's extras (the context
    :meth:`~GameContext.observe` is given the events)."""
    context.observe(events)
    return BotView(
        **{name: getattr(view, name) for name in _VIEW_FIELDS},
        game_id=context.game_id,
        context=context,
        events=tuple(events),
        error=error,
        strikes=strikes,
        time_bank_ms=time_bank_ms,
        deadline_ms=deadline_ms or context.decision_ms,
    )


class UnknownGame(KeyError):
    """A call for a game this bot was never started for (or has already ended)."""


class GameRegistry:
    """Game contexts by (game id, seat), safe to use from the server's threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[tuple[str, int], GameContext] = {}

    def add(self, context: GameContext) -> None:
        with self._lock:
            self._games[(context.game_id, context.seat)] = context

    def get(self, game_id: str, seat: int | None = None) -> GameContext:
        with self._lock:
            if seat is not None:
                context = self._games.get((game_id, seat))
                if context is None:
                    raise UnknownGame(
                        f"no game {game_id!r} for seat {seat} (no StartGame, or it has ended)"
                    )
                return context
            found = [c for (g, _), c in self._games.items() if g == game_id]
        if len(found) != 1:
            raise UnknownGame(
                f"no game {game_id!r} (no StartGame, or it has ended)"
                if not found
                else f"game {game_id!r}: this bot plays several seats; name one"
            )
        return found[0]

    def pop(self, game_id: str) -> list[GameContext]:
        with self._lock:
            keys = sorted(k for k in self._games if k[0] == game_id)
            return [self._games.pop(k) for k in keys]

    def all(self) -> list[GameContext]:
        with self._lock:
            return [self._games[k] for k in sorted(self._games)]
