"""The bot base class: one method per decision kind, each with a safe legal default.

A bot author subclasses :class:`Bot` and overrides the decisions it cares about (``claim``,
``place``, ``trade``, ``attack``, ``defend``, ``occupy``, ``fortify``) — or ``decide`` alone —
then calls ``MyBot().run()``. Each method gets the seat's :class:`BotView` (the engine's
:class:`hegemon.referee.view.View` plus the game's :class:`GameContext`, the events since the last
decision and the last error) and the pending :class:`hegemon.referee.decisions.Decision`, and returns
a :mod:`hegemon.referee.actions` action.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from hegemon.referee import legal
from hegemon.referee.actions import (
    Action,
    Attack,
    Claim,
    Defend,
    Fortify,
    Occupy,
    Pass,
    Place,
    Trade,
)
from hegemon.referee.board import Board
from hegemon.referee.decisions import Decision
from hegemon.referee.events import Conquered, Event, TurnStarted
from hegemon.referee.rules import RuleSet
from hegemon.referee.view import View

ACTION_TYPES = (Claim, Place, Trade, Attack, Defend, Occupy, Fortify, Pass)


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
    rng: random.Random = field(default=None, repr=False)  # type: ignore[assignment]
    memory: dict[str, Any] = field(default_factory=dict, repr=False)
    decisions: int = 0
    #: Kept up to date from the events the seat receives (see :meth:`observe`).
    turn_player: int = -1
    conquered_this_turn: bool = False  # this seat took a territory in its current turn

    def __post_init__(self) -> None:
        if self.rng is None:
            self.rng = random.Random(f"{self.game_id}:{self.seat}")

    def observe(self, events: Sequence[Event]) -> None:
        """Follow the turn from the events since the last decision (called for every view)."""
        for event in events:
            kind = type(event)
            if kind is TurnStarted:
                self.turn_player = event.player
                self.conquered_this_turn = False
            elif kind is Conquered and event.player == self.seat:
                self.conquered_this_turn = True

    @property
    def players(self) -> int:
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
        *[getattr(view, name) for name in _VIEW_FIELDS],
        game_id=context.game_id,
        context=context,
        events=tuple(events),
        error=error,
        strikes=strikes,
        time_bank_ms=time_bank_ms,
        deadline_ms=deadline_ms or context.decision_ms,
    )


class UnsupportedDecision(LookupError):
    """A decision kind this bot has no method for (a later edition's, say)."""


class UnknownGame(KeyError):
    """A call for a game this bot was never started for (or has already ended)."""


class Bot:
    """Base class of a Python bot. Class attributes name it (shown on the leaderboard)."""

    name: ClassVar[str] = "bot"
    version: ClassVar[str] = "0.1.0"
    author: ClassVar[str] = ""
    #: Rule-set presets this bot plays; empty: any.
    rule_sets: ClassVar[tuple[str, ...]] = ()

    # -------------------------------------------------------------- decisions
    def decide(self, view: BotView, decision: Decision) -> Action:
        """Answer ``decision``: by default, the method named after its kind."""
        method = getattr(self, decision.kind.value, None)
        if method is None:
            raise UnsupportedDecision(f"this bot cannot answer a {decision.kind.value} decision")
        return method(view, decision)

    def claim(self, view: BotView, decision: Decision) -> Action:
        """Default: the first free territory offered."""
        return Claim(decision.territories[0])

    def place(self, view: BotView, decision: Decision) -> Action:
        """Default: every army on one border territory (the strongest; the lowest index on a
        tie)."""
        front = legal.border_territories(view, decision.player) or legal.own_territories(
            view, decision.player
        )
        best = max(front, key=lambda t: (view.armies[t], -t))
        return Place(((best, decision.armies),))

    def trade(self, view: BotView, decision: Decision) -> Action:
        """Default: trade (the first set) only when forced."""
        if not decision.forced:
            return Pass()
        return Trade(legal.trades(view.hand, view.board)[0])

    def attack(self, view: BotView, decision: Decision) -> Action:
        """Default: stop attacking (or, when stopping is refused, the first attack, most dice)."""
        if not decision.forced:
            return Pass()
        source, target, most = legal.attacks(view, decision.player)[0]
        return Attack(source, target, most)

    def defend(self, view: BotView, decision: Decision) -> Action:
        """Default: the most dice."""
        return Defend(decision.maximum)

    def occupy(self, view: BotView, decision: Decision) -> Action:
        """Default: move in the fewest armies."""
        return Occupy(decision.minimum)

    def fortify(self, view: BotView, decision: Decision) -> Action:
        """Default: skip."""
        return Pass()

    # -------------------------------------------------------------- game life cycle hooks
    def on_start(self, game: GameContext) -> None:
        """A game starts (its context is ready). Default: nothing."""

    def on_end(self, game: GameContext, places: tuple[int, ...], reason: str) -> None:
        """A game ended (``places`` empty if it was abandoned). Default: nothing."""

    # -------------------------------------------------------------- games
    def game(self, game_id: str, seat: int | None = None) -> GameContext:
        """The context of a game in progress. ``seat`` is needed only when this bot plays
        several seats of one game."""
        return self._games().get(game_id, seat)

    def games(self) -> list[GameContext]:
        """Every game in progress."""
        return self._games().all()

    def _games(self) -> _Registry:
        registry = self.__dict__.get("_hegemon_games")
        if registry is None:
            registry = self.__dict__.setdefault("_hegemon_games", _Registry())
        return registry

    # -------------------------------------------------------------- driving (server, local play)
    def start_game(self, context: GameContext) -> GameContext:
        """Register a new game (called by the server and by :func:`hegemon.sdk.local.play_local`)."""
        self._games().add(context)
        self.on_start(context)
        return context

    def end_game(self, game_id: str, places: Sequence[int] = (), reason: str = "") -> None:
        """Forget a game (every seat of it), after calling :meth:`on_end`."""
        for context in self._games().pop(game_id):
            self.on_end(context, tuple(places), reason)

    def answer(self, view: BotView) -> Action:
        """The bot's action for ``view.pending``; raises if the bot returned no action."""
        decision = view.pending
        if decision is None:
            raise ValueError("the request holds no decision")
        if view.context is not None:
            view.context.decisions += 1
        action = self.decide(view, decision)
        if not isinstance(action, ACTION_TYPES):
            raise TypeError(
                f"{type(self).__name__}.{decision.kind.value}() returned "
                f"{action!r}, not an action (Claim, Place, Trade, Attack, Defend, "
                "Occupy, Fortify or Pass)"
            )
        return action

    def run(self, argv: Sequence[str] | None = None) -> None:
        """Serve this bot over gRPC until SIGTERM/SIGINT (see :func:`hegemon.sdk.server.run`)."""
        from .server import run

        run(self, argv)


class _Registry:
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
