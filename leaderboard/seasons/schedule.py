"""Season schedules: who plays whom, in which seats, with which dice seed. Pure and deterministic.

:func:`make_schedule` balances what matters for fair ratings of multiplayer games:

* **games**: every bot plays the same number of games, give or take one (in a duplicate season,
  give or take one table);
* **seats**: who moves first matters, so each bot sits in every seat position about equally
  often (each game's seating is the assignment that best evens out the bots' seat counts);
* **opponents**: each game's bots are chosen so that pairs of bots meet about equally often;
* **team-mates** (``teams=True``, a team game: seat ``s`` plays on team ``s % 2``): within each
  game, bots of the two teams swap seats when that makes pairs of bots team-mates more equally
  often by more than it makes the seat counts less even. Each bot's place is its team's.

A *duplicate* season replays each table's dice seed once per seat rotation: the same bots, the
same seed, every bot in every seat once. The rotations share the set-up, the deck order and each
seat's dice (separate keyed streams, hegemon.referee.chance), but once play differs the same dice
fall in different battles: measured with the sample bots (benchmarks/duplicate.py), a rotated
table's result is no less noisy than four independent games' (variance ratio about 1).

Two-player games (the ``two-player-*`` rule sets) are played in **both colours**, like chess: in a
season that is not duplicate, every pairing is played twice in a row, the seats swapped, each
game with its own seed (an odd ``games`` leaves the last pairing without its return game); a
duplicate two-player season plays each deal twice, the seats swapped and the seed the same.

Match seeds derive from the season's secret seed and the table number with a keyed hash
(:func:`match_seed`): whoever knows the season seed can recompute them, nobody else can, and one
game's seed (revealed in its record) tells nothing about another's.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence
from dataclasses import dataclass

from hegemon.referee.chance import PUBLIC_BELOW, SEED_BITS

__all__ = ["ScheduledMatch", "duplicate_games", "make_schedule", "match_seed", "partner_counts"]


@dataclass(frozen=True)
class ScheduledMatch:
    """One game of the schedule: ``number`` (1-based, play order), ``table`` (0-based; in a
    duplicate season the rotations of one table share it and its seed), ``seats`` (bot ids in
    seat order) and the dice ``seed``."""

    number: int
    table: int
    seats: tuple[int, ...]
    seed: int


def match_seed(season_seed: int, table: int) -> int:
    """The dice seed of ``table``, from HMAC-SHA256(key = the season seed's decimal text,
    message = ``hegemon-match:<table>``). A secret season seed gives 128-bit secret match seeds
    (the bit above them set, as a fresh seed has); a public one (below
    :data:`~hegemon.referee.chance.PUBLIC_BELOW`, e.g. ``--seed 1``) gives 63-bit seeds, which
    every game record then marks as public: anyone who knows the season seed can compute them."""
    digest = hmac.new(
        str(season_seed).encode(), f"hegemon-match:{table}".encode(), hashlib.sha256
    ).digest()
    value = int.from_bytes(digest[:16], "big")
    if season_seed < PUBLIC_BELOW:
        return value >> (128 - 63)
    return value | (1 << SEED_BITS)


def duplicate_games(games: int, players: int) -> int:
    """``games`` rounded up to whole tables of ``players`` rotations (duplicate seasons)."""
    return -(-games // players) * players


def make_schedule(
    bot_ids: Sequence[int],
    players: int,
    games: int,
    seed: int,
    duplicate: bool = False,
    *,
    teams: bool = False,
) -> list[ScheduledMatch]:
    """The season's matches in play order. Same inputs, same schedule.

    ``duplicate``: ``games`` is rounded up to a multiple of ``players``; each table is played
    ``players`` times with the seating rotated by one seat each time and the same seed.
    ``teams``: a team game; partnerships are spread too (the rotations of a duplicate table
    keep them and swap the sides). Raises ValueError for fewer distinct bots than
    ``players``, a repeated bot, or ``games`` < 1.
    """
    bots = list(bot_ids)
    if len(set(bots)) != len(bots):
        raise ValueError("a bot is listed twice")
    if players < 2:
        raise ValueError("a game needs at least 2 players")
    if len(bots) < players:
        raise ValueError(
            f"{players} players per game need at least {players} bots; got {len(bots)}"
        )
    if games < 1:
        raise ValueError("a season needs at least one game")
    rng = random.Random(
        int.from_bytes(hashlib.sha256(f"hegemon-schedule:{seed}".encode()).digest()[:16], "big")
    )
    if not duplicate and players == 2:
        return _both_colours(bots, games, seed, rng)
    if not duplicate:
        tables = _tables(bots, players, games, rng, seat_balance=True, teams=teams)
        return [
            ScheduledMatch(i + 1, i, seats, match_seed(seed, i)) for i, seats in enumerate(tables)
        ]
    tables = _tables(
        bots,
        players,
        duplicate_games(games, players) // players,
        rng,
        seat_balance=False,
        teams=teams,
    )
    schedule: list[ScheduledMatch] = []
    for t, seats in enumerate(tables):
        table_seed = match_seed(seed, t)
        for r in range(players):
            rotated = seats[r:] + seats[:r]
            schedule.append(ScheduledMatch(len(schedule) + 1, t, rotated, table_seed))
    return schedule


def _both_colours(
    bots: list[int], games: int, seed: int, rng: random.Random
) -> list[ScheduledMatch]:
    """Two-player games: each pairing twice in a row, seats swapped, a seed per game."""
    schedule: list[ScheduledMatch] = []
    for seats in _tables(bots, 2, -(-games // 2), rng, seat_balance=False):
        for order in (seats, seats[::-1]):
            if len(schedule) < games:
                n = len(schedule)
                schedule.append(ScheduledMatch(n + 1, n, order, match_seed(seed, n)))
    return schedule


def _tables(
    bots: list[int],
    players: int,
    count: int,
    rng: random.Random,
    seat_balance: bool,
    teams: bool = False,
) -> list[tuple[int, ...]]:
    """``count`` seatings of ``players`` bots, greedily balanced (games, pairs, seats)."""
    n = len(bots)
    played = [0] * n
    pairs = [[0] * n for _ in range(n)]
    seat_count = [[0] * players for _ in range(n)]
    tiebreak = list(range(n))
    result = []
    for _ in range(count):
        rng.shuffle(tiebreak)
        order = sorted(range(n), key=lambda b: (played[b], tiebreak[b]))
        # Bots below the cut-off count must play; among those at the cut-off pick the ones
        # that have met the already chosen bots least.
        cut = played[order[players - 1]]
        must = [b for b in order if played[b] < cut]
        tied = [b for b in order if played[b] == cut]
        chosen = _pick(must, tied, players, pairs)
        seating = _seat(chosen, seat_count, players, rng) if seat_balance else chosen
        for pos, b in enumerate(seating):
            played[b] += 1
            seat_count[b][pos] += 1
        for i, a in enumerate(chosen):
            for b in chosen[i + 1 :]:
                pairs[a][b] += 1
                pairs[b][a] += 1
        result.append(seating)
    _spread_pairs(result, pairs, rng, iterations=min(200_000, 40 * count * players))
    if seat_balance:
        _even_seats(result, seat_count, rng, iterations=min(100_000, 20 * count * players))
    if teams:
        weight = 1 if seat_balance else 0
        _even_partners(
            result, seat_count, weight, rng, iterations=min(100_000, 20 * count * players)
        )
    return [tuple(bots[b] for b in seating) for seating in result]


def _spread_pairs(
    tables: list[list[int]], pairs: list[list[int]], rng: random.Random, iterations: int
) -> None:
    """Even out how often pairs of bots meet, in place, without changing how many games each bot
    plays nor how often it sits in each seat: swap two bots sitting in the same seat of two
    different games when that lowers the sum of squared meeting counts (or keeps it, half the
    time, to cross plateaus)."""
    count = len(tables)
    if count < 2:
        return
    players = len(tables[0])
    for _ in range(iterations):
        g1, g2 = rng.randrange(count), rng.randrange(count)
        if g1 == g2:
            continue
        t1, t2 = tables[g1], tables[g2]
        pos = rng.randrange(players)
        a, b = t1[pos], t2[pos]
        if a == b or a in t2 or b in t1:
            continue
        change: dict[tuple[int, int], int] = {}
        for c in t1:
            if c != a:
                change[(a, c)] = change.get((a, c), 0) - 1
                change[(b, c)] = change.get((b, c), 0) + 1
        for d in t2:
            if d != b:
                change[(b, d)] = change.get((b, d), 0) - 1
                change[(a, d)] = change.get((a, d), 0) + 1
        delta = 0
        for (x, y), k in change.items():
            if k:
                delta += (pairs[x][y] + k) ** 2 - pairs[x][y] ** 2
        if delta > 0 or (delta == 0 and rng.random() < 0.5):
            continue
        for (x, y), k in change.items():
            pairs[x][y] += k
            pairs[y][x] += k
        t1[pos], t2[pos] = b, a


def _pick(must: list[int], tied: list[int], players: int, pairs: list[list[int]]) -> list[int]:
    """``must`` plus bots from ``tied`` up to ``players``: a greedy choice of the bots that met
    the others least, tried from each possible first pick; the group whose pairs met least
    (sum, then sum of squares) wins. ``tied`` is in random order, which breaks ties."""
    need = players - len(must)
    if need == len(tied):
        return must + tied
    best_key: tuple[int, int] | None = None
    best: list[int] = []
    for start in tied if need > 0 else ():
        group = [*list(must), start]
        rest = [b for b in tied if b != start]
        while len(group) < players:
            pick = min(rest, key=lambda b: sum(pairs[b][c] for c in group))
            rest.remove(pick)
            group.append(pick)
        met = [pairs[a][b] for i, a in enumerate(group) for b in group[i + 1 :]]
        key = (sum(met), sum(m * m for m in met))
        if best_key is None or key < best_key:
            best_key, best = key, group
    return best if need > 0 else list(must)


def _even_seats(
    tables: list[list[int]], seat_count: list[list[int]], rng: random.Random, iterations: int
) -> None:
    """Even out seat counts further, in place, without changing who plays whom: swap two bots'
    seats within a game when that lowers the sum of squared seat counts (or keeps it, half the
    time)."""
    players = len(tables[0]) if tables else 0
    if players < 2:
        return
    for _ in range(iterations):
        table = tables[rng.randrange(len(tables))]
        p, q = rng.sample(range(players), 2)
        a, b = table[p], table[q]
        # a moves p → q, b moves q → p
        delta = (
            2 * (seat_count[a][q] - seat_count[a][p])
            + 2
            + 2 * (seat_count[b][p] - seat_count[b][q])
            + 2
        )
        if delta > 0 or (delta == 0 and rng.random() < 0.5):
            continue
        seat_count[a][p] -= 1
        seat_count[a][q] += 1
        seat_count[b][q] -= 1
        seat_count[b][p] += 1
        table[p], table[q] = b, a


def partner_counts(tables: Sequence[Sequence[int]]) -> dict[tuple[int, int], int]:
    """How often each pair of bots (ascending ids) sat on one team (seats of equal parity)."""
    counts: dict[tuple[int, int], int] = {}
    for seats in tables:
        for i, a in enumerate(seats):
            for j in range(i + 2, len(seats), 2):
                key = (min(a, seats[j]), max(a, seats[j]))
                counts[key] = counts.get(key, 0) + 1
    return counts


def _even_partners(
    tables: list[list[int]],
    seat_count: list[list[int]],
    seat_weight: int,
    rng: random.Random,
    iterations: int,
) -> None:
    """Even out how often pairs of bots are team-mates, in place, without changing who plays
    whom: swap two bots of different teams within a game when that lowers the sum of the
    squared partner counts and the squared seat counts (``seat_weight`` 0: seats are not
    counted, as in a duplicate season whose rotations seat everyone)."""
    players = len(tables[0]) if tables else 0
    if players < 4:
        return
    n = len(seat_count)
    partners = [[0] * n for _ in range(n)]
    for table in tables:
        for i, a in enumerate(table):
            for j in range(i + 2, players, 2):
                partners[a][table[j]] += 1
                partners[table[j]][a] += 1
    for _ in range(iterations):
        table = tables[rng.randrange(len(tables))]
        p, q = rng.sample(range(players), 2)
        if p % 2 == q % 2:
            continue
        a, b = table[p], table[q]
        seats = seat_weight * (
            2 * (seat_count[a][q] - seat_count[a][p])
            + 2
            + 2 * (seat_count[b][p] - seat_count[b][q])
            + 2
        )
        # a joins q's team-mates and leaves p's; b the other way round
        mates_p = [table[i] for i in range(p % 2, players, 2) if i != p]
        mates_q = [table[i] for i in range(q % 2, players, 2) if i != q]
        delta = 0
        for x, leave, join in ((a, mates_p, mates_q), (b, mates_q, mates_p)):
            delta += sum(1 - 2 * partners[x][m] for m in leave)  # (c-1)^2 - c^2
            delta += sum(2 * partners[x][m] + 1 for m in join)  # (c+1)^2 - c^2
        if seats + delta >= 0:  # who plays with whom matters as much as who moves first
            continue
        for x, leave, join in ((a, mates_p, mates_q), (b, mates_q, mates_p)):
            for m in leave:
                partners[x][m] -= 1
                partners[m][x] -= 1
            for m in join:
                partners[x][m] += 1
                partners[m][x] += 1
        seat_count[a][p] -= 1
        seat_count[a][q] += 1
        seat_count[b][q] -= 1
        seat_count[b][p] += 1
        table[p], table[q] = b, a


def _seat(
    chosen: list[int], seat_count: list[list[int]], players: int, rng: random.Random
) -> list[int]:
    """The seating of ``chosen`` that best evens out seat counts: each bot's cost for a seat is
    how far that seat is ahead of the bot's least-used seat (squared), minimised over all
    assignments by dynamic programming over sets of filled seats; ties broken at random."""
    costs = []
    for b in chosen:
        low = min(seat_count[b])
        costs.append([(seat_count[b][p] - low) ** 2 + rng.random() * 0.1 for p in range(players)])
    # best[mask] = (cost, seating) for the first popcount(mask) bots placed in seats ``mask``.
    full = (1 << players) - 1
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    for i in range(players):
        nxt: dict[int, tuple[float, tuple[int, ...]]] = {}
        for mask, (cost, seats) in best.items():
            for p in range(players):
                if mask & (1 << p):
                    continue
                key = mask | (1 << p)
                value = cost + costs[i][p]
                if key not in nxt or value < nxt[key][0]:
                    nxt[key] = (value, (*seats, p))
        best = nxt
    seats = best[full][1]
    seating = [0] * players
    for i, p in enumerate(seats):
        seating[p] = chosen[i]
    return seating
