"""Which bots a ladder's next table seats, and where: pure and deterministic (same entrants,
same random stream → same table), shared by :func:`.matchmaker.fill_queue` and the simulation
``benchmarks/matchmaker.py`` that measures it.

The order of concerns, each measured in the simulation:

1. **The least known play first**: a bot not rated yet, or whose interval is wider than both
   its neighbours' in rating (:func:`wider_than_neighbours`: a new version, until its interval
   has narrowed to theirs; its game count does not matter), sits at the next table even if
   others are due (the widest first, then the fewest games, then the newest version).
2. **Nobody starves**: an entrant that has not been seated in the last ``starve_after // 2``
   tables must play now (the most overdue first), so every entrant plays at least once every
   ``starve_after`` tables (:func:`starve_limit`); it takes the seats the first concern leaves.
3. **A bounded share**: past its first games an entrant sits at most at one table in
   :data:`SHARE_EVERY` (:func:`over_share`), however wide its interval, so one new version
   cannot take over the ladder; among the rest, the widest interval goes first.
4. **Opponents near in rating** to that bot (a little random jitter, so the same neighbours do
   not meet every time), which is what teaches its rating most when bots are spread out.
5. **Seats balanced**: the seating that best evens out each bot's seat counts.
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
"""The rating assumed for a bot not rated yet (the ratings' mean)."""

SHARE_EVERY = 2
"""An entrant past its first games sits at most at one table in this many (see
:func:`over_share`)."""


@dataclass(frozen=True)
class Entrant:
    """A ladder entrant as the matchmaker sees it: ``games`` scheduled for it so far (played,
    in play or pending), ``last``: the number of its last scheduled table (0: never),
    ``rating`` and ``width`` (its 95 % interval's, high − low, in Elo points; None: not rated
    yet), and ``seats``: how often it sat in each seat."""

    bot_id: int
    games: int
    last: int
    rating: float | None
    width: float | None
    seats: tuple[int, ...]


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
    ahead = wider_than_neighbours(entrants)
    free = [e for e in entrants if not over_share(e, number)]
    focus = min(free or entrants, key=lambda e: _priority(e, e.bot_id in ahead))
    due = sorted(
        (e for e in entrants if number - e.last >= max(1, limit // 2)),
        key=lambda e: (e.last, e.bot_id),
    )
    if focus.bot_id in ahead:  # it plays now, whoever is due
        chosen = [focus, *[e for e in due if e is not focus][: players - 1]]
    else:
        chosen = due[:players]
        if len(chosen) < players and focus not in chosen:
            chosen.append(focus)
    if len(chosen) < players:
        centre = _rating(focus)
        keyed = sorted(
            (e for e in entrants if e not in chosen),
            key=lambda e: (
                over_share(e, number),
                abs(_rating(e) - centre) + rng.uniform(0, jitter),
                e.bot_id,
            ),
        )
        chosen.extend(keyed[: players - len(chosen)])
    seat_count = [list(e.seats) + [0] * (players - len(e.seats)) for e in chosen]
    order = _seat(list(range(players)), seat_count, players, rng)
    return tuple(chosen[i].bot_id for i in order)


def over_share(e: Entrant, number: int) -> bool:
    """Whether ``e`` has had its share of the tables for table ``number``: once past its first
    :data:`PROVISIONAL_GAMES` games, an entrant sits at most at one table in every
    :data:`SHARE_EVERY` (it is seated over its share only where the table cannot be filled
    otherwise, as with fewer entrants than that many tables' seats)."""
    return e.games >= PROVISIONAL_GAMES and number - e.last < SHARE_EVERY


def wider_than_neighbours(entrants: Sequence[Entrant]) -> set[int]:
    """The bot ids whose interval is wider than those of both their neighbours in rating (the
    entrants just above and below), and those not rated yet: the bots the ladder knows least
    about for their place, which play first."""
    rated = sorted(
        (e for e in entrants if e.rating is not None and e.width is not None),
        key=lambda e: (_rating(e), e.bot_id),
    )
    ahead = {e.bot_id for e in entrants if e.rating is None or e.width is None}
    for i, e in enumerate(rated):
        around = [n.width or 0.0 for n in rated[max(0, i - 1) : i + 2] if n is not e]
        if around and (e.width or 0.0) > max(around):
            ahead.add(e.bot_id)
    return ahead


def _rating(e: Entrant) -> float:
    return e.rating if e.rating is not None else UNRATED


def _priority(e: Entrant, ahead: bool) -> tuple[int, float, int, int]:
    """Smallest first: bots wider than their neighbours (the widest, then the fewest games,
    then the newest), then the others, widest first."""
    width = math.inf if e.width is None else e.width
    return (0, -width, e.games, -e.bot_id) if ahead else (1, -width, e.games, e.bot_id)
