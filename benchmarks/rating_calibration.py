"""Are early ratings honest? Coverage of the 95% intervals and calibration of P(stronger than
next) in simulated seasons, after 2, 3, 5, 10 and 20 games per bot.

    python benchmarks/rating_calibration.py [--seasons 200] [--bots 8] [--samples 200]

Each simulated season draws true strengths for its bots, then plays rounds of 4-player
Plackett–Luce games (every bot once a round, tables drawn at random) and rates the games after
each checkpoint exactly as the leaderboard does (:func:`bootstrap_intervals`). Two worlds:

* ``prior`` — true log-strengths drawn from the fit's own prior (logistic, scale 1: an Elo
  spread of about 315), the world the model assumes;
* ``narrow`` — true Elo ratings normal with a spread of 150 (bots closer than the prior says).

Coverage is the share of (bot, season) pairs whose true rating (centred like the fit, on a
mean of 1500) lies inside its interval (target: at least 0.90 from the second game on). The
calibration table bins every adjacent pair of the board by its P(stronger than next) and shows
how often the upper bot really was the stronger one. The last line is
``calibration: coverage X after 2 games`` (prior world).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import itertools

from hegemon.leaderboard.ratings import ELO_SCALE, MEAN_RATING, bootstrap_intervals

CHECKPOINTS = (2, 3, 5, 10, 20)
PLAYERS = 4
BINS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001)

Truth = Callable[[random.Random], float]
"""A draw of one bot's true log-strength."""


def prior_world(rng: random.Random) -> float:
    u = rng.random()
    return math.log(u / (1.0 - u))  # logistic(0, 1): the density of the fit's prior


def narrow_world(rng: random.Random) -> float:
    return rng.gauss(0.0, 150.0 / ELO_SCALE)


def play_round(
    names: list[str], theta: dict[str, float], rng: random.Random
) -> list[list[list[str]]]:
    """Every bot once, at tables of :data:`PLAYERS` (Gumbel-max Plackett–Luce orders)."""
    seated = names[:]
    rng.shuffle(seated)
    games = []
    for t in range(0, len(seated), PLAYERS):
        table = seated[t : t + PLAYERS]
        noisy = {b: theta[b] - math.log(-math.log(rng.random())) for b in table}
        games.append([[b] for b in sorted(table, key=lambda b: -noisy[b])])
    return games


def simulate(
    world: Truth, seasons: int, bots: int, samples: int, seed: int
) -> tuple[dict[int, tuple[int, int]], dict[int, list[tuple[float, bool]]]]:
    """Per checkpoint: (covered, total) of the intervals, and (P, upper really stronger) of
    every adjacent pair of the board."""
    coverage = dict.fromkeys(CHECKPOINTS, (0, 0))
    pairs: dict[int, list[tuple[float, bool]]] = {c: [] for c in CHECKPOINTS}
    for season in range(seasons):
        rng = random.Random(seed * 1_000_003 + season)
        names = [f"b{i}" for i in range(bots)]
        theta = {b: world(rng) for b in names}
        mean = sum(theta.values()) / bots
        truth = {b: MEAN_RATING + ELO_SCALE * (t - mean) for b, t in theta.items()}
        games: list[list[list[str]]] = []
        for rounds in range(1, max(CHECKPOINTS) + 1):
            games += play_round(names, theta, rng)
            if rounds not in CHECKPOINTS:
                continue
            result = bootstrap_intervals(games, samples=samples, seed=season)
            hit = sum(lo <= truth[b] <= hi for b, (lo, hi) in result.intervals.items())
            covered, total = coverage[rounds]
            coverage[rounds] = (covered + hit, total + bots)
            for a, b in zip(result.order, result.order[1:], strict=False):
                p = result.p_stronger_than_next[a]
                assert p is not None
                pairs[rounds].append((p, truth[a] > truth[b]))
    return coverage, pairs


def calibration_table(points: list[tuple[float, bool]]) -> list[str]:
    lines = ["  P(>next)      pairs   mean P   really stronger"]
    for lo, hi in itertools.pairwise(BINS):
        inside = [(p, up) for p, up in points if lo <= p < hi]
        if not inside:
            continue
        mean_p = sum(p for p, _ in inside) / len(inside)
        real = sum(up for _, up in inside) / len(inside)
        label = f"[{lo:.2f}, {min(hi, 1.0):.2f}{']' if hi > 1 else ')'}"
        lines.append(f"  {label:12} {len(inside):6d}   {mean_p:6.3f}   {real:6.3f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=200)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    first = 0.0
    for name, world in (("prior", prior_world), ("narrow", narrow_world)):
        coverage, pairs = simulate(world, args.seasons, args.bots, args.samples, args.seed)
        print(f"world '{name}': {args.seasons} seasons of {args.bots} bots, {PLAYERS}-player games")
        for games in CHECKPOINTS:
            covered, total = coverage[games]
            print(f"  after {games:2d} games: 95% intervals cover {covered / total:.3f}")
        for games in (2, 5, 20):
            print(f" P(stronger than next) after {games} games:")
            print("\n".join(calibration_table(pairs[games])))
        if name == "prior":
            covered, total = coverage[2]
            first = covered / total
    print(f"calibration: coverage {first:.3f} after 2 games")


if __name__ == "__main__":
    main()
