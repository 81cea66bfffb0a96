"""The matchmaker's own ratings: a running Plackett–Luce estimate updated game by game, so a
table costs the same at the ladder's ten-thousandth game as at its tenth.

Each bot's log-strength is held as a normal belief (``mean``, ``precision``). A game is taken in
as one Newton step of its Plackett–Luce likelihood (the package docstring of
:mod:`hegemon.leaderboard.ratings` reads ties the same way: every member of a place group is
chosen from itself and everyone below) from the current means, on the diagonal: a bot's
precision grows by the curvature of the game at its rating (``p (1 − p)`` of each choice it took
part in), its mean moves by the gradient over the new precision. This is the Laplace update of
a diagonal Gaussian (as in Weng and Lin's online ranking, 2011): an interval that narrows with
what the games *taught* — fast among close opponents, slowly against much weaker or stronger
ones — not merely with how many were played. The boards keep their own full fit; this one
only chooses tables, and depends on the order of the games (they are taken in the order they
were stored).

Pure: no I/O. :mod:`.matchmaker` keeps the state in the database between calls.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

ELO_SCALE = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log strength (as the boards')."""

PRIOR_SD = 1.5
"""A bot's log-strength before its first game: the pool's mean, give or take this (≈ 260 Elo),
an interval about 1,000 Elo wide."""

Z95 = 1.96


@dataclass
class Belief:
    """What the matchmaker knows of one bot: its log-strength ``mean`` and ``precision``, and
    its finished ``games`` (with their count per seat, and the number of the last table)."""

    mean: float = 0.0
    precision: float = 1.0 / PRIOR_SD**2
    games: int = 0
    last: int = 0
    seats: list[int] = field(default_factory=list)

    @property
    def width(self) -> float:
        """The width of its 95 % interval in Elo points."""
        return 2.0 * Z95 * ELO_SCALE / math.sqrt(self.precision)


class Ratings:
    """Every bot's :class:`Belief`, brought up to date one finished game at a time."""

    def __init__(self, beliefs: dict[int, Belief] | None = None) -> None:
        self.beliefs: dict[int, Belief] = beliefs if beliefs is not None else {}

    def belief(self, bot: int) -> Belief:
        """The bot's belief; a bot never seen starts at the mean of those seen so far."""
        found = self.beliefs.get(bot)
        if found is None:
            seen = [b.mean for b in self.beliefs.values() if b.games]
            found = Belief(mean=sum(seen) / len(seen) if seen else 0.0)
            self.beliefs[bot] = found
        return found

    def add_game(self, number: int, seats: Sequence[int], places: Sequence[int]) -> None:
        """Take in table ``number``'s result: ``seats`` (bot ids in seat order) and each
        seat's place (1 = won; equal places are a tie)."""
        beliefs = [self.belief(b) for b in seats]
        grad = [0.0] * len(seats)
        curve = [0.0] * len(seats)
        for chooser, below in _choices(places):
            pool = [chooser, *below]
            top = max(beliefs[i].mean for i in pool)
            weights = [math.exp(beliefs[i].mean - top) for i in pool]
            total = sum(weights)
            for i, w in zip(pool, weights, strict=True):
                p = w / total
                grad[i] += (1.0 if i == chooser else 0.0) - p
                curve[i] += p * (1.0 - p)
        for pos, belief in enumerate(beliefs):
            belief.precision += curve[pos]
            belief.mean += grad[pos] / belief.precision
            belief.games += 1
            belief.last = max(belief.last, number)
            belief.seats += [0] * (len(seats) - len(belief.seats))
            belief.seats[pos] += 1

    def elo(self, bots: Iterable[int]) -> dict[int, float]:
        """The ratings of ``bots`` that played, on the Elo scale, centred on 1500 over them."""
        played = {b: self.beliefs[b].mean for b in bots if b in self.beliefs}
        played = {b: m for b, m in played.items() if self.beliefs[b].games}
        if not played:
            return {}
        centre = sum(played.values()) / len(played)
        return {b: 1500.0 + ELO_SCALE * (m - centre) for b, m in played.items()}

    def dump(self) -> dict[str, Any]:
        """A JSON-able copy (see :meth:`load`)."""
        return {
            str(b): [x.mean, x.precision, x.games, x.last, x.seats] for b, x in self.beliefs.items()
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Ratings:
        """The ratings :meth:`dump` wrote."""
        return cls(
            {
                int(b): Belief(float(m), float(p), int(g), int(n), [int(s) for s in seats])
                for b, (m, p, g, n, seats) in data.items()
            }
        )


def _choices(places: Sequence[int]) -> list[tuple[int, list[int]]]:
    """The Plackett–Luce choices of a finishing order: (the seat chosen, the seats placed below
    it); every member of a tied group is chosen against those below the group only, and the
    last group chooses nothing."""
    return [
        (seat, [other for other, q in enumerate(places) if q > place])
        for seat, place in enumerate(places)
        if any(q > place for q in places)
    ]
