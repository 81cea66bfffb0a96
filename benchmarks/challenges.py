"""Benchmark: a ladder's games per hour with and without a member's challenges waiting.

Run:  .venv/bin/python benchmarks/challenges.py [--seconds 120] [--rounds 2]

Copies of the same arena (a two-player ladder of the four sample bots and two members'
bots, its queue filled; tests/helpers/challenges.py), each served by one real runner process
(``hegemon arena --no-web --workers 1``) for ``--seconds``: the first with the ladder alone,
the second with ann's challenge of 100 games (against planner) waiting the whole time. Games
are counted from the database at the end of each window (the games finished between the first
and the last game the runner stored, so process start-up is left out), and turned into games an
hour. The two runs alternate for ``--rounds`` (a machine shared with other work slows both
alike), and the ladder's share of the games the runner played beside the challenge is printed
too: a count, which the machine's load does not change. The issue's target: the ladder keeps
at least 70 % of its rate while members test.

The last line is ``challenges: ladder keeps P % of its games/hour (A → B), Q % of the runner's
games beside a challenge of C/hour``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.helpers


def rates(home: Path, seconds: float, challenge: bool) -> tuple[float, float]:
    """(ladder, challenge) games an hour a runner plays in ``home`` in ``seconds``."""
    from sqlmodel import col, select

    from hegemon.leaderboard.accounts.users import get_user
    from hegemon.leaderboard.challenges import Ask, make_challenge
    from hegemon.leaderboard.ladder import fill_queue
    from hegemon.leaderboard.store import GameRow, MatchRow, Store
    from tests.helpers.challenges import LADDER, challenge_arena
    from tests.helpers.league import env_for, hegemon_argv, using_home

    challenge_arena(home)
    with using_home(home), Store() as store:
        ladder = store.season_by_name(LADDER)
        assert ladder is not None
        fill_queue(store, ladder)
        if challenge:
            ann = get_user(store, "ann")
            make_challenge(store, ann, Ask("annbot", games=100, vs=("planner",)))
        with (home / "runner.log").open("w") as log:
            runner = subprocess.Popen(
                hegemon_argv("arena", "--no-web", "--workers", "1"),
                cwd=ROOT, env=env_for(home), stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            time.sleep(seconds)  # a benchmark's window, not a wait for a condition
            runner.terminate()
            runner.wait(60)
        with store.session() as s:
            rows = s.exec(
                select(col(MatchRow.season_id), col(GameRow.finished_at)).join(
                    GameRow, col(GameRow.match_id) == col(MatchRow.id)
                )
            ).all()
    if len(rows) < 2:
        raise SystemExit(f"too few games in {seconds:g} s: give more --seconds")
    times = sorted(t for _, t in rows)
    hours = (times[-1] - times[0]).total_seconds() / 3600
    ladder_games = sum(1 for season, _ in rows if season == ladder.id)
    return ladder_games / hours, (len(rows) - ladder_games) / hours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="each run's window")
    parser.add_argument("--rounds", type=int, default=2, help="pairs of runs, alternated")
    args = parser.parse_args()
    alone: list[float] = []
    shared: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.pop("HEGEMON_DB", None)
        for n in range(args.rounds):
            alone.append(rates(Path(tmp) / f"alone{n}", args.seconds, challenge=False)[0])
            shared.append(rates(Path(tmp) / f"shared{n}", args.seconds, challenge=True))
    for n, (a, (s, c)) in enumerate(zip(alone, shared, strict=True)):
        print(
            f"round {n + 1}: ladder alone {a:5.0f}/hour · beside a challenge {s:5.0f}/hour "
            f"(challenge {c:.0f}/hour: the ladder had {100 * s / (s + c):.0f} % of the games)"
        )
    a = sum(alone) / len(alone)
    s = sum(x for x, _ in shared) / len(shared)
    c = sum(y for _, y in shared) / len(shared)
    print(
        f"challenges: ladder keeps {100 * s / a:.0f} % of its games/hour ({a:.0f} → {s:.0f}), "
        f"{100 * s / (s + c):.0f} % of the runner's games beside a challenge of {c:.0f}/hour"
    )


if __name__ == "__main__":
    main()
