"""Legal options of the pending decision, for anything shaped like a game or a view.

Each function takes a :class:`Position` (a :class:`hegemon.referee.game.Game` or a
:class:`hegemon.referee.view.View`: both are one) and a seat, so a bot lists its options from
its view exactly as the referee checks them. :func:`actions` enumerates the answers to a
decision in the canonical order :meth:`hegemon.referee.game.Game.legal_actions` documents.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, cast

from . import cards as cardlib
from . import formulas, master
from . import teams as teamlib
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
from .formulas import MAX_ATTACK_DICE, attack_dice, movable_armies
from .position import Position


class _Allied(Protocol):
    def allies(self, player: int) -> list[int]: ...


def allies(state: Position, seat: int) -> list[int]:
    """The neutral colours whose armies ``seat`` also commands (two-player-2004-active: its
    allies), else none."""
    if state.rules.two_player != "2004_active":
        return []
    return cast(_Allied, state).allies(seat)


def iter_attacks(state: Position, seat: int) -> Iterator[tuple[int, int, int]]:
    """Every (source, target, most dice) attack ``seat`` may make now, lazily: from its own
    territories, and (active neutrals) from its allies' onto any other colour but its own."""
    rules = state.rules
    if teamlib.on(rules):
        return teamlib.iter_attacks(state, seat)
    strict = rules.attacker_dice != "any" or rules.eliminate_from_round > 1  # Risiko! Master
    if strict or rules.two_player == "2004_active":
        return _edition_attacks(state, seat, strict)
    return _own_attacks(state.owner, state.armies, state.board.neighbours, seat)


def _own_attacks(
    owner: Sequence[int], armies: Sequence[int], neighbours: Sequence[Sequence[int]], seat: int
) -> Iterator[tuple[int, int, int]]:
    """The attacks of the classic rules: from each own territory of 2+ armies to each enemy
    neighbour (the hot path of every game, so no edition test inside the loop)."""
    for t, colour in enumerate(owner):
        if colour == seat:
            most = armies[t] - 1
            if most > 0:
                most = min(most, MAX_ATTACK_DICE)
                for n in neighbours[t]:
                    if owner[n] != seat:
                        yield (t, n, most)


def _edition_attacks(state: Position, seat: int, strict: bool) -> Iterator[tuple[int, int, int]]:
    """The attacks with allies' armies (active neutrals) or Risiko! Master's limits."""
    owner, armies, neighbours = state.owner, state.armies, state.board.neighbours
    commanded = {seat, *allies(state, seat)}
    for t in range(len(owner)):
        colour = owner[t]
        if colour in commanded and armies[t] > 1:
            most = attack_dice(armies[t])
            for n in neighbours[t]:
                if owner[n] != seat and owner[n] != colour:
                    if strict and (
                        master.least_attack_dice(state, n) > most or master.protected(state, n)
                    ):
                        continue
                    yield (t, n, most)


def attacks(state: Position, seat: int) -> list[tuple[int, int, int]]:
    """Every (source, target, most dice) attack ``seat`` may make now."""
    return list(iter_attacks(state, seat))


def own_territories(state: Position, seat: int) -> list[int]:
    """The territories ``seat`` holds (ascending); a team game: where it has armies."""
    if teamlib.on(state.rules):
        return teamlib.own_territories(state, seat)
    return [t for t, p in enumerate(state.owner) if p == seat]


def border_territories(state: Position, seat: int) -> list[int]:
    """Own territories with at least one enemy neighbour (a team game: where ``seat`` has
    armies, bordering the other team)."""
    if teamlib.on(state.rules):
        return teamlib.border_territories(state, seat)
    owner, neighbours = state.owner, state.board.neighbours
    return [
        t for t, p in enumerate(owner) if p == seat and any(owner[n] != seat for n in neighbours[t])
    ]


def regions(state: Position, seat: int) -> list[list[int]]:
    """Own territories grouped into chains joined by own borders (connected components)."""
    owner, neighbours = state.owner, state.board.neighbours
    seen: set[int] = set()
    groups = []
    for start, p in enumerate(owner):
        if p != seat or start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            t = stack.pop()
            group.append(t)
            for n in neighbours[t]:
                if owner[n] == seat and n not in seen:
                    seen.add(n)
                    stack.append(n)
        groups.append(sorted(group))
    return groups


def fortifies(
    state: Position, seat: int, into: int = -1, used: Sequence[int] = ()
) -> Iterator[tuple[int, int, int]]:
    """Every (source, target, most armies) fortify move under the rule set's ``fortify`` and
    ``garrison`` options; ``into``: only moves into that territory, none from ``used``
    (the rest of a many-into-one strategic move)."""
    if teamlib.on(state.rules):
        yield from teamlib.fortifies(state, seat, state.rules.fortify == "adjacent")
        return
    owner, armies, neighbours = state.owner, state.armies, state.board.neighbours
    if state.rules.garrison > 1 or into >= 0:
        for t in range(len(owner)):
            if owner[t] == seat and t not in used:
                most = armies[t] - master.garrison(state, t, seat)
                if most > 0:
                    for n in neighbours[t]:
                        if owner[n] == seat and (into < 0 or n == into):
                            yield (t, n, most)
        return
    if state.rules.fortify in ("adjacent", "many_into_one"):
        for t in range(len(owner)):
            if owner[t] == seat and armies[t] > 1:
                for n in neighbours[t]:
                    if owner[n] == seat:
                        yield (t, n, movable_armies(armies[t]))
        return
    for group in regions(state, seat):
        for t in group:
            if armies[t] > 1:
                for n in group:
                    if n != t:
                        yield (t, n, movable_armies(armies[t]))


def trades(hand: Iterable[int], board: Board, card_values: str = "") -> list[tuple[int, int, int]]:
    """Every set in ``hand`` (card ids) under the rule set's ``card_values`` option (Risiko!
    Master knows fewer sets)."""
    return cardlib.find_sets(list(hand), board.card_insignia, card_values)


def defence_dice(state: Position, territory: int) -> int:
    """Most dice the defender of ``territory`` may roll under the rule set."""
    if teamlib.on(state.rules):
        return teamlib.defence_dice(state, state.rules, territory)
    rules = state.rules
    dice = formulas.defence_dice(state.armies[territory], rules.defender_two_dice_from)
    if rules.defender_most_dice > formulas.MAX_DEFENCE_DICE:  # Risiko!: up to 3, one per army
        return min(rules.defender_most_dice, state.armies[territory])
    return dice


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
        for s, t, most in iter_attacks(state, decision.player):
            least = master.least_attack_dice(state, t)
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
