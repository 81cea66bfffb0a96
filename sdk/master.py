"""Risiko! Master helpers for bots (seed 003; docs/rules.md §7): territory values, quadrants and the
points race.

Everything here reads a :class:`~hegemon.referee.view.View` (what a bot is sent) and computes
with the referee's own formulas (:mod:`hegemon.referee.editions.master`), so a bot's arithmetic
is the referee's.
"""

from __future__ import annotations

from dataclasses import dataclass

from hegemon.referee.editions import master as rules
from hegemon.referee.formulas import continents_held
from hegemon.referee.view import View


def points(view: View, seat: int | None = None) -> int:
    """The sum of the values of the territories ``seat`` (default: the view's) holds."""
    me = view.seat if seat is None else seat
    territories = view.board.territories
    return sum(territories[t].value for t, p in enumerate(view.owner) if p == me)


def points_to_win(view: View) -> int:
    """The values a points victory needs: ``floor(total / 2 + 1)`` of the world's total under
    ``victory=values`` (175 -> 88); half the territories (rounded up) under
    ``half_territories``, counted in territories."""
    if view.rules.victory == "half_territories":
        return (view.board.size + 1) // 2
    return rules.victory_threshold(view.board.total_value())


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat in the points race: its score toward ``points_to_win`` (values, or territories
    under ``half_territories``), the quadrants it holds whole, and whether it has won."""

    seat: int
    score: int
    quadrants: tuple[int, ...]
    short: int  # score still missing (0: enough)
    won: bool


def points_race(view: View) -> list[Standing]:
    """Every seat still holding territory, the leader first (score, then whole quadrants)."""
    need = points_to_win(view)
    by_territories = view.rules.victory == "half_territories"
    race = []
    for s in view.seats:
        if s.territories == 0:
            continue
        score = s.territories if by_territories else points(view, s.seat)
        held = tuple(continents_held(view.board, view.owner, s.seat))
        won = rules.has_won(view.board, view.owner, s.seat, view.rules)
        race.append(Standing(s.seat, score, held, max(0, need - score), won))
    return sorted(race, key=lambda x: (-x.score, -len(x.quadrants), x.seat))


@dataclass(frozen=True, slots=True)
class QuadrantHolding:
    """A quadrant (continent) seen by one seat: its bonus and total value, how much of it the
    seat holds, and the territories it still lacks."""

    quadrant: int
    name: str
    bonus: int
    total: int
    held_value: int
    missing: tuple[int, ...]


def quadrant_holdings(view: View, seat: int | None = None) -> list[QuadrantHolding]:
    """Every quadrant, the most nearly complete for ``seat`` first (fewest missing)."""
    me = view.seat if seat is None else seat
    board, owner = view.board, view.owner
    found = []
    for c in board.continents:
        values = [board.territories[t].value for t in c.territories]
        held = sum(v for t, v in zip(c.territories, values, strict=True) if owner[t] == me)
        missing = tuple(t for t in c.territories if owner[t] != me)
        found.append(QuadrantHolding(c.index, c.name, c.bonus, sum(values), held, missing))
    return sorted(found, key=lambda q: (len(q.missing), -q.bonus, q.quadrant))


def least_attack_dice(view: View, target: int) -> int:
    """The fewest dice an attack on ``target`` may roll (Expert: never fewer than the defender
    will roll; 1 otherwise)."""
    return rules.least_attack_dice(view, target)
