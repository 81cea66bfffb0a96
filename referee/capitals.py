"""Capital Risk (docs/rules.md §3, seed 001 "Erobring av hovedsteder"): how many capitals win, and
what capturing a capital does to the board.

>>> capitals_needed(4)
3
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board

# seed 001: "Antall spillere 2-3 4-5 6 / Antall hovedsteder 2 3 4"
_NEEDED = {2: 2, 3: 2, 4: 3, 5: 3, 6: 4}


def capitals_needed(players: int) -> int:
    """Capitals a player must hold to win, its own original capital included."""
    return _NEEDED[players]


def capitals_held(owner: Sequence[int], capitals: Sequence[int], seat: int) -> int:
    """How many of the chosen ``capitals`` (one territory per seat, -1: none) ``seat`` holds."""
    return sum(1 for c in capitals if c >= 0 and owner[c] == seat)


def has_won(owner: Sequence[int], capitals: Sequence[int], seat: int) -> bool:
    """``seat`` holds its own original capital and enough capitals in all (seed 001: "En
    spiller kan ikke vinne om han ikke fremdeles sitter med sin opprinnelige hovedstad")."""
    own = capitals[seat]
    return (
        own >= 0
        and owner[own] == seat
        and capitals_held(owner, capitals, seat) >= capitals_needed(len(capitals))
    )


def replaced_on_capture(
    board: Board, owner: Sequence[int], capital: int, loser: int
) -> tuple[int, ...]:
    """The territories whose armies are taken off when ``loser``'s ``capital`` falls: every
    other territory ``loser`` holds on the capital's continent (each then gets one army of the
    conqueror, from reserve; seed 001)."""
    continent = board.continents[board.territories[capital].continent]
    return tuple(t for t in continent.territories if t != capital and owner[t] == loser)
