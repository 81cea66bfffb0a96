"""Does a duplicate season separate bots faster? The variance ratio of a rotated table.

    python benchmarks/duplicate.py [--tables 60] [--turn-limit 40] [--bootstrap 2000]

One *table* is 4 games of the same 4 sample bots (aggressive, continental, random, random;
in-process through :func:`hegemon.sdk.play_local`), the seating rotated so the bot under test
sits once in every seat. A game scores the bot ``(4 - place) / 3`` (1 for a win, 0 for last);
its table score is the mean of the 4.

- duplicate: the 4 rotations share one seed, so the same set-up, deck order and dice per seat
  (hegemon.referee.chance keeps them on separate keyed streams);
- independent: every game has its own seed.

The figure is var(table score, duplicate) / var(table score, independent), for aggressive and
for continental, with a bootstrap 95 % interval over the tables. Below 1, a duplicate season
needs that fraction of the games for the same precision. Each game's id is fresh and random,
as in a season, so the bots' own randomness differs between rotations. The last line is
``duplicate: variance ratio R (aggressive)``.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sample_bots.continental import ContinentalBot
from hegemon.sample_bots.random import RandomBot
from hegemon.sdk import Bot, play_local

PLAYERS = 4
FOCUS = ("aggressive", "continental")


def table_seeds(secret: bytes, table: int, duplicate: bool) -> list[int]:
    """The 4 games' seeds: one shared seed (duplicate) or 4 of their own, keyed by ``secret``."""

    def seed(label: str) -> int:
        return int.from_bytes(hmac.new(secret, label.encode(), hashlib.sha256).digest()[:16])

    if duplicate:
        return [seed(f"table:{table}")] * PLAYERS
    return [seed(f"table:{table}:game:{r}") for r in range(PLAYERS)]


def play_table(seeds: list[int], turn_limit: int, ids: random.Random) -> dict[str, float]:
    """The table score of each focus bot over the 4 rotations."""
    bots: list[Bot] = [AggressiveBot(), ContinentalBot(), RandomBot(), RandomBot()]
    scores: dict[str, list[float]] = {name: [] for name in FOCUS}
    for r, seed in enumerate(seeds):
        seated = bots[r:] + bots[:r]
        result = play_local(
            seated,
            "classic",
            seed,
            options={"turn_limit": turn_limit},
            game_id=f"bench-{ids.getrandbits(64):016x}",
        )
        for seat, bot in enumerate(seated):
            if bot.name in scores:
                scores[bot.name].append((PLAYERS - result.places[seat]) / (PLAYERS - 1))
    return {name: statistics.fmean(s) for name, s in scores.items()}


def ratio_interval(
    dup: list[float], ind: list[float], samples: int, rng: random.Random
) -> tuple[float, float]:
    """A bootstrap 95 % interval of var(dup) / var(ind), tables resampled independently."""
    ratios = []
    for _ in range(samples):
        a = [dup[rng.randrange(len(dup))] for _ in dup]
        b = [ind[rng.randrange(len(ind))] for _ in ind]
        vb = statistics.pvariance(b)
        if vb > 0:
            ratios.append(statistics.pvariance(a) / vb)
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--turn-limit", type=int, default=40)
    parser.add_argument("--bootstrap", type=int, default=2000)
    parser.add_argument("--secret", default="hegemon-duplicate-benchmark")
    args = parser.parse_args()
    secret = args.secret.encode()
    ids = random.Random(1)
    started = time.perf_counter()
    results: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    for t in range(args.tables):
        for duplicate in (True, False):
            results[duplicate].append(
                play_table(table_seeds(secret, t, duplicate), args.turn_limit, ids)
            )
    elapsed = time.perf_counter() - started
    games = 2 * PLAYERS * args.tables
    print(
        f"hegemon duplicate seasons: {args.tables} tables x {PLAYERS} rotations each way, "
        f"classic, turn limit {args.turn_limit}, {games} games in {elapsed:.0f} s"
    )
    rng = random.Random(2)
    ratio = {}
    for name in FOCUS:
        dup = [r[name] for r in results[True]]
        ind = [r[name] for r in results[False]]
        ratio[name] = statistics.pvariance(dup) / statistics.pvariance(ind)
        low, high = ratio_interval(dup, ind, args.bootstrap, rng)
        print(
            f"  {name:<12} mean {statistics.fmean(dup):.3f} (duplicate) "
            f"{statistics.fmean(ind):.3f} (independent); variance ratio {ratio[name]:.2f} "
            f"(95 % bootstrap {low:.2f}-{high:.2f})"
        )
    print(f"duplicate: variance ratio {ratio['aggressive']:.2f} (aggressive)")


if __name__ == "__main__":
    main()
