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
from typing import Any, NamedTuple

from hegemon.referee import legal
from hegemon.referee.actions import Action, Attack, Claim, Fortify, Pass, Trade
from hegemon.referee.decisions import Decision, Kind

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


def _seat(view: Any, seat: int | None) -> int:
    return view.seat if seat is None else seat


# ------------------------------------------------------------------ map queries
def neighbours(view: Any, territory: int) -> tuple[int, ...]:
    """The territories bordering ``territory`` (ascending). ``view`` may also be a Board."""
    board = getattr(view, "board", view)
    return board.neighbours[territory]


def own_territories(view: Any, seat: int | None = None) -> list[int]:
    """The territories ``seat`` holds."""
    return legal.own_territories(view, _seat(view, seat))


def enemy_neighbours(view: Any, territory: int, seat: int | None = None) -> list[int]:
    """Neighbours of ``territory`` held by anyone but ``seat`` (neutrals included)."""
    seat = _seat(view, seat)
    owner = view.owner
    return [n for n in view.board.neighbours[territory] if owner[n] != seat]


def border_territories(view: Any, seat: int | None = None) -> list[int]:
    """``seat``'s territories with at least one enemy neighbour."""
    return legal.border_territories(view, _seat(view, seat))


def interior_territories(view: Any, seat: int | None = None) -> list[int]:
    """``seat``'s territories whose every neighbour is its own."""
    seat = _seat(view, seat)
    owner, nbrs = view.owner, view.board.neighbours
    return [t for t, p in enumerate(owner) if p == seat and all(owner[n] == seat for n in nbrs[t])]


def threat(view: Any, territory: int, seat: int | None = None) -> int:
    """Enemy armies that could attack ``territory`` next turn: the sum over its enemy
    neighbours of their armies minus the one that must stay behind."""
    seat = _seat(view, seat)
    owner, armies = view.owner, view.armies
    return sum(
        armies[n] - 1
        for n in view.board.neighbours[territory]
        if owner[n] != seat and owner[n] >= 0
    )


def distances(view: Any, sources: Any, through: Any = None) -> list[int]:
    """Steps from the nearest of ``sources`` to every territory (breadth first; -1 when
    unreachable). ``through``, if given, is a predicate on territories the path may enter."""
    board = getattr(view, "board", view)
    dist = [-1] * board.size
    queue = deque()
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


def continent_holdings(view: Any, seat: int | None = None) -> list[Holding]:
    """Every continent (in index order) with how many of its territories ``seat`` holds."""
    seat = _seat(view, seat)
    owner = view.owner
    result = []
    for c in view.board.continents:
        held = sum(1 for t in c.territories if owner[t] == seat)
        size = len(c.territories)
        result.append(Holding(c.index, held, size, c.bonus, held == size))
    return result


def owned_continents(view: Any, seat: int | None = None) -> list[int]:
    """The continents ``seat`` holds whole."""
    seat = _seat(view, seat)
    owner = view.owner
    return [c.index for c in view.board.continents if all(owner[t] == seat for t in c.territories)]


def reinforcements(view: Any, seat: int | None = None) -> int:
    """Armies ``seat`` gets at the start of its turn from territories and whole continents
    (cards not counted)."""
    seat = _seat(view, seat)
    territories = sum(1 for p in view.owner if p == seat)
    bonus = sum(view.board.continents[c].bonus for c in owned_continents(view, seat))
    return max(3, territories // 3) + bonus


# ------------------------------------------------------------------ battle odds
def attack_odds(view: Any, source: int, target: int, extra: int = 0) -> BattleOdds:
    """:class:`BattleOdds` of attacking ``target`` from ``source`` to the finish, with
    ``extra`` armies added to ``source`` first (e.g. ones you are about to place), under the
    view's rule set (``defender_two_dice_from``)."""
    return battle_odds(
        view.armies[source] + extra, view.armies[target], view.rules.defender_two_dice_from
    )


# ------------------------------------------------------------------ legal options
def attack_options(view: Any, seat: int | None = None) -> list[tuple[int, int, int]]:
    """Every (source, target, most dice) attack ``seat`` may make now."""
    return legal.attacks(view, _seat(view, seat))


def fortify_options(view: Any, seat: int | None = None) -> list[tuple[int, int, int]]:
    """Every (source, target, most armies) fortifying move under the rule set's ``fortify``
    option (any 1..most armies is legal)."""
    return list(legal.fortifies(view, _seat(view, seat)))


def trade_options(view: Any) -> list[tuple[int, int, int]]:
    """Every set of three cards in the view's hand, as card ids (ascending)."""
    return legal.trades(view.hand, view.board)


def legal_actions(view: Any, decision: Decision | None = None) -> list[Action]:
    """Every legal answer to a CLAIM, ATTACK, FORTIFY or TRADE decision (default: the view's
    pending one), ``Pass()`` first where passing is allowed.

    ATTACK lists every (source, target, dice); FORTIFY lists one move per (source, target)
    with the most armies it may move (fewer are legal too); TRADE lists every set. For PLACE,
    OCCUPY and DEFEND use :func:`bounds`.
    """
    d = decision if decision is not None else view.pending
    if d is None:
        return []
    kind = d.kind
    if kind is Kind.CLAIM:
        return [Claim(t) for t in d.territories]
    if kind is Kind.ATTACK:
        moves: list[Action] = [] if d.forced else [Pass()]
        for s, t, most in legal.attacks(view, d.player):
            moves.extend(Attack(s, t, n) for n in range(1, most + 1))
        return moves
    if kind is Kind.FORTIFY:
        return [Pass(), *(Fortify(s, t, most) for s, t, most in legal.fortifies(view, d.player))]
    if kind is Kind.TRADE:
        sets = [Trade(c) for c in legal.trades(view.hand, view.board)]
        return sets if d.forced else [Pass(), *sets]
    raise ValueError(f"{kind.value} is answered with numbers, not picked from a list: use bounds()")


def bounds(view: Any, decision: Decision | None = None) -> Bounds:
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
