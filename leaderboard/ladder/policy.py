"""Which bots a ladder's next table seats, and where: pure and deterministic (same entrants,
same random stream → same table), shared by :func:`.matchmaker.fill_queue` and the simulation
``benchmarks/matchmaker.py`` that measures it.

The order of concerns, each measured in the simulation:

1. **Nobody starves**: an entrant that has not been seated in the last ``starve_after // 2``
   tables must play now (the most overdue first), so every entrant plays at least once every
   ``starve_after`` tables (:func:`starve_limit`).
2. **New versions first**, until they are no longer provisional (fewest games first, the newest
   version breaking ties); then **the widest interval** (:func:`interval_width`; a bot never
   rated counts as widest).
3. **Opponents near in rating** to that bot (a little random jitter, so the same neighbours do
   not meet every time), which is what teaches its rating most when bots are spread out.
4. **Seats balanced**: the seating that best evens out each bot's seat counts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..ratings import PROVISIONAL_GAMES
from ..seasons.schedule import _seat

JITTER = 60.0
"""Elo points of random jitter on the distance of a candidate opponent."""

UNRATED = 1500.0
"""The rating assumed for a bot the board does not rate yet (the board's mean)."""


@dataclass(frozen=True)
class Entrant:
    """A ladder entrant as the matchmaker sees it: ``games`` scheduled for it so far (played,
    in play or pending), ``last``: the number of its last scheduled table (0: never),
    ``rating`` and ``width`` (its interval's, high − low) from the board (None: not rated
    yet), and ``seats``: how often it sat in each seat."""

    bot_id: int
    games: int
    last: int
    rating: float | None
    width: float | None
    seats: tuple[int, ...]


def interval_width(games: int) -> float:
    """The width the matchmaker takes a bot's 95 % interval to have after ``games`` games: it
    narrows as 1 / sqrt(games), like the board's bootstrap intervals (which cost too much to
    compute at every game). About 400 Elo after 12 games, 200 after 60."""
    return 1600.0 / math.sqrt(games + 4)


def starve_limit(entrants: int, players: int) -> int:
    """Tables within which every entrant is seated at least once: three times the tables a
    balanced schedule needs to seat everyone once (a bot becomes due after half of it)."""
    return 3 * max(1, math.ceil(entrants / players))


def choose_table(
    entrants: Sequence[Entrant],
    players: int,
    number: int,
    rng: random.Random,
    starve_after: int | None = None,
    jitter: float = JITTER,
) -> tuple[int, ...]:
    """The bot ids of table ``number`` in seat order. ``jitter``: Elo points of noise on the
    opponents' distance (a huge one picks them at random, as the simulation compares). Raises
    ValueError for fewer entrants than ``players``."""
    if len(entrants) < players:
        raise ValueError(
            f"{players} players per table need {players} entrants; got {len(entrants)}"
        )
    limit = starve_after or starve_limit(len(entrants), players)
    due = sorted(
        (e for e in entrants if number - e.last >= max(1, limit // 2)),
        key=lambda e: (e.last, e.bot_id),
    )
    chosen = due[:players]
    rest = [e for e in entrants if e not in chosen]
    if len(chosen) < players:
        focus = min(rest, key=_priority)
        chosen.append(focus)
        rest.remove(focus)
        centre = focus.rating if focus.rating is not None else UNRATED
        keyed = sorted(
            rest,
            key=lambda e: (
                abs((e.rating if e.rating is not None else UNRATED) - centre)
                + rng.uniform(0, jitter),
                e.bot_id,
            ),
        )
        chosen.extend(keyed[: players - len(chosen)])
    seat_count = [list(e.seats) + [0] * (players - len(e.seats)) for e in chosen]
    order = _seat(list(range(players)), seat_count, players, rng)
    return tuple(chosen[i].bot_id for i in order)


def _priority(e: Entrant) -> tuple[int, float, int, int]:
    """Smallest first: provisional versions (fewest games, newest), then the widest interval."""
    if e.games < PROVISIONAL_GAMES:
        return (0, float(e.games), -e.bot_id, 0)
    width = math.inf if e.width is None else e.width
    return (1, -width, e.games, e.bot_id)
