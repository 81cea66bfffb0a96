"""Legal options of the pending decision, for anything shaped like a game or a view.

Each function takes a :class:`Position` (a :class:`hegemon.referee.game.Game` or a
:class:`hegemon.referee.view.View`: both are one) and a seat, so a bot lists its options from
its view exactly as the referee checks them. :func:`actions` enumerates the answers to a
decision in the canonical order :meth:`hegemon.referee.game.Game.legal_actions` documents.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from . import cards as cardlib
from .actions import (
    Attack,
    Bribe,
    BuildCentre,
    Capital,
    Claim,
    Defend,
    Fortify,
    FortifyAlly,
    Occupy,
    Pass,
    Place,
    PlaceNeutral,
    PlayerAction,
    ReinforceAlly,
    Trade,
)
from .board import Board
from .decisions import Decision, Kinds
from .editions.parts import BoardRules, board_rules
from .position import Position


def _chosen(state: Position) -> BoardRules:
    return board_rules(state.rules)


def allies(state: Position, seat: int) -> list[int]:
    """The other colours whose armies ``seat`` also commands (its allies), else none."""
    return [s for s in _chosen(state).holdings.commanded(state, seat) if s != seat]


def iter_attacks(state: Position, seat: int) -> Iterator[tuple[int, int, int]]:
    """Every (source, target, most dice) attack ``seat`` may make now, lazily: from its own
    territories, and (allies) from its allies' onto any other colour but its own."""
    chosen = _chosen(state)
    return chosen.holdings.attacks(state, seat, chosen.limits)


def attacks(state: Position, seat: int) -> list[tuple[int, int, int]]:
    """Every (source, target, most dice) attack ``seat`` may make now."""
    return list(iter_attacks(state, seat))


def own_territories(state: Position, seat: int) -> list[int]:
    """The territories where ``seat`` may place (ascending): those it holds; on a shared board,
    where it has armies."""
    return _chosen(state).holdings.own_territories(state, seat)


def border_territories(state: Position, seat: int) -> list[int]:
    """Own territories with at least one enemy neighbour (on a shared board: where ``seat``
    has armies, bordering another side's)."""
    return _chosen(state).holdings.border_territories(state, seat)


def fortifies(
    state: Position, seat: int, into: int = -1, used: Sequence[int] = ()
) -> Iterator[tuple[int, int, int]]:
    """Every (source, target, most armies) fortify move under the rule set's ``fortify`` and
    ``garrison`` options; ``into``: only moves into that territory, none from ``used``
    (the rest of a many-into-one strategic move)."""
    chosen = _chosen(state)
    return chosen.holdings.fortifies(state, seat, chosen.limits, into, used)


def trades(hand: Iterable[int], board: Board, card_values: str = "") -> list[tuple[int, int, int]]:
    """Every set in ``hand`` (card ids) under the rule set's ``card_values`` option (Risiko!
    Master knows fewer sets)."""
    return cardlib.find_sets(list(hand), board.card_insignia, card_values)


def defence_dice(state: Position, territory: int) -> int:
    """Most dice the defender of ``territory`` may roll under the rule set."""
    return _chosen(state).holdings.defence_dice(state, territory)


def least_dice(state: Position, target: int) -> int:
    """Fewest dice an attack on ``target`` may roll under the rule set."""
    return _chosen(state).limits.least_dice(state, target)


def neutral_placements(state: Position, decision: Decision) -> Iterator[PlaceNeutral]:
    """Canonical answers to PLACE_NEUTRAL: with a per-seat ``maximum`` (set-up), the i-th
    territory of each neutral getting its share, for each i; else all the armies on one
    neutral territory, for each. Any split within the bounds is legal too."""
    owned = [own_territories(state, s) for s in decision.seats]
    owned = [o for o in owned if o]
    if not owned:
        return
    if decision.maximum:
        for i in range(max(len(o) for o in owned)):
            left, split = decision.armies, []
            for o in owned:
                n = min(decision.maximum, left)
                if n:
                    split.append((o[i % len(o)], n))
                left -= n
            yield PlaceNeutral(tuple(split))
        return
    for o in owned:
        yield from (PlaceNeutral(((t, decision.armies),)) for t in o)


def actions(
    state: Position, decision: Decision, hand: Sequence[int], *, every_amount: bool = True
) -> Iterator[PlayerAction]:
    """The answers to ``decision`` (``hand``: the deciding seat's cards), lazily, the default
    first, in the canonical order :meth:`hegemon.referee.game.Game.legal_actions` documents.
    With ``every_amount=False`` a FORTIFY move is listed once, with the most armies (what the
    SDK's ``legal_actions`` offers)."""
    kind = decision.kind
    if kind is Kinds.CLAIM:
        yield from (Claim(t) for t in decision.territories)
    elif kind is Kinds.CAPITAL:
        yield from (Capital(t) for t in decision.territories)
    elif kind is Kinds.BUILD_CENTRE:
        yield Pass()
        yield from (BuildCentre(t) for t in decision.territories)
    elif kind is Kinds.PLACE:
        yield from (Place(((t, decision.armies),)) for t in own_territories(state, decision.player))
    elif kind is Kinds.PLACE_NEUTRAL:
        yield from neutral_placements(state, decision)
    elif kind is Kinds.BRIBE:
        yield Pass()
        for s in decision.seats:
            yield from (Bribe(s, (c,)) for c in hand)
    elif kind is Kinds.REINFORCE_ALLY:
        yield Pass()
        for t in own_territories(state, decision.seats[0]):
            yield ReinforceAlly(((t, decision.armies),))
    elif kind is Kinds.FORTIFY_ALLY:
        yield Pass()
        for s, t, most in fortifies(state, decision.seats[0]):
            least = 1 if every_amount else most
            yield from (FortifyAlly(s, t, n) for n in range(least, most + 1))
    elif kind is Kinds.TRADE:
        if not decision.forced:
            yield Pass()
        yield from (Trade(c) for c in trades(hand, state.board, state.rules.card_values))
    elif kind is Kinds.ATTACK:
        if not decision.forced:
            yield Pass()
        chosen = _chosen(state)
        limits = chosen.limits
        for s, t, most in chosen.holdings.attacks(state, decision.player, limits):
            least = limits.least_dice(state, t)
            yield from (Attack(s, t, n) for n in range(least, most + 1))
    elif kind is Kinds.DEFEND:
        yield from (Defend(n) for n in range(decision.maximum, 0, -1))
    elif kind is Kinds.OCCUPY:
        yield from (Occupy(n) for n in range(decision.minimum, decision.maximum + 1))
    elif kind is Kinds.FORTIFY:
        yield Pass()
        into = decision.target
        for s, t, most in fortifies(state, decision.player, into):
            if into >= 0 and s not in decision.territories:
                continue
            least = 1 if every_amount else most
            yield from (Fortify(s, t, n) for n in range(least, most + 1))
