"""What does a ladder's matchmaker cost per call, deep into a ladder's life?

    python benchmarks/matchmaker.py [--games 10000] [--entrants 200] [--calls 20] [--seed 3]
                                    [--hegemon PATH]

A ladder of ``--entrants`` bots (rows only, never run) on a real SQLite file in a temporary
folder, with ``--games`` finished four-player games stored at once (rounds of shuffled tables,
random finishing orders: ``tests/helpers/ladder.py``). Then ``--calls`` times: the queued
matches are claimed and finished with a random order, as a runner would, and
:func:`~hegemon.leaderboard.ladder.fill_queue` queues the next two — only that call is timed.
The first call is reported apart (``first``): it may build what later calls keep. Each call's
wall and CPU time (the process's: a shared machine inflates the wall time with others' work and
its disk's syncs). ``--hegemon
PATH`` measures another checkout's code (e.g. ``/work/main``, for a before/after: run the two
alternately, the machine being shared). The last line: ``fill_queue: median N ms a call (cpu
C) at G games and E entrants`` (target: at most 50 ms at 10,000 games and 200 entrants).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HELPERS = "tests/helpers/ladder.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="finished games stored first")
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--calls", type=int, default=20, help="timed calls after the first")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--hegemon", help="the checkout whose code to measure (default: this)")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(Path(args.hegemon).resolve() if args.hegemon else here))

    from hegemon.leaderboard import ladder
    from hegemon.leaderboard.ladder import fill_queue
    from hegemon.leaderboard.store import GameOutcome, Store

    # this checkout's test helpers either way, on the measured code
    spec = importlib.util.spec_from_file_location("ladder_helpers", here / HELPERS)
    assert spec is not None and spec.loader is not None
    helpers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helpers)
    fake_bots, make_ladder, past_games = helpers.fake_bots, helpers.make_ladder, helpers.past_games

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["HEGEMON_HOME"] = folder
        with Store(Path(folder) / "arena.db") as store:
            fake_bots(store, args.entrants)
            season = make_ladder(store)
            assert season.id is not None
            past_games(store, season, args.games, args.seed)
            times: list[tuple[float, float]] = []  # (wall, cpu) seconds
            for _ in range(args.calls + 1):
                while (match := store.claim_match(season.id, "bench")) is not None:
                    assert match.id is not None
                    places = list(range(1, len(match.seats) + 1))
                    rng.shuffle(places)
                    store.finish_match(match.id, "bench", GameOutcome("", places))
                start, start_cpu = time.perf_counter(), time.process_time()
                made = fill_queue(store, season)
                times.append((time.perf_counter() - start, time.process_time() - start_cpu))
                assert made > 0, "the matchmaker queued nothing"
    code = Path(ladder.__file__).resolve().parents[2]
    print(f"code: {code}; {args.entrants} entrants, {args.games} games stored")
    (first, first_cpu), rest = times[0], times[1:]
    wall, cpu = [w * 1000 for w, _ in rest], [c * 1000 for _, c in rest]
    print(f"first call {first * 1000:.0f} ms (cpu {first_cpu * 1000:.0f})")
    print(
        f"then wall min {min(wall):.1f}, median {statistics.median(wall):.1f}, max "
        f"{max(wall):.1f} ms; cpu median {statistics.median(cpu):.1f} ms"
    )
    print(
        f"fill_queue: median {statistics.median(wall):.1f} ms a call (cpu "
        f"{statistics.median(cpu):.1f}) at {args.games} games and {args.entrants} entrants"
    )


if __name__ == "__main__":
    main()
