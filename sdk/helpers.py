"""Map queries and legal options for a bot, built on the pure rules engine.

Every function takes the bot's view (a :class:`hegemon.referee.view.View`, e.g. the
:class:`sdk.BotView` a bot method receives) and, where it matters, a seat (default: the view's
own seat). Territories, continents and seats are the engine's indices. Lists come in ascending
territory order, so bots that iterate them stay deterministic.

The battle odds of :mod:`hegemon.sdk.odds` are re-exported here (:func:`conquest_probability`,
:func:`battle_odds`), with :func:`attack_odds` reading the rule set's defence-dice option.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import NamedTuple

from hegemon.referee import legal
from hegemon.referee.actions import PlayerAction
from hegemon.referee.board import Board
from hegemon.referee.decisions import Decision, Kind
from hegemon.referee.formulas import (
    continent_reinforcements,
    continents_held,
    territory_reinforcements,
)
from hegemon.referee.view import View

from .odds import BattleOdds, attack_dice, battle_odds, conquest_probability, defence_dice

__all__ = [
    "BattleOdds",
    "Bounds",
    "Holding",
    "attack_dice",
    "attack_odds",
    "attack_options",
    "battle_odds",
    "border_territories",
    "bounds",
    "conquest_probability",
    "continent_holdings",
    "defence_dice",
    "distances",
    "enemy_neighbours",
    "fortify_options",
    "interior_territories",
    "legal_actions",
    "neighbours",
    "own_territories",
    "owned_continents",
    "reinforcements",
    "threat",
    "trade_options",
]


class Holding(NamedTuple):
    """How much of one continent a seat holds."""

    continent: int
    held: int  # territories of it the seat holds
    size: int  # territories it has
    bonus: int  # armies a turn for holding all of it
    owned: bool  # held == size


class Bounds(NamedTuple):
    """The bounds of a decision answered with numbers rather than picked from a list.

    PLACE: exactly ``minimum`` (== ``maximum``) armies, split over ``territories``.
    OCCUPY: ``minimum``..``maximum`` armies. DEFEND: 1..``maximum`` dice.
    """

    minimum: int
    maximum: int
    territories: tuple[int, ...] = ()


def _seat(view: View, seat: int | None) -> int:
    return view.seat if seat is None else seat


# ------------------------------------------------------------------ map queries
def _board(view: View | Board) -> Board:
    return view if isinstance(view, Board) else view.board


def neighbours(view: View | Board, territory: int) -> tuple[int, ...]:
    """The territories bordering ``territory`` (ascending). ``view`` may also be a Board."""
    return _board(view).neighbours[territory]


def own_territories(view: View, seat: int | None = None) -> list[int]:
    """The territories ``seat`` holds."""
    return legal.own_territories(view, _seat(view, seat))


def enemy_neighbours(view: View, territory: int, seat: int | None = None) -> list[int]:
    """Neighbours of ``territory`` held by anyone but ``seat`` (neutrals included)."""
    seat = _seat(view, seat)
    owner = view.owner
    return [n for n in view.board.neighbours[territory] if owner[n] != seat]


def border_territories(view: View, seat: int | None = None) -> list[int]:
    """``seat``'s territories with at least one enemy neighbour."""
    return legal.border_territories(view, _seat(view, seat))


def interior_territories(view: View, seat: int | None = None) -> list[int]:
    """``seat``'s territories whose every neighbour is its own."""
    seat = _seat(view, seat)
    owner, nbrs = view.owner, view.board.neighbours
    return [t for t, p in enumerate(owner) if p == seat and all(owner[n] == seat for n in nbrs[t])]


def threat(view: View, territory: int, seat: int | None = None) -> int:
    """Enemy armies that could attack ``territory`` next turn: the sum over its enemy
    neighbours of their armies minus the one that must stay behind."""
    seat = _seat(view, seat)
    owner, armies = view.owner, view.armies
    return sum(
        armies[n] - 1
        for n in view.board.neighbours[territory]
        if owner[n] != seat and owner[n] >= 0
    )


