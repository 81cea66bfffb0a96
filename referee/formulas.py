"""The rule formulas (docs/rules.md §1), each in one copy, on plain values.

The engine (:mod:`hegemon.referee.game`), the legal options (:mod:`hegemon.referee.legal`), the
SDK helpers and the battle odds all read these, so a bot's arithmetic is the referee's.
Card set values live with the cards (:func:`hegemon.referee.cards.set_value`).

>>> territory_reinforcements(11), territory_reinforcements(12)
(3, 4)
>>> attack_dice(1), attack_dice(3), attack_dice(9)
(0, 2, 3)
>>> defence_dice(1), defence_dice(2), defence_dice(2, two_dice_from=3)
(1, 2, 1)
>>> minimum_reinforcements("none", 8), minimum_reinforcements("none", 2)
(2, 0)
>>> minimum_reinforcements("expert", 2), minimum_reinforcements("expert", 12)
(2, 4)
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board

#: Set-up armies per player by player count (the classic deal and claim)
STARTING_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}
CLAIM_ARMIES = 2  # seed 003: "occupa un territorio a sua scelta con DUE carri"
MIN_REINFORCEMENT = 3  # armies due a turn however few territories a player holds
TERRITORIES_PER_ARMY = 3  # one army a turn for every this many territories held
MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2


def territory_reinforcements(territories: int) -> int:
    """Armies due at the start of a turn for holding ``territories`` territories."""
    return max(MIN_REINFORCEMENT, territories // TERRITORIES_PER_ARMY)


def minimum_reinforcements(minimum: str, territories: int) -> int:
    """Armies due for ``territories`` under the ``reinforcement_minimum`` option (Risiko!
    Master). ``none``: a third, none under 3; ``expert``: at least 3 while holding 3 or more,
    else 2 with 2 and 1 with 1; ``three``: :func:`territory_reinforcements`."""
    third = territories // TERRITORIES_PER_ARMY
    if minimum == "none":
        return third
    if minimum == "expert":
        return max(MIN_REINFORCEMENT, third) if territories >= 3 else territories
    return max(MIN_REINFORCEMENT, third)


def score(board: Board, owner: Sequence[int], seat: int, victory: str) -> int:
    """``seat``'s standing in the points race: its territory values under ``victory=values``,
    else its territory count (it ranks the players when a game ends without a winner)."""
    held = [t for t, p in enumerate(owner) if p == seat]
    if victory == "values":
        return sum(board.territories[t].value for t in held)
    return len(held)


def continents_held(board: Board, owner: Sequence[int], seat: int) -> list[int]:
    """The continents (indices, ascending) whose every territory ``seat`` holds."""
    held_by_seat = seat.__eq__  # (the owners compared in C: this runs every turn)
    return [
        c.index
        for c in board.continents
        if all(map(held_by_seat, map(owner.__getitem__, c.territories)))
    ]


def continent_reinforcements(board: Board, owner: Sequence[int], seat: int) -> int:
    """Armies due at the start of a turn for the continents ``seat`` holds whole."""
    continents = board.continents
    return sum(continents[c].bonus for c in continents_held(board, owner, seat))


def attack_dice(armies: int) -> int:
    """The most dice an attacker may roll from a territory with ``armies`` armies (0: none, as
    one army must stay behind)."""
    return max(0, min(MAX_ATTACK_DICE, armies - 1))


def defence_dice(armies: int, two_dice_from: int = 2) -> int:
    """The most dice a defender with ``armies`` armies may roll; ``two_dice_from`` is the rule
    set's ``defender_two_dice_from``."""
    return MAX_DEFENCE_DICE if armies >= two_dice_from else 1


def movable_armies(armies: int) -> int:
    """The most armies that may leave a territory holding ``armies`` (one must stay)."""
    return armies - 1


# ------------------------------------------------------------------ set-up, by the options
def starting_armies(setup: str, territories: int, players: int) -> int:
    """Set-up armies per player under the ``setup`` option: 2 per territory claimed when
    claiming by quadrants (Risiko! Master), else the classic table."""
    if setup == "quadrants":
        return CLAIM_ARMIES * territories // players
    return STARTING_ARMIES[players]


def claim_armies(setup: str) -> int:
    """Armies a set-up claim puts on its territory under the ``setup`` option: 2 when
    claiming by quadrants."""
    return CLAIM_ARMIES if setup == "quadrants" else 1


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
