"""What a bot knows of its games: the per-game :class:`GameContext`, the :class:`BotView`
each decision gets, and the registry of games in progress.

Both the :class:`~hegemon.sdk.bot.Bot` base class and the gRPC server
(:mod:`hegemon.sdk.server`) build on this module; neither needs the other.
"""

from __future__ import annotations

import difflib
import logging
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from hegemon.referee.board import Board
from hegemon.referee.decisions import Decision
from hegemon.referee.events import Conquered, Event, TurnStarted
from hegemon.referee.notes import Jotting, Mark
from hegemon.referee.rules import RuleSet

# SeatInfo: the annotation of the seats field BotView inherits; pdoc resolves it here.
from hegemon.referee.view import SeatInfo, View  # noqa: F401

__all__ = [
    "BotView",
    "ContinentState",
    "GameContext",
    "GameRegistry",
    "TerritoryState",
    "UnknownGame",
    "make_view",
]

log = logging.getLogger("hegemon.sdk")

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
    #: these lists in place (:func:`hegemon.referee.wire.codec.view_from_proto`).
    board_state: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []), repr=False)
    #: Every event the seat was told of, in order (what :mod:`hegemon.sdk.forward` samples from).
    seen: list[Event] = field(default_factory=list, repr=False)
    #: Notes and marks of the decision being answered, sent with its answer (:meth:`note`).
    jotted: tuple[list[str], list[Mark]] = field(default_factory=lambda: ([], []), repr=False)

    def note(self, text: object) -> None:
        """Attach ``text`` to the answer being decided: it shows in this decision of the
        replay, for the bot's owner only (never another seat, bot or visitor). Several notes
        on one decision are joined with " | "; the referee keeps 1 KiB a decision and 64 KiB a
        game (the excess is cut, ending in "…[cut]")."""
        self.jotted[0].append(str(text))

    def mark(
        self, territory: str | int, to: str | int | None = None, label: str = "", colour: str = ""
    ) -> None:
        """Mark the map at the decision being answered: highlight ``territory`` (a name or an
        index), or draw an arrow from it ``to`` another, with a short ``label`` and a
        ``colour`` of red, orange, yellow (the default), green, blue, purple, grey. A name not
        on the map is logged and left out; the referee drops a bad index or colour (with a
        reason in the record), never counting it as a fault."""
        try:
            ids = [_territory_index(self.board, t) for t in (territory, to) if t is not None]
        except KeyError as exc:
            log.warning("mark left out: %s", exc.args[0])
            return
        self.jotted[1].append(
            Mark(ids[0], ids[1] if to is not None else None, str(label), str(colour))
        )

    def take_note(self) -> Jotting | None:
        """The notes and marks of the decision just answered (then forgotten), or None."""
        texts, marks = self.jotted
        if not texts and not marks:
            return None
        jotting = Jotting(" | ".join(texts), tuple(marks))
        self.jotted = ([], [])
        return jotting

    def __post_init__(self) -> None:
        if self.rng is _SEEDED_FROM_GAME or self.rng is None:
            self.rng = random.Random(f"{self.game_id}:{self.seat}")

    def observe(self, events: Sequence[Event]) -> None:
        """Follow the turn from the events since the last decision (called for every view)."""
        self.seen.extend(events)
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
class TerritoryState:
    """One territory as a seat sees it now (from :meth:`BotView.territory`)."""

    index: int
    """Its index: what actions and the view's tuples use (``view.armies[index]``)."""
    name: str
    """Its name on the map, e.g. ``"Siam"``."""
    owner: int
    """The seat holding it (-1 while unclaimed)."""
    armies: int
    """The armies on it."""
    continent: str
    """The name of its continent."""
    neighbours: tuple[str, ...]
    """The names of the territories it borders."""
    mine: bool
    """Whether the seat asking holds it."""


@dataclass(frozen=True, slots=True)
class ContinentState:
    """One continent as a seat sees it now (from :meth:`BotView.continent`)."""

    index: int
    """Its index in ``view.board.continents``."""
    name: str
    """Its name on the map, e.g. ``"Australia"``."""
    bonus: int
    """The armies a seat holding all of it gets each turn."""
    territories: tuple[str, ...]
    """The names of its territories."""
    owner: int | None
    """The seat holding every territory of it, or None."""
    held: int
    """How many of its territories the seat asking holds."""

    @property
    def mine(self) -> bool:
        """Whether the seat asking holds all of it."""
        return self.held == len(self.territories)


