"""A final event's rounds from its shape and the results so far (pure): the first round, the
next one once a round is over (None: the event is over), and the final standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .formats import (
    KNOCKOUT,
    ROUND_ROBIN,
    SWISS,
    Played,
    Table,
    advancing,
    knockout_rounds,
    rotations,
    round_robin,
    snake,
    standings,
    swiss_round,
    table_order,
)


@dataclass(frozen=True)
class Shape:
    """How an event is played: its format, seats per table, the top ``advance`` of each
    knockout table going on, its rounds, and whether each table plays every seat rotation."""

    format: str
    seats: int
    advance: int = 0
    rounds: int = 1
    rotate: bool = True

    def games(self, table: Table) -> list[Table]:
        """The seat orders ``table`` plays: each rotation, or the table once."""
        return rotations(table) if self.rotate else [table]


def planned_rounds(shape: Shape, entrants: int) -> int:
    """How many rounds the event plays (a knockout's follow from its field)."""
    if shape.format == KNOCKOUT:
        return len(knockout_rounds(entrants, shape.seats, shape.advance))
    return 1 if shape.format == ROUND_ROBIN else shape.rounds


def first_round(shape: Shape, entrants: Sequence[int]) -> list[Table]:
    """The tables of round 1 (``entrants`` best first)."""
    if shape.format == ROUND_ROBIN:
        return round_robin(entrants, shape.seats)
    if shape.format == SWISS:
        return swiss_round(entrants, shape.seats, ())
    return snake(entrants, shape.seats)


def next_round(
    shape: Shape, entrants: Sequence[int], rounds: Sequence[Sequence[Table]], games: list[Played]
) -> list[Table] | None:
    """The tables of the round after ``rounds`` (every one finished, ``games`` their
    results), or None when the event is over."""
    if len(rounds) >= planned_rounds(shape, len(entrants)):
        return None
    if shape.format == SWISS:
        ranked = [bot for bot, _ in standings(entrants, games)]
        return swiss_round(ranked, shape.seats, [t for r in rounds for t in r])
    going_on = advancing(rounds[-1], games, entrants, shape.advance)
    return snake(going_on, shape.seats)


def final_standings(
    shape: Shape, entrants: Sequence[int], rounds: Sequence[Sequence[Table]], games: list[Played]
) -> list[tuple[int, int]]:
    """(bot, points over the event) best first. A knockout: the final table's order, then the
    bots out in the round before by their place at their table, and so on back to round 1
    (each place by the better entry seed); the other formats: by points."""
    total = dict(standings(entrants, games))
    if shape.format != KNOCKOUT:
        return [(bot, total[bot]) for bot, _ in standings(entrants, games)]
    seed = {bot: i for i, bot in enumerate(entrants)}
    ranked: list[int] = []
    for tables in reversed(rounds):
        places = [(i, bot) for t in tables for i, bot in enumerate(table_order(t, games, seed))]
        out = [(i, seed[bot], bot) for i, bot in places if bot not in ranked]
        ranked.extend(bot for _, _, bot in sorted(out))
    return [(bot, total[bot]) for bot in ranked]
