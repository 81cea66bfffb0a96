"""The classic running multiplayer Elo (it depends on the order of games; the rating chart)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .games import FinishingOrder, canonical


class EloResult(NamedTuple):
    """Result of :func:`incremental_elo`."""

    ratings: dict[str, float]
    """Rating of each bot after the last game."""
    history: dict[str, list[float]]
    """Per bot, its rating after each game it played, in game order (for a chart)."""


def incremental_elo(
    games: Sequence[FinishingOrder],
    k: float = 32.0,
    initial: float = 1500.0,
    start: dict[str, float] | None = None,
) -> EloResult:
    """Classic multiplayer Elo, applied game by game in the given order.

    Each game counts as every pair of its players: a better place scores 1, a shared
    place 1/2, a worse place 0, against the logistic expectation
    ``1 / (1 + 10 ** ((R_other - R_self) / 400))``.  Each player's change is
    ``K / (players - 1) * Σ_pairs (score - expected)``, computed from the ratings
    before the game and applied after it.  Bots start at ``initial`` when first seen.
    The sum of all ratings is conserved. ``start``: the ratings after earlier games (the run
    continues from them, exactly as if those games came first; the history holds only the new
    games).
    """
    ratings: dict[str, float] = dict(start or {})
    history: dict[str, list[float]] = {}
    for game in games:
        key = canonical(game)
        players = [(name, place) for place, group in enumerate(key) for name in group]
        for name, _ in players:
            if name not in ratings:
                ratings[name] = initial
            history.setdefault(name, [])
        before = [ratings[name] for name, _ in players]
        factor = k / (len(players) - 1)
        deltas = [0.0] * len(players)
        for a in range(len(players)):
            for b in range(a + 1, len(players)):
                place_a, place_b = players[a][1], players[b][1]
                score = 1.0 if place_a < place_b else 0.5 if place_a == place_b else 0.0
                expected = 1.0 / (1.0 + 10.0 ** ((before[b] - before[a]) / 400.0))
                change = factor * (score - expected)
                deltas[a] += change
                deltas[b] -= change
        for (name, _), old, delta in zip(players, before, deltas, strict=False):
            ratings[name] = old + delta
            history[name].append(old + delta)
    return EloResult(ratings, history)
