r"""Risiko! Master's deck of 44 cards as a data file, and what a board's deck holds in words
(docs/rules.md §7).

Seed 003 counts "Un mazzo da 44 carte speciali" and names their parts — figures, the "JOLLY",
cards showing "la sagoma di uno o due carri" — but not how many of each, and its cards show no
territory (a composed world has 60 or so). ``data/decks/risiko-master.json`` holds hegemon's 44:
14 of each figure (10 plain, 3 with one extra army, 1 with two) and 2 jollies. A composed world
(:mod:`hegemon.referee.compose`) plays with this deck; every other map keeps its one card per
territory plus the wild cards.

>>> deck = master_deck()
>>> len(deck.cards)
44
>>> print(describe(deck.cards).replace("), ", "),\n"))
14 infantry (3 with +1, 1 with +2),
14 cavalry (3 with +1, 1 with +2),
14 artillery (3 with +1, 1 with +2),
2 wild
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .board import INSIGNIA, WILD, Board, MapError, parse_cards

MASTER_DECK = Path(__file__).parent / "data" / "decks" / "risiko-master.json"


@dataclass(frozen=True, slots=True)
class CardDeck:
    """A deck that shows no territories: (insignia, extra armies) per card, by card id."""

    name: str
    cards: tuple[tuple[str, int], ...]
    made: str  # how the deck was made, where the rulebook does not say

    def entries(self) -> list[dict[str, Any]]:
        """The cards as a map file's ``"cards"`` list."""
        return [{"insignia": ins, "extra": extra} for ins, extra in self.cards]


def load_deck(path: Path) -> CardDeck:
    """Read a deck file (the format of ``data/decks/``); MapError naming every problem."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MapError(str(path), [f"cannot read the deck: {exc}"]) from None
    if not isinstance(data, dict):
        raise MapError(str(path), ["the top level must be an object"])
    problems: list[str] = []
    cards = parse_cards(data.get("cards"), problems)
    if problems:
        raise MapError(str(path), problems)
    return CardDeck(str(data.get("name") or path.stem), tuple(cards), str(data.get("made", "")))


@cache
def master_deck() -> CardDeck:
    """Risiko! Master's 44 cards (``data/decks/risiko-master.json``)."""
    return load_deck(MASTER_DECK)


def describe(cards: Sequence[tuple[str, int]]) -> str:
    """How many cards of each insignia a deck holds, and which show extra armies."""
    counts = Counter(ins for ins, _ in cards)
    extras = Counter((ins, extra) for ins, extra in cards if extra)
    parts = []
    for ins in (*INSIGNIA, WILD):
        if not counts[ins]:
            continue
        more = ", ".join(f"{extras[ins, e]} with +{e}" for e in (1, 2) if extras[ins, e])
        parts.append(f"{counts[ins]} {ins}" + (f" ({more})" if more else ""))
    return ", ".join(parts)


def board_deck(board: Board) -> str:
    """The deck ``board`` plays with, in one line (``hegemon rules``)."""
    cards = [(ins, board.extra_armies(k)) for k, ins in enumerate(board.card_insignia)]
    if not board.own_deck:
        head = f"{len(cards)}, one per territory and {board.wild_cards} wild"
    elif tuple(cards) == master_deck().cards:
        head = f"Risiko! Master's {len(cards)} ({MASTER_DECK.name}), showing no territory"
    else:
        head = f"the map's own {len(cards)}, showing no territory"
    return f"{head}: {describe(cards)}"
