"""Are early ratings honest? Coverage of the 95% intervals and calibration of P(stronger than
next) in simulated seasons, after 2, 3, 5, 10 and 20 games per bot, in worlds the model does
not assume as well as the one it does.

    python benchmarks/rating_calibration.py [--seasons 200] [--bots 8] [--samples 1000]
        [--method posterior|bootstrap] [--tables]

Each simulated season draws true strengths for its bots, then plays rounds of 4-player
Plackett–Luce games (every bot once a round, tables drawn at random) and rates the games after
each checkpoint exactly as the leaderboard does (:func:`posterior_intervals`). The worlds:

* ``prior`` — true log-strengths logistic with scale 1 (an Elo spread of about 315): the
  fixed prior the fit used to assume;
* ``narrow`` — true Elo ratings normal with a spread of 150 (bots closer than that);
* ``close`` — normal with a spread of 60 (nearly equal bots);
* ``wide`` — logistic with scale 2.5 (an Elo spread of about 790: well-spread bots);
* ``ladder`` — evenly spaced, 100 Elo apart;
* ``spread`` — every season its own pool width: true Elo ratings normal with a spread drawn
  log-uniformly from 40 to 800 (the worlds a board meets, averaged).

Coverage is the share of (bot, season) pairs whose true rating (centred like the fit, on a
mean of 1500) lies inside its interval (target: at least 0.93 from the second game on). The
calibration table bins every adjacent pair of the board by its P(stronger than next) and shows
how often the upper bot really was the stronger one; *reliability* is the largest gap between
a bin's mean P and its observed frequency, over bins of at least ``--least`` pairs (100),
from game 10 on in every world and from game 2 on in the ``spread`` world (target: within
0.05). Every figure comes with its standard error (± s.e.):
the benchmark's own noise — coverage from the spread of the seasons' coverages, a bin's
frequency binomial at its mean P — so a gap is judged against it (to judge 5 points the s.e.
must be well under 0.025: several hundred seasons). Each judged cell says ``met``, ``within
noise`` (short of its target by at most two standard errors) or ``MISSED``; the gap, a maximum
over bins, is raised by noise, so ``within noise`` is generous to it. The last line is
``calibration: worst coverage X, worst reliability gap Y`` over all worlds and checkpoints;
the line before it judges the targets: coverage from game 2, the gap from game 10 in every
world, and the gap from game 2 in the ``spread`` world.
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

from hegemon.leaderboard.ratings import (
    ELO_SCALE,
    MEAN_RATING,
    BootstrapResult,
    bootstrap_intervals,
    posterior_intervals,
)

METHODS: dict[str, Callable[..., BootstrapResult]] = {
    "posterior": posterior_intervals,
    "bootstrap": bootstrap_intervals,
}
"""``posterior``: what the boards show; ``bootstrap``: the Bayesian bootstrap they showed
before (kept to compare)."""

CHECKPOINTS = (2, 3, 5, 10, 20)
PLAYERS = 4
BINS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001)


def logistic(rng: random.Random, scale: float) -> float:
    u = rng.random()
    return scale * math.log(u / (1.0 - u))


def normal_elo(rng: random.Random, spread: float) -> float:
    return rng.gauss(0.0, spread / ELO_SCALE)


WORLDS: dict[str, Callable[[random.Random, int], list[float]]] = {
    "prior": lambda rng, n: [logistic(rng, 1.0) for _ in range(n)],
    "narrow": lambda rng, n: [normal_elo(rng, 150.0) for _ in range(n)],
    "close": lambda rng, n: [normal_elo(rng, 60.0) for _ in range(n)],
    "wide": lambda rng, n: [logistic(rng, 2.5) for _ in range(n)],
    "ladder": lambda rng, n: rng.sample([100.0 * i / ELO_SCALE for i in range(n)], n),
    "spread": lambda rng, n: [
        normal_elo(rng, s) for s in [40.0 * 20.0 ** rng.random()] for _ in range(n)
    ],
}
"""Each world draws the true log-strengths of a season's ``n`` bots."""


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
    world: Callable[[random.Random, int], list[float]],
    seasons: int,
    bots: int,
    samples: int,
    seed: int,
    method: Callable[..., BootstrapResult] = posterior_intervals,
) -> tuple[dict[int, list[float]], dict[int, list[tuple[float, bool]]]]:
    """Per checkpoint: the share of each season's bots whose interval covers its true
    rating, and (P, upper really stronger) of every adjacent pair of the board."""
    coverage: dict[int, list[float]] = {c: [] for c in CHECKPOINTS}
    pairs: dict[int, list[tuple[float, bool]]] = {c: [] for c in CHECKPOINTS}
    for season in range(seasons):
        rng = random.Random(seed * 1_000_003 + season)
        names = [f"b{i}" for i in range(bots)]
        theta = dict(zip(names, world(rng, bots), strict=True))
        mean = sum(theta.values()) / bots
        truth = {b: MEAN_RATING + ELO_SCALE * (t - mean) for b, t in theta.items()}
        games: list[list[list[str]]] = []
        for rounds in range(1, max(CHECKPOINTS) + 1):
            games += play_round(names, theta, rng)
            if rounds not in CHECKPOINTS:
                continue
            result = method(games, samples=samples, seed=season)
            hit = sum(lo <= truth[b] <= hi for b, (lo, hi) in result.intervals.items())
            coverage[rounds].append(hit / bots)
            for a, b in zip(result.order, result.order[1:], strict=False):
                p = result.p_stronger_than_next[a]
                if p is not None:  # None: the next bot is of a group that never met a's
                    pairs[rounds].append((p, truth[a] > truth[b]))
    return coverage, pairs


