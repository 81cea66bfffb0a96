"""Card sets and their values (docs/rules.md §1 "Trading cards")."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from .board import INSIGNIA, WILD

ESCALATING_START = (4, 6, 8, 10, 12, 15)
GOLDEN_CAVALRY = (4, 6, 8, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60)
INSIGNIA_VALUES = {"infantry": 4, "cavalry": 6, "artillery": 8}
ONE_OF_EACH = 10
MASTER_EQUAL, MASTER_DIFFERENT, MASTER_WILD = 8, 10, 12  # seed 003 "TRIS DI CARTE"


def is_set(insignia: Sequence[str], card_values: str = "") -> bool:
    """Three cards of one insignia, or one of each; a wild card stands for any insignia.

    Risiko! Master (``card_values="master"``) knows only the three sets seed 003 prints: "Tre
    figure uguali", "Tre figure diverse", "Jolly più due figure uguali" — a wild card with two
    different figures, or two wild cards, are no set."""
    if len(insignia) != 3:
        return False
    plain = [i for i in insignia if i != WILD]
    distinct = len(set(plain))
    if card_values == "master":
        return distinct in {1, 3} if len(plain) == 3 else len(plain) == 2 and distinct == 1
    return len(plain) < 3 or distinct in {1, 3}


def master_value(insignia: Sequence[str]) -> int:
    """A Risiko! Master set's armies (seed 003): three equal figures 8, three different 10, a
    wild card with two equal figures 12 (the cards' extra armies come on top)."""
    plain = [i for i in insignia if i != WILD]
    if len(plain) < 3:
        return MASTER_WILD
    return MASTER_EQUAL if len(set(plain)) == 1 else MASTER_DIFFERENT


def escalating_value(nth: int) -> int:
    """Value of the ``nth`` set (0-based) traded by anyone: 4, 6, 8, 10, 12, 15, 20, 25, ..."""
    if nth < len(ESCALATING_START):
        return ESCALATING_START[nth]
    return 15 + 5 * (nth - len(ESCALATING_START) + 1)


def golden_cavalry_value(nth: int) -> int:
    """The golden cavalry track (docs/map-data.md §3.1): 4, 6, 8, 10, 15, ..., 60, then 60 again."""
    return GOLDEN_CAVALRY[min(nth, len(GOLDEN_CAVALRY) - 1)]


def insignia_value(insignia: Sequence[str]) -> int:
    """Fixed values for a valid set: 3 infantry 4, 3 cavalry 6, 3 artillery 8, one of each 10.
    A wild card is read as whatever gives the set its highest value."""
    plain = [i for i in insignia if i != WILD]
    if len(plain) >= 2 and len(set(plain)) == 1:
        return INSIGNIA_VALUES[plain[0]]
    return ONE_OF_EACH


def set_value(card_values: str, nth: int, insignia: Sequence[str]) -> int:
    """Armies for trading a set under the ``card_values`` option as the ``nth`` set of the game."""
    if card_values == "escalating":
        return escalating_value(nth)
    if card_values == "golden_cavalry":
        return golden_cavalry_value(nth)
    if card_values == "master":
        return master_value(insignia)
    return insignia_value(insignia)


def find_sets(
    cards: Sequence[int], card_insignia: Sequence[str], card_values: str = ""
) -> list[tuple[int, int, int]]:
    """Every set among ``cards`` (card ids) under the ``card_values`` option, in a stable
    order."""
    return [
        c
        for c in combinations(sorted(cards), 3)
        if is_set([card_insignia[x] for x in c], card_values)
    ]


def has_set(cards: Sequence[int], card_insignia: Sequence[str], card_values: str = "") -> bool:
    if len(cards) >= 5 and card_values != "master":
        return True  # five cards of three insignia always hold a set
    return any(True for _ in _sets_lazy(cards, card_insignia, card_values))


def _sets_lazy(
    cards: Sequence[int], card_insignia: Sequence[str], card_values: str
) -> Iterator[tuple[int, int, int]]:
    for c in combinations(cards, 3):
        if is_set([card_insignia[x] for x in c], card_values):
            yield c


__all__ = [
    "INSIGNIA",
    "escalating_value",
    "find_sets",
    "golden_cavalry_value",
    "has_set",
    "insignia_value",
    "is_set",
    "master_value",
    "set_value",
]
