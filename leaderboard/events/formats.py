"""The pairings of a final event, as pure functions of its entrants and the results so far
(no database, no randomness): a round-robin of every seating, a Swiss round paired by standing,
a knockout round seeded by standing. Entrants are bot version ids given best first (their
"seed": the ladder's order, or the order listed); a table is a tuple of ids in seat order.

A game scores ``seats - place`` points (the winner of a 4-seat game 3, the last 0): the same
scale for every format, so standings and a knockout table's order read alike.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ROUND_ROBIN, SWISS, KNOCKOUT = "round-robin", "swiss", "knockout"
FORMATS = (ROUND_ROBIN, SWISS, KNOCKOUT)

SEARCH_BUDGET = 200_000
"""Tables a Swiss pairing tries before it settles for one with repeated tables: far more than
an exhaustive search of the small fields it is tested on needs (where it must find a pairing
without repeats whenever one exists), a bound on a large field where none exists."""

Table = tuple[int, ...]


class FormatError(ValueError):
    """Why an event cannot be played as asked (one line)."""


@dataclass(frozen=True)
class Played:
    """A finished game of the event: its table number, seats (ids in seat order) and places."""

    table: int
    seats: tuple[int, ...]
    places: tuple[int, ...]


def points(seats: int, place: int) -> int:
    """A game's points for ``place`` (1 = won) at a table of ``seats``."""
    return max(0, seats - place)


def rotations(table: Table) -> list[Table]:
    """Every cyclic seat order of ``table`` (each bot once in every seat), the given first."""
    return [table[i:] + table[:i] for i in range(len(table))]


def knockout_rounds(entrants: int, seats: int, advance: int) -> list[int]:
    """How many entrants play each round of a knockout (the last: one table), or a
    :class:`FormatError` saying why ``entrants`` cannot be split that way."""
    if not 1 <= advance < seats:
        raise FormatError(f"--advance must be between 1 and {seats - 1} at tables of {seats}")
    field, rounds = entrants, []
    while True:
        if field % seats:
            raise FormatError(
                f"a knockout of {entrants} bots at tables of {seats} with the top {advance} "
                f"advancing leaves {field} bots in a round, not whole tables; try "
                f"{', '.join(str(n) for n in knockout_sizes(seats, advance))} bots"
            )
        rounds.append(field)
        if field == seats:
            return rounds
        field = field // seats * advance


def knockout_sizes(seats: int, advance: int, most: int = 64) -> list[int]:
    """The fields (up to ``most`` entrants) a knockout at tables of ``seats`` can start with."""
    sizes, field = [], seats
    while field <= most:
        sizes.append(field)
        if (field // advance) * advance != field:
            break
        field = field // advance * seats
    return sizes


def swiss_rounds(entrants: int, seats: int) -> int:
    """The default number of Swiss rounds: enough for one bot to be the only one winning all
    (log base ``seats`` of the field, rounded up), at least 2."""
    rounds, field = 0, 1
    while field < entrants:
        field *= seats
        rounds += 1
    return max(2, rounds)


def round_robin(entrants: Sequence[int], seats: int) -> list[Table]:
    """Every seating: each combination of ``seats`` entrants once, in entry order."""
    return [tuple(t) for t in itertools.combinations(entrants, seats)]


def snake(ranked: Sequence[int], seats: int) -> list[Table]:
    """Split ``ranked`` (best first) into tables that are as even as can be: the best at
    table 1, the second at table 2, …, then back (so table 1 also holds the worst)."""
    count = len(ranked) // seats
    tables: list[list[int]] = [[] for _ in range(count)]
    for i, bot in enumerate(ranked):
        lap, pos = divmod(i, count)
        tables[pos if lap % 2 == 0 else count - 1 - pos].append(bot)
    return [tuple(t) for t in tables]


def score(games: Iterable[Played]) -> dict[int, tuple[int, int]]:
    """Each bot's (points, games) over ``games``."""
    total: dict[int, tuple[int, int]] = {}
    for game in games:
        for bot, place in zip(game.seats, game.places, strict=True):
            p, n = total.get(bot, (0, 0))
            total[bot] = (p + points(len(game.seats), place), n + 1)
    return total


def standings(entrants: Sequence[int], games: Iterable[Played]) -> list[tuple[int, int]]:
    """(bot, points) best first: most points, then the better entry seed."""
    total = score(games)
    seed = {bot: i for i, bot in enumerate(entrants)}
    ranked = sorted(entrants, key=lambda b: (-total.get(b, (0, 0))[0], seed[b]))
    return [(bot, total.get(bot, (0, 0))[0]) for bot in ranked]


def table_order(table: Table, games: Iterable[Played], seed: dict[int, int]) -> list[int]:
    """The bots of one knockout table best first: points of its games, then entry seed."""
    total = score(g for g in games if set(g.seats) == set(table))
    return sorted(table, key=lambda b: (-total.get(b, (0, 0))[0], seed[b]))


def advancing(
    tables: Sequence[Table], games: Sequence[Played], entrants: Sequence[int], advance: int
) -> list[int]:
    """The bots going on from a knockout round, best first: every table's first, then every
    table's second, … (each rank by the better entry seed), exactly ``advance`` per table."""
    seed = {bot: i for i, bot in enumerate(entrants)}
    orders = [table_order(t, games, seed) for t in tables]
    ranked = []
    for rank in range(advance):
        ranked.extend(sorted((order[rank] for order in orders), key=seed.__getitem__))
    return ranked


def swiss_round(ranked: Sequence[int], seats: int, played: Iterable[Table]) -> list[Table]:
    """One Swiss round: tables of bots close in standing (``ranked``: best first), with no
    table that met before (as a set of bots) whenever the field allows it; when it does not
    (or the search's budget is spent), tables in standing order."""
    if len(ranked) % seats:
        raise FormatError(f"a Swiss round needs whole tables: {len(ranked)} bots, {seats} seats")
    met = {frozenset(t) for t in played}
    budget = [SEARCH_BUDGET]

    def search(left: list[int]) -> list[Table] | None:
        if not left:
            return []
        first, rest = left[0], left[1:]
        for others in itertools.combinations(range(len(rest)), seats - 1):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            table = (first, *(rest[i] for i in others))
            if frozenset(table) in met:
                continue
            chosen = set(others)
            after = search([b for i, b in enumerate(rest) if i not in chosen])
            if after is not None:
                return [table, *after]
        return None

    found = search(list(ranked))
    if found is not None:
        return found
    return [tuple(ranked[i : i + seats]) for i in range(0, len(ranked), seats)]
