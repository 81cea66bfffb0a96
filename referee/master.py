"""Risiko! Master rules (seed 003; docs/rules.md §7): the Base, Expert and Master levels.

Pure functions on a game or a view (:class:`hegemon.referee.position.Position`), called from small
hooks in :mod:`hegemon.referee.game` and :mod:`hegemon.referee.legal`. Each reads one rule-set
option, so under the classic presets each one is the identity (or a no-op).

>>> territory_reinforcements("none", 8), territory_reinforcements("none", 2)
(2, 0)
>>> territory_reinforcements("expert", 2), territory_reinforcements("expert", 12)
(2, 4)
>>> victory_threshold(175)
88
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board
from .formulas import MIN_REINFORCEMENT, TERRITORIES_PER_ARMY, continents_held
from .position import Position
from .rules import RuleSet

CLAIM_ARMIES = 2  # seed 003: "occupa un territorio a sua scelta con DUE carri"
CENTRE_COST = 3  # seed 003: "Un Centro di Produzione costa come 3 carri"
MAX_CENTRES = 15  # seed 003: "15 segnalini semisferici ... le 'Coperture'"
SET_EQUAL, SET_DIFFERENT, SET_WILD = 8, 10, 12  # seed 003 "TRIS DI CARTE"


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


def starting_armies(rules: RuleSet, board: Board, players: int) -> int:
    """Set-up armies per player, 0 to use the classic table: 2 per territory claimed."""
    return CLAIM_ARMIES * board.size // players if rules.setup == "quadrants" else 0


def claim_armies(rules: RuleSet) -> int:
    return CLAIM_ARMIES if rules.setup == "quadrants" else 1


def claimable(board: Board, owner: Sequence[int], last_claim: int) -> tuple[int, ...]:
    """The territories the next claim may take: the free ones of the last claim's quadrant while
    it has any, else every free territory (seed 003 "OCCUPAZIONE INIZIALE": "purchè facente
    parte dello stesso Quadrante ... quindi, si può passare ad un altro Quadrante")."""
    if last_claim >= 0:
        quadrant = board.continents[board.territories[last_claim].continent]
        free = tuple(t for t in quadrant.territories if owner[t] < 0)
        if free:
            return free
    return tuple(t for t in range(board.size) if owner[t] < 0)


# ------------------------------------------------------------------------ reinforcements
def territory_reinforcements(minimum: str, territories: int) -> int:
    """Armies due for ``territories`` under the ``reinforcement_minimum`` option. Base: a third,
    none under 3; Expert: at least 3 while holding 3 or more, else 2 with 2 and 1 with 1."""
    third = territories // TERRITORIES_PER_ARMY
    if minimum == "none":
        return third
    if minimum == "expert":
        return max(MIN_REINFORCEMENT, third) if territories >= 3 else territories
    return max(MIN_REINFORCEMENT, third)


def centre_armies(rules: RuleSet, owner: Sequence[int], centres: Sequence[int], seat: int) -> int:
    """hegemon's rule for what a production centre produces (the rulebook does not say): each
    centre adds ``centre_production`` armies to its owner's reinforcements."""
    if not rules.centre_production:
        return 0
    return rules.centre_production * sum(1 for t in centres if owner[t] == seat)


def set_value(insignia: Sequence[str]) -> int:
    """Seed 003 "TRIS DI CARTE": three equal figures 8, three different 10, a wild card plus
    two equal figures 12. A wild card with two different figures completes three different
    (10); two wild cards with any figure count as a wild card plus two equal (12)."""
    plain = [i for i in insignia if i != "wild"]
    if len(plain) == 3:
        return SET_EQUAL if len(set(plain)) == 1 else SET_DIFFERENT
    if len(set(plain)) == 1:
        return SET_WILD
    return SET_DIFFERENT


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


# ------------------------------------------------------------------------ victory
def victory_threshold(total: int) -> int:
    """Expert "VITTORIA": half the scenario's value plus one, rounded down (175 -> 88)."""
    return total // 2 + 1


def score(board: Board, owner: Sequence[int], seat: int, victory: str) -> int:
    """``seat``'s standing in the points race: its territory values under ``victory=values``,
    else its territory count (it ranks the players when a game ends without a winner)."""
    held = [t for t, p in enumerate(owner) if p == seat]
    if victory == "values":
        return sum(board.territories[t].value for t in held)
    return len(held)


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
