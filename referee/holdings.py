"""The board rules of the classic game (docs/rules.md §1): how armies sit on the board and what
limits an attack. Stateless objects, one of each chosen once per rule set
(:func:`hegemon.referee.editions.parts.board_rules`): an edition that changes how the board
works subclasses them beside its part (shared stacks, allies' armies, Risiko! Master's limits).

Every method reads a :class:`hegemon.referee.position.Position` — a game or a seat's view — so a
bot lists its options from its view exactly as the referee checks them; the methods that change
armies take the game.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from .formulas import MAX_ATTACK_DICE, MAX_DEFENCE_DICE, attack_dice, defence_dice, movable_armies
from .position import Position

if TYPE_CHECKING:
    from .game import Game

try:  # mypyc reads the decorator as it compiles this module; at run time it changes nothing
    from mypy_extensions import mypyc_attr
except ImportError:  # an installation without mypy (and so without a compiled engine)
    _C = TypeVar("_C")

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_C], _C]:
        return lambda cls: cls


#: A view's stacks: (territory, seat, armies) of every seat but the controller on a territory.
Stacks = tuple[tuple[int, int, int], ...]


@mypyc_attr(allow_interpreted_subclasses=True)  # an edition's, in its own (Python) module
class AttackLimits:
    """What limits an attack and a move beyond the classic rules: none.

    ``strict``: whether an attack may be refused for its dice or its target (the attack lists
    then check :meth:`least_dice` and :meth:`protected`). An edition's subclass passes its
    facts to this constructor (a compiled class keeps them per instance, not per class)."""

    def __init__(self, strict: bool = False) -> None:
        self.strict = strict

    def least_dice(self, state: Position, target: int) -> int:
        """Fewest dice an attack on ``target`` may roll."""
        return 1

    def protected(self, state: Position, target: int) -> bool:
        """Whether no one may attack ``target`` now."""
        return False

    def garrison(self, state: Position, territory: int, seat: int) -> int:
        """Armies a move out of ``territory`` must leave there."""
        return 1

    def why_protected(self, state: Position, target: int) -> str:
        """Why a :meth:`protected` ``target`` may not be attacked (after its name)."""
        return "may not be attacked now"


@mypyc_attr(allow_interpreted_subclasses=True)
class Holdings:
    """Where a seat's armies are: each territory holds one seat's armies (``owner``,
    ``armies``), and a seat commands only its own.

    ``shared``: whether several seats' armies may share a territory (then the methods below
    that change armies, and those that read a seat's own armies, are the edition's);
    ``allied``: whether a seat may command other seats' armies (:meth:`commanded`);
    ``elimination_ends``: on a shared board, the game's end reason when a battle eliminates a
    seat ("": none). An edition's subclass passes them to this constructor."""

    def __init__(
        self, shared: bool = False, allied: bool = False, elimination_ends: str = ""
    ) -> None:
        self.shared = shared
        self.allied = allied
        self.elimination_ends = elimination_ends

    # ------------------------------------------------------------------ reading a position
    def commanded(self, state: Position, seat: int) -> Sequence[int]:
        """The seats whose armies ``seat`` moves: its own."""
        return (seat,)

    def own_territories(self, state: Position, seat: int) -> list[int]:
        """The territories where ``seat`` may place (ascending)."""
        return [t for t, p in enumerate(state.owner) if p == seat]

    def border_territories(self, state: Position, seat: int) -> list[int]:
        """Own territories with at least one enemy neighbour."""
        owner, neighbours = state.owner, state.board.neighbours
        return [
            t
            for t, p in enumerate(owner)
            if p == seat and any(owner[n] != seat for n in neighbours[t])
        ]

    def attacks(
        self, state: Position, seat: int, limits: AttackLimits
    ) -> Iterator[tuple[int, int, int]]:
        """Every (source, target, most dice) attack ``seat`` may make now, lazily."""
        if limits.strict or self.allied:
            return self._limited_attacks(state, seat, limits)
        return _own_attacks(state.owner, state.armies, state.board.neighbours, seat)

    def _limited_attacks(
        self, state: Position, seat: int, limits: AttackLimits
    ) -> Iterator[tuple[int, int, int]]:
        """The attacks from every commanded colour's armies onto any other colour, within
        ``limits``."""
        owner, armies, neighbours = state.owner, state.armies, state.board.neighbours
        commanded = set(self.commanded(state, seat))
        strict = limits.strict
        for t in range(len(owner)):
            colour = owner[t]
            if colour in commanded and armies[t] > 1:
                most = attack_dice(armies[t])
                for n in neighbours[t]:
                    if owner[n] != seat and owner[n] != colour:
                        if strict and (
                            limits.least_dice(state, n) > most or limits.protected(state, n)
                        ):
                            continue
                        yield (t, n, most)

    def fortifies(
        self,
        state: Position,
        seat: int,
        limits: AttackLimits,
        into: int = -1,
        used: Sequence[int] = (),
    ) -> Iterator[tuple[int, int, int]]:
        """Every (source, target, most armies) fortify move under the rule set's ``fortify``
        and ``garrison`` options; ``into``: only moves into that territory, none from ``used``
        (the rest of a many-into-one strategic move)."""
        owner, armies, neighbours = state.owner, state.armies, state.board.neighbours
        rules = state.rules
        if rules.garrison > 1 or into >= 0:
            for t in range(len(owner)):
                if owner[t] == seat and t not in used:
                    most = armies[t] - limits.garrison(state, t, seat)
                    if most > 0:
                        for n in neighbours[t]:
                            if owner[n] == seat and (into < 0 or n == into):
                                yield (t, n, most)
            return
        if rules.fortify in ("adjacent", "many_into_one"):
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

    def can_fortify(self, state: Position, seat: int, limits: AttackLimits) -> bool:
        """Whether ``seat`` has a fortify move."""
        if state.rules.garrison > 1:
            return any(True for _ in self.fortifies(state, seat, limits))
        owner, armies, neighbours = state.owner, state.armies, state.board.neighbours
        for t in range(len(owner)):
            if owner[t] == seat and armies[t] > 1:
                for n in neighbours[t]:
                    if owner[n] == seat:
                        return True
        return False

    def defence_dice(self, state: Position, territory: int) -> int:
        """Most dice the defender of ``territory`` may roll under the rule set."""
        rules = state.rules
        dice = defence_dice(state.armies[territory], rules.defender_two_dice_from)
        if rules.defender_most_dice > MAX_DEFENCE_DICE:  # Risiko!: up to 3, one per army
            return min(rules.defender_most_dice, state.armies[territory])
        return dice

    def own_armies(self, game: Game, seat: int, territory: int) -> int:
        """The armies ``seat`` has on ``territory`` (its holder's)."""
        return game.armies[territory]

    # ------------------------------------------------------------------ a shared board
    # The classic board never calls these (``shared`` is False); an edition sharing territories
    # overrides them all.
    def add(self, game: Game, seat: int, territory: int, n: int) -> None:
        """Give ``seat`` ``n`` more armies on ``territory`` (fewer if negative)."""
        game.armies[territory] += n

    def move(self, game: Game, seat: int, src: int, dst: int, n: int) -> None:
        """Move ``n`` of ``seat``'s armies from ``src`` to ``dst``."""
        self.add(game, seat, src, -n)
        self.add(game, seat, dst, n)

    def lose(self, game: Game, territory: int, losses: int) -> list[int]:
        """Take ``losses`` armies off a defended ``territory``; the seats that lost armies."""
        game.armies[territory] -= losses
        return [game.owner[territory]]

    def place_error(self, game: Game, seat: int, placements: Sequence[tuple[int, int]]) -> str:
        """Why a placement is refused beyond the classic checks, or ""."""
        return ""

    def attack_error(self, game: Game, seat: int, src: int, dst: int) -> tuple[int, str]:
        """(the most dice, "") for an attack the shared board allows, else (0, why not)."""
        return attack_dice(game.armies[src]), ""

    def fortify_error(self, game: Game, seat: int, src: int, dst: int) -> tuple[int, str]:
        """(the most armies, "") for a fortify move the shared board allows, else (0, why
        not)."""
        return movable_armies(game.armies[src]), ""

    def public_board(self, game: Game) -> tuple[Sequence[int], Sequence[int], Stacks]:
        """(owner, armies, stacks) as a view shows them."""
        return game.owner, game.armies, ()

    def seat_totals(self, game: Game) -> tuple[list[int], list[int]]:
        """(territories held, armies on the board) per seat (neutral colours' seats too)."""
        totals = [0] * len(game.players)
        owner, armies = game.owner, game.armies
        for t in range(len(owner)):  # (by index: compiled, a zip's iteration cost twice as much)
            p = owner[t]
            if p >= 0:
                totals[p] += armies[t]
        return list(game.territory_count), totals

    def hand(self, game: Game, seat: int) -> tuple[int, ...]:
        """The cards ``seat``'s view shows as its hand: its own."""
        return tuple(game.players[seat].cards)


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


def connected(state: Position, seat: int, src: int, dst: int) -> bool:
    """Whether a chain of ``seat``'s territories joins ``src`` to ``dst``."""
    owner, neighbours = state.owner, state.board.neighbours
    seen = {src}
    queue = deque((src,))
    while queue:
        for n in neighbours[queue.popleft()]:
            if n == dst:
                return True
            if n not in seen and owner[n] == seat:
                seen.add(n)
                queue.append(n)
    return False
