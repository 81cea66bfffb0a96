"""Benchmark of hegemon.leaderboard.ratings and the stored fit.

    python benchmarks/ratings.py [--board-bots 20] [--board-games 100000]

1. Synthetic 4-player games of 10 bots (Plackett–Luce, true ratings 1200–1800): the fit alone,
   and the fit with its intervals as the leaderboard computes them (posterior draws,
   ``boards.model.bootstrap_samples`` of them: 200 at these sizes; and the bootstrap the
   boards used before, as many resamples), at 10,000 and
   100,000 games (targets: under 1 s and under 5 s).
2. A board from a SQLite arena of ``--board-bots`` bots and ``--board-games`` games: a fresh
   fit from every game (what every read cost before the fits were stored), the cold build (the
   games counted, fitted, stored with their running counts), the refit after ``--added`` games
   were added (only those are read), a read of the stored fit, and ``hegemon leaderboard
   SEASON`` and ``hegemon season status SEASON`` end to end (new processes: start-up, the
   stored fit, the table; target: under 1 s), beside ``hegemon --help`` (the start-up alone).

3. Degenerate boards (identical orders, a bot that always comes last, ties everywhere): the
   slowest and the median of 200 resamples, in Newton steps (one resample of three bots in one
   order used to run all 100,000 steps: 221 s).

The last line is ``ratings: X s for 10000 games, Y s for 100000 games`` (fit + intervals).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from web import (  # type: ignore[import-not-found]  # noqa: E402  (benchmarks/web.py)
    add_games,
    build_arena,
)

from hegemon.leaderboard import boards  # noqa: E402
from hegemon.leaderboard.boards.model import bootstrap_samples  # noqa: E402
from hegemon.leaderboard.ratings import (  # noqa: E402
    bootstrap_intervals,
    fit_plackett_luce,
    posterior_intervals,
)
from hegemon.leaderboard.ratings.plackett_luce import _fit, _replicates  # noqa: E402
from hegemon.leaderboard.store import Store  # noqa: E402

BOTS = 10
PLAYERS = 4
SEED = 20240601


def synthetic_games(
    n_games: int, n_bots: int = BOTS, players: int = PLAYERS, seed: int = SEED
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


def fits() -> tuple[float, float]:
    totals = []
    for n in (10_000, 100_000):
        games, truth = synthetic_games(n)
        fit = fit_plackett_luce(games)
        mean = statistics.fmean(truth.values())
        worst = max(abs((fit[b] - 1500) - (truth[b] - mean)) for b in truth)
        samples = bootstrap_samples(n)
        t_fit = median_time(partial(fit_plackett_luce, games), 3)
        t_boot = median_time(partial(bootstrap_intervals, games, samples, seed=1), 3)
        t_all = median_time(partial(posterior_intervals, games, samples, seed=1), 3)
        print(f"{n:7d} games, {BOTS} bots: largest |fit - truth| {worst:4.1f} Elo · fit "
              f"{t_fit:.3f} s · fit + {samples} posterior draws (the board's) {t_all:.3f} s · "
              f"fit + {samples}-resample bootstrap {t_boot:.3f} s (medians of 3)")  # fmt: skip
        totals.append(t_all)
    return totals[0], totals[1]


def board(bots: int, games: int, added: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "arena.db"
        with Store(db) as store:
            build_arena(store, bots, games)
            season = store.season_by_name("big")
            assert season is not None
            start = time.perf_counter()
            boards.board(store, season, cached=False)
            fresh = time.perf_counter() - start
            start = time.perf_counter()
            boards.board(store, season)
            first = time.perf_counter() - start
            add_games(store, added, seed=SEED + 1)
            start = time.perf_counter()
            boards.board(store, season)
            grown = time.perf_counter() - start
        with Store(db) as store:  # a new reader: only the database is shared
            season = store.season_by_name("big")
            assert season is not None
            stored = median_time(lambda: boards.board(store, season), 5)
        env = {**os.environ, "HEGEMON_HOME": folder}
        exe = str(Path(sys.executable).with_name("hegemon"))
        run = partial(subprocess.run, env=env, check=True, capture_output=True)
        cli = median_time(partial(run, [exe, "leaderboard", "big", "--db", str(db)]), 3)
        status = median_time(partial(run, [exe, "season", "status", "big", "--db", str(db)]), 3)
        bare = median_time(partial(run, [exe, "--help"]), 3)
        print(f"board of {bots} bots, {games} games: fresh fit from every game {fresh:.2f} s · "
              f"cold build (counted, fitted, stored) {first:.2f} s · after {added} games were "
              f"added (only they are read, then a refit) {grown:.2f} s · stored fit read "
              f"{stored * 1000:.0f} ms")  # fmt: skip
        print(f"cli: `hegemon leaderboard big` {cli:.2f} s · `hegemon season status big` "
              f"{status:.2f} s end to end (new processes; `hegemon --help` alone {bare:.2f} s; "
              f"medians of 3; target under 1 s)")  # fmt: skip


def degenerate() -> None:
    always_last = [[["a"], ["b"], ["c"], ["z"]], [["b"], ["c"], ["a"], ["z"]]] * 20
    boards = {
        "3 bots, one order x15": [[["a"], ["b"], ["c"]]] * 15,
        "2 bots, 100 identical": [[["a"], ["b"]]] * 100,
        "one bot always last": always_last,
        "ties everywhere": [[["a", "b"], ["c", "d"]]] * 20,
    }
    for name, games in boards.items():
        fit = _fit(games, None, 1e-10, 100_000)
        assert fit is not None
        worst = median = 0.0
        for seed in range(5):
            start = time.perf_counter()
            _replicates(fit, 200, np.random.default_rng(seed), 1e-6, 100_000, True)
            took = time.perf_counter() - start
            steps = fit.problem.steps
            worst, median = max(worst, steps.max()), max(median, float(np.median(steps)))
        print(f"degenerate board ({name}): 200 resamples × 5 seeds, Newton steps per resample "
              f"median {median:.0f}, slowest {worst:.0f}; last 200 in {took:.3f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board-bots", type=int, default=20)
    parser.add_argument("--board-games", type=int, default=100_000)
    parser.add_argument("--added", type=int, default=1000, help="games added to the board")
    args = parser.parse_args()
    degenerate()
    ten, hundred = fits()
    board(args.board_bots, args.board_games, args.added)
    print(f"ratings: {ten:.3f} s for 10000 games, {hundred:.3f} s for 100000 games")


if __name__ == "__main__":
    main()
