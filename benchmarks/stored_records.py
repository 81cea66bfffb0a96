"""What does storing a game's record and logs in the database cost a runner, per game?

    python benchmarks/stored_records.py [--games 40] [--turn-limit 40] [--db URL]

A season of ``--games`` four-player matches on a real database (a SQLite file in a temporary
folder, or ``--db`` a PostgreSQL URL, a scratch database: the season is left there). Each
match is claimed and finished as a runner does (:meth:`Store.claim_match`,
:meth:`Store.finish_match`) with a real record (played in-process by the engine's simple
policies, ``--turn-limit`` rounds at most) and a 20 KiB log per seat; every other match
without the record and logs (as before records lived in the database), for a before/after in
one run. Counted per game: the statements sent (round trips: every ``execute``, and each
commit; the pool's pings are not counted) for the claim and for the finish, the bytes of the
record and logs and what they take compressed, and the process's CPU time of the finish.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import zlib
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
LOG = (b"thinking about Kamchatka: 7 armies, 3 dice\n" * 500)[: 20 * 1024]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--turn-limit", type=int, default=40)
    parser.add_argument("--db", help="a PostgreSQL URL (default: a SQLite file)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from sqlalchemy import event

    from hegemon.leaderboard.store import GameOutcome, Store
    from hegemon.leaderboard.store.records import record_row
    from tests.helpers.league import SeasonSpec, create_season, register_samples
    from tests.helpers.web import play_record

    with tempfile.TemporaryDirectory() as folder:
        os.environ["HEGEMON_HOME"] = folder
        with Store(args.db or Path(folder) / "arena.db") as store:
            counted = [0]

            def count(*_: object) -> None:
                counted[0] += 1

            event.listen(store.engine, "before_cursor_execute", count)
            event.listen(store.engine, "commit", count)
            bots = register_samples(store)
            name = f"bench-{os.getpid()}"
            season = create_season(store, SeasonSpec(name=name, games=args.games), bots)
            assert season.id is not None
            rows: dict[bool, list[tuple[int, int, float]]] = {True: [], False: []}
            sizes: list[tuple[int, int]] = []
            while True:
                before = counted[0]
                match = store.claim_match(season.id, "bench")
                if match is None:
                    break
                claim = counted[0] - before
                assert match.id is not None
                text = play_record(match.seed % 2**32, ["a", "b", "c", "d"], args.turn_limit)
                places = [1, 2, 3, 4]
                stored = match.number % 2 == 0
                outcome = GameOutcome("", places, [], "turn limit")
                if stored:
                    outcome = replace(outcome, record=text, logs=(LOG,) * 4)
                    packed = len(record_row(0, text).data) + 4 * len(zlib.compress(LOG))
                    sizes.append((len(text.encode()) + 4 * len(LOG), packed))
                before, cpu = counted[0], time.process_time()
                assert store.finish_match(match.id, "bench", outcome)
                rows[stored].append((claim, counted[0] - before, time.process_time() - cpu))
    for stored, label in ((False, "without record/logs"), (True, "with record and logs")):
        claims, finishes, cpus = zip(*rows[stored], strict=True)
        print(
            f"{label:22} claim {statistics.median(claims):.0f} statements, finish "
            f"{statistics.median(finishes):.0f} statements, finish cpu "
            f"{statistics.median(cpus) * 1000:.1f} ms (median of {len(cpus)})"
        )
    raw, packed = (sum(x) / len(sizes) for x in zip(*sizes, strict=True))
    print(f"per game stored: {raw / 1024:.0f} KiB of record and logs, ~{packed / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
