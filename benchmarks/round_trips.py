"""How many round trips to PostgreSQL does a runner make per game (claim and finish)?

    python benchmarks/round_trips.py [--games 20] [--db URL]

A season of ``--games`` four-player matches on PostgreSQL (``--db``: a scratch database, the
season is left there; default: a private cluster started from Debian's ``postgresql`` package,
as the tests do). Each match is claimed and finished as a runner does
(:meth:`Store.claim_match`, :meth:`Store.finish_match`, with a record and four logs). Counted
per game (:mod:`tests.helpers.round_trips`): the statements, the BEGINs psycopg sends before a
transaction's first statement, the COMMITs and ROLLBACKs, and the pings of pooled connections.
Run it on an older checkout for the "before" figure.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
LOG = (b"thinking about Kamchatka: 7 armies, 3 dice\n" * 500)[: 20 * 1024]


@contextlib.contextmanager
def database(url: str | None) -> Iterator[str]:
    """``url``, or a fresh database on a private cluster (removed afterwards)."""
    if url:
        yield url
        return
    from tests.helpers.league import private_cluster

    with private_cluster() as server:
        yield server.create_database()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--db", help="a PostgreSQL URL (default: a private cluster)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from hegemon.leaderboard.store import GameOutcome, Store
    from tests.helpers.league import SeasonSpec, create_season, register_samples
    from tests.helpers.round_trips import count_round_trips
    from tests.helpers.web import play_record

    per_game: list[Counter[str]] = []
    with tempfile.TemporaryDirectory() as folder, database(args.db) as url:
        os.environ["HEGEMON_HOME"] = folder
        with Store(url) as store:
            bots = register_samples(store)
            spec = SeasonSpec(name=f"trips-{os.getpid()}", games=args.games)
            season = create_season(store, spec, bots)
            assert season.id is not None
            record = play_record(7, ["a", "b", "c", "d"], 12)
            outcome = GameOutcome(
                "", [1, 2, 3, 4], [], "turn limit", record=record, logs=(LOG,) * 4
            )
            trips = count_round_trips(store.engine)
            while True:
                before = Counter(trips)
                match = store.claim_match(season.id, "bench")
                if match is None:
                    break
                assert match.id is not None and store.finish_match(match.id, "bench", outcome)
                per_game.append(Counter(trips) - before)
    kinds = ("statements", "begins", "commits", "rollbacks", "pings")
    medians = {k: statistics.median(c[k] for c in per_game) for k in kinds}
    total = statistics.median(c.total() for c in per_game)
    print(
        f"round trips per game (median of {len(per_game)}): {total:g} = "
        + ", ".join(f"{medians[k]:g} {k}" for k in kinds)
    )


if __name__ == "__main__":
    main()
