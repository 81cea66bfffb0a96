"""Risiko! Master rules (seed 003; docs/rules.md §7): the Base, Expert and Master levels.

Pure functions on a game or a view (:class:`hegemon.referee.position.Position`). Each reads one
rule-set option, so under the classic presets each one is the identity (or a no-op). The part
:class:`MasterPart` plays the production centres, the obligation to attack and the points
victory in a game; :class:`MasterLimits` are the board rules limiting an attack and a move
(least dice, protected last territories, garrisons), which the engine asks as ``game.limits``.

Its set-up, reinforcement and ranking formulas read only rule-set options, and live with the
classic ones in :mod:`hegemon.referee.formulas` (``starting_armies``, ``claim_armies``,
``claimable``, ``minimum_reinforcements``, ``score``).

>>> victory_threshold(175)
88
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from ..actions import BuildCentre
from ..board import Board
from ..cards import master_value
from ..decisions import Decision, Kind
from ..errors import IllegalAction
from ..events import CentreBuilt
from ..formulas import continents_held
from ..holdings import AttackLimits
from ..position import Position
from ..rules import RuleSet
from .contract import Edition, Handler

if TYPE_CHECKING:
    from ..game import Game

CENTRE_COST = 3  # seed 003: "Un Centro di Produzione costa come 3 carri"
MAX_CENTRES = 15  # seed 003: "15 segnalini semisferici ... le 'Coperture'"


# ------------------------------------------------------------------------ set-up
def setup_problem(rules: RuleSet, board: Board, players: int) -> str:
    """Why this game cannot start (empty if it can): seed 003 wants a territory count that is a
    multiple of the player count, so that everyone claims as many."""
    if rules.setup == "quadrants" and board.size % players:
        return (
            f"the map has {board.size} territories, not a multiple of {players} players "
            "(seed 003); compose another with `hegemon map compose --players N`"
        )
    return ""


# ------------------------------------------------------------------------ reinforcements
def centre_armies(rules: RuleSet, owner: Sequence[int], centres: Sequence[int], seat: int) -> int:
    """hegemon's rule for what a production centre produces (the rulebook does not say): each
    centre adds ``centre_production`` armies to its owner's reinforcements."""
    if not rules.centre_production:
        return 0
    return rules.centre_production * sum(1 for t in centres if owner[t] == seat)


def set_value(insignia: Sequence[str]) -> int:
    """Seed 003 "TRIS DI CARTE": three equal figures 8, three different 10, a wild card plus
    two equal figures 12 (:func:`hegemon.referee.cards.master_value`); no other three cards are
    a set (:func:`hegemon.referee.cards.is_set`)."""
    return master_value(insignia)


# ------------------------------------------------------------------------ combat
def least_attack_dice(state: Position, target: int) -> int:
    """Fewest dice an attack on ``target`` may roll: with ``attacker_dice=at_least_defender``
    (Expert: "L'attaccante non può mai effettuare un attacco lanciando un numero di dadi
    inferiore a quello del difensore") as many as the defender will roll, else 1."""
    if state.rules.attacker_dice != "at_least_defender":
        return 1
    return min(state.rules.defender_most_dice, state.armies[target])


def protected(state: Position, target: int) -> bool:
    """``target`` is its owner's last territory and no one may be eliminated yet (Expert: "A
    partire dal quinto turno di gioco, è possibile eliminare un avversario")."""
    start = state.rules.eliminate_from_round
    if start <= 1 or state.round >= start:
        return False
    seat = state.owner[target]
    return sum(1 for p in state.owner if p == seat) == 1


def garrison(state: Position, territory: int, seat: int) -> int:
    """Armies a move must leave on ``territory``: the ``garrison`` option's (Expert: 3) when it
    borders an enemy, else 1 (Expert "GUARNIGIONE MINIMA")."""
    need = state.rules.garrison
    if need <= 1:
        return 1
    owner = state.owner
    if any(owner[n] != seat for n in state.board.neighbours[territory]):
        return need
    return 1


def must_attack(rules: RuleSet, placed: int, attacked: bool) -> bool:
    """Expert "OBBLIGO DI ATTACCO": "Chi ha messo in campo almeno 3 armate è obbligato ad
    attaccare almeno una volta nel turno in corso"."""
    return bool(rules.must_attack_after) and placed >= rules.must_attack_after and not attacked


class MasterLimits(AttackLimits):
    """Risiko! Master Expert's limits on an attack and a move (chosen for a rule set whose
    ``attacker_dice``, ``eliminate_from_round`` or ``garrison`` option asks for them)."""

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(strict=rules.attacker_dice != "any" or rules.eliminate_from_round > 1)

    def least_dice(self, state: Position, target: int) -> int:
        return least_attack_dice(state, target)

    def protected(self, state: Position, target: int) -> bool:
        return protected(state, target)

    def garrison(self, state: Position, territory: int, seat: int) -> int:
        return garrison(state, territory, seat)

    def why_protected(self, state: Position, target: int) -> str:
        return (
            "is its owner's last territory; no one may be eliminated "
            f"before round {state.rules.eliminate_from_round}"
        )


def limits_on(rules: RuleSet) -> bool:
    """Whether ``rules`` limits attacks or moves beyond the classic rules."""
    return rules.attacker_dice != "any" or rules.eliminate_from_round > 1 or rules.garrison > 1


