"""A match held by a runner that died on another machine is played: its claim is no write
anyone announces and nobody on this machine can see its process to give it back, so an idle
runner here looks for a lapsed lease when no match waits. (Before, a season whose last match
was held by a dead machine's runner waited for ever: every runner looked only for waiting
matches, and none was left.)"""

from __future__ import annotations

import subprocess
from datetime import timedelta
from pathlib import Path

from sqlmodel import col, update

from hegemon.leaderboard.seasons.limits import DEFAULT_STALE_AFTER
from hegemon.leaderboard.store import FINISHED, MatchRow, Store, utcnow
from tests.helpers.league import (  # noqa: F401 (home, store: fixtures)
    ROOT,
    SeasonSpec,
    create_season,
    env_for,
    games_per_match,
    hegemon_argv,
    home,
    register_samples,
    saved_id,
    store,
    wait_for,
)

ELSEWHERE = "another-machine:4242:beef"
"""A runner id of another machine: never judged dead here, so only its lease can free it."""


def test_a_lapsed_claim_of_another_machine_is_played_by_an_idle_runner(
    home: Path, store: Store, tmp_path: Path
):
    bots = register_samples(store, ["random", "aggressive", "continental"])
    season = create_season(store, SeasonSpec("orphan", games=1, players=3, turn_limit=3), bots)
    season_id = saved_id(season)
    held = store.claim_match(season_id, ELSEWHERE)
    assert held is not None  # the season's only match, now held: nothing waits
    with store.session() as s:  # its runner's last word was longer ago than any lease
        s.exec(
            update(MatchRow)
            .where(col(MatchRow.id) == held.id)
            .values(claimed_at=utcnow() - timedelta(seconds=DEFAULT_STALE_AFTER + 60))
        )
        s.commit()
    log_path = tmp_path / "runner.log"
    with log_path.open("w") as log:
        runner = subprocess.Popen(
            hegemon_argv("arena", "--no-web", "--workers", "1"),
            cwd=ROOT, env=env_for(home), stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:

            def finished() -> bool:
                row = store.get_season(season_id)
                return row is not None and row.status == FINISHED

            wait_for("the orphaned match played", finished, timeout=300)
        finally:
            runner.terminate()
            runner.wait(60)
    assert games_per_match(store, season_id) == {1: 1}, log_path.read_text()
