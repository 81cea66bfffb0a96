"""The bot base class: one method per decision kind, each with a safe legal default.

A bot author subclasses :class:`Bot` and overrides the decisions it cares about (``claim``,
``place``, ``trade``, ``attack``, ``defend``, ``occupy``, ``fortify``) — or ``decide`` alone —
then calls ``MyBot().run()``. Each method gets the seat's :class:`BotView` (the engine's
:class:`hegemon.referee.view.View` plus the game's :class:`GameContext`, the events since the
last decision and the last error) and the pending :class:`hegemon.referee.decisions.Decision`,
and returns a :mod:`hegemon.referee.actions` action.

Orders (opt-in) save round trips without changing how the bot plays: ``policies`` are standing
orders for every game (e.g. ``Policies(defend=DefendPolicy.MOST)``: the referee rolls the most
defence dice for the bot without asking), ``attack`` may return a :class:`Blitz` (an attack the
referee presses until the target falls or the source is down to ``until`` armies), and
``press_attacks = True`` makes every attack the bot returns such a blitz, exactly as far as the
bot's own ``attack`` would have pressed it (:func:`hegemon.sdk.press.press`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, cast, get_args

from hegemon.referee import legal
from hegemon.referee.actions import (
    Action,
    Attack,
    Capital,
    Claim,
    Defend,
    Occupy,
    Pass,
    Place,
    PlayerAction,
    Trade,
)
from hegemon.referee.decisions import Decision, Kind
from hegemon.referee.orders import NO_POLICIES, Blitz, Policies

from . import neutrals
from .context import BotView, GameContext, GameRegistry, UnknownGame, make_view
from .press import press

# GameContext, BotView, UnknownGame and make_view live in .context (shared with the server);
# they are named here too, where they were first defined.
__all__ = [
    "Bot",
    "BotView",
    "GameContext",
    "UnknownGame",
    "UnsupportedDecision",
    "make_view",
]

# every answer a player may give
ACTION_TYPES: tuple[type, ...] = (*get_args(PlayerAction), Blitz)


class UnsupportedDecision(LookupError):
    """A decision kind this bot has no method for (a later edition's, say)."""


class Bot:
    """Base class of a Python bot. Class attributes name it (shown on the leaderboard)."""

    name: ClassVar[str] = "bot"
    version: ClassVar[str] = "0.1.0"
    author: ClassVar[str] = ""
    #: Rule-set presets this bot plays; empty: any.
    rule_sets: ClassVar[tuple[str, ...]] = ()
    #: Standing orders for every game (default: the referee asks every decision). Set them
    #: only to what the bot's own methods would answer, or its play changes.
    policies: ClassVar[Policies] = NO_POLICIES
    #: Turn each attack into a :class:`Blitz` as far as ``attack`` would have pressed it. Only
    #: for a bot whose ``attack`` depends on the board alone (not on events, randomness or
    #: memory kept between decisions): it is asked about boards that may never happen.
    press_attacks: ClassVar[bool] = False

    # -------------------------------------------------------------- decisions
    def decide(self, view: BotView, decision: Decision) -> Action:
        """Answer ``decision``: by default, the method named after its kind."""
        method = getattr(self, decision.kind.value, None)
        if method is None:
            raise UnsupportedDecision(f"this bot cannot answer a {decision.kind.value} decision")
        return cast(Callable[[BotView, Decision], Action], method)(view, decision)

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
        return Trade(legal.trades(view.hand, view.board, view.rules.card_values)[0])

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

    def build_centre(self, view: BotView, decision: Decision) -> Action:
        """Risiko! Master: build a production centre for ``decision.armies`` armies. Default:
        build none."""
        return Pass()

    def capital(self, view: BotView, decision: Decision) -> Action:
        """Capital Risk. Default: the offered territory farthest from any enemy (fewest enemy
        neighbours, then most armies, then the lowest index)."""
        owner, armies = view.owner, view.armies
        neighbours = view.board.neighbours

        def exposure(t: int) -> tuple[int, int, int]:
            enemies = sum(1 for n in neighbours[t] if owner[n] != decision.player)
            return (enemies, -armies[t], t)

        return Capital(min(decision.territories, key=exposure))

    # -------------------------------------------------------------- two-player neutrals, allies
    def place_neutral(self, view: BotView, decision: Decision) -> Action:
        """Two-player games: place armies for the neutral(s) in ``decision.seats``. Default:
        where they face your opponent hardest
        (:func:`hegemon.sdk.neutrals.default_place_neutral`)."""
        return neutrals.default_place_neutral(view, decision)

    def bribe(self, view: BotView, decision: Decision) -> Action:
        """Two-player 2004 active: give cards to a neutral (Bribe) or not. Default: pass."""
        return neutrals.default_bribe(view, decision)

    def reinforce_ally(self, view: BotView, decision: Decision) -> Action:
        """Two-player 2004 active: place the rolled ``decision.armies`` for the ally
        ``decision.seats[0]`` (ReinforceAlly) or pass. Default: all on its territory facing
        your opponent hardest."""
        return neutrals.default_reinforce_ally(view, decision)

    def fortify_ally(self, view: BotView, decision: Decision) -> Action:
        """Two-player 2004 active: the ally's one free move (FortifyAlly) or none. Default:
        pass."""
        return neutrals.default_fortify_ally(view, decision)

    # -------------------------------------------------------------- game life cycle hooks
    def on_start(self, game: GameContext) -> None:
        """A game starts (its context is ready). Default: nothing."""

    def on_end(self, game: GameContext, places: tuple[int, ...], reason: str) -> None:
        """A game ended (``places`` empty if it was abandoned). Default: nothing."""

    def standing_orders(self, game: GameContext) -> Policies:
        """The policies for ``game``, sent when it starts. Default: :attr:`policies`."""
        return self.policies

    # -------------------------------------------------------------- games
    def game(self, game_id: str, seat: int | None = None) -> GameContext:
        """The context of a game in progress. ``seat`` is needed only when this bot plays
        several seats of one game."""
        return self._games().get(game_id, seat)

    def games(self) -> list[GameContext]:
        """Every game in progress."""
        return self._games().all()

    def _games(self) -> GameRegistry:
        # kept in the instance dict so that a subclass need not call Bot.__init__
        registry: GameRegistry | None = self.__dict__.get("_hegemon_games")
        if registry is None:
            registry = self.__dict__.setdefault("_hegemon_games", GameRegistry())
        return registry

    # -------------------------------------------------------------- driving (server, local play)
    def start_game(self, context: GameContext) -> GameContext:
        """Register a new game (called by the server and by
        :func:`hegemon.sdk.local.play_local`)."""
        self._games().add(context)
        self.on_start(context)
        return context

    def end_game(self, game_id: str, places: Sequence[int] = (), reason: str = "") -> None:
        """Forget a game (every seat of it), after calling :meth:`on_end`."""
        for context in self._games().pop(game_id):
            self.on_end(context, tuple(places), reason)

    def answer(self, view: BotView) -> Action | Blitz:
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
                "Occupy, Fortify, Pass, Capital, PlaceNeutral, Bribe, ReinforceAlly, "
                "FortifyAlly, BuildCentre or Blitz)"
            )
        if self.press_attacks and type(action) is Attack and decision.kind is Kind.ATTACK:
            context = view.context
            if context is None:
                return press(self.decide, view, decision, action)
            # the notes are this decision's: what decide writes on the boards press imagines
            # is left out
            kept, context.jotted = context.jotted, ([], [])
            try:
                return press(self.decide, view, decision, action)
            finally:
                context.jotted = kept
        return action

    def run(self, argv: Sequence[str] | None = None) -> None:
        """Serve this bot over gRPC until SIGTERM/SIGINT (see :func:`hegemon.sdk.server.run`)."""
        from .server import run

        run(self, argv)
