"""Benchmark of hegemon.leaderboard.ratings: 10,000 synthetic 4-player games of 10 bots.

Run:  .venv/bin/python benchmarks/ratings.py
The last line is ``ratings: X s for 10000 games`` (median full Plackett–Luce fit).
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hegemon.leaderboard.ratings import (
    bootstrap_intervals,
    fit_plackett_luce,
    incremental_elo,
)

GAMES = 10_000
BOTS = 10
PLAYERS = 4
SEED = 20240601


def synthetic_games(
    n_games: int = GAMES, n_bots: int = BOTS, players: int = PLAYERS, seed: int = SEED
) -> tuple[list[list[list[str]]], dict[str, float]]:
    """Plackett–Luce games among bots with Elo ratings spread over 1200–1800."""
    rng = random.Random(seed)
    truth = {f"bot{i:02d}": 1200.0 + 600.0 * i / (n_bots - 1) for i in range(n_bots)}
    names = sorted(truth)
    games = []
    for _ in range(n_games):
        seated = rng.sample(names, players)
        # Gumbel-max trick: sorting by log-strength + Gumbel noise samples a PL order.
        keyed = sorted(
            seated,
            key=lambda b: -(truth[b] * math.log(10) / 400 - math.log(-math.log(rng.random()))),
        )
        games.append([[b] for b in keyed])
    return games, truth


def median_time(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    games, truth = synthetic_games()
    fit = fit_plackett_luce(games)
    worst = max(abs((fit[b] - 1500) - (truth[b] - statistics.fmean(truth.values()))) for b in truth)
    print(f"{GAMES} games, {BOTS} bots, {PLAYERS} players each")
    print(f"largest |fit - truth| = {worst:.1f} Elo")

    t_elo = median_time(lambda: incremental_elo(games), 5)
    print(f"incremental Elo:             {t_elo:.3f} s (median of 5)")
    t_boot = median_time(lambda: bootstrap_intervals(games, samples=100, seed=1), 3)
    print(f"fit + 100-sample bootstrap:  {t_boot:.3f} s (median of 3)")
    t_fit = median_time(lambda: fit_plackett_luce(games), 7)
    print(f"Plackett-Luce fit:           {t_fit:.3f} s (median of 7)")
    print(f"ratings: {t_fit:.3f} s for {GAMES} games")


if __name__ == "__main__":
    main()
