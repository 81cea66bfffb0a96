"""Map queries and legal options for a bot, built on the pure rules engine.

Every function takes the bot's view (a :class:`hegemon.referee.view.View`, e.g. the
:class:`sdk.BotView` a bot method receives) and, where it matters, a seat (default: the view's
own seat). Territories, continents and seats are the engine's indices. Lists come in ascending
territory order, so bots that iterate them stay deterministic.

The battle odds of :mod:`hegemon.sdk.odds` are re-exported here (:func:`conquest_probability`,
:func:`battle_odds`), with :func:`attack_odds` reading the rule set's dice options.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import NamedTuple

from hegemon.referee import legal
from hegemon.referee.actions import PlayerAction
from hegemon.referee.board import Board
from hegemon.referee.decisions import Decision, Kind
from hegemon.referee.editions import master
from hegemon.referee.editions.capitals import capitals_needed, replaced_on_capture
from hegemon.referee.editions.missions import Progress, deck_of, progress
from hegemon.referee.formulas import (
    continent_reinforcements,
    continents_held,
    minimum_reinforcements,
    territory_reinforcements,
)
from hegemon.referee.view import View

from .odds import BattleOdds, attack_dice, battle_odds, conquest_probability, defence_dice

__all__ = [
    "BattleOdds",
    "Bounds",
    "CaptureEffect",
    "Holding",
    "Progress",
    "attack_dice",
    "attack_odds",
    "attack_options",
    "battle_odds",
    "border_territories",
    "bounds",
    "capital_capture",
    "capitals_to_win",
    "conquest_probability",
    "continent_holdings",
    "defence_dice",
    "distances",
    "enemy_neighbours",
    "fortify_options",
    "interior_territories",
    "known_capitals",
    "legal_actions",
    "mission_progress",
    "mission_targets",
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
    rules = view.rules
    if rules.reinforcement_minimum == "three":
        due = territory_reinforcements(territories)
    else:  # Risiko! Master: its minimums, and production centres
        due = minimum_reinforcements(rules.reinforcement_minimum, territories)
        due += master.centre_armies(rules, view.owner, view.centres, seat)
    return due + continent_reinforcements(view.board, view.owner, seat)


# ------------------------------------------------------------------ battle odds
def attack_odds(view: View, source: int, target: int, extra: int = 0) -> BattleOdds:
    """:class:`BattleOdds` of attacking ``target`` from ``source`` to the finish, with
    ``extra`` armies added to ``source`` first (e.g. ones you are about to place), under the
    view's rule set (``defender_two_dice_from``; Risiko!'s ``defender_most_dice`` and the
    Expert ``attacker_dice`` rule)."""
    return battle_odds(view.armies[source] + extra, view.armies[target], view.rules)


# ------------------------------------------------------------------ legal options
def attack_options(view: View, seat: int | None = None) -> list[tuple[int, int, int]]:
    """Every (source, target, most dice) attack ``seat`` may make now."""
    return legal.attacks(view, _seat(view, seat))


def fortify_options(view: View, seat: int | None = None) -> list[tuple[int, int, int]]:
    """Every (source, target, most armies) fortifying move under the rule set's ``fortify``
    and ``garrison`` options (any 1..most armies is legal). While a many-into-one move
    (Risiko! Master Expert) is under way, only the moves into its target from the sources
    the pending decision still offers."""
    d = view.pending
    if d is not None and d.kind is Kind.FORTIFY and d.target >= 0:
        return [
            m for m in legal.fortifies(view, _seat(view, seat), d.target) if m[0] in d.territories
        ]
    return list(legal.fortifies(view, _seat(view, seat)))


def trade_options(view: View) -> list[tuple[int, int, int]]:
    """Every set of three cards in the view's hand, as card ids (ascending)."""
    return legal.trades(view.hand, view.board, view.rules.card_values)


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