def _lookup(names: Sequence[str], wanted: str | int, what: str) -> int:
    """The index of ``wanted`` (a name, or already an index) among ``names``; a KeyError that
    suggests the nearest names otherwise."""
    if isinstance(wanted, int):
        if 0 <= wanted < len(names):
            return wanted
        raise KeyError(f"no {what} {wanted} (there are {len(names)}, numbered from 0)")
    for i, name in enumerate(names):
        if name == wanted:
            return i
    folded = [n.casefold() for n in names]
    if wanted.casefold() in folded:
        return folded.index(wanted.casefold())
    close = difflib.get_close_matches(wanted, names, n=3)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise KeyError(f"no {what} called {wanted!r} on this map{hint}")


def _territory_index(board: Board, territory: str | int) -> int:
    """An index as given (the referee checks it), or the index of a territory's name."""
    if not isinstance(territory, str):
        return territory  # an index, checked by the referee (which drops a bad one)
    return _lookup([t.name for t in board.territories], territory, "territory")


@dataclass(frozen=True, slots=True)
class BotView(View):
    """What a seat sees when asked for a decision: every field of
    :class:`hegemon.referee.view.View` (so every SDK and engine helper takes it) plus what the
    request said around it.

    The board, by index (territory ``t`` is ``board.territories[t]``):

    - ``seat``: your seat (0-based); ``rules``: the rule set; ``board``: the map (territories,
      continents, ``neighbours[t]``);
    - ``owner[t]``: the seat holding territory ``t`` (-1 unclaimed); ``armies[t]``: its armies;
    - ``seats[s]``: public facts about seat ``s`` (territories, armies, card count, eliminated,
      forfeited, neutral, its capital once captured);
    - ``hand``: your cards; ``trade_count`` and ``next_trade_value``: the sets traded so far and
      what the next one is worth; ``missions`` and ``capital``: your own secret objectives;
    - ``round``, ``current`` (the seat whose turn it is) and ``pending``/``decision``: what you
      must decide now, with its bounds.

    By name: :meth:`territory` (``view.territory("Siam").armies``) and :meth:`continent`
    (``view.continent("Australia").owner``).
    """

    game_id: str = ""
    """The game's id (it tells nothing about the seed)."""
    context: GameContext | None = None
    """This game's :class:`GameContext`: seat names, ``rng``, your ``memory``."""
    events: tuple[Event, ...] = ()
    """Everything that happened since this seat's previous decision."""
    error: str = ""
    """Why your previous answer was refused ("" if it was not)."""
    strikes: int = 0
    """Strikes so far (late, illegal or malformed answers); one more than the limit forfeits."""
    time_bank_ms: int = 0
    """What is left of your time bank, in milliseconds."""
    deadline_ms: int = 0
    """The time allowed for this answer, in milliseconds."""

    @property
    def decision(self) -> Decision | None:
        """The pending decision (``pending``)."""
        return self.pending

    def note(self, text: object) -> None:
        """Attach a note to this decision's answer (see :meth:`GameContext.note`)."""
        if self.context is not None:
            self.context.note(text)

    def mark(
        self, territory: str | int, to: str | int | None = None, label: str = "", colour: str = ""
    ) -> None:
        """Mark the map at this decision (see :meth:`GameContext.mark`)."""
        if self.context is not None:
            self.context.mark(territory, to, label, colour)

    def territory(self, name: str | int) -> TerritoryState:
        """The territory called ``name`` (or with that index): owner, armies, continent,
        neighbours. A KeyError names the nearest names when there is no such territory."""
        board = self.board
        t = _lookup([x.name for x in board.territories], name, "territory")
        return TerritoryState(
            index=t,
            name=board.territories[t].name,
            owner=self.owner[t],
            armies=self.armies[t],
            continent=board.continents[board.territories[t].continent].name,
            neighbours=tuple(board.territories[n].name for n in board.neighbours[t]),
            mine=self.owner[t] == self.seat,
        )

    def continent(self, name: str | int) -> ContinentState:
        """The continent called ``name`` (or with that index): bonus, territories, who holds
        all of it, how many you hold."""
        board = self.board
        c = _lookup([x.name for x in board.continents], name, "continent")
        members = board.continents[c].territories
        owners = {self.owner[t] for t in members}
        (sole,) = owners if len(owners) == 1 else (None,)
        return ContinentState(
            index=c,
            name=board.continents[c].name,
            bonus=board.continents[c].bonus,
            territories=tuple(board.territories[t].name for t in members),
            owner=sole if sole is not None and sole >= 0 else None,
            held=sum(1 for t in members if self.owner[t] == self.seat),
        )


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