# ------------------------------------------------------------------------ victory
def victory_threshold(total: int) -> int:
    """Expert "VITTORIA": half the scenario's value plus one, rounded down (175 -> 88)."""
    return total // 2 + 1


def has_won(board: Board, owner: Sequence[int], seat: int, rules: RuleSet) -> bool:
    """``seat`` meets the points victory of ``rules.victory`` with ``victory_quadrants`` whole
    quadrants: Base "almeno la metà dei territori", Expert the territory values."""
    if rules.victory == "conquest":
        return False
    held = [t for t, p in enumerate(owner) if p == seat]
    if rules.victory == "half_territories":
        enough = 2 * len(held) >= board.size
    else:
        values = sum(board.territories[t].value for t in held)
        enough = values >= victory_threshold(board.total_value())
    return enough and len(continents_held(board, owner, seat)) >= rules.victory_quadrants


# ------------------------------------------------------------------------ centres
def centre_sites(
    rules: RuleSet, owner: Sequence[int], centres: Sequence[int], reserve: int, seat: int
) -> tuple[int, ...]:
    """Own territories where ``seat`` may build a centre now, with ``reserve`` armies to place
    (Master: "su qualsiasi territorio ancora privo di un Centro di Produzione"; at most 15 in
    the game), () when it may not."""
    if not rules.centre_production or len(centres) >= MAX_CENTRES or reserve < CENTRE_COST:
        return ()
    built = set(centres)
    return tuple(t for t, p in enumerate(owner) if p == seat and t not in built)


# ------------------------------------------------------------------------ the part in a game
@dataclass(slots=True)
class MasterPart(Edition):
    """Risiko! Master in play: the production centres, this turn's placing and attacking (the
    obligation to attack), and whether a points victory is to be checked."""

    centres: list[int] = field(default_factory=list)
    placed_this_turn: int = 0
    attacked_this_turn: bool = False
    points_due: bool = False  # ownership may have changed: a points victory to check

    @classmethod
    def create(cls, game: Game) -> MasterPart | None:
        rules = game.rules
        on = rules.centre_production or rules.must_attack_after or rules.victory != "conquest"
        return cls() if on else None

    @classmethod
    def limits_for(cls, rules: RuleSet) -> AttackLimits | None:
        return MasterLimits(rules) if limits_on(rules) else None

    def copy(self) -> MasterPart:
        return MasterPart(
            list(self.centres), self.placed_this_turn, self.attacked_this_turn, self.points_due
        )

    def turn_started(self, game: Game) -> None:
        self.placed_this_turn = 0
        self.attacked_this_turn = False
        self.points_due = game.rules.victory != "conquest"

    def reinforcements(self, game: Game, player: int, due: tuple[int, int]) -> tuple[int, int]:
        if game.rules.reinforcement_minimum == "three":
            return due
        return due[0] + centre_armies(game.rules, game.owner, self.centres, player), due[1]

    def before_place(self, game: Game) -> bool:
        """Offer a production centre while the reserve pays for one."""
        sites = centre_sites(game.rules, game.owner, self.centres, game.reserve, game.current)
        if not sites:
            return False
        game.ask(Decision(Kind.BUILD_CENTRE, game.current, armies=CENTRE_COST, territories=sites))
        return True

    def on_build_centre(self, game: Game, action: BuildCentre, dry: bool) -> None:
        d = game.expect(Kind.BUILD_CENTRE, "build_centre")
        t = game.territory(action.territory, "build_centre:")
        if t not in d.territories:
            raise IllegalAction(
                f"build_centre: {game.board.name_of(t)} is not yours or already has a centre"
            )
        if dry:
            return
        self.centres.append(t)
        game.reserve -= d.armies
        game.emit(CentreBuilt(d.player, t, d.armies))
        game.ask_place()

    handlers: ClassVar[dict[type, Handler]] = {BuildCentre: on_build_centre}
    passes: ClassVar[frozenset[Kind]] = frozenset({Kind.BUILD_CENTRE})

    def passed(self, game: Game, kind: Kind) -> None:
        game.ask_place(build=False)

    def after_place(self, game: Game, placed: int) -> bool:
        self.placed_this_turn += placed
        return False

    def attack_forced(self, game: Game) -> bool:
        return must_attack(game.rules, self.placed_this_turn, self.attacked_this_turn)

    def forced_why(self, game: Game) -> str:
        return (
            f"pass is not allowed now: you placed {self.placed_this_turn} armies, so you "
            "must attack at least once this turn (Risiko! Master Expert)"
        )

    def attack_starts(self, game: Game, source: int, target: int) -> bool:
        self.attacked_this_turn = True
        return True

    def after_conquest(self, game: Game, attacker: int, defender: int, target: int) -> None:
        self.points_due = game.rules.victory != "conquest"

    def check_end(self, game: Game) -> None:
        """The player to move holds enough points and quadrants (checked once the armies of
        a conquest have moved in)."""
        seat = game.turn_holder()
        if not self.points_due or seat < 0:
            return
        self.points_due = False
        if has_won(game.board, game.owner, seat, game.rules):
            game.finish("points", winner=seat)