def distances(
    view: View | Board,
    sources: Iterable[int],
    through: Callable[[int], object] | None = None,
) -> list[int]:
    """Steps from the nearest of ``sources`` to every territory (breadth first; -1 when
    unreachable). ``through``, if given, is a predicate on territories the path may enter.
    ``view`` may also be a Board."""
    board = _board(view)
    dist = [-1] * board.size
    queue: deque[int] = deque()
    for s in sources:
        if dist[s] < 0:
            dist[s] = 0
            queue.append(s)
    nbrs = board.neighbours
    while queue:
        t = queue.popleft()
        for n in nbrs[t]:
            if dist[n] < 0 and (through is None or through(n)):
                dist[n] = dist[t] + 1
                queue.append(n)
    return dist


def continent_holdings(view: View, seat: int | None = None) -> list[Holding]:
    """Every continent (in index order) with how many of its territories ``seat`` holds."""
    seat = _seat(view, seat)
    owner = view.owner
    result = []
    for c in view.board.continents:
        held = sum(1 for t in c.territories if owner[t] == seat)
        size = len(c.territories)
        result.append(Holding(c.index, held, size, c.bonus, held == size))
    return result


def owned_continents(view: View, seat: int | None = None) -> list[int]:
    """The continents ``seat`` holds whole."""
    return continents_held(view.board, view.owner, _seat(view, seat))


def reinforcements(view: View, seat: int | None = None) -> int:
    """Armies ``seat`` gets at the start of its turn from territories and whole continents
    (cards not counted)."""
    seat = _seat(view, seat)
    territories = sum(1 for p in view.owner if p == seat)
    return territory_reinforcements(territories) + continent_reinforcements(
        view.board, view.owner, seat
    )


# ------------------------------------------------------------------ battle odds
def attack_odds(view: View, source: int, target: int, extra: int = 0) -> BattleOdds:
    """:class:`BattleOdds` of attacking ``target`` from ``source`` to the finish, with
    ``extra`` armies added to ``source`` first (e.g. ones you are about to place), under the
    view's rule set (``defender_two_dice_from``)."""
    return battle_odds(
        view.armies[source] + extra, view.armies[target], view.rules.defender_two_dice_from
    )


# ------------------------------------------------------------------ legal options
def attack_options(view: View, seat: int | None = None) -> list[tuple[int, int, int]]:
    """Every (source, target, most dice) attack ``seat`` may make now."""
    return legal.attacks(view, _seat(view, seat))


def fortify_options(view: View, seat: int | None = None) -> list[tuple[int, int, int]]:
    """Every (source, target, most armies) fortifying move under the rule set's ``fortify``
    option (any 1..most armies is legal)."""
    return list(legal.fortifies(view, _seat(view, seat)))


def trade_options(view: View) -> list[tuple[int, int, int]]:
    """Every set of three cards in the view's hand, as card ids (ascending)."""
    return legal.trades(view.hand, view.board)


_LISTED = (Kind.CLAIM, Kind.ATTACK, Kind.FORTIFY, Kind.TRADE)  # the rest: see bounds()


def legal_actions(view: View, decision: Decision | None = None) -> list[PlayerAction]:
    """Every legal answer to a CLAIM, ATTACK, FORTIFY or TRADE decision (default: the view's
    pending one), ``Pass()`` first where passing is allowed.

    ATTACK lists every (source, target, dice); FORTIFY lists one move per (source, target)
    with the most armies it may move (fewer are legal too); TRADE lists every set. For PLACE,
    OCCUPY and DEFEND use :func:`bounds`.
    """
    d = decision if decision is not None else view.pending
    if d is None:
        return []
    if d.kind not in _LISTED:
        raise ValueError(
            f"{d.kind.value} is answered with numbers, not picked from a list: use bounds()"
        )
    return list(legal.actions(view, d, view.hand, every_amount=False))


def bounds(view: View, decision: Decision | None = None) -> Bounds:
    """The bounds of a PLACE, OCCUPY or DEFEND decision (default: the view's pending one)."""
    d = decision if decision is not None else view.pending
    if d is None:
        raise ValueError("no pending decision")
    if d.kind is Kind.PLACE:
        return Bounds(d.armies, d.armies, tuple(legal.own_territories(view, d.player)))
    if d.kind is Kind.OCCUPY:
        return Bounds(d.minimum, d.maximum)
    if d.kind is Kind.DEFEND:
        return Bounds(1, d.maximum)
    raise ValueError(f"{d.kind.value} is picked from a list: use legal_actions()")