def bins(points: list[tuple[float, bool]]) -> list[tuple[float, float, int, float, float]]:
    """Per non-empty bin of P: its ends, pairs, mean P and how often the upper bot was
    really the stronger."""
    out = []
    for lo, hi in itertools.pairwise(BINS):
        inside = [(p, up) for p, up in points if lo <= p < hi]
        if inside:
            mean_p = sum(p for p, _ in inside) / len(inside)
            real = sum(up for _, up in inside) / len(inside)
            out.append((lo, hi, len(inside), mean_p, real))
    return out


def standard_error(mean_p: float, pairs: int) -> float:
    """The benchmark's own noise in a bin's observed frequency, were P exactly right: the
    binomial standard error at the bin's mean P (floored at 0.01: a bin of near-certain
    pairs still has some)."""
    return max(0.01, math.sqrt(mean_p * (1.0 - mean_p) / pairs))


def reliability_gap(points: list[tuple[float, bool]], least: int = 40) -> tuple[float, float]:
    """The largest |mean P − observed frequency| over bins of at least ``least`` pairs, and
    that bin's standard error (a gap within about two of them is the benchmark's noise)."""
    gaps = [(abs(m - r), standard_error(m, k)) for _, _, k, m, r in bins(points) if k >= least]
    return max(gaps, default=(0.0, 0.0))


def coverage_error(hits: list[float]) -> float:
    """The standard error of the coverage, from the seasons' own coverages (the bots of one
    season are rated together, so they are not independent)."""
    if len(hits) < 2:
        return 0.0
    mean = sum(hits) / len(hits)
    variance = sum((h - mean) ** 2 for h in hits) / (len(hits) - 1)
    return math.sqrt(variance / len(hits))


def verdict(margin: float, error: float) -> str:
    """A cell against its target: ``margin`` is how far it is on the right side (negative: a
    miss), ``error`` its standard error; a miss within two of them is the benchmark's noise."""
    if margin >= 0.0:
        return "met"
    return "within noise" if -margin <= 2.0 * error else "MISSED"


def calibration_table(points: list[tuple[float, bool]]) -> list[str]:
    lines = ["  P(>next)      pairs   mean P   really stronger   ± s.e."]
    for lo, hi, count, mean_p, real in bins(points):
        inside = count
        label = f"[{lo:.2f}, {min(hi, 1.0):.2f}{']' if hi > 1 else ')'}"
        error = standard_error(mean_p, count)
        lines.append(f"  {label:12} {inside:6d}   {mean_p:6.3f}   {real:6.3f}   {error:15.3f}")
    return lines


def world_table(pairs: dict[int, list[tuple[float, bool]]]) -> list[str]:
    """Stated against observed P(>next) per games-played checkpoint: one row a checkpoint,
    one cell a bin of P — ``stated→observed (pairs)``."""
    lines = []
    for games in CHECKPOINTS:
        cells = [f"{m:.2f}→{r:.2f} ({k})" for _, _, k, m, r in bins(pairs[games])]
        lines.append(f"  | {games:2d} | " + " · ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=200)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--method", choices=METHODS, default="posterior")
    parser.add_argument("--worlds", default=",".join(WORLDS), help="comma-separated")
    parser.add_argument("--tables", action="store_true", help="print the calibration tables")
    parser.add_argument(
        "--least", type=int, default=100, help="pairs a bin needs to count in the gap"
    )
    args = parser.parse_args()
    worst_cover, worst_gap = 1.0, 0.0
    late_gap, spread_gap = 0.0, 0.0
    for name in args.worlds.split(","):
        coverage, pairs = simulate(
            WORLDS[name], args.seasons, args.bots, args.samples, args.seed, METHODS[args.method]
        )
        print(f"world '{name}': {args.seasons} seasons of {args.bots} bots, {PLAYERS}-player games")
        for games in CHECKPOINTS:
            hits = coverage[games]
            covered = sum(hits) / len(hits)
            gap, noise = reliability_gap(pairs[games], args.least)
            error = coverage_error(hits)
            judged = games >= 10 or name == "spread"
            gap_verdict = f" ({verdict(0.05 - gap, noise)})" if judged else ""
            print(f"  after {games:2d} games: 95% intervals cover {covered:.3f} ± {error:.3f} "
                  f"({verdict(covered - 0.93, error)}) · P(>next) reliability gap {gap:.3f} ± "
                  f"{noise:.3f}{gap_verdict}")  # fmt: skip
            worst_cover = min(worst_cover, covered)
            worst_gap = max(worst_gap, gap)
            if games >= 10:
                late_gap = max(late_gap, gap)
            if name == "spread":
                spread_gap = max(spread_gap, gap)
        every = [p for games in CHECKPOINTS for p in pairs[games]]
        gap, noise = reliability_gap(every, args.least)
        print(f"  all checkpoints: reliability gap {gap:.3f} ± {noise:.3f}", flush=True)
        if args.tables:
            print("  | games | P(>next) stated→observed (pairs), per bin |")
            print("\n".join(world_table(pairs)))
            for games in (2, 5, 20):
                print(f" P(stronger than next) after {games} games:")
                print("\n".join(calibration_table(pairs[games])))
    print(f"targets: coverage {worst_cover:.3f} (>= 0.93), gap from game 10 {late_gap:.3f}, "
          f"spread world's gap from game 2 {spread_gap:.3f} (<= 0.05)")  # fmt: skip
    print(f"calibration: worst coverage {worst_cover:.3f}, worst reliability gap {worst_gap:.3f}")


if __name__ == "__main__":
    main()
