"""What a season's rating chart would cost in the board's own rating (Plackett–Luce) rather
than incremental Elo (issue 35 item 8).

    python benchmarks/rating_history.py [--games 1000 10000] [--points 300]

The chart keeps at most about ``--points`` points a bot, so a Plackett–Luce chart means one
point fit (no intervals) of every game up to each of ``--points`` checkpoints. For synthetic
4-player games of 10 bots (``benchmarks/ratings.py``'s) it prints: the whole incremental Elo
history (what the chart draws today), one fit of every game, and the sum of the checkpoint
fits, each a median of 3 (the checkpoint sum: one run).
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ratings import median_time, synthetic_games  # type: ignore[import-not-found]  # noqa: E402

from hegemon.leaderboard.ratings import fit_plackett_luce  # noqa: E402
from hegemon.leaderboard.ratings.elo import incremental_elo  # noqa: E402


def checkpoint_fits(games: list[list[list[str]]], points: int) -> float:
    """Seconds to fit every prefix of ``games`` ending at one of ``points`` checkpoints."""
    ends = sorted({max(1, len(games) * (i + 1) // points) for i in range(points)})
    start = time.perf_counter()
    for end in ends:
        fit_plackett_luce(games[:end])
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--points", type=int, default=300)
    args = parser.parse_args()
    for n in args.games:
        games, _ = synthetic_games(n)
        elo = median_time(partial(incremental_elo, games), 3)
        one = median_time(partial(fit_plackett_luce, games), 3)
        chart = checkpoint_fits(games, args.points)
        print(
            f"{n:6d} games: incremental Elo history {elo:.3f} s · one Plackett–Luce fit "
            f"{one:.3f} s · {args.points} checkpoint fits {chart:.2f} s "
            f"({chart / max(elo, 1e-9):.0f}× the Elo history)"
        )


if __name__ == "__main__":
    main()
