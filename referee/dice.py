"""Battle dice: one roll of the attacker's against the defender's dice."""

from __future__ import annotations

import random
from itertools import product


def compare(
    attack: list[int] | tuple[int, ...], defend: list[int] | tuple[int, ...]
) -> tuple[int, int]:
    """Armies (attacker, defender) lose for dice already sorted high to low.

    Ties go to the defender."""
    attacker_losses = defender_losses = 0
    for a, d in zip(attack, defend, strict=False):
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses


def roll(rng: random.Random, count: int) -> list[int]:
    """``count`` six-sided dice from a Mersenne Twister, sorted high to low.

    Only format-1 records (:class:`~hegemon.referee.chance.LegacyChance`) and simulations roll
    this way; a game's own dice come from :meth:`~hegemon.referee.chance.KeyedStream.roll`.
    """
    r = rng.random
    dice = [int(r() * 6) + 1 for _ in range(count)]
    dice.sort(reverse=True)
    return dice


def outcome_counts(attack_dice: int, defend_dice: int) -> dict[tuple[int, int], int]:
    """Every one of the 6^(a+d) rolls, counted by (attacker losses, defender losses)."""
    counts: dict[tuple[int, int], int] = {}
    for faces in product(range(1, 7), repeat=attack_dice + defend_dice):
        a = sorted(faces[:attack_dice], reverse=True)
        d = sorted(faces[attack_dice:], reverse=True)
        key = compare(a, d)
        counts[key] = counts.get(key, 0) + 1
    return counts