# ------------------------------------------------------------------ secret missions
def mission_progress(view: View) -> list[Progress]:
    """How far this seat is from each of its own secret missions (mission presets; ``[]``
    otherwise): the mission id, its text, whether it holds now, and roughly how many more
    territories (conquests, armies) it needs. Missions already declared count as done."""
    deck = deck_of(view.rules.missions)
    if deck is None:
        return []
    shown = view.seats[view.seat].shown_missions if view.seats else ()
    # the fourth shown is only revealed, not declared, until it wins the game
    declared = set(shown[:3])
    # a colour with no army left while the game goes on was destroyed by this seat (its claim
    # waits for the occupation) or by another with destroyed_by_other=completed: done either
    # way (with fallback_24 the referee already turned the card into "occupy 24")
    gone = [view.seat if s.territories == 0 and view.round > 0 else -1 for s in view.seats]
    result = []
    for m in view.missions:
        mission = deck.missions[m]
        destroyed_by = gone if mission.destroy >= 0 else ()
        p = progress(mission, view.board, view.owner, view.armies, view.seat, destroyed_by)
        result.append(replace(p, done=True, remaining=0) if m in declared else p)
    return result


def mission_targets(view: View) -> set[int]:
    """Enemy territories whose conquest brings an unfinished mission of this seat closer: the
    missing territories of the continents it names, the territories of the colour it must
    destroy, and, for missions that count territories or conquests, every enemy territory
    next to one of its own."""
    deck = deck_of(view.rules.missions)
    if deck is None:
        return set()
    seat, owner, board = view.seat, view.owner, view.board
    done = {p.mission for p in mission_progress(view) if p.done}
    targets: set[int] = set()
    for mid in view.missions:
        if mid in done:
            continue
        m = deck.missions[mid]
        named = [c for c in board.continents if c.name in m.continents]
        if m.more_continents:
            others = sorted(
                (c for c in board.continents if c.name not in m.continents),
                key=lambda c: sum(owner[t] != seat for t in c.territories),
            )
            named += others[: m.more_continents]
        for c in named:
            targets.update(t for t in c.territories if owner[t] != seat)
        if m.destroy >= 0:
            targets.update(t for t, p in enumerate(owner) if p == m.destroy)
        if m.territories or m.conquests or m.eliminations:
            for t in legal.border_territories(view, seat):
                targets.update(n for n in board.neighbours[t] if owner[n] != seat)
    return targets


# ------------------------------------------------------------------ capital Risk
class CaptureEffect(NamedTuple):
    """What conquering a capital would do (seed 001): the loser's ``cards`` come to you; its
    armies on the capital's continent (``armies_removed`` in all) leave the board and each of
    ``replaced`` gets one army of yours from reserve."""

    loser: int
    cards: int
    replaced: tuple[int, ...]
    armies_removed: int


def capital_capture(view: View, territory: int) -> CaptureEffect:
    """What conquering ``territory`` would do if it is its holder's capital (known for your
    own and for captured ones, see :func:`known_capitals`; a guess for any other)."""
    loser = view.owner[territory]
    replaced = replaced_on_capture(view.board, view.owner, territory, loser)
    cards = view.seats[loser].cards if 0 <= loser < len(view.seats) else 0
    return CaptureEffect(loser, cards, replaced, sum(view.armies[t] for t in replaced))


def known_capitals(view: View) -> dict[int, int]:
    """The capitals this seat knows, by seat: its own and every captured one."""
    known = {s.seat: s.capital for s in view.seats if s.capital >= 0}
    if view.capital >= 0:
        known[view.seat] = view.capital
    return known


def capitals_to_win(view: View) -> int:
    """How many capitals (your own original one included) win this game (0: not capital
    Risk)."""
    if view.rules.capitals != "on":
        return 0
    # a two-player game's neutral colours are no players (a forfeited player stays one)
    return capitals_needed(sum(1 for s in view.seats if not s.neutral or s.forfeited))
