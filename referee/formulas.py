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
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board

MIN_REINFORCEMENT = 3  # armies due a turn however few territories a player holds
TERRITORIES_PER_ARMY = 3  # one army a turn for every this many territories held
MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2


def territory_reinforcements(territories: int) -> int:
    """Armies due at the start of a turn for holding ``territories`` territories."""
    return max(MIN_REINFORCEMENT, territories // TERRITORIES_PER_ARMY)


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
