"""A worker process of ``hegemon season run --workers N`` (see
:mod:`.pool`): one :class:`SeasonRunner` of the season, its
database from ``$HEGEMON_DB``, talking to its parent in JSON lines on stdout — its worker id
first, then its log lines, then its final counts (or its error). SIGINT/SIGTERM stop it
cleanly: games in flight are abandoned and their claims given back.

    python -m hegemon.leaderboard.seasons.child '{"season": ID, "concurrency": N, ...}'
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

import trio

from hegemon.referee.parent import on_parent_gone

from ..store import Store, StoreError
from ..store.database import RUNNER_POOL
from .runner import SeasonRunner
from .signals import run_until_signalled


def say(**message: Any) -> None:
    print(json.dumps(message), flush=True)


def die_with_parent(parent: int) -> None:
    """SIGTERM this worker when its parent is gone, so a killed ``season run`` leaves no worker
    playing on: the worker then stops as if interrupted and gives its claims back."""
    on_parent_gone(parent, lambda: os.kill(os.getpid(), signal.SIGTERM))


def main(argv: list[str]) -> int:
    spec = json.loads(argv[0])
    if spec.get("parent"):
        die_with_parent(int(spec["parent"]))
    try:
        store = Store(create=False, pool_size=RUNNER_POOL)
    except StoreError as exc:
        say(error=str(exc))
        return 1
    try:
        season = store.get_season(int(spec["season"]))
        if season is None:
            say(error=f"no season with id {spec['season']}")
            return 1
        runner = SeasonRunner(
            store,
            season,
            concurrency=int(spec["concurrency"]),
            worker=spec.get("worker"),
            stale_after=float(spec["stale_after"]),
            max_attempts=int(spec["max_attempts"]),
            log=lambda line: say(log=line),
        )
        say(worker=runner.worker)

        error = trio.run(run_until_signalled, runner)
        s = runner.state
        say(
            final={
                "played": s.played,
                "arena_faults": s.arena_faults,
                "lost": s.lost,
                "released": s.released,
                "interrupted": s.interrupted,
            }
        )
        if error is not None:
            say(error=error)
            return 1
        return 0
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
