"""The per-player view: exactly what one seat may know, and nothing more.

This is the only game information ever sent to a bot: the public board, the seat's own cards,
missions and capital, every other seat's card *count*, the trade counter, and the seat's pending
decision. Never the deck, the discard order, the seed, or anyone else's cards, missions or
capital.

Compiled with the engine (:data:`hegemon.referee.native.COMPILED`): a view is made at every
decision a bot or a learner is asked, and the public seats after every applied action. Its two
classes are frozen dataclasses with a constructor of their own: a compiled dataclass's generated
``__init__`` is Python (stores through ``object.__setattr__``), about twenty times slower than a
compiled one. Under the pure Python engine :func:`quick_init` replaces it (a frozen class
refuses its plain assignments); compiled, it stores straight into the instance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from .board import Board
from .decisions import Decision
from .quickinit import mypyc_attr, quick_init
from .rules import RuleSet

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True, slots=True, init=False)
class SeatInfo:
    """Public facts about one seat."""

    seat: int
    territories: int
    armies: int
    cards: int
    eliminated: bool
    forfeited: bool
    neutral: bool
    team: int = -1
    capital: int = -1  # capital game: its capital once captured (public), else -1
    shown_missions: tuple[int, ...] = ()  # missions it showed to all (mission-2004)
    ally_of: int = -1  # two-player active neutrals: the player this neutral is allied to

    def __init__(
        self,
        seat: int,
        territories: int,
        armies: int,
        cards: int,
        eliminated: bool,
        forfeited: bool,
        neutral: bool,
        team: int = -1,
        capital: int = -1,
        shown_missions: tuple[int, ...] = (),
        ally_of: int = -1,
    ) -> None:
        # (frozen: the compiled class's own stores; replaced by quick_init's when pure Python)
        self.seat = seat  # type: ignore[misc]
        self.territories = territories  # type: ignore[misc]
        self.armies = armies  # type: ignore[misc]
        self.cards = cards  # type: ignore[misc]
        self.eliminated = eliminated  # type: ignore[misc]
        self.forfeited = forfeited  # type: ignore[misc]
        self.neutral = neutral  # type: ignore[misc]
        self.team = team  # type: ignore[misc]
        self.capital = capital  # type: ignore[misc]
        self.shown_missions = shown_missions  # type: ignore[misc]
        self.ally_of = ally_of  # type: ignore[misc]

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce(self)


quick_init(SeatInfo)  # every seat's, each time a view is made


@mypyc_attr(allow_interpreted_subclasses=True)  # the SDK's BotView
@dataclass(frozen=True, slots=True, init=False)
class View:
    seat: int
    rules: RuleSet
    board: Board
    owner: tuple[int, ...]
    armies: tuple[int, ...]
    seats: tuple[SeatInfo, ...]
    hand: tuple[int, ...]
    trade_count: int
    next_trade_value: int
    round: int
    current: int
    pending: Decision | None
    missions: tuple[int, ...] = ()
    capital: int = -1
    centres: tuple[int, ...] = ()  # Risiko! Master: territories with a production centre
    # team game: (territory, seat, armies) of every seat but the controller on a territory
    stacks: tuple[tuple[int, int, int], ...] = ()

    def __init__(
        self,
        seat: int,
        rules: RuleSet,
        board: Board,
        owner: tuple[int, ...],
        armies: tuple[int, ...],
        seats: tuple[SeatInfo, ...],
        hand: tuple[int, ...],
        trade_count: int,
        next_trade_value: int,
        round: int,
        current: int,
        pending: Decision | None,
        missions: tuple[int, ...] = (),
        capital: int = -1,
        centres: tuple[int, ...] = (),
        stacks: tuple[tuple[int, int, int], ...] = (),
    ) -> None:
        # (frozen: the compiled class's own stores; replaced by quick_init's when pure Python)
        self.seat = seat  # type: ignore[misc]
        self.rules = rules  # type: ignore[misc]
        self.board = board  # type: ignore[misc]
        self.owner = owner  # type: ignore[misc]
        self.armies = armies  # type: ignore[misc]
        self.seats = seats  # type: ignore[misc]
        self.hand = hand  # type: ignore[misc]
        self.trade_count = trade_count  # type: ignore[misc]
        self.next_trade_value = next_trade_value  # type: ignore[misc]
        self.round = round  # type: ignore[misc]
        self.current = current  # type: ignore[misc]
        self.pending = pending  # type: ignore[misc]
        self.missions = missions  # type: ignore[misc]
        self.capital = capital  # type: ignore[misc]
        self.centres = centres  # type: ignore[misc]
        self.stacks = stacks  # type: ignore[misc]

    def __reduce__(self) -> tuple[Any, ...]:
        # copy.copy (the SDK's press) and pickle: by the constructor, a subclass's fields too
        return _reduce(self)

    def allies(self, player: int) -> list[int]:
        """The neutral colours allied to ``player`` that still hold territory (active
        neutrals)."""
        return [
            s.seat
            for s in self.seats
            if s.neutral and not s.forfeited and s.ally_of == player and s.territories > 0
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "round": self.round,
            "current": self.current,
            "owner": list(self.owner),
            "armies": list(self.armies),
            "seats": [
                {k: list(v) if isinstance(v, tuple) else v for k, v in _fields(s)}
                for s in self.seats
            ],
            "hand": list(self.hand),
            "trade_count": self.trade_count,
            "next_trade_value": self.next_trade_value,
            "pending": self.pending.to_dict() if self.pending else None,
            "missions": list(self.missions),
            "capital": self.capital,
            **({"centres": list(self.centres)} if self.centres else {}),
            **({"stacks": [list(s) for s in self.stacks]} if self.stacks else {}),
        }


quick_init(View)  # made at every decision a bot or a learner is asked

for _compiled in (SeatInfo, View):
    if "__slots__" not in _compiled.__dict__:
        # compiled: the fields are the instance's own layout, not slots. Named all the same, so
        # that a slotted subclass (the SDK's BotView) declares none again (a slot of the same
        # name would hide the field from the compiled methods), and code reading __slots__ works
        names = tuple([f.name for f in fields(_compiled)])
        setattr(_compiled, "__slots__", names)  # noqa: B010  # (typed as the slotted class's)


def _reduce(value: SeatInfo | View) -> tuple[Any, ...]:
    """``value`` rebuilt by its class from its fields in order (what a frozen compiled class
    needs to be copied or pickled)."""
    return (type(value), tuple([getattr(value, f.name) for f in fields(value)]))


def _fields(info: SeatInfo) -> list[tuple[str, Any]]:
    return [(k, getattr(info, k)) for k in info.__slots__]


def shown_missions(game: Game, seat: int) -> tuple[int, ...]:
    """The missions ``seat`` has shown to everyone: declared ones, then the fourth once three
    are declared (mission-2004)."""
    declared = game.declared[seat]
    held = game.players[seat].missions
    if game.rules.missions == "2004" and len(declared) == 3 and len(held) == 4:
        return (*declared, *(m for m in held if m not in declared))
    return tuple(declared)


def view_for(game: Game, seat: int, seats: tuple[SeatInfo, ...] | None = None) -> View:
    """What ``seat`` may know of ``game`` (a :class:`hegemon.referee.game.Game`) right now
    (``seats``: :func:`public_seats` of the game as it is now, if already at hand)."""
    owner: Sequence[int] = game.owner
    armies: Sequence[int] = game.armies
    stacks: tuple[tuple[int, int, int], ...] = ()
    holdings = game.holdings
    if holdings.shared:
        owner, armies, stacks = holdings.public_board(game)
    hand = holdings.hand(game, seat)
    me = game.players[seat]
    pending = game.pending if game.pending is not None and game.pending.player == seat else None
    return View(
        seat=seat,
        rules=game.rules,
        board=game.board,
        owner=tuple(owner),
        armies=tuple(armies),
        seats=seats if seats is not None else public_seats(game),
        hand=hand,
        trade_count=game.trade_count,
        next_trade_value=game.next_trade_value(),
        round=game.round,
        current=game.current,
        pending=pending,
        missions=tuple(me.missions),
        capital=me.capital,
        centres=tuple(game.centres),
        stacks=stacks,
    )


def public_seats(game: Game) -> tuple[SeatInfo, ...]:
    """Every seat's public facts, as every view shows them."""
    territories, totals = game.holdings.seat_totals(game)
    known, shown = game.capital_known, shown_missions_of(game)
    return tuple(
        SeatInfo(
            p.seat,
            territories[p.seat],
            totals[p.seat],
            len(p.cards),
            p.eliminated,
            p.forfeited,
            p.neutral,
            p.team,
            p.capital if known[p.seat] else -1,
            shown[p.seat],
            p.ally_of,
        )
        for p in game.players
    )


def shown_missions_of(game: Game) -> list[tuple[int, ...]]:
    """Per seat: :func:`shown_missions` (none without missions)."""
    if game.rules.missions == "none":
        return [()] * len(game.players)
    return [shown_missions(game, p.seat) for p in game.players]
