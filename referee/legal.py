"""Legal options of the pending decision, for anything shaped like a game or a view.

Each function takes an object with ``board``, ``rules``, ``owner`` and ``armies`` (a
:class:`hegemon.referee.game.Game` or a :class:`hegemon.referee.view.View`) and a seat, so a bot can list its
options from its view exactly as the referee checks them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import cards as cardlib


def attacks(state: Any, seat: int) -> list[tuple[int, int, int]]:
    """Every (source, target, most dice) attack ``seat`` may make now."""
    owner, armies, neighbours = state.owner, state.armies, state.board.neighbours
    result = []
    for t in range(len(owner)):
        if owner[t] == seat and armies[t] > 1:
            most = min(3, armies[t] - 1)
            for n in neighbours[t]:
                if owner[n] != seat:
                    result.append((t, n, most))
    return result


def own_territories(state: Any, seat: int) -> list[int]:
    return [t for t, p in enumerate(state.owner) if p == seat]


def border_territories(state: Any, seat: int) -> list[int]:
    """Own territories with at least one enemy neighbour."""
    owner, neighbours = state.owner, state.board.neighbours
    return [
        t for t, p in enumerate(owner) if p == seat and any(owner[n] != seat for n in neighbours[t])
    ]


def regions(state: Any, seat: int) -> list[list[int]]:
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


def fortifies(state: Any, seat: int) -> Iterator[tuple[int, int, int]]:
    """Every (source, target, most armies) fortify move under the rule set's ``fortify`` option."""
    owner, armies, neighbours = state.owner, state.armies, state.board.neighbours
    if state.rules.fortify == "adjacent":
        for t in range(len(owner)):
            if owner[t] == seat and armies[t] > 1:
                for n in neighbours[t]:
                    if owner[n] == seat:
                        yield (t, n, armies[t] - 1)
        return
    for group in regions(state, seat):
        for t in group:
            if armies[t] > 1:
                for n in group:
                    if n != t:
                        yield (t, n, armies[t] - 1)


def trades(hand: Any, board: Any) -> list[tuple[int, int, int]]:
    """Every set in ``hand`` (card ids)."""
    return cardlib.find_sets(list(hand), board.card_insignia)


def defence_dice(state: Any, territory: int) -> int:
    """Most dice the defender of ``territory`` may roll."""
    return 2 if state.armies[territory] >= state.rules.defender_two_dice_from else 1
